#!/bin/sh
# Runs fuzz targets of `make fuzz` for SECONDS each (default 60), one after
# another: every target, or the TARGETs named. Each starts from its
# committed corpus (test/fuzz/corpus/TARGET) and from the real programs'
# files the project keeps for its format (testdata/TARGET and
# testdata/invalid/TARGET; all of testdata/ for `any`), read as seeds up to
# -max_len; new units go to build-fuzz/corpus-TARGET. A fixed seed makes a
# run repeat. A crash is saved as build-fuzz/crash-TARGET-* and fails the
# run; keep it in test/fuzz/crashers/ once fixed. A unit that runs 60 s
# (FUZZ_TIMEOUT: wall-clock seconds) is a crash too: a hang, where the
# slowest seed (a 1 MB Firefox profile written in every format, html the
# most, twice for the leak check) takes some 20 s under ASan on a loaded
# machine.
# Prints a line per target.
seconds=${1:-60}
[ $# -gt 0 ] && shift
cd "$(dirname "$0")/../.." || exit 2
status=0
# The targets are what `make fuzz` built (the Makefile's FUZZ_TARGETS).
targets=$*
[ -n "$targets" ] || for binary in build-fuzz/fuzz_*; do
	case $binary in *.*) continue ;; esac # the compiler's .d files
	targets="$targets ${binary#build-fuzz/fuzz_}"
done
for target in $targets; do
	mkdir -p "build-fuzz/corpus-$target"
	if [ "$target" = any ]; then
		seeds=testdata
	else
		seeds=$(ls -d "testdata/$target" "testdata/invalid/$target" 2>/dev/null)
	fi
	# shellcheck disable=SC2086 # $seeds: directory names without spaces
	"build-fuzz/fuzz_$target" -seed=1 -max_total_time="$seconds" -max_len=262144 -rss_limit_mb=2048 \
		-print_final_stats=1 -timeout="${FUZZ_TIMEOUT:-60}" -close_fd_mask=2 -artifact_prefix="build-fuzz/crash-$target-" \
		"build-fuzz/corpus-$target" "test/fuzz/corpus/$target" $seeds > "build-fuzz/$target.log" 2>&1
	rc=$?
	runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "build-fuzz/$target.log")
	echo "fuzz_$target: ${runs:-?} runs in ${seconds} s, exit $rc"
	[ $rc -eq 0 ] || { status=1; tail -n 30 "build-fuzz/$target.log"; }
done
exit $status
