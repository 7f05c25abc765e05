// Writes testdata/pprof/patterns/: small pprof profiles, made with Go's own
// profile package, in the shapes the profilers in the wild write and prof
// must read as Go does (testdata/README.md lists them). Run it through
// test/make-pprof-patterns.sh, which also makes the goldens.
package main

import (
	"os"
	"path/filepath"

	"github.com/google/pprof/profile"
)

func fn(id uint64, name, file string, start int64) *profile.Function {
	return &profile.Function{ID: id, Name: name, SystemName: name, Filename: file, StartLine: start}
}

func loc(id uint64, f *profile.Function, line int64) *profile.Location {
	return &profile.Location{ID: id, Line: []profile.Line{{Function: f, Line: line}}}
}

// Julia's PProf.jl writes start_line -1 for functions it knows no line of.
func julia() *profile.Profile {
	a, b := fn(1, "jl_apply_generic", "", -1), fn(2, "fib(::Int64)", "REPL[1]", 1)
	la, lb := loc(1, a, 0), loc(2, b, 3)
	return &profile.Profile{
		SampleType: []*profile.ValueType{{Type: "events", Unit: "count"}},
		Sample: []*profile.Sample{
			{Location: []*profile.Location{lb, la}, Value: []int64{7}},
			{Location: []*profile.Location{la}, Value: []int64{2}},
		},
		Location: []*profile.Location{la, lb}, Function: []*profile.Function{a, b},
	}
}

// A delta heap profile: what was freed since the base is negative (Go's
// goroutine deltas, parca's alloc_space_delta); the count type has none.
func delta() *profile.Profile {
	a, b, c := fn(1, "main.main", "main.go", 10), fn(2, "main.grow", "main.go", 20), fn(3, "main.shrink", "main.go", 30)
	la, lb, lc := loc(1, a, 12), loc(2, b, 22), loc(3, c, 33)
	return &profile.Profile{
		SampleType: []*profile.ValueType{{Type: "alloc_objects", Unit: "count"}, {Type: "alloc_space", Unit: "bytes"}},
		DefaultSampleType: "alloc_space",
		Sample: []*profile.Sample{
			{Location: []*profile.Location{lb, la}, Value: []int64{3, 4096}},
			{Location: []*profile.Location{lc, la}, Value: []int64{1, -2048}},
		},
		PeriodType: &profile.ValueType{Type: "space", Unit: "bytes"}, Period: 524288,
		Location: []*profile.Location{la, lb, lc}, Function: []*profile.Function{a, b, c},
	}
}

// Go's heap profile: counts and bytes, no samples/count type, and a period in bytes.
func heap() *profile.Profile {
	a, b := fn(1, "main.main", "main.go", 10), fn(2, "main.alloc", "main.go", 20)
	la, lb := loc(1, a, 11), loc(2, b, 21)
	return &profile.Profile{
		SampleType: []*profile.ValueType{{Type: "alloc_objects", Unit: "count"}, {Type: "alloc_space", Unit: "bytes"},
			{Type: "inuse_objects", Unit: "count"}, {Type: "inuse_space", Unit: "bytes"}},
		Sample: []*profile.Sample{
			{Location: []*profile.Location{lb, la}, Value: []int64{5, 5120, 2, 2048}},
			{Location: []*profile.Location{la}, Value: []int64{1, 64, 0, 0}},
		},
		PeriodType: &profile.ValueType{Type: "space", Unit: "bytes"}, Period: 524288,
		Location: []*profile.Location{la, lb}, Function: []*profile.Function{a, b},
	}
}

// An empty mutex profile: the default type (delay) is zero everywhere.
func idleMutex() *profile.Profile {
	a := fn(1, "sync.(*Mutex).Unlock", "mutex.go", 200)
	la := loc(1, a, 223)
	return &profile.Profile{
		SampleType: []*profile.ValueType{{Type: "contentions", Unit: "count"}, {Type: "delay", Unit: "nanoseconds"}},
		Sample:     []*profile.Sample{{Location: []*profile.Location{la}, Value: []int64{3, 0}}},
		PeriodType: &profile.ValueType{Type: "contentions", Unit: "count"}, Period: 1,
		Location: []*profile.Location{la}, Function: []*profile.Function{a},
	}
}

// Node's wall-time profile: a period of one microsecond, values in microseconds.
func wall() *profile.Profile {
	a, b := fn(1, "(program)", "", 0), fn(2, "work", "file:///app.js", 1)
	la, lb := loc(1, a, 0), loc(2, b, 4)
	return &profile.Profile{
		SampleType: []*profile.ValueType{{Type: "samples", Unit: "count"}, {Type: "wall", Unit: "microseconds"}},
		DefaultSampleType: "wall",
		Sample: []*profile.Sample{
			{Location: []*profile.Location{lb}, Value: []int64{3, 30000}},
			{Location: []*profile.Location{la}, Value: []int64{2, 12500}},
		},
		PeriodType: &profile.ValueType{Type: "wall", Unit: "microseconds"}, Period: 1,
		Location: []*profile.Location{la, lb}, Function: []*profile.Function{a, b},
	}
}

// Unsymbolized frames: addresses in mappings, no lines (parca, jemalloc).
func addresses() *profile.Profile {
	m := &profile.Mapping{ID: 1, Start: 0x400000, Limit: 0x500000, File: "/usr/bin/app"}
	f := fn(1, "main", "main.c", 1)
	l1 := &profile.Location{ID: 1, Mapping: m, Address: 0x401234}
	l2 := &profile.Location{ID: 2, Mapping: m, Address: 0x405678}
	l3 := &profile.Location{ID: 3, Mapping: m, Address: 0x400100, Line: []profile.Line{{Function: f, Line: 3}}}
	return &profile.Profile{
		SampleType: []*profile.ValueType{{Type: "cpu", Unit: "nanoseconds"}},
		Sample: []*profile.Sample{
			{Location: []*profile.Location{l1, l3}, Value: []int64{10000000}},
			{Location: []*profile.Location{l2, l1, l3}, Value: []int64{20000000}},
		},
		PeriodType: &profile.ValueType{Type: "cpu", Unit: "nanoseconds"}, Period: 10000000,
		Mapping: []*profile.Mapping{m}, Location: []*profile.Location{l1, l2, l3}, Function: []*profile.Function{f},
	}
}

// A name holding a NUL byte (pyroscope's invalid_utf8 test profile), which
// no folded line can hold.
func nulName() *profile.Profile {
	a, b := fn(1, "main", "main.c", 1), fn(2, "read\x00buf", "io.c", 7)
	la, lb := loc(1, a, 3), loc(2, b, 9)
	return &profile.Profile{
		SampleType: []*profile.ValueType{{Type: "samples", Unit: "count"}},
		Sample:     []*profile.Sample{{Location: []*profile.Location{lb, la}, Value: []int64{5}}},
		Location:   []*profile.Location{la, lb}, Function: []*profile.Function{a, b},
	}
}

// One function at several locations (lines and addresses, as Go's heap
// profiles have them): stacks that differ by location, not by name; and a
// sample whose default type is 0 while another type has data.
func sameNames() *profile.Profile {
	m, w, i := fn(1, "main.main", "main.go", 10), fn(2, "main.work", "main.go", 20), fn(3, "main.idle", "main.go", 30)
	lm, lw1, lw2, li := loc(1, m, 12), loc(2, w, 22), loc(3, w, 25), loc(4, i, 31)
	lm2 := loc(5, m, 14)
	return &profile.Profile{
		SampleType: []*profile.ValueType{{Type: "alloc_objects", Unit: "count"}, {Type: "inuse_objects", Unit: "count"}},
		Sample: []*profile.Sample{
			{Location: []*profile.Location{lw1, lm}, Value: []int64{4, 3}},
			{Location: []*profile.Location{li, lm}, Value: []int64{2, 0}},
			{Location: []*profile.Location{lw2, lm}, Value: []int64{5, 1}},
			{Location: []*profile.Location{lw1, lm2}, Value: []int64{7, 2}},
		},
		Location: []*profile.Location{lm, lw1, lw2, li, lm2}, Function: []*profile.Function{m, w, i},
	}
}

func main() {
	out := os.Args[1]
	for name, p := range map[string]*profile.Profile{
		"julia-start-line.pb.gz": julia(), "delta-negative.pb.gz": delta(), "go-heap.pb.gz": heap(),
		"idle-mutex.pb.gz": idleMutex(), "node-wall.pb.gz": wall(), "addresses.pb.gz": addresses(),
		"nul-name.pb.gz": nulName(), "same-names.pb.gz": sameNames(),
	} {
		f, err := os.Create(filepath.Join(out, name))
		if err == nil {
			err = p.Write(f)
		}
		if err == nil {
			err = f.Close()
		}
		if err != nil {
			panic(err)
		}
	}
}
