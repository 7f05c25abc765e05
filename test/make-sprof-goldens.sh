#!/bin/sh
# Remakes testdata/sprof/ (see its README.md); run by `make goldens`.
#  - names.folded: the names abbreviate() is tried on: hard cases written
#    here, and 1000 drawn at random (awk, seed 13) from letters of every
#    class R's abbreviate tells apart;
#  - long-names.folded: names of hundreds to thousands of characters (C++
#    templates, Java's hidden classes and R calls cut by the line buffer are
#    that long), in pairs that keep abbreviate()'s rounds going: equal but
#    for their last character or one in the middle, or for their spaces
#    (awk, seed 22);
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

LC_ALL=C awk 'function rep(s, n,   r) { r = ""; while (n-- > 0) r = r s; return r }
	function draw(n, chars,   r, k) { r = ""; k = length(chars); while (n-- > 0) r = r substr(chars, int(rand() * k) + 1, 1); return r }
	function pair(a, b) { print "main;" a " 1"; print "main;" b " 1" }
	BEGIN {
		srand(22)
		for (n = 50; n <= 400; n *= 2) pair("A" rep("b", n) "c", "A" rep("b", n) "d")
		pair("X" rep("aeiou", 80) "ZZ", "X" rep("aeiou", 80) "ZY")
		pair("Q" rep("xy.z_", 60) "k", "Q" rep("xy.z_", 60) "m")
		pair("a" rep(" b c", 60) "d", "a" rep(" b c", 59) " bc d")
		pair("a" rep(" b", 100) "\t\t\t", "a" rep(" b", 100) "\t\t")
		pair("std::map<" rep("std::vector<int>, ", 40) "long>", "std::map<" rep("std::vector<int>, ", 40) "int>")
		for (i = 0; i < 12; i++) {
			base = draw(300 + int(rand() * 2700), "aeiouxyzbcdAEX._1:<>$ ")
			at = int(rand() * length(base)) + 1
			pair(base, substr(base, 1, at - 1) "q" substr(base, at + 1))
			pair(base "e", base "o")
		}
	}' > "$out/long-names.folded"

key() { echo "${1#testdata/}" | sed 's|/|__|g'; }

for f in testdata/rprof/*.out testdata/rprof/patterns/*.out; do
	LC_ALL=C.UTF-8 Rscript test/r/sprof.R "$f" "$out/$(key "$f").sprof.tsv" || true
done
for f in testdata/rprof/*.out testdata/rprof/patterns/*.out testdata/pprof/go/go_cpu.pb.gz \
	testdata/lispworks/kmeans-default.tree "$out/names.folded" "$out/long-names.folded"; do
	./prof -q -t sprof "$f" | awk -F'\t' '/^# nodes/ { n = 1; getline; next } n { print $1 }' |
		LC_ALL=C.UTF-8 Rscript test/r/abbreviate.R > "$out/$(key "$f").abbreviate.tsv"
done
git status --short "$out"
