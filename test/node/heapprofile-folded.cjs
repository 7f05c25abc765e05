// A V8 sampling heap profile's folded stacks as the speedscope app's
// importer (src/import/v8heapalloc.ts) builds them: one stack per node of
// the `head` tree, root to node, weighed by the node's selfSize; with
// `samples` as the type, each sample counted on the node it names (a node
// the tree lacks counts nowhere). The root, "(root)", is no frame, and an
// anonymous function is "(anonymous)", as prof names them; prof's
// " (FILE:LINE)" after names shared by several functions is for the caller
// to strip. Zero weights are left out; lines are summed and sorted.
//   node heapprofile-folded.cjs FILE [space|samples]
'use strict';
const fs = require('fs');
const [file, type = 'space'] = process.argv.slice(2);
const profile = JSON.parse(fs.readFileSync(file, 'utf8'));
const counts = new Map();
for (const s of profile.samples || []) counts.set(s.nodeId, (counts.get(s.nodeId) || 0) + 1);
const sums = new Map();
const walk = (node, path) => {
	const name = node.callFrame.functionName || '(anonymous)';
	const here = name === '(root)' ? path : path.concat(name);
	const weight = type === 'samples' ? counts.get(node.id) || 0 : node.selfSize;
	if (weight && here.length) {
		const key = here.join(';');
		sums.set(key, (sums.get(key) || 0) + weight);
	}
	for (const child of node.children) walk(child, here);
};
walk(profile.head, []);
const lines = Array.from(sums, ([stack, weight]) => `${stack} ${weight}`);
lines.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
process.stdout.write(lines.map((l) => l + '\n').join(''));
