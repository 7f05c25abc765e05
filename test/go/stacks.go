//go:build ignore

// stacks prints a pprof profile's samples as Go's profile package reads
// them, so that two profiles can be compared sample for sample whatever
// their ids and order: one line per distinct stack and label set, the
// values summed over its samples, then the frames from the leaf out
// (each line of a location, inlined ones included, as function:line; an
// address for a location with no line), then the labels; lines sorted.
//
// Usage: GO111MODULE=off GOPATH=/usr/share/gocode go run stacks.go FILE
package main

import (
	"fmt"
	"os"
	"sort"
	"strings"

	"github.com/google/pprof/profile"
)

func frames(s *profile.Sample) string {
	var names []string
	for _, loc := range s.Location {
		if len(loc.Line) == 0 {
			names = append(names, fmt.Sprintf("%#x", loc.Address))
		}
		for _, ln := range loc.Line {
			name := ""
			if ln.Function != nil {
				name = ln.Function.Name
			}
			names = append(names, fmt.Sprintf("%s:%d", name, ln.Line))
		}
	}
	return strings.Join(names, ";")
}

func labels(s *profile.Sample) string {
	var all []string
	for k, vs := range s.Label {
		for _, v := range vs {
			all = append(all, k+"="+v)
		}
	}
	for k, vs := range s.NumLabel {
		for _, v := range vs {
			all = append(all, fmt.Sprintf("%s=%d", k, v))
		}
	}
	sort.Strings(all)
	return strings.Join(all, ",")
}

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: stacks FILE")
		os.Exit(2)
	}
	f, err := os.Open(os.Args[1])
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	p, err := profile.Parse(f)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	sums := map[string][]int64{}
	for _, s := range p.Sample {
		key := frames(s) + "\t" + labels(s)
		if sums[key] == nil {
			sums[key] = make([]int64, len(s.Value))
		}
		for i, v := range s.Value {
			sums[key][i] += v
		}
	}
	var lines []string
	for key, values := range sums {
		lines = append(lines, fmt.Sprint(values)+"\t"+key)
	}
	sort.Strings(lines)
	for _, l := range lines {
		fmt.Println(l)
	}
}
