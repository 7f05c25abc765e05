// Two folded files as the same stacks, each count equal to a relative
// REL (default 1e-9), a stack one leaves out counting 0: for judging a reading in exact decimals against a
// reference that sums the app's doubles, which round what they cannot hold.
// Prints the first difference and exits 1.
// Usage: node folded-close.cjs WANT GOT [REL]
'use strict';
const fs = require('node:fs');
const read = (path) => {
	const counts = new Map();
	for (const line of fs.readFileSync(path, 'utf8').split('\n')) {
		if (!line) continue;
		const at = line.lastIndexOf(' ');
		counts.set(line.slice(0, at), Number(line.slice(at + 1)));
	}
	return counts;
};
const [want, got] = [read(process.argv[2]), read(process.argv[3])];
const rel = Number(process.argv[4] || 1e-9);
const differ = (a = 0, b = 0) => Math.abs(a - b) > rel * Math.max(Math.abs(a), Math.abs(b));
for (const key of new Set([...want.keys(), ...got.keys()])) {
	if (differ(want.get(key), got.get(key))) {
		console.error(`${key}: want ${want.get(key)}, got ${got.get(key)}`);
		process.exit(1);
	}
}
