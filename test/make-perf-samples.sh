#!/bin/sh
# Makes testdata/perf/: recordings by Linux perf (Debian linux-perf, as
# root) of test/perf/work.c, of R and of node, printed by `perf script`.
# Each is small: a short run at a low frequency. Rerun to remake them all
# (the recordings differ from run to run; the tests judge any recording).
#   sh test/make-perf-samples.sh
set -eu
cd "$(dirname "$0")/.."
out=testdata/perf
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cc -O1 -fno-omit-frame-pointer -g -o "$work/work" test/perf/work.c
# Paths of this machine (the temporary build, the checkout) as /prof/.
anonymous() { sed -e "s|$work/|/prof/|g" -e "s|$(pwd)/|/prof/|g"; }
record() { # NAME PERF_RECORD_OPTIONS... -- COMMAND...: perf script's default text
	name=$1; shift
	perf record -q -o "$work/$name.data" "$@" > /dev/null 2>&1
	perf script -i "$work/$name.data" 2> /dev/null | anonymous > "$out/$name.perf"
}
# Frame pointers, perf's default clock event.
record c-cpu-clock -e cpu-clock -g -F 499 -- "$work/work"
# Two events in one recording: two pairs of sample types.
record c-two-events -e cpu-clock -e page-faults -g -F 499 -- "$work/work"
# No call graph: one frame on each header line, no blank lines.
record c-no-callgraph -e cpu-clock -F 499 -- "$work/work"
# DWARF unwinding: inlined frames printed as "(inlined)".
record c-dwarf -e cpu-clock --call-graph dwarf,4096 -F 99 -- "$work/work"
# pid/tid and the CPU in the header (--sample-cpu; perf script -F +pid).
perf record -q -o "$work/fields.data" -e cpu-clock -g -F 499 --sample-cpu -- "$work/work" > /dev/null 2>&1
perf script -i "$work/fields.data" -F +pid 2> /dev/null | anonymous > "$out/c-pid-cpu.perf"
# R: a one-letter command ("R").
record r-loop -e cpu-clock -g -F 199 -- R --slave --no-restore -e 'x <- 0; for (i in 1:2e6) x <- x + i'
# node with --perf-basic-prof: JIT frames from /tmp/perf-PID.map. The flag
# also makes V8 log code events to isolate-*-v8.log in the current
# directory: the log goes to the temporary directory instead.
record node-fib -e cpu-clock -g -F 99 -- \
	node --perf-basic-prof --no-logfile-per-isolate --logfile="$work/v8.log" test/perf/fib.js
rm -f /tmp/perf-*.map
ls -l "$out"
