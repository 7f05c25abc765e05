#!/bin/sh
# Regenerates the V8 CPU profiles in testdata/cpuprofile/ with node
# (Debian nodejs) from test/node/workload.js: one at node's default
# sampling interval, one at 100 us; and same-names.cpuprofile from
# test/node/same_names.js, two anonymous functions in different places. Sampling is timer driven, so every run
# gives different files; the tests check them against speedscope and
# go tool pprof, not against fixed numbers.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
out="$here/../testdata/cpuprofile"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$out"
(cd "$work" && node --cpu-prof --cpu-prof-dir=. --cpu-prof-name=default.cpuprofile "$here/node/workload.js" 300 > /dev/null)
(cd "$work" && node --cpu-prof --cpu-prof-dir=. --cpu-prof-name=interval100.cpuprofile \
	--cpu-prof-interval 100 "$here/node/workload.js" 150 > /dev/null)
# Two anonymous functions in different places (test/node/same_names.js).
(cd "$work" && node --cpu-prof --cpu-prof-dir=. --cpu-prof-name=same-names.cpuprofile "$here/node/same_names.js" 300 > /dev/null)
# The script's path is the machine's; the profile names it as file:///PATH.
for f in default interval100 same-names; do
	sed "s|file://$here/node/|file:///prof/test/node/|g" "$work/$f.cpuprofile" > "$out/$f.cpuprofile"
done
# DevTools' older format (a `head` tree, seconds, timestamps), made from
# default.cpuprofile by DevTools' reading rules reversed
# (test/node/to-old-format.cjs): with a timestamp a sample, with one more
# ending the last, with samples and no times, with hitCounts alone.
mkdir -p "$out/old"
for kind in stamps stamps-end samples hits; do
	node "$here/node/to-old-format.cjs" "$out/default.cpuprofile" "$kind" "$out/old/$kind.cpuprofile"
done
