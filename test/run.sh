#!/bin/sh
# Runs the tests of prof, every area or the areas named, and prints
# "N passed, N failed" last.
#   sh test/run.sh [AREA]...       (make check runs them all)
#   BUILD=DIR sh test/run.sh ...   tests DIR/prof and DIR/unit (default build)
# Each area is test/AREA.sh, sourced after test/lib.sh (the checks the
# areas share) and Go's pprof reader are ready; it installs what else it
# needs and leans on no other area, so it runs alone. All cases come from
# testdata/ (see testdata/README.md for where each came from):
#   unit: unit tests of the model and readers (test/unit);
#   rprof: R's Rprof files round-trip byte for byte and count as R's
#     summaryRprof counts, also in the forms older R versions wrote;
#   refusals: every file in testdata/invalid/FORMAT/ is refused with exit 1
#     and exactly the message in its .err file, and writes nothing;
#   cli: the command line;
#   output: what -o writes: a file replaced, through its links, or a
#     device, a FIFO or a descriptor written in place;
#   shapes: pprof as other profilers shape it;
#   pprof: pprof, judged by Go's readers;
#   lispworks: LispWorks trees;
#   views: folded stacks, summaries, tables, --check, merging;
#   merge: merges of many inputs, in any order and grouping, judged by Go;
#   folded: folded stacks as the tools in the wild write them;
#   callgrind: callgrind in and out, judged by callgrind_annotate;
#   pstats: Python's pstats in and out, judged by Python's pstats;
#   speedscope: speedscope loads prof's output;
#   perf: perf script;
#   legacy: legacy pprof, judged by Go's reader;
#   json: the JSON readers (.cpuprofile, speedscope);
#   heapprofile: V8 sampling heap profiles, judged by speedscope's importer;
#   stackprof: Ruby stackprof dumps, Marshal and JSON, judged by the speedscope app;
#   jstack: Java thread dumps, judged by stackcollapse-jstack.pl's rules;
#   macos: Instruments' deep copies, judged by the speedscope app, and
#     macOS sample's reports, by their own inclusive counts;
#   trace: Chrome's trace events in and out, judged by the speedscope app;
#   jfr: Java Flight Recorder, judged by the JDK's jfr tool;
#   firefox: the Firefox Profiler's files, judged by speedscope and a reference reading;
#   flame, sprof: flame graphs, charts and sprof's views, also in Chromium
#     (flamegraph.pl's own frames: test/flamegraph-peers.sh, for CI);
#   html: the HTML report, in Chromium, its numbers against the summary's
#     and the folded stacks';
#   floors: no file includes from a floor above its own;
#   filters: the filters, judged by go tool pprof and R;
#   fuzz: what the fuzzers once crashed on;
#   conformance: what every format in the registry has and does;
#   limits: limits and faults.
cd "$(dirname "$0")/.." || exit 2
all="unit rprof refusals cli output shapes pprof lispworks views merge folded callgrind pstats speedscope perf dtrace legacy json trace heapprofile stackprof jstack ghc macos jfr firefox flame sprof html floors filters fuzz conformance limits"
for area in "$@"; do
	case " $all " in
	*" $area "*) ;;
	*) echo "test/run.sh: no area '$area' (a build directory is given as BUILD=DIR); areas: $all" >&2
	   exit 2 ;;
	esac
done
BUILD=${BUILD:-build}
PROF=${PROF:-$BUILD/prof}
UNIT=${UNIT:-$BUILD/unit}
TMP=$(mktemp -d)
# The browser test/lib.sh starts for the run (start_browser) ends with it.
trap '[ -z "${browser_server:-}" ] || kill "$browser_server" 2> /dev/null; rm -rf "$TMP"' EXIT
. test/lib.sh

# Go's pprof reader, which most areas judge by, built once for all.
# The areas this run sources (areas may reset "$@" for their own use).
areas=${*:-$all}
build_dump
# Under valgrind, a run of prof it has seen in this test run runs without
# it (test/valgrind.sh), except in the areas whose checks time prof's runs
# (signals, redraws, slow readers), where each run is valgrind's.
mkdir "$TMP/valgrind-seen"
for area in $areas; do
	area_started=$(date +%s)
	case $area in
	cli | output | limits) VALGRIND_SEEN= ;;
	*) VALGRIND_SEEN=$TMP/valgrind-seen ;;
	esac
	export VALGRIND_SEEN
	. "test/$area.sh"
	# AREA_TIMES=FILE (CI): each area's seconds, so that a slow one shows.
	[ -z "${AREA_TIMES:-}" ] || echo "$area $(($(date +%s) - area_started))" >> "$AREA_TIMES"
done

if [ "$skipped" -gt 0 ]; then
	echo "$passed passed, $failed failed, $skipped skipped"
else
	echo "$passed passed, $failed failed"
fi
[ "$failed" -eq 0 ]
