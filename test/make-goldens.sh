#!/bin/sh
# Remakes the goldens that R makes or checks: *.summaryRprof.tsv and
# *.summaryRprof-memory.tsv beside the Rprof files whose golden already
# exists (see testdata/README.md for why some files have none),
# testdata/tables/ and testdata/sprof/. Needs R (r-base-core) and ./prof.
set -eu
cd "$(dirname "$0")/.."
for golden in testdata/rprof/*.summaryRprof.tsv; do
	LC_ALL=C.UTF-8 Rscript test/r/summaryrprof.R "${golden%.summaryRprof.tsv}" "$golden"
done
for golden in testdata/rprof/*.summaryRprof-memory.tsv; do
	LC_ALL=C.UTF-8 Rscript test/r/summaryrprof-memory.R "${golden%.summaryRprof-memory.tsv}" "$golden"
done
# Tables: made by prof, and for Rprof inputs checked by R against
# summaryRprof where it reads the file right (where it has a golden).
for golden in testdata/tables/*.tables.tsv; do
	in=testdata/$(basename "${golden%.tables.tsv}" | sed 's/__/\//g')
	./prof -q -t tables "$in" > "$golden"
	if [ -f "$in.summaryRprof.tsv" ]; then
		Rscript test/r/check-tables.R "$golden" "$in"
	fi
done
# sprof's summaries and R's abbreviations (testdata/sprof/README.md).
sh test/make-sprof-goldens.sh
git status --short testdata/
