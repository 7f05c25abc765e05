//go:build ignore

// canon prints a pprof profile as Go's profile package reads it, in an
// order of its own, so that two profiles can be compared whatever order
// their samples, locations, functions, mappings and strings are in: the
// header (sample types, period, times, comments, frames to drop), then
// each sample, one line each, with its values, every frame (its mapping
// by file and build id and the address from the mapping's start, each
// line with its function's names, file and start line) and its labels;
// lines sorted. Nothing is summed: two equal samples are two lines.
//
// Usage: GO111MODULE=off GOPATH=/usr/share/gocode go run canon.go FILE
package main

import (
	"fmt"
	"os"
	"sort"
	"strings"

	"github.com/google/pprof/profile"
)

func frame(l *profile.Location) string {
	where := fmt.Sprintf("%#x", l.Address)
	if m := l.Mapping; m != nil {
		where = fmt.Sprintf("%s[%s]+%#x", m.File, m.BuildID, l.Address-m.Start)
	}
	var lines []string
	for _, ln := range l.Line {
		f := ln.Function
		lines = append(lines, fmt.Sprintf("%s/%s/%s/%d:%d", f.Name, f.SystemName, f.Filename, f.StartLine, ln.Line))
	}
	if l.IsFolded {
		where += " folded"
	}
	return where + " " + strings.Join(lines, "<")
}

func labels(s *profile.Sample) string {
	var all []string
	for k, vs := range s.Label {
		all = append(all, fmt.Sprintf("%s=%q", k, vs))
	}
	for k, vs := range s.NumLabel {
		all = append(all, fmt.Sprintf("%s=%v%v", k, vs, s.NumUnit[k]))
	}
	sort.Strings(all)
	return strings.Join(all, " ")
}

func main() {
	data, err := os.ReadFile(os.Args[1])
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	p, err := profile.ParseData(data)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	var out []string
	for i, t := range p.SampleType {
		out = append(out, fmt.Sprintf("0 type %d: %s %s", i, t.Type, t.Unit))
	}
	if p.PeriodType != nil {
		out = append(out, fmt.Sprintf("0 period type: %s %s", p.PeriodType.Type, p.PeriodType.Unit))
	}
	out = append(out, fmt.Sprintf("0 period: %d", p.Period), fmt.Sprintf("0 time: %d", p.TimeNanos),
		fmt.Sprintf("0 duration: %d", p.DurationNanos), "0 default type: "+p.DefaultSampleType,
		"0 drop: "+p.DropFrames, "0 keep: "+p.KeepFrames)
	for _, c := range p.Comments {
		out = append(out, "0 comment: "+c)
	}
	for _, s := range p.Sample {
		var frames []string
		for _, l := range s.Location {
			frames = append(frames, frame(l))
		}
		out = append(out, fmt.Sprintf("1 sample %v | %s | %s", s.Value, strings.Join(frames, " ; "), labels(s)))
	}
	sort.Strings(out)
	fmt.Println(strings.Join(out, "\n"))
}
