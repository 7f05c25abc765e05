#!/bin/sh
# Makes testdata/rprof/patterns/: Rprof files in the forms that older R
# versions, Windows and copies taken while R was writing have, each made
# from a file R 4.2.2 wrote here (testdata/rprof/), then their goldens from
# R's summaryRprof where R reads them right (testdata/README.md says which).
set -eu
cd "$(dirname "$0")/.."
src=testdata/rprof
out=testdata/rprof/patterns
mkdir -p "$out"

# R 3.x line profiling: a reference after the outermost frame (the call
# site of that frame), and a sample that is a reference alone.
awk '/^#File 1:/ { defined = 1 } !defined || /^#File/ { print; next }
	NR == 40 { print "1#3 " }
	NR % 3 == 0 { print $0 "1#" NR " "; next } { print }' "$src/optim-line.out" > "$out/call-site.out"
# R before 2.9: names without quotes.
sed 's/"//g' "$src/kmeans-default.out" > "$out/unquoted.out"
# ... written on Windows, as R 2.x there did.
sed 's/$/\r/' "$out/unquoted.out" > "$out/unquoted-crlf.out"
# Windows line endings, with memory, GC and line profiling and a #File line.
sed 's/$/\r/' "$src/boot-memory-gc-line.out" > "$out/crlf.out"
# Copied while R was writing: the last line ends without its newline,
# once after a whole frame and once inside a name.
head -c -1 "$src/kmeans-default.out" > "$out/no-final-newline.out"
last=$(tail -n 1 "$src/boot-memory-gc-line.out")
head -n -1 "$src/boot-memory-gc-line.out" > "$out/copied-mid-name.out"
printf '%s"summ' "$last" >> "$out/copied-mid-name.out"
# A run restarted mid-file with a header of the interval alone.
{ cat "$src/optim-line.out"; echo "sample.interval=10000"; tail -n 20 "$src/kmeans-default.out"; } > "$out/bare-interval.out"

for f in call-site.out crlf.out no-final-newline.out; do
	LC_ALL=C.UTF-8 Rscript test/r/summaryrprof.R "$out/$f" "$out/$f.summaryRprof.tsv"
done
