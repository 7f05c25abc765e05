#!/bin/sh
# Regenerates testdata/speedscope/: speedscope files as the real speedscope
# app exports them (its Export button, in headless Chromium, through
# test/speedscope/export.cjs), from profiles in testdata/ that real
# programs wrote, and one that prof's own writer made. Needs what
# test/speedscope.sh needs (npm ci in test/speedscope, Debian's chromium)
# and a built prof (PROF, default build/prof).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
top="$here/.."
out="$top/testdata/speedscope"
prof=${PROF:-$top/build/prof}
app="$here/speedscope/node_modules/speedscope/dist/release"
[ -d "$app" ] || npm ci --prefix "$here/speedscope" --silent
mkdir -p "$out"
export_from_app() { # PROFILE OUT
	NODE_PATH="$here/speedscope/node_modules" node "$here/speedscope/export.cjs" "$app" "$1" "$2"
}
# node's V8 profile: speedscope imports it as an evented profile.
export_from_app "$top/testdata/cpuprofile/default.cpuprofile" "$out/node-default.speedscope.json"
# Go's pprof (two sample types): speedscope's pprof import, one profile.
export_from_app "$top/testdata/pprof/go/go_cpu.pb.gz" "$out/go_cpu.speedscope.json"
# An R profile through prof's writer (two profiles, one per type), then
# through the app: what a user gets after opening prof's output and exporting it.
"$prof" -q -t speedscope -o "$out/kmeans-prof.speedscope.json" "$top/testdata/rprof/kmeans-default.out"
export_from_app "$out/kmeans-prof.speedscope.json" "$out/kmeans-prof-app.speedscope.json"
