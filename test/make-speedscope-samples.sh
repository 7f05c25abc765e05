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
# perf's four threads (testdata/chart/threads.perf) through the app's own
# perf import: a speedscope file of one evented profile per thread, for
# the flame chart's lanes (test/flame.sh). What the chart must show, read
# off the file: "seconds S" (the first stretch with a frame open to the
# last's end) and "thread NAME STRETCHES" per profile.
export_from_app "$top/testdata/chart/threads.perf" "$top/testdata/chart/threads.speedscope.json"
node -e 'const d = JSON.parse(require("fs").readFileSync(process.argv[1]));
	const s = { nanoseconds: 1e-9, microseconds: 1e-6, milliseconds: 1e-3, seconds: 1 };
	let first = Infinity, last = -Infinity;
	const threads = d.profiles.map((p) => {
		let depth = 0, before = p.events[0].at, n = 0;
		for (const e of p.events) {
			if (depth > 0 && e.at > before) {
				n++;
				first = Math.min(first, before * s[p.unit]);
				last = Math.max(last, e.at * s[p.unit]);
			}
			before = e.at;
			depth += e.type === "O" ? 1 : -1;
		}
		return `thread ${p.name} ${n}`;
	});
	console.log(`seconds ${(last - first).toFixed(6)}\n${threads.join("\n")}`)' \
	"$top/testdata/chart/threads.speedscope.json" > "$top/testdata/chart/threads.speedscope.json.lanes"
