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
sed "s#file://$here/chart/#file:///#g" "$work/node/lanes.cpuprofile" > "$out/busy.cpuprofile"

# What the chart must show, from each profiler's own tools: NAME.lanes
# holds "seconds S" (first sample to last) and "thread KEY SAMPLES" per
# thread (JFR's thread name, perf's tid; "all" for node's one thread).
"$jdk/bin/jfr" print --json --events jdk.ExecutionSample "$out/threads.jfr" | python3 -c '
import collections, datetime, json, sys
events = json.load(sys.stdin)["recording"]["events"]
def at(e):  # ISO time with ns: seconds from the epoch
    day, frac = e["values"]["startTime"].rstrip("Z").split(".")
    return datetime.datetime.fromisoformat(day).replace(tzinfo=datetime.timezone.utc).timestamp() + float("0." + frac)
times = [at(e) for e in events]
print("seconds %.6f" % (max(times) - min(times)))
for name, n in collections.Counter(e["values"]["sampledThread"]["javaName"] for e in events).most_common():
    print("thread %s %d" % (name, n))' > "$out/threads.jfr.lanes"
perf script -F tid,time -i "$work/perf.data" 2> /dev/null | awk '{ t = $2 + 0; if (!n++) first = t; last = t; c[$1]++ }
	END { printf "seconds %.6f\n", last - first; for (k in c) print "thread " k " " c[k] }' > "$out/threads.perf.lanes"
node -e 'const p = JSON.parse(require("fs").readFileSync(process.argv[1]));
	const d = p.timeDeltas.slice(1).reduce((a, b) => a + b, 0);
	console.log(`seconds ${(d / 1e6).toFixed(6)}\nthread all ${p.samples.length}`)' "$out/busy.cpuprofile" > "$out/busy.cpuprofile.lanes"
