#!/bin/sh
# Records the profiles of busy threads in testdata/chart/ that the flame
# chart's lanes are judged on (test/flame.sh), from the programs in
# test/chart/: a JFR of Lanes.java's six threads (OpenJDK 17, execution
# samples only, test/chart/lanes.jfc), `perf record -g` of lanes.c's four
# threads as `perf script` prints it, and `node --cpu-prof` of lanes.js.
# Sampling is timer driven: every run gives other files.
#   sh test/make-chart-recordings.sh
set -eu
here=$(cd "$(dirname "$0")" && pwd)
out="$here/../testdata/chart"
jdk=${JDK17:-/usr/lib/jvm/java-17-openjdk-amd64}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$out"

"$jdk/bin/javac" -d "$work" "$here/chart/Lanes.java"
(cd "$work" && "$jdk/bin/java" -XX:StartFlightRecording=filename="$work/lanes.jfr,settings=$here/chart/lanes.jfc" \
	-cp . Lanes > /dev/null 2>&1)
cp "$work/lanes.jfr" "$out/threads.jfr"

cc -O1 -g -fno-omit-frame-pointer -pthread -o "$work/lanes" "$here/chart/lanes.c"
perf record -q -F 499 -g -o "$work/perf.data" "$work/lanes" 2> /dev/null
perf script -i "$work/perf.data" 2> /dev/null | sed "s#$work/##g" > "$out/threads.perf"

node --cpu-prof --cpu-prof-dir="$work/node" --cpu-prof-name=lanes.cpuprofile "$here/chart/lanes.js" > /dev/null
cp "$work/node/lanes.cpuprofile" "$out/busy.cpuprofile"
