// The reference reading of a .cpuprofile that prof's folded output is
// judged by (docs/formats/cpuprofile.md, "What prof builds"): DevTools' rule,
// a frame per node from the root's child to the sampled node, named by
// functionName or "(anonymous)", "(root)" left out, one count per entry of
// `samples` (not hitCount). Prints "a;b;c 1" per sample.
// Usage: node devtools-folded.cjs FILE.cpuprofile
'use strict';
const profile = JSON.parse(require('node:fs').readFileSync(process.argv[2], 'utf8'));
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const parent = new Map();
for (const n of profile.nodes) {
	if (typeof n.parent === 'number') parent.set(n.id, n.parent);
	for (const c of n.children || []) parent.set(c, n.id);
}
const lines = [];
for (const id of profile.samples) {
	const frames = [];
	for (let at = id; at !== undefined; at = parent.get(at)) {
		const name = byId.get(at).callFrame.functionName;
		if (name !== '(root)') frames.push(name || '(anonymous)');
	}
	if (frames.length) lines.push(frames.reverse().join(';') + ' 1');
}
process.stdout.write(lines.join('\n') + '\n');
