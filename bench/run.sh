#!/bin/sh
# make bench: generates seeded inputs in bench/data/ (not committed), times
# each conversion (median of 3 runs: wall time, max RSS and CPU time from
# /usr/bin/time; bench/lib.sh) beside gzip and `go tool pprof -proto` over the same
# inputs in the same run, and appends the rows to bench/RESULTS.md.
#   BENCH_SCALE=quick  10 and 100 MB inputs only (a few minutes)
#   BENCH_SCALE=full   adds the 1 GB inputs (the default)
set -eu
cd "$(dirname "$0")/.."
PROF=./prof
DATA=bench/data
SCALE=${BENCH_SCALE:-full}
mkdir -p "$DATA"
export GO111MODULE=off GOPATH=/usr/share/gocode GOFLAGS=

# Rprof grown from real R-written sample lines, drawn in a seeded order.
rprof_from() { # SOURCE OUT BYTES
	[ -s "$2" ] && return
	awk -v want="$3" -v seed=1 '
		/^(memory|GC|line) profiling: |^sample\.interval=/ { if (!head) head = $0; next }
		/^#File / { files = files $0 "\n"; next }
		{ line[n++] = $0 }
		END { srand(seed); printf "%s\n%s", head, files; size = 0
		      while (size < want) { l = line[int(rand() * n)]; print l; size += length(l) + 1 } }' "$1" > "$2"
}
random_stacks() { # OUT BYTES: random stacks over 3000 functions, no two sharing more than main
	[ -s "$1" ] && return
	awk -v want="$2" 'BEGIN { srand(1); size = 0
		while (size < want) { d = 5 + int(rand() * 40); s = "main"
			for (k = 0; k < d; k++) s = s ";pkg.func" int(rand() * 3000)
			s = s " " (1 + int(rand() * 9)); print s; size += length(s) + 1 }}' > "$1"
}

paths_of() { # OUT BYTES: 500 call paths over 3000 functions, each line one with a random leaf, as real stacks share paths
	[ -s "$1" ] && return
	awk -v want="$2" 'BEGIN { srand(1)
		for (p = 0; p < 500; p++) { d = 4 + int(rand() * 40); s = "main"
			for (k = 0; k < d; k++) s = s ";pkg.func" int(rand() * 3000)
			path[p] = s }
		size = 0
		while (size < want) { s = path[int(rand() * 500)] ";pkg.leaf" int(rand() * 3000) " " (1 + int(rand() * 9))
			print s; size += length(s) + 1 }}' > "$1"
}
# 10,000 names of 2 KB (C++ templates and Java hidden classes are as long):
# 100 random stems of 1900 bytes, each under 100 random tails, seeded.
long_names() { # OUT
	[ -s "$1" ] && return
	awk 'function draw(n,   r) { r = ""; while (n-- > 0) r = r substr(chars, int(rand() * k) + 1, 1); return r }
		BEGIN { srand(1); chars = "abcdefghijklmnopqrstuvwxyz_.:<>$ABCXYZ0123456789"; k = length(chars)
		for (s = 0; s < 100; s++) { stem = draw(1900)
			for (t = 0; t < 100; t++) print "main;" stem draw(148) " " (1 + int(rand() * 9)) }}' > "$1"
}

# A V8 CPU profile as node writes one (nodes, then samples and
# timeDeltas of about 1 ms): a seeded tree of 20,000 nodes over 3000
# functions, and samples at random nodes until the file has BYTES.
v8_profile() { # OUT BYTES
	[ -s "$1" ] && return
	awk -v want="$2" 'BEGIN { srand(1); n = 20000
		printf "{\"nodes\":[{\"id\":1,\"callFrame\":{\"functionName\":\"(root)\",\"scriptId\":\"0\",\"url\":\"\",\"lineNumber\":-1,\"columnNumber\":-1},\"hitCount\":0}"
		for (i = 2; i <= n; i++) { f = int(rand() * 3000)
			printf ",{\"id\":%d,\"parent\":%d,\"callFrame\":{\"functionName\":\"pkg.func%d\",\"scriptId\":\"%d\",\"url\":\"file:///app/src/module%d.js\",\"lineNumber\":%d,\"columnNumber\":%d},\"hitCount\":0}",
				i, 1 + int(rand() * (i - 1) / 4), f, f % 90, f % 90, f, f % 40 }
		printf "],\"startTime\":0,\"endTime\":0,\"samples\":["; size = 4000000; k = 0
		while (size < want / 2) { s = (k++ ? "," : "") (2 + int(rand() * (n - 1))); printf "%s", s; size += length(s) }
		printf "],\"timeDeltas\":["
		for (i = 0; i < k; i++) printf "%s%d", i ? "," : "", 900 + int(rand() * 300)
		printf "]}\n" }' > "$1"
}

# Chrome's trace events as clang and DevTools write them: X events of 8
# threads, nested 1 to 20 deep over 3000 functions, a quarter with args,
# seeded, until the file has BYTES.
trace_events() { # OUT BYTES
	[ -s "$1" ] && return
	awk -v want="$2" 'BEGIN { srand(1); printf "{\"traceEvents\":[\n"; size = 0; n = 0
		for (t = 0; t < 8; t++) clock[t] = 1000000
		while (size < want) { t = int(rand() * 8); d = 1 + int(rand() * 20); dur = 40 * d + int(rand() * 1000)
			for (k = 0; k < d; k++) { f = int(rand() * 3000)
				s = sprintf("%s{\"pid\":1,\"tid\":%d,\"ph\":\"X\",\"ts\":%d,\"dur\":%d,\"name\":\"pkg.func%d\"%s}", n++ ? ",\n" : "",
					t, clock[t] + 20 * k, dur - 40 * k, f, rand() < 0.25 ? sprintf(",\"args\":{\"detail\":\"src/file%d.h\"}", f % 300) : "")
				printf "%s", s; size += length(s) }
			clock[t] += dur + int(rand() * 50) }
		printf "\n],\"displayTimeUnit\":\"ms\"}\n" }' > "$1"
}

MB=1000000
rprof_from testdata/rprof/optim-line.out "$DATA/line-10M.out" $((10 * MB))
rprof_from testdata/rprof/optim-line.out "$DATA/line-100M.out" $((100 * MB))
rprof_from testdata/rprof/boot-memory-gc-line.out "$DATA/memory-50M.out" $((50 * MB))
[ -s "$DATA/cpu.pb.gz" ] || go run bench/gen-pprof.go "$DATA/cpu.pb.gz" 1200000
[ -s "$DATA/cpu-small.pb.gz" ] || go run bench/gen-pprof.go "$DATA/cpu-small.pb.gz" 120000
# A Gecko profile as Firefox writes one: a seeded stack table of 20,000
# stacks over 3000 frames, then samples at random stacks every ~1 ms until the file has BYTES.
gecko_profile() { # OUT BYTES
	[ -s "$1" ] && return
	awk -v want="$2" 'BEGIN { srand(1); n = 20000; f = 3000
		printf "{\"meta\":{\"version\":24,\"interval\":1,\"stackwalk\":1,\"startTime\":1700000000000},\"libs\":[],\"threads\":[{\"name\":\"GeckoMain\",\"tid\":1,\"pid\":1,"
		printf "\"stackTable\":{\"schema\":{\"prefix\":0,\"frame\":1},\"data\":[[null,0]"
		for (i = 1; i < n; i++) printf ",[%d,%d]", int(rand() * i), int(rand() * f)
		printf "]},\"frameTable\":{\"schema\":{\"location\":0,\"relevantForJS\":1,\"innerWindowID\":2,\"implementation\":3,\"line\":4,\"column\":5,\"category\":6,\"subcategory\":7},\"data\":[[0,false,0,null,null,null,0,0]"
		for (i = 1; i < f; i++) printf ",[%d,false,0,null,%d,null,1,0]", i, 1 + int(rand() * 500)
		printf "]},\"stringTable\":[\"(root)\""
		for (i = 1; i < f; i++) printf ",\"func%d (https://example.com/app%d.js:%d:%d)[%d]\"", i, i % 40, i, i % 80, i % 40
		printf "],\"samples\":{\"schema\":{\"stack\":0,\"time\":1,\"eventDelay\":2,\"threadCPUDelta\":3},\"data\":["
		size = 600000; t = 0; sep = ""
		while (size < want) { t += 0.5 + rand(); s = sprintf("%s[%d,%.6f,%.3f,%d]", sep, int(rand() * n), t, rand() * 2, int(rand() * 1000)); printf "%s", s; size += length(s); sep = "," }
		printf "]}}]}\n" }' > "$1"
}
# About a million nodes: random stacks made into a tree by prof itself.
[ -s "$DATA/tree-1M.tree" ] || { random_stacks "$DATA/tree.folded" $((12 * MB))
	"$PROF" -q -t lispworks "$DATA/tree.folded" > "$DATA/tree-1M.tree"; rm -f "$DATA/tree.folded"; }
paths_of "$DATA/paths-10M.folded" $((10 * MB))
paths_of "$DATA/paths-100M.folded" $((100 * MB))
# perf script text: the samples of a recording made here, drawn in a seeded order.
[ -s "$DATA/perf-100M.perf" ] || awk -v want=$((100 * MB)) 'BEGIN { RS = ""; ORS = "\n\n" } { s[n++] = $0 }
	END { srand(1); while (size < want) { x = s[int(rand() * n)]; print x; size += length(x) + 2 } }' \
	testdata/perf/c-pid-cpu.perf > "$DATA/perf-100M.perf"
random_stacks "$DATA/random-100M.folded" $((100 * MB))
# DTrace stack aggregations: 500 call paths of module`function+0xOFF frames
# (4 to 43 deep over 3000 functions) under 300 leaves, with counts, seeded.
[ -s "$DATA/dtrace-100M.stacks" ] || awk -v want=$((100 * MB)) 'BEGIN { srand(1)
	print "CPU     ID                    FUNCTION:NAME"; print "  0  64091                        :tick-60s "
	for (p = 0; p < 500; p++) { d = 4 + int(rand() * 40); s = ""
		for (k = 0; k < d; k++) s = s sprintf("              genunix`func%d+0x%x\n", int(rand() * 3000), int(rand() * 4096))
		path[p] = s }
	while (size < want) { x = sprintf("\n              unix`leaf%d+0x%x\n%s              %d\n", int(rand() * 300),
			int(rand() * 256), path[int(rand() * 500)], 1 + int(rand() * 999))
		printf "%s", x; size += length(x) } }' > "$DATA/dtrace-100M.stacks"
long_names "$DATA/names-2K.folded"
# A gperftools CPU profile (64-bit words): 300000 distinct stacks, each one
# of 2000 call paths (8 to 40 deep over 20000 addresses) under 1 to 3
# random leaves, seeded; then a real profile's memory map.
[ -s "$DATA/legacy-300k.cpu" ] || { perl -e 'srand(1); my @paths;
	for (1 .. 2000) { push @paths, [map { 0x555555555000 + 16 * int(rand(20000)) } 1 .. 8 + int(rand(33))] }
	print pack("Q<*", 0, 3, 0, 10000, 0);
	for (1 .. 300000) { my @leaves = map { 0x555555555000 + 16 * int(rand(20000)) } 1 .. 1 + int(rand(3));
		my @s = (@leaves, @{$paths[int(rand(2000))]});
		print pack("Q<*", 1 + int(rand(9)), scalar @s, @s) }
	print pack("Q<*", 0, 1, 0)' > "$DATA/legacy-300k.cpu"
	perl -0777 -ne 'print $1 if /(55555555[0-9a-f]+-.*)\z/s' testdata/legacy/cpu-1thread.cpu >> "$DATA/legacy-300k.cpu"; }
if [ "$SCALE" = full ]; then
	rprof_from testdata/rprof/optim-line.out "$DATA/line-1G.out" $((1000 * MB))
	rprof_from testdata/rprof/boot-memory-gc-line.out "$DATA/memory-1G.out" $((1000 * MB))
	paths_of "$DATA/paths-1G.folded" $((1000 * MB))
fi

. bench/lib.sh
. bench/fleet.sh
anchor() { # LABEL COMMAND: a tool prof is measured beside, timed once (its row); "s kb" in $anchor_m
	m=$(measure "$2")
	echo "${m##* }" > "$DATA/base.cpu"
	anchor_m=${m% *}
	printf '| %s | %s | `%s` | %s (%s CPU) | %d |  |\n' "$today" "$1" "$2" "${anchor_m% *}" "${m##* }" $((${anchor_m#* } / 1024)) | tee -a "$results"
}
# flamegraph.pl, stackcollapse-perf.pl and stackcollapse.pl (github.com/brendangregg/FlameGraph),
# the tools the flame graph, perf and dtrace rows are measured beside, are in no
# Debian package: they are taken from $FLAMEGRAPH_DIR, else from PATH, and
# the rows that need them say so when neither has them.
flamegraph_tool() { # NAME: its path, or nothing
	if [ -n "${FLAMEGRAPH_DIR:-}" ] && [ -x "$FLAMEGRAPH_DIR/$1" ]; then echo "$FLAMEGRAPH_DIR/$1"; else command -v "$1" || :; fi
}
# FROM INPUT COLLAPSER: prof's FROM -> folded row on $DATA/INPUT, beside
# FlameGraph's collapser of the same file where it is, else alone saying so.
beside_collapser() {
	sc=$(flamegraph_tool "$3")
	if [ -n "$sc" ]; then
		anchor "$3, $2" "$sc $DATA/$2"
		row "$1 -> folded, $2" "$PROF -f $1 -t folded $DATA/$2" ${anchor_m% *} ${anchor_m#* } "$3"
	else
		row "$1 -> folded, $2 (no $3 to compare)" "$PROF -f $1 -t folded $DATA/$2"
	fi
}

echo "\n### $today, $machine (BENCH_SCALE=$SCALE)\n" >> "$results"
echo '| date | what | command | median s | max RSS MB | compared |' >> "$results"
echo '|---|---|---|---|---|---|' >> "$results"
for f in line-10M line-100M memory-50M $( [ "$SCALE" = full ] && echo line-1G memory-1G ); do
	g=$(baseline "gzip -1 < $DATA/$f.out")
	row "gzip -1, $f" "gzip -1 < $DATA/$f.out"
	row "rprof -> pprof, $f" "$PROF -t pprof $DATA/$f.out" ${g% *} ${g#* } "gzip -1"
done
for p in cpu-small:0.12M cpu:1.2M; do
	f=$DATA/${p%:*}.pb.gz n=${p#*:}
	go=$(baseline "go tool pprof -proto -output $DATA/go.pb.gz $f")
	row "go tool pprof -proto, $n samples" "go tool pprof -proto -output $DATA/go.pb.gz $f"
	row "pprof -> pprof, $n samples" "$PROF -t pprof $f" ${go% *} ${go#* } "go tool pprof"
	gz=$(baseline "gzip -dc $f")
	raw=$(gzip -dc "$f" | wc -c)
	row "gzip -dc, $n samples" "gzip -dc $f"
	row "pprof -> rprof, $n samples" "$PROF -t rprof $f" ${gz% *} ${gz#* } "gzip -dc" "$raw"
	row "pprof -> folded, $n samples" "$PROF -t folded $f" ${gz% *} ${gz#* } "gzip -dc" "$raw"
done
# Legacy pprof to pprof beside go tool pprof reading the same file.
go=$(baseline "go tool pprof -proto -output $DATA/go.pb.gz $DATA/legacy-300k.cpu")
row "go tool pprof -proto, legacy-300k.cpu" "go tool pprof -proto -output $DATA/go.pb.gz $DATA/legacy-300k.cpu"
row "legacy -> pprof, legacy-300k.cpu" "$PROF -t pprof $DATA/legacy-300k.cpu" ${go% *} ${go#* } "go tool pprof"
row "tree -> folded, $(($(wc -l < "$DATA/tree-1M.tree") - 1)) nodes" "$PROF -t folded $DATA/tree-1M.tree"
# random-100M is the worst case: every line adds ~25 stack nodes (about 2.6 MB of memory per MB read).
for f in paths-10M paths-100M $( [ "$SCALE" = full ] && echo paths-1G ) random-100M; do
	row "folded -> pprof, $f" "$PROF -t pprof $DATA/$f.folded"
done
# pstats: a seeded call graph of 100,000 functions and 1.5 M calls as
# cProfile dumps it (about 150 MB; bench/gen-pstats.py), made stacks by
# the call graph's decomposition (the goal: 100 MB/s of input; --check
# reads, decomposes and validates, writing nothing), beside
# Python's own pstats loading and sorting it; and written back from the
# graph the reader keeps (docs/model.md), which still makes the stacks.
[ -s "$DATA/pstats-100k.prof" ] || python3 bench/gen-pstats.py "$DATA/pstats-100k.prof" 100000
pstats_mb=$(($(wc -c < "$DATA/pstats-100k.prof") / MB))
py="python3 -c 'import pstats, sys; pstats.Stats(sys.argv[1]).sort_stats(\"cumulative\")' $DATA/pstats-100k.prof"
anchor "Python's pstats.Stats(F).sort_stats('cumulative'), pstats-100k" "$py"
row "pstats read (--check), pstats-100k ($pstats_mb MB)" "$PROF --check $DATA/pstats-100k.prof" ${anchor_m% *} ${anchor_m#* } "Python's pstats"
row "pstats -> summary, pstats-100k ($pstats_mb MB)" "$PROF -t summary $DATA/pstats-100k.prof" ${anchor_m% *} ${anchor_m#* } "Python's pstats"
row "pstats -> pstats, pstats-100k ($pstats_mb MB)" "$PROF -t pstats $DATA/pstats-100k.prof" ${anchor_m% *} ${anchor_m#* } "Python's pstats"
# perf script to folded stacks beside stackcollapse-perf.pl (issue 21's
# goal: at most 0.05x its time).
beside_collapser perf perf-100M.perf stackcollapse-perf.pl
# DTrace's stacks to folded stacks (issue 30's goal: 100 MB/s) beside stackcollapse.pl.
beside_collapser dtrace dtrace-100M.stacks stackcollapse.pl
# Java Flight Recorder to folded stacks (the goal: 100 MB/s on one core)
# beside the JDK's jfr print of the same file, when a JDK is installed:
# five chunks of 20 MB of execution samples as async-profiler writes them
# (2,000 stacks, 16 threads; test/make-jfr-synthetic.py --bench).
[ -s "$DATA/jfr-100M.jfr" ] || { python3 test/make-jfr-synthetic.py --bench "$DATA/jfr-20M.jfr" 20 &&
	for i in 1 2 3 4 5; do cat "$DATA/jfr-20M.jfr"; done > "$DATA/jfr-100M.jfr" && rm -f "$DATA/jfr-20M.jfr"; }
JFR_TOOL=${JFR_TOOL:-$(command -v jfr || echo /usr/lib/jvm/java-17-openjdk-amd64/bin/jfr)}
if [ -x "$JFR_TOOL" ]; then
	jp=$(baseline "$JFR_TOOL print $DATA/jfr-100M.jfr")
	row "jfr print, jfr-100M" "$JFR_TOOL print $DATA/jfr-100M.jfr"
	row "jfr -> folded, jfr-100M" "$PROF -t folded $DATA/jfr-100M.jfr" ${jp% *} ${jp#* } "jfr print"
else
	row "jfr -> folded, jfr-100M (no JDK here for jfr print)" "$PROF -t folded $DATA/jfr-100M.jfr"
fi
# Memory on one large chunk (async-profiler writes them), its samples going
# back in time 40 times: its peak must not grow with its size.
[ -s "$DATA/jfr-160M-one-chunk.jfr" ] || python3 test/make-jfr-synthetic.py --bench "$DATA/jfr-160M-one-chunk.jfr" 4 40
row "jfr -> folded, one 160 MB chunk, back in time 40 times" "$PROF -t folded $DATA/jfr-160M-one-chunk.jfr"
# The JSON readers (.cpuprofile, speedscope; the goal: 100 MB/s): a V8
# profile node's way, and prof's speedscope JSON of it (its samples are
# whole stacks: some 4x the bytes a sample).
v8_profile "$DATA/v8-100M.cpuprofile" $((100 * MB))
[ -s "$DATA/v8.speedscope.json" ] || $PROF -t speedscope -s samples -o "$DATA/v8.speedscope.json" "$DATA/v8-100M.cpuprofile"
row "cpuprofile -> folded, v8-100M ($(($(wc -c < "$DATA/v8-100M.cpuprofile") / MB)) MB)" "$PROF -t folded $DATA/v8-100M.cpuprofile"
row "speedscope -> folded, v8 ($(($(wc -c < "$DATA/v8.speedscope.json") / MB)) MB)" "$PROF -t folded $DATA/v8.speedscope.json"
# The Firefox Profiler's Gecko profile (the goal: 100 MB/s). speedscope's
# importer of it is no module of its own (the npm package ships the app's
# bundle only), so it has no row beside it.
gecko_profile "$DATA/gecko-100M.json" $((100 * MB))
row "firefox -> folded, gecko-100M ($(($(wc -c < "$DATA/gecko-100M.json") / MB)) MB)" "$PROF -t folded $DATA/gecko-100M.json"
row "firefox, read and checked only (--check), gecko-100M" "$PROF --check $DATA/gecko-100M.json"
# Chrome's trace events (the goal: 100 MB/s). speedscope's importer does
# not run alone in node: the npm package ships only the app's browser
# bundle, which exports no importer, so no row stands beside it.
trace_events "$DATA/trace-100M.json" $((100 * MB))
row "trace -> folded, trace-100M" "$PROF -t folded $DATA/trace-100M.json"
row "trace, read and checked only (--check), trace-100M" "$PROF --check $DATA/trace-100M.json"
row "trace -> trace, trace-100M" "$PROF -t trace $DATA/trace-100M.json"
# The other new readers of issue 30, read and checked only (the goal:
# 100 MB/s each), over inputs in their real layouts from bench/gen-*.
[ -s "$DATA/jstack-100M.txt" ] || sh bench/gen-jstack.sh "$DATA/jstack-100M.txt" $((100 * MB))
beside_collapser jstack jstack-100M.txt stackcollapse-jstack.pl
row "jstack, read and checked only (--check), jstack-100M" "$PROF --check $DATA/jstack-100M.txt"
# speedscope's importers (heap profile, stackprof, Firefox's processed
# profile) do not run alone in node (see trace's rows), and no GHC profile
# tool is in Debian: those rows stand alone. Ruby's own Marshal.load of the
# stackprof dump takes some 33 s of CPU and 770 MB (2026-11-28, by hand):
# too long to time here three times, so the Marshal row stands alone too.
[ -s "$DATA/heap-100M.heapprofile" ] || python3 bench/gen-heapprofile.py "$DATA/heap-100M.heapprofile" $((100 * MB))
row "heapprofile, read and checked only (--check), heap-100M" "$PROF --check $DATA/heap-100M.heapprofile"
[ -s "$DATA/stackprof-100M.json" ] || python3 bench/gen-stackprof.py "$DATA/stackprof-100M.json" $((100 * MB)) json
row "stackprof (JSON), read and checked only (--check), stackprof-100M.json" "$PROF --check $DATA/stackprof-100M.json"
[ -s "$DATA/stackprof-100M.dump" ] || python3 bench/gen-stackprof.py "$DATA/stackprof-100M.dump" $((100 * MB)) marshal
row "stackprof (Marshal), read and checked only (--check), stackprof-100M.dump" "$PROF --check $DATA/stackprof-100M.dump"
for l in p P; do
	[ -s "$DATA/ghc-$l-100M.prof" ] || python3 bench/gen-ghc-prof.py "$DATA/ghc-$l-100M.prof" $((100 * MB)) $l
	row "ghc +RTS -$l, read and checked only (--check), ghc-$l-100M" "$PROF --check $DATA/ghc-$l-100M.prof"
done
[ -s "$DATA/firefox-processed-100M.json" ] || python3 bench/gen-firefox-processed.py "$DATA/firefox-processed-100M.json" $((100 * MB))
row "firefox processed, read and checked only (--check), firefox-processed-100M" "$PROF --check $DATA/firefox-processed-100M.json"
# Pictures. A flame graph of 100 MB of folded stacks beside folding them
# again, in this run (the goal: within 1.3x the time, at most 64 MB); a
# flame chart streams an R profile's rows, so memory and the SVG stay
# small however large the input (the SVG's size is in the label).
fo=$(baseline "$PROF -f folded -t folded $DATA/paths-100M.folded")
row "folded -> folded, paths-100M" "$PROF -f folded -t folded $DATA/paths-100M.folded"
row "folded -> flamegraph, paths-100M" "$PROF -f folded -t flamegraph $DATA/paths-100M.folded" ${fo% *} ${fo#* } "folded -> folded"
# Beside flamegraph.pl drawing the same stacks (issue 21's goal: at most 0.05x its time).
fg=$(flamegraph_tool flamegraph.pl)
if [ -n "$fg" ]; then
	anchor "flamegraph.pl, paths-100M" "$fg $DATA/paths-100M.folded"
	row "folded -> flamegraph, paths-100M" "$PROF -f folded -t flamegraph $DATA/paths-100M.folded" ${anchor_m% *} ${anchor_m#* } "flamegraph.pl"
fi
# The HTML report of the 1.2 M-sample pprof beside its flame graph (the
# page draws one per sample type, and the call trees), in this run; the
# page's size is in the label (the goal: at most 5 MB).
pictured=$(baseline "$PROF -t flamegraph $DATA/cpu.pb.gz")
row "pprof -> flamegraph, 1.2M samples" "$PROF -t flamegraph $DATA/cpu.pb.gz"
row "pprof -> html, 1.2M samples ($("$PROF" -t html "$DATA/cpu.pb.gz" | wc -c | awk '{ printf "%.1f MB", $1 / 1e6 }'))" \
	"$PROF -t html $DATA/cpu.pb.gz" ${pictured% *} ${pictured#* } "pprof -> flamegraph"
# sprof's tables abbreviate every name as R does (formats/abbreviate.c):
# beside folding the same names again, in this run.
fo=$(baseline "$PROF -f folded -t folded $DATA/names-2K.folded")
row "folded -> folded, names-2K" "$PROF -f folded -t folded $DATA/names-2K.folded"
row "folded -> sprof, names-2K (10,000 names of 2 KB)" "$PROF -f folded -t sprof $DATA/names-2K.folded" ${fo% *} ${fo#* } "folded -> folded"
# Filters: a pattern filter and a time window beside the plain conversion
# of the same file, in this run (the goal: within 1.2x the time, the same
# memory bound).
for f in line-100M $( [ "$SCALE" = full ] && echo line-1G ); do
	plain=$(baseline "$PROF -t pprof $DATA/$f.out")
	row "rprof --ignore -> pprof, $f" "$PROF --ignore '^fn$' -t pprof $DATA/$f.out" ${plain% *} ${plain#* } "rprof -> pprof"
	row "rprof --time -> pprof, $f" "$PROF --time 1:100000 -t pprof $DATA/$f.out" ${plain% *} ${plain#* } "rprof -> pprof"
done
for f in line-100M $( [ "$SCALE" = full ] && echo line-1G ); do
	svg=$("$PROF" -t flamechart "$DATA/$f.out" | wc -c)
	row "rprof -> flamechart, $f ($((svg / 1024)) KB of SVG)" "$PROF -t flamechart $DATA/$f.out"
done
# Merging a fleet's profiles beside go tool pprof (bench/fleet.sh, which also runs alone).
fleet_rows
