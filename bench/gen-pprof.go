//go:build ignore

// gen-pprof writes a large CPU profile the way Go programs do (Go's own
// profile package), for `make bench`: SAMPLES samples over 2 sample types,
// 10 k locations, 3 k functions, stacks 5-61 deep drawn from a seeded
// generator, so every run writes the same file.
//
// Usage: GO111MODULE=off GOPATH=/usr/share/gocode go run gen-pprof.go OUT SAMPLES
package main

import (
	"fmt"
	"math/rand"
	"os"
	"strconv"

	"github.com/google/pprof/profile"
)

func main() {
	n, err := strconv.Atoi(os.Args[2])
	if err != nil {
		panic(err)
	}
	r := rand.New(rand.NewSource(1))
	p := &profile.Profile{
		SampleType: []*profile.ValueType{{Type: "samples", Unit: "count"}, {Type: "cpu", Unit: "nanoseconds"}},
		PeriodType: &profile.ValueType{Type: "cpu", Unit: "nanoseconds"},
		Period:     10000000,
		Mapping:    []*profile.Mapping{{ID: 1, Start: 0x400000, Limit: 0x800000, File: "/usr/bin/app", HasFunctions: true}},
	}
	for i := 0; i < 3000; i++ {
		p.Function = append(p.Function, &profile.Function{ID: uint64(i + 1),
			Name: fmt.Sprintf("app/pkg%d.(*T%d).Method%d", i%50, i%300, i), SystemName: fmt.Sprintf("pkg%d.m%d", i%50, i),
			Filename: fmt.Sprintf("app/pkg%d/file%d.go", i%50, i%200)})
	}
	for i := 0; i < 10000; i++ {
		p.Location = append(p.Location, &profile.Location{ID: uint64(i + 1), Mapping: p.Mapping[0],
			Address: uint64(0x400000 + 16*i), Line: []profile.Line{{Function: p.Function[r.Intn(3000)], Line: int64(1 + r.Intn(500))}}})
	}
	// A few hundred call paths reused with variations, as real programs have.
	paths := make([][]*profile.Location, 500)
	for i := range paths {
		depth := 4 + r.Intn(57)
		for d := 0; d < depth; d++ {
			paths[i] = append(paths[i], p.Location[r.Intn(10000)])
		}
	}
	for i := 0; i < n; i++ {
		base := paths[r.Intn(len(paths))]
		stack := append([]*profile.Location{p.Location[r.Intn(10000)]}, base...)
		ticks := int64(1 + r.Intn(3))
		p.Sample = append(p.Sample, &profile.Sample{Location: stack, Value: []int64{ticks, ticks * 10000000}})
	}
	f, err := os.Create(os.Args[1])
	if err != nil {
		panic(err)
	}
	if err := p.Write(f); err != nil {
		panic(err)
	}
	f.Close()
}
