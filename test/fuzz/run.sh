#!/bin/sh
# Runs every fuzz target of `make fuzz` for SECONDS each (default 60), one
# after another, from its committed corpus (test/fuzz/corpus/TARGET; new
# units go to build-fuzz/corpus-TARGET) with a fixed seed, so that a run
# repeats. A crash is saved as build-fuzz/crash-TARGET-* and fails the run;
# keep it in test/fuzz/crashers/ once fixed. Prints a line per target.
seconds=${1:-60}
cd "$(dirname "$0")/../.." || exit 2
status=0
# The targets are what `make fuzz` built (the Makefile's FUZZ_TARGETS).
for binary in build-fuzz/fuzz_*; do
	case $binary in *.*) continue ;; esac # the compiler's .d files
	target=${binary#build-fuzz/fuzz_}
	mkdir -p "build-fuzz/corpus-$target"
	"$binary" -seed=1 -max_total_time="$seconds" -max_len=65536 -rss_limit_mb=2048 -print_final_stats=1 \
		-timeout=20 -close_fd_mask=2 -artifact_prefix="build-fuzz/crash-$target-" \
		"build-fuzz/corpus-$target" "test/fuzz/corpus/$target" > "build-fuzz/$target.log" 2>&1
	rc=$?
	runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "build-fuzz/$target.log")
	echo "fuzz_$target: ${runs:-?} runs in ${seconds} s, exit $rc"
	[ $rc -eq 0 ] || { status=1; tail -n 30 "build-fuzz/$target.log"; }
done
exit $status
