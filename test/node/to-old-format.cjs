// Writes a .cpuprofile of node's in DevTools' older format, by the rules
// DevTools' CPUProfileDataModel reads it with: the tree nested under
// `head` (each node's callFrame fields on the node, lineNumber and
// columnNumber 1-based, `children` holding the child nodes), startTime and
// endTime in seconds, and `timestamps` in microseconds, sample i's time
// (startTime + the deltas up to i). KIND says what the file has:
//   stamps      samples and a timestamp each
//   stamps-end  samples and one timestamp more, endTime's, ending the last
//   samples     samples and no times
//   hits        neither: each node's hitCount, counted from samples
// Usage: node to-old-format.cjs IN.cpuprofile KIND OUT.cpuprofile
'use strict';
const fs = require('node:fs');
const [input, kind, output] = process.argv.slice(2);
const profile = JSON.parse(fs.readFileSync(input, 'utf8'));
const hits = new Map();
for (const id of profile.samples) hits.set(id, (hits.get(id) || 0) + 1);
const old = new Map(profile.nodes.map((n) => [n.id, {
	functionName: n.callFrame.functionName, scriptId: n.callFrame.scriptId, url: n.callFrame.url,
	lineNumber: n.callFrame.lineNumber + 1, columnNumber: n.callFrame.columnNumber + 1,
	hitCount: hits.get(n.id) || 0, callUID: n.id, id: n.id, children: [],
}]));
const isChild = new Set();
for (const n of profile.nodes)
	for (const c of n.children || []) {
		old.get(n.id).children.push(old.get(c));
		isChild.add(c);
	}
const out = { head: old.get(profile.nodes.find((n) => !isChild.has(n.id)).id),
	startTime: profile.startTime / 1e6, endTime: profile.endTime / 1e6 };
if (kind !== 'hits') out.samples = profile.samples;
if (kind.startsWith('stamps')) {
	let t = profile.startTime;
	out.timestamps = profile.timeDeltas.map((d) => (t += d));
	if (kind === 'stamps-end') out.timestamps.push(profile.endTime);
}
fs.writeFileSync(output, JSON.stringify(out));
