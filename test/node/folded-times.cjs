// Folded stacks weighed in microseconds (stdin), as the speedscope app
// shows a profile of them in its Sandwich view: a line a frame name,
// "name<TAB>self<TAB>total", the self time where the frame is the leaf
// and the total where it is anywhere on the stack (once a stack),
// formatted by speedscope's TimeFormatter for a microsecond profile (its
// value-formatters.ts: minutes as M:SS, else seconds, ms, us or ns with
// two decimals). The judge of prof's .cpuprofile in the app: what the app
// shows must be what prof's folded stacks of the input say.
// UNIT is the folded weights': nanoseconds, microseconds, milliseconds, or
// count (a millisecond each, as prof writes a count without a period).
// Usage: prof -t folded -s TYPE FILE | node folded-times.cjs UNIT
'use strict';
const toUs = { nanoseconds: (w) => w / 1000, microseconds: (w) => w, milliseconds: (w) => w * 1000,
	count: (w) => w * 1000 }[process.argv[2]];
const self = new Map(), total = new Map();
for (const line of require('node:fs').readFileSync(0, 'utf8').split('\n')) {
	const m = /^(.*) ([0-9.]+)$/.exec(line);
	if (!m) continue;
	const frames = m[1].split(';'), w = Number(m[2]);
	self.set(frames.at(-1), (self.get(frames.at(-1)) || 0) + w);
	for (const f of new Set(frames)) total.set(f, (total.get(f) || 0) + w);
}
const pad = (s, n) => s.padStart(n, '0');
function format(w) {
	const n = toUs(w) * 1e-6;
	if (n / 60 >= 1) {
		const minutes = Math.floor(n / 60);
		return `${minutes}:${pad(Math.floor(n - minutes * 60).toString(), 2)}`;
	}
	return n / 1 >= 1 ? `${n.toFixed(2)}s` : n / 0.001 >= 1 ? `${(n / 0.001).toFixed(2)}ms`
		: n / 1e-6 >= 1 ? `${(n / 1e-6).toFixed(2)}\u00b5s` : `${(n / 1e-9).toFixed(2)}ns`;
}
for (const [name, t] of total)
	console.log([name, format(self.get(name) || 0), format(t)].join('\t'));
