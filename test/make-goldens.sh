#!/bin/sh
# Remakes the goldens that R makes or checks: *.summaryRprof.tsv beside the
# Rprof files whose golden already exists (see testdata/README.md for why
# some files have none), and testdata/tables/. Needs R (r-base-core) and ./prof.
set -eu
cd "$(dirname "$0")/.."
for golden in testdata/rprof/*.summaryRprof.tsv testdata/rprof/*/*.summaryRprof.tsv; do
	LC_ALL=C.UTF-8 Rscript test/r/summaryrprof.R "${golden%.summaryRprof.tsv}" "$golden"
done
# Tables: made by prof, and for Rprof inputs checked by R against summaryRprof.
for golden in testdata/tables/*.tables.tsv; do
	in=testdata/$(basename "${golden%.tables.tsv}" | sed 's/__/\//g')
	./prof -q -t tables "$in" > "$golden"
	case $in in *.out) Rscript test/r/check-tables.R "$golden" "$in" ;; esac
done
git status --short testdata/
