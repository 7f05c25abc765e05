#!/bin/sh
# Regenerates the R-written samples in testdata/rprof/ with R (r-base-core):
# all of them, or the files named (sh test/make-rprof-samples.sh X.out).
# R's sampling is timer driven, so every run gives different files; the
# tests only ask that each one round-trips and agrees with summaryRprof.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp "$here/r/workloads.R" "$work/"
LC_ALL=C.UTF-8 Rscript "$here/r/make-rprof-samples.R" "$here/../testdata/rprof" "$work" "$@"
