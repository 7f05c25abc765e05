#!/bin/sh
# Runs every test of prof and prints "N passed, N failed" last.
#   sh test/run.sh [BUILD_DIR]      (make check runs it)
# Cases, all from testdata/ (see testdata/README.md for where each came from):
#   - unit tests of the model and readers (test/unit);
#   - every R-written Rprof file round-trips byte for byte, named and sniffed;
#   - per-function tick counts equal R's summaryRprof (*.summaryRprof.tsv);
#   - every file in testdata/invalid/FORMAT/ is refused with exit 1 and
#     exactly the message in its .err file, and writes nothing;
#   - the command line: test/cli.sh;
#   - pprof, judged by Go's readers: test/pprof.sh;
#   - LispWorks trees: test/lispworks.sh;
#   - folded stacks, summaries, tables, --check, merging: test/views.sh;
#   - folded stacks as the tools in the wild write them: test/folded.sh;
#   - callgrind in and out, judged by callgrind_annotate: test/callgrind.sh;
#   - speedscope loads prof's output: test/speedscope.sh;
#   - perf script: test/perf.sh;
#   - legacy pprof, judged by Go's reader: test/legacy.sh;
#   - the JSON readers (.cpuprofile, speedscope): test/json.sh;
#   - the filters, judged by go tool pprof and R: test/filters.sh;
#   - flame graphs and charts, also in Chromium: test/flame.sh
#     (flamegraph.pl's own frames: test/flamegraph-peers.sh, for CI);
#   - what the fuzzers once crashed on: test/fuzz.sh;
#   - limits and faults: test/limits.sh.
# The checks that several of these share are in test/lib.sh.
cd "$(dirname "$0")/.." || exit 2
BUILD=${1:-build}
PROF=${PROF:-$BUILD/prof}
UNIT=${UNIT:-$BUILD/unit}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
. test/lib.sh

run_unit() {
	$UNIT > "$TMP/unit.out" 2> "$TMP/unit.err"
	status=$?
	ok=$(grep -c '^ok ' "$TMP/unit.out")
	passed=$((passed + ok))
	grep '^FAIL ' "$TMP/unit.out" | while read -r line; do echo "$line"; done
	bad=$(grep -c '^FAIL ' "$TMP/unit.out")
	failed=$((failed + bad))
	if [ "$bad" -gt 0 ] || [ "$status" -ne 0 ] || [ "$ok" -eq 0 ]; then
		[ "$bad" -gt 0 ] || fail "unit (exit $status)"
		grep 'check failed' "$TMP/unit.err"
	fi
}

refused() { # FILE FORMAT: exit 1, the expected message, no output
	# A format prof only reads is written as folded stacks instead.
	case " $writable " in *" $2 "*) writer=$2 ;; *) writer=folded ;; esac
	"$PROF" -f "$2" -t "$writer" "$1" > "$TMP/out" 2> "$TMP/err"
	[ $? -eq 1 ] && cmp -s "$TMP/err" "$1.err" && [ ! -s "$TMP/out" ]
}

run_unit
for f in testdata/rprof/*.out; do
	check "roundtrip $f" roundtrip "$f" rprof
	check "sniffed roundtrip $f" sniffed_roundtrip "$f"
	[ -f "$f.summaryRprof.tsv" ] && check "summaryRprof $f" agrees_with_summaryrprof "$f" "$f.summaryRprof.tsv"
done
writable=$("$PROF" --list-formats | awk '$2 == "rw" { print $1 }' | tr '\n' ' ')
for dir in testdata/invalid/*/; do
	format=$(basename "$dir")
	for f in "$dir"*; do
		case $f in *.err | *.why) continue ;; esac
		check "refuses $f" refused "$f" "$format"
	done
done
build_dump
. test/cli.sh
. test/rprof.sh
. test/shapes.sh
. test/pprof.sh
. test/lispworks.sh
. test/views.sh
. test/folded.sh
. test/callgrind.sh
. test/speedscope.sh
. test/perf.sh
. test/legacy.sh
. test/json.sh
. test/flame.sh
. test/sprof.sh
. test/floors.sh
. test/filters.sh
. test/fuzz.sh
. test/limits.sh

if [ "$skipped" -gt 0 ]; then
	echo "$passed passed, $failed failed, $skipped skipped"
else
	echo "$passed passed, $failed failed"
fi
[ "$failed" -eq 0 ]
