#!/bin/sh
# Remakes the goldens that R makes: *.summaryRprof.tsv beside the Rprof
# files whose golden already exists (see testdata/README.md for why some
# files have none). Needs R (apt-get install r-base-core).
set -eu
cd "$(dirname "$0")/.."
for golden in testdata/rprof/*.summaryRprof.tsv testdata/rprof/*/*.summaryRprof.tsv; do
	LC_ALL=C.UTF-8 Rscript test/r/summaryrprof.R "${golden%.summaryRprof.tsv}" "$golden"
done
git status --short testdata/
