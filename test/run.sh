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
#   - speedscope loads prof's output: test/speedscope.sh;
#   - what the fuzzers once crashed on: test/fuzz.sh;
#   - limits and faults: test/limits.sh.
cd "$(dirname "$0")/.." || exit 2
BUILD=${1:-build}
PROF=${PROF:-$BUILD/prof}
UNIT=${UNIT:-$BUILD/unit}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
passed=0
failed=0
skipped=0

pass() { passed=$((passed + 1)); }
fail() { failed=$((failed + 1)); echo "FAIL $*"; }
check() { # NAME COMMAND...: passes when the command succeeds
	name=$1; shift
	if "$@"; then pass; else fail "$name"; fi
}
heavy() { # NAME COMMAND...: a check too slow for valgrind; skipped where LIGHT is set
	if [ -n "${LIGHT:-}" ]; then skipped=$((skipped + 1)); else check "$@"; fi
}

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

roundtrip() { # FILE [FROM]: prof -t rprof gives back the same bytes
	"$PROF" -q ${2:+-f "$2"} -t rprof "$1" > "$TMP/rt" && cmp -s "$1" "$TMP/rt"
}

sniffed_roundtrip() { # reads stdin, so the format can only be sniffed
	"$PROF" -q -t rprof < "$1" > "$TMP/rt" && cmp -s "$1" "$TMP/rt"
}

agrees_with_summaryrprof() {
	$UNIT by-name "$1" > "$TMP/by-name" 2> /dev/null && cmp -s "$TMP/by-name" "$1.summaryRprof.tsv"
}

refused() { # FILE FORMAT: exit 1, the expected message, no output
	"$PROF" -f "$2" -t "$2" "$1" > "$TMP/out" 2> "$TMP/err"
	[ $? -eq 1 ] && cmp -s "$TMP/err" "$1.err" && [ ! -s "$TMP/out" ]
}

run_unit
for f in testdata/rprof/*.out testdata/rprof/*/*.out; do
	check "roundtrip $f" roundtrip "$f" rprof
	check "sniffed roundtrip $f" sniffed_roundtrip "$f"
	[ -f "$f.summaryRprof.tsv" ] && check "summaryRprof $f" agrees_with_summaryrprof "$f"
done
for dir in testdata/invalid/*/; do
	format=$(basename "$dir")
	for f in "$dir"*; do
		case $f in *.err | *.why) continue ;; esac
		check "refuses $f" refused "$f" "$format"
	done
done
. test/cli.sh
. test/pprof.sh
. test/lispworks.sh
. test/views.sh
. test/speedscope.sh
. test/fuzz.sh
. test/limits.sh

if [ "$skipped" -gt 0 ]; then
	echo "$passed passed, $failed failed, $skipped skipped"
else
	echo "$passed passed, $failed failed"
fi
[ "$failed" -eq 0 ]
