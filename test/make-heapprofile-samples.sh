#!/bin/sh
# Regenerates the V8 sampling heap profiles in testdata/heapprofile/ with
# node (Debian nodejs, v20) from test/node/heap_workload.js:
# - default.heapprofile: `node --heap-prof`, at a 4 KiB interval (node's
#   default, 512 KiB, samples too little of a short run): the live
#   allocations when node exits, with node ids and `samples`;
# - devtools-all.heapprofile: what DevTools saves, the protocol's
#   HeapProfiler.stopSampling result, through node's inspector, keeping
#   the allocations the GC collected too (includeObjectsCollectedBy*GC);
# - old.heapprofile: default.heapprofile without `id`s and `samples`, as
#   node 10 and Chrome 69 wrote (../shared/peers/speedscope/node/ has one
#   such file of node 10's own; the cross-check reads it).
# Sampling is random, so every run gives other files; the tests judge them
# by the speedscope app's import and the importer's rule, not fixed numbers.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
out="$here/../testdata/heapprofile"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$out"
(cd "$work" && node --heap-prof --heap-prof-dir=. --heap-prof-name=default.heapprofile \
	--heap-prof-interval=4096 "$here/node/heap_workload.js" 20)
(cd "$work" && node -e '
const inspector = require("inspector"), fs = require("fs");
const session = new inspector.Session();
session.connect();
const post = (method, params) => new Promise((ok, no) =>
	session.post(method, params, (err, res) => err ? no(err) : ok(res)));
(async () => {
	await post("HeapProfiler.startSampling", { samplingInterval: 16384,
		includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true });
	process.argv[2] = "20";
	require(process.argv[1]);
	const { profile } = await post("HeapProfiler.stopSampling");
	fs.writeFileSync("devtools-all.heapprofile", JSON.stringify(profile));
})();' "$here/node/heap_workload.js")
# The script's path is the machine's; the profiles name it as file:///PATH or PATH.
for f in default devtools-all; do
	sed "s|$here/node/|/prof/test/node/|g" "$work/$f.heapprofile" > "$out/$f.heapprofile"
done
node -e '
const fs = require("fs");
const profile = JSON.parse(fs.readFileSync(process.argv[1], "utf8"));
const strip = (node) => { delete node.id; node.children.forEach(strip); };
strip(profile.head);
fs.writeFileSync(process.argv[2], JSON.stringify({ head: profile.head }));' \
	"$out/default.heapprofile" "$out/old.heapprofile"
