// What test/make-heapprofile-samples.sh profiles with node --heap-prof:
// allocations kept alive to the end (the profile holds the live ones), from
// named functions, a recursion, a method, two anonymous functions in
// different places and two functions of one name in different places.
'use strict';
const kept = [];
globalThis.kept = kept;

function record(i) { return { i, text: 'row ' + i, list: [i, i + 1, i + 2] }; }
function table(n) { const rows = []; for (let i = 0; i < n; i++) rows.push(record(i)); return rows; }
function nest(depth, n) { return depth === 0 ? table(n) : nest(depth - 1, n); }

class Cache {
	constructor() { this.map = new Map(); }
	fill(n) { for (let i = 0; i < n; i++) this.map.set('key' + i, new Array(8).fill(i)); return this; }
}

const a = { make(n) { return new Float64Array(n); } };
const b = { make(n) { return new Array(n).fill('b'); } };

const rounds = Number(process.argv[2] || 20);
for (let r = 0; r < rounds; r++) {
	kept.push(table(500));
	kept.push(nest(6, 200));
	kept.push(new Cache().fill(300));
	kept.push(a.make(4096), b.make(2048));
	kept.push((() => 'x'.repeat(1000) + r)());
	kept.push(((n) => Array.from({ length: n }, (_, i) => ({ i })))(300));
}
