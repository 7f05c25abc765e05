//go:build ignore

// gen-fleet writes N small CPU profiles the way a fleet of Go services
// writes them, one every 10 s per process (Go's own profile package), for
// `make bench`'s merge rows: one program (600 functions, 2000 code
// addresses, some inlined, in a binary and libc), 40 call paths under one
// server loop, 400 hot leaves; each profile (about 5 KB) draws 15 to 35
// samples at 100 Hz over paths and leaves, some
// with a handler label, and numbers its own locations and functions in the
// order it meets them, as runtime/pprof does; a seeded generator, so every
// run writes the same files.
//
// Usage: GO111MODULE=off GOPATH=/usr/share/gocode go run gen-fleet.go DIR N
package main

import (
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"strconv"

	"github.com/google/pprof/profile"
)

type pc struct {
	addr  uint64
	libc  bool
	lines []int // function indexes, innermost first; line = 10 + function
}

func main() {
	n, err := strconv.Atoi(os.Args[2])
	if err != nil {
		panic(err)
	}
	r := rand.New(rand.NewSource(1))
	names := make([]string, 600)
	for i := range names {
		names[i] = fmt.Sprintf("example.com/svc/pkg%d.(*Server%d).handle%d", i%40, i%90, i)
	}
	pcs := make([]pc, 2000)
	for i := range pcs {
		p := pc{addr: 0x401000 + uint64(i)*0x40, lines: []int{r.Intn(580)}}
		if i%7 == 0 {
			p.lines = append(p.lines, r.Intn(580))
		}
		if i >= 1950 {
			p = pc{addr: 0x7f0000001000 + uint64(i)*0x20, libc: true, lines: []int{580 + r.Intn(20)}}
		}
		pcs[i] = p
	}
	paths := make([][]int, 40)
	for i := range paths {
		for d := 3 + r.Intn(6); d > 0; d-- {
			paths[i] = append(paths[i], r.Intn(1950))
		}
		paths[i] = append(paths[i], 1, 2, 3, 4, 5, 6)
	}
	handlers := []string{"/api/get", "/api/put", "/api/list", "/healthz", "/metrics"}
	for f := 0; f < n; f++ {
		write(filepath.Join(os.Args[1], fmt.Sprintf("cpu-%05d.pb.gz", f)), f, r, names, pcs, paths, handlers)
	}
}

func write(path string, f int, r *rand.Rand, names []string, pcs []pc, paths [][]int, handlers []string) {
	bin := &profile.Mapping{ID: 1, Start: 0x400000, Limit: 0x4a0000, File: "/usr/local/bin/svc", HasFunctions: true}
	libc := &profile.Mapping{ID: 2, Start: 0x7f0000000000, Limit: 0x7f0000200000, File: "/lib/x86_64-linux-gnu/libc.so.6"}
	p := &profile.Profile{
		SampleType:    []*profile.ValueType{{Type: "samples", Unit: "count"}, {Type: "cpu", Unit: "nanoseconds"}},
		PeriodType:    &profile.ValueType{Type: "cpu", Unit: "nanoseconds"},
		Period:        10000000,
		TimeNanos:     1764000000000000000 + int64(f)*10000000000,
		DurationNanos: 10000000000 + int64(r.Intn(5000000)),
		Mapping:       []*profile.Mapping{bin, libc},
	}
	locs := map[int]*profile.Location{}
	funcs := map[int]*profile.Function{}
	location := func(i int) *profile.Location {
		if l, ok := locs[i]; ok {
			return l
		}
		l := &profile.Location{ID: uint64(len(p.Location) + 1), Mapping: bin, Address: pcs[i].addr}
		if pcs[i].libc {
			l.Mapping = libc
		}
		for _, fn := range pcs[i].lines {
			fu, ok := funcs[fn]
			if !ok {
				fu = &profile.Function{ID: uint64(len(p.Function) + 1), Name: names[fn], SystemName: names[fn],
					Filename: fmt.Sprintf("/src/svc/pkg%d/file%d.go", fn%40, fn%120), StartLine: int64(fn)}
				funcs[fn] = fu
				p.Function = append(p.Function, fu)
			}
			l.Line = append(l.Line, profile.Line{Function: fu, Line: int64(10 + fn + len(l.Line))})
		}
		locs[i] = l
		p.Location = append(p.Location, l)
		return l
	}
	seen := map[string]*profile.Sample{}
	for s := 15 + r.Intn(21); s > 0; s-- {
		leaf := 1950 + r.Intn(50)
		if r.Intn(3) > 0 {
			leaf = 1000 + r.Intn(400)
		}
		path := paths[r.Intn(len(paths))]
		var handler string
		if r.Intn(10) < 3 {
			handler = handlers[r.Intn(len(handlers))]
		}
		key := fmt.Sprint(leaf, path, handler)
		if old, ok := seen[key]; ok {
			old.Value[0]++
			old.Value[1] += p.Period
			continue
		}
		sample := &profile.Sample{Location: []*profile.Location{location(leaf)}, Value: []int64{1, p.Period}}
		for _, i := range path {
			sample.Location = append(sample.Location, location(i))
		}
		if handler != "" {
			sample.Label = map[string][]string{"handler": {handler}}
		}
		seen[key] = sample
		p.Sample = append(p.Sample, sample)
	}
	out, err := os.Create(path)
	if err != nil {
		panic(err)
	}
	if err := p.Write(out); err != nil {
		panic(err)
	}
	out.Close()
}
