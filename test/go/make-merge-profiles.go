// Writes testdata/merge/: small CPU profiles, made with Go's own profile
// package, that differ in what a merge must combine: periods, start times
// and durations, comments, drop_frames, string and function order, labels
// (strings and numbers), the same binary loaded at other addresses (with
// its build id) and unmapped, inlined lines, samples repeated within a file
// and all-zero ones; and one of another period type, which no merge takes.
// Run it through test/make-merge-samples.sh.
package main

import (
	"os"
	"path/filepath"

	"github.com/google/pprof/profile"
)

type program struct {
	bin, libc *profile.Mapping
	funcs     []*profile.Function
	locs      []*profile.Location
	start     uint64
}

// The same program loaded at `start`: its locations' addresses move with it.
// reversed lists functions and locations in the other order, so that
// ids and the string table come out differently.
func load(start uint64, reversed bool, unmapped bool) *program {
	p := &program{start: start}
	p.bin = &profile.Mapping{ID: 1, Start: start, Limit: start + 0x1f800, File: "/usr/bin/svc", BuildID: "b1d0", HasFunctions: true}
	p.libc = &profile.Mapping{ID: 2, Start: 0x7f0000000000, Limit: 0x7f0000100000, File: "/lib/libc.so.6"}
	names := []string{"main.main", "main.serve", "main.handle", "main.parse", "main.hash", "runtime.mallocgc", "memmove"}
	for i, n := range names {
		p.funcs = append(p.funcs, &profile.Function{Name: n, SystemName: n, Filename: "/src/svc/main.go", StartLine: int64(10 * i)})
	}
	for i := range names {
		l := &profile.Location{Mapping: p.bin, Address: start + 0x100*uint64(i+1),
			Line: []profile.Line{{Function: p.funcs[i], Line: int64(10*i + 3)}}}
		if i == 4 { // hash inlined into handle
			l.Line = append(l.Line, profile.Line{Function: p.funcs[2], Line: 25})
		}
		if i == 6 {
			l.Mapping, l.Address = p.libc, 0x7f0000000400
		}
		if unmapped && i < 6 {
			l.Mapping = nil
		}
		p.locs = append(p.locs, l)
	}
	if reversed {
		for i, j := 0, len(p.funcs)-1; i < j; i, j = i+1, j-1 {
			p.funcs[i], p.funcs[j] = p.funcs[j], p.funcs[i]
			p.locs[i], p.locs[j] = p.locs[j], p.locs[i]
		}
	}
	for i, f := range p.funcs {
		f.ID = uint64(i + 1)
	}
	for i, l := range p.locs {
		l.ID = uint64(i + 1)
	}
	return p
}

// A stack by function index, innermost first.
func (p *program) stack(idx ...int) []*profile.Location {
	var s []*profile.Location
	for _, i := range idx {
		for _, l := range p.locs {
			if l.Line[0].Function.Name == p.name(i) {
				s = append(s, l)
			}
		}
	}
	return s
}

func (p *program) name(i int) string {
	return []string{"main.main", "main.serve", "main.handle", "main.parse", "main.hash", "runtime.mallocgc", "memmove"}[i]
}

func profileOf(p *program, period, time, duration int64) *profile.Profile {
	maps := []*profile.Mapping{p.bin, p.libc}
	if p.locs[0].Mapping == nil {
		maps = []*profile.Mapping{p.libc}
		p.libc.ID = 1
	}
	return &profile.Profile{
		SampleType:    []*profile.ValueType{{Type: "samples", Unit: "count"}, {Type: "cpu", Unit: "nanoseconds"}},
		PeriodType:    &profile.ValueType{Type: "cpu", Unit: "nanoseconds"},
		Period:        period,
		TimeNanos:     time,
		DurationNanos: duration,
		Mapping:       maps,
		Location:      p.locs,
		Function:      p.funcs,
	}
}

func sample(p *program, n, period int64, labels map[string][]string, num map[string][]int64, idx ...int) *profile.Sample {
	s := &profile.Sample{Location: p.stack(idx...), Value: []int64{n, n * period}, Label: labels, NumLabel: num}
	if num != nil {
		s.NumUnit = map[string][]string{}
		for k, v := range num {
			for range v {
				s.NumUnit[k] = append(s.NumUnit[k], "bytes")
			}
		}
	}
	return s
}

func main() {
	dir := os.Args[1]
	get := map[string][]string{"handler": {"/get"}}
	put := map[string][]string{"handler": {"/put"}, "region": {"eu"}}
	size := map[string][]int64{"size": {512}}

	a := load(0x400000, false, false)
	pa := profileOf(a, 10000000, 1764000000000000000, 10000000000)
	pa.Comments = []string{"host a"}
	pa.DropFrames = "^vendor\\.drop$"
	pa.Sample = []*profile.Sample{
		sample(a, 3, 10000000, nil, nil, 4, 2, 1, 0),
		sample(a, 2, 10000000, get, nil, 3, 2, 1, 0),
		sample(a, 1, 10000000, nil, nil, 4, 2, 1, 0), // the first's stack again
		sample(a, 4, 10000000, nil, size, 5, 3, 2, 1, 0),
	}

	// The same binary at another address (ASLR), listed the other way round.
	b := load(0x555555554000, true, false)
	pb := profileOf(b, 20000000, 1764000010000000000, 10000000000)
	pb.Comments = []string{"host b", "host a"}
	pb.Sample = []*profile.Sample{
		sample(b, 5, 20000000, nil, nil, 4, 2, 1, 0),
		sample(b, 1, 20000000, put, nil, 6, 5, 2, 1, 0),
		{Location: b.stack(3, 1, 0), Value: []int64{0, 0}}, // all zero: pprof drops it
		sample(b, 2, 20000000, get, nil, 3, 2, 1, 0),
	}

	// Earlier, no comment, its binary's frames unmapped.
	c := load(0x400000, false, true)
	pc := profileOf(c, 10000000, 1763999990000000000, 5000000000)
	pc.DropFrames = "other"
	pc.Sample = []*profile.Sample{
		sample(c, 7, 10000000, nil, nil, 4, 2, 1, 0),
		sample(c, 1, 10000000, nil, size, 5, 3, 2, 1, 0),
		sample(c, 2, 10000000, put, nil, 6, 5, 2, 1, 0),
	}

	// The same sample types over another period type: pprof refuses to merge it.
	d := load(0x400000, false, false)
	pd := profileOf(d, 10000000, 1764000000000000000, 10000000000)
	pd.PeriodType = &profile.ValueType{Type: "wall", Unit: "nanoseconds"}
	pd.Sample = []*profile.Sample{sample(d, 1, 10000000, nil, nil, 4, 2, 1, 0)}

	for name, p := range map[string]*profile.Profile{"a.pb.gz": pa, "b.pb.gz": pb, "c.pb.gz": pc, "wall.pb.gz": pd} {
		if err := p.CheckValid(); err != nil {
			panic(err)
		}
		f, err := os.Create(filepath.Join(dir, name))
		if err != nil {
			panic(err)
		}
		if err := p.Write(f); err != nil {
			panic(err)
		}
		f.Close()
	}
}
