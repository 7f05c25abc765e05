#!/bin/sh
# CI's cross-check: prof against the files that stay in the shared corpus
# (other projects' data, and the corpus's own), with the checks that apply
# to each; prints "N passed, N failed, N known" last.
#   sh test/cross-check.sh SHARED_DIR      (CI: ../shared)
# Needs what make check needs, and R (r-base-core): summaryRprof is run here.
#   - testdata/rprof/ (R 4.2.2) and r-prof-profile/ (the R profile
#     package's samples): Rprof files round-trip byte for byte, directly and
#     through pprof; per-function counts equal R's summaryRprof (the
#     model's, the summary's, the folded stacks', go tool pprof -top's of
#     the pprof); Go reads the pprof; rprof -> tree -> rprof keeps the
#     stacks; speedscope shows summaryRprof's counts for r-prof-profile's
#     1.out. The profile package's conversions beside them (*.profile-pkg.*,
#     its proto/) are another program's output: read or refused cleanly,
#     and a pprof file among them goes through Go as below.
#   - testdata/pprof/ and google-pprof/ (pprof's own test data): prof's pprof
#     output reads in Go's profile package and go tool pprof -raw as the
#     .parsed.txt and .raw.txt goldens beside each file; the same bytes when
#     sniffed from stdin; pprof -> tree adds up to Go's total of each type,
#     and picks Go's default type; the summary of a symbolized file equals
#     go tool pprof -top for every type; every file reads or is refused
#     cleanly in every output format (go.nomappings.crash once crashed a
#     fuzzer). (The .node.json beside them, the npm pprof-format
#     decoder's view of the input, judges no output of prof's.)
#   - testdata/lispworks/: trees round-trip named and sniffed; their stacks,
#     read and written as folded, are the corpus's .folded; folded
#     round-trips; every tree in invalid/ is refused naming the line its
#     .why names.
#   - testdata/wild/: what its README lists, for every file: Rprof round
#     trips, no function made of a line reference, no warning unless the
#     file was cut, summaryRprof's counts; for pprof, go tool pprof -raw of
#     prof's output as of the file (a file Go refuses, prof refuses too); for
#     folded, the summed stacks (differential counts, fractions, zeros) of a
#     reference reading that skips '#' comments and blank lines, a warning
#     and --check's exit 1 for malformed lines, UTF-16 read or refused
#     saying so; unsupported/ files read or refused cleanly; the
#     .cpuprofile and speedscope files among them by the JSON readers'
#     checks (every speedscope folder of the corpus: the reference reading
#     indexes frames as the app does, and where it finds none prof
#     refuses), the perf script ones (every perf-script folder) sniffed
#     and read by Go as pprof, or refused at their first binary line, the
#     legacy pprof ones (and google/pprof's own, from Debian's package)
#     read as Go reads them;
#     JFR files (wild/unsupported/jfr/: async-profiler's and pyroscope's)
#     sniffed, and their stacks, lines, threads and counts of each event
#     type as the JDK's jfr tool reads them where one is installed;
#     callgrind files (every callgrind folder) through prof's callgrind
#     output keep callgrind_annotate's self and inclusive costs
#     (test/callgrind.sh's rule), and a file cut short (summary: or
#     totals: more than 1% above its cost lines) is warned so.
#   - peers/speedscope/trace-event/: Chrome's trace events read as the
#     speedscope app imports them; the app's export of those of several
#     threads (a speedscope profile per thread) read as one type, thread
#     by thread as each profile, and charted a lane per thread.
#   - peers/flamegraph-perf/: FlameGraph's perf script inputs fold as
#     stackcollapse-perf.pl folds them, where that script is not wrong.
#   - peers/flamegraph-collapse/: FlameGraph's DTrace example is sniffed
#     as dtrace and folds as stackcollapse.pl folded it.
#   - peers/speedscope/ and wild/unsupported/chrome-heapprofile/: V8 heap
#     profiles read as speedscope's importer reads them, and as the app
#     shows its own import.
#   - peers/speedscope/Instruments/ and wild/unsupported/instruments/:
#     Instruments' deep copies read as the speedscope app imports them;
#     wild/unsupported/macos-sample/: sample's report, by its own inclusive
#     counts, threads and interval.
#   - peers/speedscope/stackprof/ and wild/unsupported/stackprof/: Ruby
#     stackprof's JSON, stacks and weights as the speedscope app imports
#     them.
#   - peers/speedscope/Firefox/: the reference reading's stacks and counts
#     (test/firefox/folded.py), and the speedscope app shows each file as
#     it shows prof's speedscope JSON of it.
#   - peers/speedscope/haskell/ and wild/unsupported/ghc-prof/: GHC
#     profiles, each held to its own columns (test/ghc/judge.py), and
#     the -pj ones to the speedscope app's import.
#   - the registry: every reader --list-formats lists had some file of
#     its own format checked.
# Checks that fail today, each for a reason on record, are listed in
# test/cross-check-known-failures.txt ("FILE CHECK  # why", FILE under
# SHARED_DIR/testdata): they count as known. A listed check that passes, or
# one that no longer runs, is a failure: the list can only shrink.
cd "$(dirname "$0")/.." || exit 2
if [ ! -d "${1:-}/testdata/wild" ]; then
	echo "usage: sh test/cross-check.sh SHARED_DIR"
	exit 2
fi
CORPUS=$(cd "$1/testdata" && pwd)
BUILD=${BUILD:-build}
PROF=${PROF:-$BUILD/prof}
UNIT=${UNIT:-$BUILD/unit}
TMP=$(mktemp -d)
# The browser test/lib.sh starts for the run (start_browser) ends with it.
trap '[ -z "${browser_server:-}" ] || kill "$browser_server" 2> /dev/null; rm -rf "$TMP"' EXIT
. test/lib.sh
known=0
KNOWN=test/cross-check-known-failures.txt
sed 's/#.*//; s/[ \t]*$//; /^$/d' "$KNOWN" | LC_ALL=C sort > "$TMP/known"
: > "$TMP/ran"

cross() { # FILE CHECK COMMAND...: a check of CORPUS/FILE, held against the known list
	key="${1#"$CORPUS"/} $2"
	shift 2
	echo "$key" >> "$TMP/ran"
	if ! grep -qxF -- "$key" "$TMP/known"; then
		check "$key" "$@"
	elif "$@"; then
		fail "$key: passes now; fixed: remove it from $KNOWN"
	else
		known=$((known + 1))
	fi
}

build_dump
install_browser_tools

# R's summaryRprof of every Rprof file, in one run of R: $TMP/r/N.tsv.
mkdir "$TMP/r"
find "$CORPUS/rprof" "$CORPUS/r-prof-profile" "$CORPUS/wild/rprof" -type f \
	! -name '*.profile-pkg.*' ! -name '*.md' ! -name '*.tsv' ! -name '*.pb.gz' | LC_ALL=C sort > "$TMP/rfiles"
awk -v dir="$TMP/r" '{ print $0; print dir "/" NR ".tsv" }' "$TMP/rfiles" > "$TMP/rargs"
tr '\n' '\0' < "$TMP/rargs" | LC_ALL=C.UTF-8 xargs -0 Rscript test/r/summaryrprof.R 2> "$TMP/r.log" ||
	fail "Rscript test/r/summaryrprof.R (needs r-base-core): $(tail -n 3 "$TMP/r.log")"
summaryrprof_of() { echo "$TMP/r/$(grep -nxF -- "$1" "$TMP/rfiles" | cut -d: -f1).tsv"; }

# Rprof: what R wrote.
pprof_roundtrip() { "$PROF" -q -t pprof "$1" > "$TMP/x.pb.gz" 2> /dev/null && back_to_rprof_is "$TMP/x.pb.gz" "$1"; }
# A frame such as "1#6" is a line reference, never a function of its own.
no_reference_function() {
	"$PROF" -q -t tables "$1" > "$TMP/tables" 2> /dev/null &&
		! awk -F'\t' '/^# / { functions = $0 == "# functions"; next }
			functions && $2 ~ /^[0-9]+#[0-9]+ ?$/ { found = 1 } END { exit !found }' "$TMP/tables"
}
# Cut: a sample line (not a header, a #File line, nor a memory prefix alone)
# that does not end in the space R writes after every frame, as R's line
# buffer or a copy taken mid-write leaves it.
cut_short() {
	tr -d '\r' < "$1" | awk 'NR > 1 && !/sample\.interval=/ && !/^#File / && !/^:[0-9]+:[0-9]+:[0-9]+:[0-9]+:$/ &&
		!/ $/ { cut = 1 } END { exit !cut }'
}
no_warning_unless_cut() { cut_short "$1" || says_nothing "$PROF" -t rprof "$1"; }
counts_are_summaryrprofs() { summary_is_summaryrprof "$1" "$(summaryrprof_of "$1")"; }
rprof_checks() { # the README's, for every Rprof file
	cross "$1" rprof-roundtrip roundtrip "$1"
	cross "$1" pprof-roundtrip pprof_roundtrip "$1"
	cross "$1" no-reference-function no_reference_function "$1"
	cross "$1" no-warning-unless-cut no_warning_unless_cut "$1"
	cross "$1" summaryRprof counts_are_summaryrprofs "$1"
}
for f in "$CORPUS"/rprof/*.out "$CORPUS"/r-prof-profile/inst/samples/rprof/*.out; do
	case $f in *.profile-pkg.*) continue ;; esac
	rprof_checks "$f"
	golden=$(summaryrprof_of "$f")
	cross "$f" named-roundtrip roundtrip "$f" rprof
	cross "$f" stdin-roundtrip sniffed_roundtrip "$f"
	cross "$f" model-summaryRprof agrees_with_summaryrprof "$f" "$golden"
	cross "$f" folded-summaryRprof folded_is_summaryrprof "$f" "$golden"
	cross "$f" rprof-tree-rprof rprof_tree_rprof_keeps_stacks "$f"
	"$PROF" -q -t pprof "$f" > "$TMP/r.pb.gz" 2> /dev/null
	cross "$f" go-reads-pprof go_accepts "$TMP/r.pb.gz"
	cross "$f" go-top-summaryRprof top_is_summaryrprof "$TMP/r.pb.gz" "$golden"
done
f=$CORPUS/r-prof-profile/inst/samples/rprof/1.out
LC_ALL=C sort "$(summaryrprof_of "$f")" > "$TMP/want"
"$PROF" -q -t speedscope --sample-type samples -o "$TMP/s.speedscope.json" "$f"
needs_browser cross "$f" speedscope-json speedscope_shows "$TMP/s.speedscope.json" "$TMP/want"
"$PROF" -q -t folded -o "$TMP/s.folded" "$f"
needs_browser cross "$f" speedscope-folded speedscope_shows "$TMP/s.folded" "$TMP/want"
for f in "$CORPUS"/rprof/*.profile-pkg.out; do
	cross "$f" reads-cleanly replays_cleanly "$f" any
done
while read -r f; do
	rprof_checks "$f"
done <<EOF
$(find "$CORPUS/wild/rprof" -type f | LC_ALL=C sort)
EOF

# pprof, with goldens from Go.
sniffed_pprof_is() { "$PROF" -q -t pprof < "$1" | cmp -s - "$2"; }
pprof_checks() { # FILE: prof's pprof output as Go reads the file itself
	if go_refuses "$1"; then
		cross "$1" refused-as-by-Go says 1 "^prof: .*$(basename "$1")" "$PROF" -t pprof "$1"
	else
		go_raw "$1" > "$TMP/raw.in"
		cross "$1" go-raw sh -c '"$0" -q -t pprof "$1" > "$2" 2> /dev/null && go tool pprof -symbolize=none -raw "$2" 2> /dev/null |
			cmp -s - "$3"' "$PROF" "$1" "$TMP/x.pb.gz" "$TMP/raw.in"
	fi
}
for f in "$CORPUS"/rprof/*.profile-pkg.pb.gz "$CORPUS"/r-prof-profile/inst/samples/proto/*.pb.gz; do
	pprof_checks "$f"
done
for f in "$CORPUS"/pprof/* "$CORPUS"/google-pprof/internal/*/testdata/*; do
	case $f in *.txt | *.txt.gz | *.json | *.md) continue ;; esac
	cross "$f" pprof-pprof converts_to_pprof "$f" "$TMP/out.pb.gz"
	cross "$f" go-parsed-golden go_dump_is "$TMP/out.pb.gz" "$(golden_for "$f.parsed.txt")"
	cross "$f" go-raw-golden go_raw_is "$TMP/out.pb.gz" "$(golden_for "$f.raw.txt")"
	cross "$f" stdin-pprof sniffed_pprof_is "$f" "$TMP/out.pb.gz"
	cross "$f" reads-cleanly replays_cleanly "$f" any
	cross "$f" go-types go_types_into "$f" "$TMP/types"
	while read -r type unit; do
		cross "$f" "tree-total:$type" tree_total_is_go_total "$f" "$type"
	done < "$TMP/types"
	cross "$f" tree-default-type default_type_is_pprofs "$f"
	# Symbolized files only: go tool pprof names a frame without a function
	# after its address or mapping, where prof's summary counts functions.
	case $f in *mixed_mappings* | *cppbench* | *nomappings*) continue ;; esac
	while read -r type unit; do
		cross "$f" "summary-go-top:$type" summary_is_go_top "$f" "$type" "$unit"
	done < "$TMP/types"
done
while read -r f; do
	pprof_checks "$f"
done <<EOF
$(find "$CORPUS/wild/pprof" -type f | LC_ALL=C sort)
EOF

# LispWorks trees.
refusal_names_line() { # TREE WHY: prof's message names the line the .why names
	want=$(sed -n 's/^line \([0-9]*\):.*/\1/p' "$2")
	[ -n "$want" ] && says 1 "^prof: $1:$want: " "$PROF" -f lispworks -t lispworks "$1"
}
for f in "$CORPUS"/lispworks/*.tree; do
	cross "$f" tree-roundtrip tree_roundtrip "$f"
	cross "$f" stdin-tree-roundtrip sniffed_tree_roundtrip "$f"
	cross "$f" stacks-are-folded stacks_are_folded "$f"
	cross "$f" tree-folded tree_folded_is_golden "$f"
	cross "${f%.tree}.folded" folded-roundtrip folded_roundtrip "${f%.tree}.folded"
done
for f in "$CORPUS"/lispworks/invalid/*.tree; do
	cross "$f" refused-naming-line refusal_names_line "$f" "${f%.tree}.why"
done

# Every frame prof holds (each function of its tables: a folded frame is a
# function) is a frame of the reference reading: a count read as part of a
# name shows here. The tables, not a tree: a tree's Counts are whole, so
# prof refuses one of fractional counts.
frames_of_reference() {
	folded_sums < "$1" 2> /dev/null | cut -f 1 | tr ';' '\n' | LC_ALL=C sort -u > "$TMP/frames"
	"$PROF" -q -t tables "$1" > "$TMP/frames.tables" 2> /dev/null &&
		awk -F'\t' 'function unescaped(s,   out, i, c) {
				out = ""
				for (i = 1; i <= length(s); i++) {
					c = substr(s, i, 1)
					if (c == "\\") { c = substr(s, ++i, 1); c = c == "t" ? "\t" : c == "n" ? "\n" : c }
					out = out c
				}
				return out
			}
			/^# / { functions = $0 == "# functions"; getline; next }
			functions && NF { print unescaped($2) }' "$TMP/frames.tables" | LC_ALL=C sort -u |
		LC_ALL=C comm -23 - "$TMP/frames" > "$TMP/unknown-frames" && [ ! -s "$TMP/unknown-frames" ]
}
keeps_stacks() {
	"$PROF" -q -t folded "$1" > "$TMP/out.folded" 2> /dev/null && folded_sums < "$TMP/out.folded" > "$TMP/got" 2> /dev/null &&
		folded_sums < "$1" 2> /dev/null | cmp -s - "$TMP/got" && frames_of_reference "$1"
}
malformed() { folded_sums < "$1" 2>&1 > /dev/null | grep -q malformed; }
warns_and_check_fails() {
	says 0 "^prof: .*:[0-9]*: warning: " "$PROF" -t folded "$1" && status_is 1 "$PROF" --check "$1"
}
utf16() { [ "$(head -c 2 "$1" | od -An -tx1)" = " ff fe" ] || [ "$(head -c 2 "$1" | od -An -tx1)" = " fe ff" ]; }
utf16_read_or_refused() {
	if "$PROF" -q -t folded "$1" > "$TMP/out.folded" 2> "$TMP/err"; then
		iconv -f UTF-16 -t UTF-8 "$1" | folded_sums 2> /dev/null > "$TMP/want" &&
			folded_sums < "$TMP/out.folded" 2> /dev/null | cmp -s - "$TMP/want"
	else
		grep -q "UTF-16" "$TMP/err"
	fi
}
while read -r f; do
	if utf16 "$f"; then
		cross "$f" utf16-read-or-refused utf16_read_or_refused "$f"
		continue
	fi
	cross "$f" stacks keeps_stacks "$f"
	malformed "$f" && cross "$f" malformed-warned warns_and_check_fails "$f"
done <<EOF
$(find "$CORPUS/wild/folded" -type f | LC_ALL=C sort)
EOF
# The JSON readers on other projects' files: a .cpuprofile's folded stacks,
# of the current format or the old one (a `head` tree), are DevTools'
# reading (test/node/devtools-folded.cjs) and go tool pprof reads prof's
# pprof of it.
# Each profile of a speedscope file, as folded stacks, is a reference
# reading's in node (test/node/speedscope-folded.cjs).
cpuprofile_folded_is_devtools() {
	node test/node/devtools-folded.cjs "$1" | folded_sums > "$TMP/want" &&
		"$PROF" -q -f cpuprofile -t folded -s samples "$1" | folded_sums > "$TMP/got" && cmp -s "$TMP/want" "$TMP/got"
}
go_reads_prof_pprof() { converts_to_pprof "$1" "$TMP/c.pb.gz" && go_accepts "$TMP/c.pb.gz"; }
while read -r f; do
	cross "$f" devtools-folded cpuprofile_folded_is_devtools "$f"
	cross "$f" go-reads-pprof go_reads_prof_pprof "$f"
done <<EOF
$(find "$CORPUS/wild/unsupported/chrome-cpuprofile" -type f | LC_ALL=C sort)
EOF
# Every speedscope file of the corpus (a folder named speedscope, under
# unsupported/ or not): each profile as the reference reading's, which
# indexes frames as the app does; where that reading finds an index that
# names no frame (the app then shows no profile), refused naming a line.
reference_finds_no_frame() {
	n=$(node -e 'console.log(JSON.parse(require("fs").readFileSync(process.argv[1])).profiles.length)' "$1") || return 1
	k=0
	while [ "$k" -lt "$n" ]; do
		node test/node/speedscope-folded.cjs "$1" "$k" > /dev/null 2>&1
		[ $? -eq 2 ] && return 0
		k=$((k + 1))
	done
	return 1
}
while read -r f; do
	if reference_finds_no_frame "$f"; then
		cross "$f" refused-as-the-app-does says 1 "^prof: $f:[0-9]*: " "$PROF" -t folded "$f"
	else
		cross "$f" profiles-as-reference speedscope_profiles_are_reference "$f"
	fi
done <<EOF
$(find "$CORPUS/wild" -type d -name speedscope -exec find {} -type f \; | LC_ALL=C sort)
EOF
# Chrome's trace events: speedscope's own samples (SHARED_DIR/peers/
# speedscope/trace-event, every case its importer repairs), sniffed, and
# read as the speedscope app's own import reads them: the same stacks and
# microseconds (test/lib.sh's trace_is_apps).
for f in "$CORPUS"/../peers/speedscope/trace-event/*.json; do
	cross "$f" sniffed-trace prints 0 '(trace)' sh -c '"$0" -t summary < "$1"' "$PROF" "$f"
	needs_browser cross "$f" speedscope-app-import trace_is_apps "$f"
done
# speedscope files of a profile per thread: the app's own export of the
# traces of several threads (a profile per pid/tid), read by prof as one
# type whose threads are each profile's reference reading (test/lib.sh's
# speedscope_threads_are), and charted a lane per thread.
apps_threads_are_lanes() { # TRACE_JSON
	NODE_PATH="$SPEEDSCOPE/node_modules" node "$SPEEDSCOPE/export.cjs" \
		"$SPEEDSCOPE/node_modules/speedscope/dist/release" "$1" "$TMP/export.speedscope.json" 2> /dev/null &&
		speedscope_threads_are "$TMP/export.speedscope.json" "$TMP/export.speedscope.json" &&
		n=$(node -e 'console.log(JSON.parse(require("fs").readFileSync(process.argv[1])).profiles.length)' "$TMP/export.speedscope.json") &&
		"$PROF" -q -t flamechart "$TMP/export.speedscope.json" > "$TMP/export.svg" &&
		grep -q "id=\"subtitle\"[^>]*>export.speedscope.json: in time, a lane per thread ($n threads)" "$TMP/export.svg"
}
for f in multiprocess multi-thread-with-samples; do
	needs_browser cross "$CORPUS/../peers/speedscope/trace-event/$f.json" speedscope-threads-as-lanes \
		apps_threads_are_lanes "$CORPUS/../peers/speedscope/trace-event/$f.json"
done
# perf script: FlameGraph's own test inputs (SHARED_DIR/peers/flamegraph-perf)
# and stackcollapse-perf.pl's output for each, by default and with each of
# its options (--pid, --tid, --kernel, --jit, --all, --addrs: prof -f perf
# takes them): the same lines after sorting, once two of the script's faults are undone
# (docs/formats/perf.md): it loses the last sample of a file that does not
# end with a blank line (cut from the input here; prof keeps it), and it
# keeps only the first event met (prof keeps every event; other events'
# stacks weigh 0 in the default type: those lines are left out here).
through_last_blank_line() { awk '{ l[NR] = $0 } /^$/ { last = NR } END { for (i = 1; i <= last; i++) print l[i] }' "$1"; }
folds_as_stackcollapse() { # INPUT RESULT [OPTION]
	through_last_blank_line "$1" > "$TMP/cut.perf" &&
		"$PROF" -q -f perf ${3:+"$3"} -t folded "$TMP/cut.perf" | grep -v ' 0$' | LC_ALL=C sort > "$TMP/got" &&
		LC_ALL=C sort "$2" | cmp -s - "$TMP/got"
}
PEERS_PERF="$CORPUS/../peers/flamegraph-perf"
while read -r f; do
	cross "$f" stackcollapse-default folds_as_stackcollapse "$f" "$PEERS_PERF/results/$(basename "$f" .txt)-collapsed-default.txt"
	for option in pid tid kernel jit all addrs; do
		cross "$f" "stackcollapse-$option" folds_as_stackcollapse "$f" \
			"$PEERS_PERF/results/$(basename "$f" .txt)-collapsed-$option.txt" "--$option"
	done
	cross "$f" sniffed-as-perf prints 0 'valid perf profile' "$PROF" --check "$f"
	cross "$f" go-reads-pprof go_reads_prof_pprof "$f"
done <<EOF
$(find "$PEERS_PERF" -maxdepth 1 -name 'perf-*.txt' | LC_ALL=C sort)
EOF
# DTrace: FlameGraph's example (SHARED_DIR/peers/flamegraph-collapse) and
# stackcollapse.pl's output for it: the same lines after sorting.
folds_as_collapsed() { # INPUT RESULT
	"$PROF" -q -t folded "$1" | LC_ALL=C sort > "$TMP/got" && LC_ALL=C sort "$2" | cmp -s - "$TMP/got"
}
PEERS_COLLAPSE="$CORPUS/../peers/flamegraph-collapse"
cross "$PEERS_COLLAPSE/example-dtrace-stacks.txt" sniffed-as-dtrace prints 0 'valid dtrace profile' \
	"$PROF" --check "$PEERS_COLLAPSE/example-dtrace-stacks.txt"
cross "$PEERS_COLLAPSE/example-dtrace-stacks.txt" stackcollapse folds_as_collapsed \
	"$PEERS_COLLAPSE/example-dtrace-stacks.txt" "$PEERS_COLLAPSE/example-dtrace-stacks.collapsed"
# Every perf script file of the corpus (a folder named perf-script or
# perf): sniffed as perf (after perf's own messages too) and read by Go as
# prof's pprof; text that turns to binary (control bytes no text has,
# docs/formats/perf.md) refused naming its first binary line, sniffed or
# named.
first_binary_line() { perl -ne 'if (/[\x00-\x08\x0e-\x1a\x1c-\x1f]/) { print "$.\n"; exit }' "$1"; }
while read -r f; do
	binary=$(first_binary_line "$f")
	if [ -n "$binary" ]; then
		cross "$f" binary-refused-sniffed says 1 "^prof: $f:$binary: " "$PROF" -t folded "$f"
		cross "$f" binary-refused-named says 1 "^prof: $f:$binary: " "$PROF" -f perf -t folded "$f"
		continue
	fi
	cross "$f" sniffed-as-perf prints 0 'valid perf profile' "$PROF" --check "$f"
	cross "$f" go-reads-pprof go_reads_prof_pprof "$f"
done <<EOF
$(find "$CORPUS/wild" -type d \( -name perf-script -o -name perf \) -exec find {} -type f \; | LC_ALL=C sort)
EOF
# Legacy pprof: Go's reading of each file and of prof's pprof of it are
# the same profile; for the wild files and for google/pprof's own legacy
# test files, as Debian's golang-github-google-pprof-dev installs them.
GO_LEGACY=/usr/share/gocode/src/github.com/google/pprof/profile/testdata
while read -r f; do
	cross "$f" sniffed-as-legacy prints 0 'valid legacy profile' "$PROF" --check "$f"
	cross "$f" read-as-go-reads-it reads_as_go_does "$f"
done <<EOF
$(find "$CORPUS/wild/unsupported/pprof-legacy" -type f | LC_ALL=C sort)
$(ls "$GO_LEGACY"/cppbench.* "$GO_LEGACY"/go.* "$GO_LEGACY"/gobench.* "$GO_LEGACY"/java.* | grep -v '\.string$')
EOF
while read -r f; do
	cross "$f" reads-cleanly replays_cleanly "$f" any
done <<EOF
$(find "$CORPUS/wild/unsupported" -type f | LC_ALL=C sort)
EOF
# Java Flight Recorder: the JDK's jfr tool reads each file live, and
# test/jfr-lib.sh holds prof's stacks, weights, lines, threads and times of each
# event type against `jfr print --json --stack-depth 1000000` (through
# test/jfr-folded.py), its counts against `jfr summary`. Where jfr print
# refuses a file (an empty pool in a chunk, as async-profiler writes
# some), its counts alone are checked, saying so; where no JDK is
# installed, only the checks above run, saying so.
. test/jfr-lib.sh
JFR_TOOL=${JFR_TOOL:-$(command -v jfr || echo /usr/lib/jvm/java-17-openjdk-amd64/bin/jfr)}
jdk_reads() { # FILE: the goldens in $TMP/jdk.*; 1 when jfr print refuses the file
	zcat -f "$1" > "$TMP/jdk.jfr" && "$JFR_TOOL" summary "$TMP/jdk.jfr" > "$TMP/jdk.summary" 2> /dev/null &&
		"$JFR_TOOL" print --json --stack-depth 1000000 "$TMP/jdk.jfr" 2> /dev/null |
		python3 test/jfr-folded.py "$TMP/jdk.stacks" "$TMP/jdk.lines" "$TMP/jdk.threads" "$TMP/jdk.times" 2> /dev/null
}
while read -r f; do
	cross "$f" sniffed-as-jfr prints 0 'valid jfr profile' "$PROF" --check "$f"
	if [ ! -x "$JFR_TOOL" ]; then
		echo "note: $f: no jfr (the JDK's, openjdk-17-jdk-headless) at $JFR_TOOL: not checked against it"
	elif jdk_reads "$f"; then
		cross "$f" jfr-summary-counts counts_are_summarys "$f" "$TMP/jdk.summary"
		cross "$f" jfr-print-stacks stacks_are_jdks "$f" "$TMP/jdk.stacks"
		cross "$f" jfr-print-lines lines_are_jdks "$f" "$TMP/jdk.lines"
		cross "$f" jfr-print-threads threads_are_jdks "$f" "$TMP/jdk.threads"
		cross "$f" jfr-print-times times_are_jdks "$f" "$TMP/jdk.times"
	else
		echo "note: $f: jfr print refuses it: its counts alone are checked, against jfr summary"
		cross "$f" jfr-summary-counts counts_are_summarys "$f" "$TMP/jdk.summary"
	fi
done <<EOF
$(find "$CORPUS" -type f \( -name '*.jfr' -o -name '*.jfr.gz' \) | LC_ALL=C sort)
EOF
# callgrind files of other writers (pprof -callgrind, R's proftools,
# speedscope's tests): callgrind_annotate of prof's callgrind output is
# the input's, as test/callgrind.sh holds it for valgrind's files.
# A file whose last summary: or totals: is more than 1% above its cost
# lines' sum (an awk reading) is cut short: warned so, and no other file.
. test/callgrind-lib.sh
cut_short_by_awk() {
	awk '/^events:/ { n = NF - 1; next } /^positions:/ { p = NF - 1; next } BEGIN { p = 1 }
		/^(summary|totals):/ { if (n) { for (i = 1; i <= n; i++) t[i] = $(i + 1) + 0; stated = 1 }; next }
		/^calls=/ || /^(jump|jcnd)=/ { skip = 1; next }
		/^[0-9+*-]/ { if (skip) { skip = 0; next }; for (i = 1; i <= n; i++) s[i] += $(p + i) }
		END { for (i = 1; i <= n; i++) if (stated && t[i] > 0 && s[i] < t[i] - int(t[i] / 100)) cut = 1; exit !cut }' "$1"
}
warned_cut_short_if_cut() {
	"$PROF" -t folded "$1" > /dev/null 2> "$TMP/cg.err" || return 1
	if cut_short_by_awk "$1"; then grep -q 'the file looks cut short' "$TMP/cg.err"; else ! grep -q 'cut short' "$TMP/cg.err"; fi
}
while read -r f; do
	cross "$f" callgrind-annotate-read-back callgrind_read_back_is_input "$f"
	cross "$f" warned-cut-short-if-cut warned_cut_short_if_cut "$f"
done <<EOF
$(find "$CORPUS/wild" -type d -name callgrind -exec find {} -type f \; | LC_ALL=C sort)
EOF

# V8 heap profiles: speedscope's own samples (SHARED_DIR/peers/speedscope)
# and the wild corpus's, read as speedscope's importer's rule reads them
# (test/heapprofile-lib.sh), and shown by the app as its own import.
. test/heapprofile-lib.sh
while read -r f; do
	cross "$f" heapprofile-importer-rule reads_as_importer "$f" space
	needs_browser cross "$f" heapprofile-app-import app_shows_the_same "$f"
done <<EOF
$(find "$CORPUS/../peers/speedscope" "$CORPUS/wild/unsupported/chrome-heapprofile" -type f -name '*.heapprofile' | LC_ALL=C sort)
EOF
# Firefox: speedscope's own files (peers/speedscope/Firefox/, the old
# DevTools panel's, Firefox 59-63): prof's stacks and counts are the
# reference reading's (test/firefox/folded.py), and the speedscope app
# shows each as it shows prof's speedscope JSON of it.
. test/firefox-lib.sh
for f in "$CORPUS"/../peers/speedscope/Firefox/*/*.json; do
	cross "$f" firefox-reference firefox_is_reference "$f"
	needs_browser cross "$f" firefox-speedscope-app firefox_app_shows_as_prof "$f"
done

# GHC: speedscope's -pj sample and the wild corpus's .prof files (inferno's
# -P file with UTF-8 names), each judged by its own columns, and the -pj
# ones by the speedscope app's import (test/ghc-lib.sh).
. test/ghc-lib.sh
while read -r f; do
	cross "$f" ghc-own-columns judged_by_own_columns "$f"
	case $(head -c 1 "$f") in
	"{") needs_browser cross "$f" ghc-speedscope-app app_imports_as_prof "$f" ;;
	esac
done <<EOF
$(find "$CORPUS/../peers/speedscope/haskell" "$CORPUS/wild/unsupported/ghc-prof" -type f | LC_ALL=C sort)
EOF
# macOS: speedscope's own Instruments deep copies (peers/speedscope/
# Instruments/) and the wild corpus's, read as the speedscope app imports
# them; the wild corpus's sample report, judged by its own inclusive
# counts, threads and interval (test/macos-lib.sh; stackcollapse-sample.awk
# is not in ../shared).
. test/macos-lib.sh
while read -r f; do
	cross "$f" sniffed-as-instruments prints 0 'valid instruments profile' "$PROF" --check "$f"
	needs_browser cross "$f" instruments-app-import instruments_is_apps "$f"
done <<EOF
$(find "$CORPUS/../peers/speedscope/Instruments" "$CORPUS/wild/unsupported/instruments" -type f -name '*.txt' | LC_ALL=C sort)
EOF
while read -r f; do
	cross "$f" sniffed-as-sample prints 0 'valid sample profile' "$PROF" --check "$f"
	cross "$f" sample-inclusive-counts sample_totals_are_reports "$f"
	cross "$f" sample-threads sample_threads_are_reports "$f"
	cross "$f" sample-wall sample_wall_is_interval "$f"
done <<EOF
$(find "$CORPUS/wild/unsupported/macos-sample" -type f | LC_ALL=C sort)
EOF
# Ruby stackprof: speedscope's own JSON dumps (peers/speedscope/stackprof/,
# older stackprof, whose lone GC records go on the stack before them) and
# the wild corpus's: sniffed, and prof's stacks and weights are the
# speedscope app's import (test/stackprof-lib.sh).
. test/stackprof-lib.sh
while read -r f; do
	cross "$f" sniffed-as-stackprof prints 0 'valid stackprof profile' "$PROF" --check "$f"
	needs_browser cross "$f" stackprof-app-import stackprof_is_apps "$f"
done <<EOF
$(find "$CORPUS/../peers/speedscope/stackprof" "$CORPUS/wild/unsupported/stackprof" -type f | LC_ALL=C sort)
EOF

# The registry is the list of readers: each must have had some file of
# its own format checked above, so that a new reader without checks here
# fails rather than going unchecked. A file's format is the reader whose
# probe bids highest for it (what prof sniffs).
sniffed_formats() {
	sed 's/ [^ ]*$//' "$TMP/ran" | LC_ALL=C sort -u | while read -r file; do
		case $file in /*) ;; *) file=$CORPUS/$file ;; esac
		$UNIT probes "$file" 2> /dev/null | awk '$2 > best { best = $2; name = $1 } END { if (best) print name }'
	done | LC_ALL=C sort -u
}
sniffed_formats > "$TMP/checked-formats"
"$PROF" --list-formats | awk '$2 ~ /^r/ { print $1 }' | LC_ALL=C sort > "$TMP/readers"
# Readers of which the shared corpus holds no file yet, each for a reason
# on record; one that gets a file checked must leave the list.
#   pstats: no pstats file in ../shared/testdata (issue 19); CPython's
#   files are testdata/pstats/, judged by Python's pstats (test/pstats.sh)
#   jstack: no thread dump in ../shared, nor stackcollapse-jstack.pl's
#   text; the JDK's dumps are testdata/jstack/, judged by the script's
#   rules as docs/formats/jstack.md writes them down (test/jstack.sh)
no_shared_files="pstats jstack"
LC_ALL=C comm -23 "$TMP/readers" "$TMP/checked-formats" | grep -vxF "$(echo $no_shared_files | tr ' ' '\n')" > "$TMP/unchecked"
check "every reader of --list-formats has shared files cross-checked (none missing: $(tr '\n' ' ' < "$TMP/unchecked"))" \
	[ ! -s "$TMP/unchecked" ]
for reader in $no_shared_files; do
	check "$reader, listed as having no shared files, has none checked" sh -c '! grep -qx "$1" "$2"' - "$reader" "$TMP/checked-formats"
done

LC_ALL=C sort "$TMP/ran" | LC_ALL=C comm -13 - "$TMP/known" | while read -r stale; do
	echo "FAIL $stale: listed in $KNOWN, but no such check ran"
done > "$TMP/stale"
cat "$TMP/stale"
failed=$((failed + $(wc -l < "$TMP/stale")))
echo "$passed passed, $failed failed, $known known"
[ "$failed" -eq 0 ]
