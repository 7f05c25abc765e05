#!/bin/sh
# make bench: generates seeded inputs in bench/data/ (not committed), times
# each conversion (median of 3 runs: wall time and max RSS from
# /usr/bin/time) beside gzip and `go tool pprof -proto` over the same
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
folded_of() { # OUT BYTES: random stacks over 3000 functions
	[ -s "$1" ] && return
	awk -v want="$2" 'BEGIN { srand(1); size = 0
		while (size < want) { d = 5 + int(rand() * 40); s = "main"
			for (k = 0; k < d; k++) s = s ";pkg.func" int(rand() * 3000)
			s = s " " (1 + int(rand() * 9)); print s; size += length(s) + 1 }}' > "$1"
}

MB=1000000
rprof_from testdata/rprof/optim-line.out "$DATA/line-10M.out" $((10 * MB))
rprof_from testdata/rprof/optim-line.out "$DATA/line-100M.out" $((100 * MB))
rprof_from testdata/rprof/boot-memory-gc-line.out "$DATA/memory-50M.out" $((50 * MB))
[ -s "$DATA/cpu.pb.gz" ] || go run bench/gen-pprof.go "$DATA/cpu.pb.gz" 1200000
# About a million nodes: random stacks made into a tree by prof itself.
[ -s "$DATA/tree-1M.tree" ] || { folded_of "$DATA/tree.folded" $((12 * MB))
	"$PROF" -q -t lispworks "$DATA/tree.folded" > "$DATA/tree-1M.tree"; rm -f "$DATA/tree.folded"; }
folded_of "$DATA/folded-100M.folded" $((100 * MB))
if [ "$SCALE" = full ]; then
	rprof_from testdata/rprof/optim-line.out "$DATA/line-1G.out" $((1000 * MB))
	rprof_from testdata/rprof/boot-memory-gc-line.out "$DATA/memory-1G.out" $((1000 * MB))
	folded_of "$DATA/folded-1G.folded" $((1000 * MB))
fi

machine="$(nproc) cores, $(awk -F': ' '/model name/ { print $2; exit }' /proc/cpuinfo), $(free -g | awk '/Mem:/ { print $2 }') GB"
today=$(date +%F)
results=bench/RESULTS.md
# median of 3: "seconds max_rss_kb"
measure() {
	for i in 1 2 3; do
		/usr/bin/time -o "$DATA/time.$i" -f "%e %M" sh -c "$1" > /dev/null 2>&1 || echo "FAILED: $1" >&2
	done
	cat "$DATA/time.1" "$DATA/time.2" "$DATA/time.3" | sort -n | sed -n 2p
}
row() { # LABEL COMMAND [BASELINE_SECONDS BASELINE_RSS_KB BASELINE_NAME]
	set -- "$1" "$2" "${3:-}" "${4:-}" "${5:-}"
	m=$(measure "$2")
	s=${m% *}; kb=${m#* }
	ratio=
	[ -n "$3" ] && ratio=$(awk -v a="$s" -v b="$3" -v ra="$kb" -v rb="$4" -v n="$5" \
		'BEGIN { printf "%.2fx time, %.2fx RSS of %s", a / b, ra / rb, n }')
	printf '| %s | %s | `%s` | %s | %d | %s |\n' "$today" "$1" "$2" "$s" $((kb / 1024)) "$ratio" | tee -a "$results"
}
baseline() { m=$(measure "$1"); echo "$m"; }

echo "\n### $today, $machine (BENCH_SCALE=$SCALE)\n" >> "$results"
echo '| date | what | command | median s | max RSS MB | compared |' >> "$results"
echo '|---|---|---|---|---|---|' >> "$results"
for f in line-10M line-100M memory-50M $( [ "$SCALE" = full ] && echo line-1G memory-1G ); do
	g=$(baseline "gzip -1 < $DATA/$f.out")
	row "gzip -1, $f" "gzip -1 < $DATA/$f.out"
	row "rprof -> pprof, $f" "$PROF -t pprof $DATA/$f.out" ${g% *} ${g#* } "gzip -1"
done
go=$(baseline "go tool pprof -proto -output $DATA/go.pb.gz $DATA/cpu.pb.gz")
row "go tool pprof -proto, 1.2M samples" "go tool pprof -proto -output $DATA/go.pb.gz $DATA/cpu.pb.gz"
row "pprof -> pprof, 1.2M samples" "$PROF -t pprof $DATA/cpu.pb.gz" ${go% *} ${go#* } "go tool pprof"
gz=$(baseline "gzip -dc $DATA/cpu.pb.gz")
row "gzip -dc, 1.2M samples" "gzip -dc $DATA/cpu.pb.gz"
row "pprof -> rprof, 1.2M samples" "$PROF -t rprof $DATA/cpu.pb.gz" ${gz% *} ${gz#* } "gzip -dc"
row "pprof -> folded, 1.2M samples" "$PROF -t folded $DATA/cpu.pb.gz" ${gz% *} ${gz#* } "gzip -dc"
row "tree -> folded, $(($(wc -l < "$DATA/tree-1M.tree") - 1)) nodes" "$PROF -t folded $DATA/tree-1M.tree"
for f in folded-100M $( [ "$SCALE" = full ] && echo folded-1G ); do
	row "folded -> pprof, $f" "$PROF -t pprof $DATA/$f.folded"
done
