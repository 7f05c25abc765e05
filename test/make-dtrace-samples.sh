#!/bin/sh
# Makes testdata/dtrace/'s bpftrace maps: Debian's bpftrace (0.17, as
# root) profiling test/dtrace/spin.c, a program of known user and kernel
# call paths, attached to it by pid (-p) so that its user frames are
# named while it still runs. SystemTap does not run here (no kernel build
# tree for this kernel), nor DTrace (not on Linux): their files are made
# by test/dtrace.sh from the shapes docs/formats/dtrace.md describes.
# Rerun to remake them (recordings differ; the tests judge any recording).
#   sh test/make-dtrace-samples.sh
set -eu
cd "$(dirname "$0")/.."
out=testdata/dtrace
mkdir -p "$out"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cc -O1 -fno-omit-frame-pointer -g -o "$work/spin" test/dtrace/spin.c
trace() { # NAME PROBE MAPS: bpftrace's output for 1 s of spin, MAPS filled at each PROBE ("$pid": spin's)
	"$work/spin" &
	pid=$!
	sleep 0.2
	bpftrace -p "$pid" -e "$(echo "$2" | sed "s/\$pid/$pid/") { $3 } interval:s:1 { exit(); }" 2> /dev/null |
		sed "s|$work/|/prof/|g" > "$out/$1.bpftrace"
	kill "$pid"
	wait "$pid" || :
}
# Kernel stacks alone, of the whole machine (spin is mostly in user mode;
# kprobes and tracepoints are not open to bpftrace here).
trace kstack 'profile:hz:499' '@[kstack] = count();'
# Kernel and user stacks and the command: "@[, " where the kernel stack is empty.
trace kstack-ustack-comm 'profile:hz:499 /pid == $pid/' '@[kstack, ustack, comm] = count();'
# perf's frame format, and a named map beside the unnamed one.
trace ustack-perf-named 'profile:hz:499 /pid == $pid/' '@[ustack(perf)] = count(); @by_stack[ustack] = count();'
