#!/bin/sh
# Remakes testdata/sprof/ (see its README.md); run by `make goldens`.
#  - names.folded: the names abbreviate() is tried on: hard cases written
#    here, and 1000 drawn at random (awk, seed 13) from letters of every
#    class R's abbreviate tells apart;
#  - X.sprof.tsv: sprof's summaries of each Rprof file in testdata/rprof/
#    that sprof's simple reading gets right, by test/r/sprof.R (R, from
#    sprof's definitions); the others are named on stderr, and get none;
#  - X.abbreviate.tsv: for every input below, R's abbreviate(names,
#    minlength = 4) of the node names `prof -t sprof` lists.
# X is the input's path under testdata/ with '/' as "__". Needs R and ./prof.
set -eu
cd "$(dirname "$0")/.."
out=testdata/sprof
mkdir -p "$out"

{
	for name in summary summaryRprof sum sumx '<Anonymous>' 'compiler:::tryCmpfun' tryCatch \
		tryCatchList tryCatchOne 'a b c d e f' ' lead and trail ' 'größe' 'naïve.name' \
		'ünïcödé stuff' 'Über.Alles' '$<-' '[[' '<GC>' 'tab	in	name' aeiouaeiou AEIOUxyz \
		x.y.z.w.v make.callContext a_rather_long_function_name_to_fill_the_line_buffer_quickly \
		a_rather_long_function_name_to_fill_the_line_buffer_slowly; do
		printf 'main;%s 1\n' "$name"
	done
	LC_ALL=C awk 'BEGIN {
		srand(13)
		n = split("a e i o u x y z b c d A E X Y . _ 1 : < > $ ä é ö ü ß ı ŭ Ω 中", c, " ")
		c[++n] = " "; c[++n] = "\t"
		for (i = 0; i < 1000; i++) {
			name = ""
			for (k = int(rand() * 14) + 1; k > 0; k--) name = name c[int(rand() * n) + 1]
			if (name !~ /^[ \t]|[ \t]$/) print "main;" name " 1"
		}
		for (i = 0; i < 100; i++) print "main;function_name_" i " 1\nmain;functionName" i " 1"
	}'
} > "$out/names.folded"

key() { echo "${1#testdata/}" | sed 's|/|__|g'; }

for f in testdata/rprof/*.out testdata/rprof/patterns/*.out; do
	LC_ALL=C.UTF-8 Rscript test/r/sprof.R "$f" "$out/$(key "$f").sprof.tsv" || true
done
for f in testdata/rprof/*.out testdata/rprof/patterns/*.out testdata/pprof/go/go_cpu.pb.gz \
	testdata/lispworks/kmeans-default.tree "$out/names.folded"; do
	./prof -q -t sprof "$f" | awk -F'\t' '/^# nodes/ { n = 1; getline; next } n { print $1 }' |
		LC_ALL=C.UTF-8 Rscript test/r/abbreviate.R > "$out/$(key "$f").abbreviate.tsv"
done
git status --short "$out"
