// The reference reading of a .cpuprofile that prof's folded output is
// judged by (docs/formats/cpuprofile.md, "What prof builds"): DevTools' rule,
// a frame per node from the root's child to the sampled node, named by
// functionName or "(anonymous)", "(root)" left out, one count per entry of
// `samples` (not hitCount). A profile without `samples` is counted by
// hitCount, as DevTools' CPUProfileDataModel counts it. The old format's
// `head` tree is made a nodes list first, as DevTools'
// compatibilityConversionHeadToNodes makes it (here without recursion: a
// tree may be deeper than node's stack). A function is its name, url and
// line, as DevTools keys it; where functions with a url or line share a
// name, each is shown as DevTools shows it, its name and its own url:line
// (1-based), so that two "(anonymous)" stay two (docs/model.md). Prints "a;b;c N" per
// sample or node.
// Usage: node devtools-folded.cjs FILE.cpuprofile
'use strict';
const profile = JSON.parse(require('node:fs').readFileSync(process.argv[2], 'utf8'));
if (profile.head && !profile.nodes) {
	profile.nodes = [];
	for (const todo = [profile.head]; todo.length;) {
		const n = todo.pop();
		profile.nodes.push({ id: n.id, hitCount: n.hitCount,
			callFrame: { functionName: n.functionName, url: n.url, lineNumber: n.lineNumber - 1 },
			children: n.children.map((c) => c.id) });
		todo.push(...n.children.slice().reverse());
	}
}
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const parent = new Map();
for (const n of profile.nodes) {
	if (typeof n.parent === 'number') parent.set(n.id, n.parent);
	for (const c of n.children || []) parent.set(c, n.id);
}
const nameOf = (cf) => cf.functionName || '(anonymous)';
const placed = (cf) => Boolean(cf.url) || cf.lineNumber + 1 > 0;
const places = new Map(); // name -> the url:line of each function of that name with a place
for (const n of profile.nodes) {
	const cf = n.callFrame, name = nameOf(cf);
	if (!places.has(name)) places.set(name, new Set());
	if (placed(cf)) places.get(name).add(`${cf.url || ''}:${cf.lineNumber + 1}`);
}
const shown = (cf) => {
	const name = nameOf(cf), line = cf.lineNumber + 1;
	if (places.get(name).size < 2 || !placed(cf)) return name;
	return `${name} ${cf.url || ''}${line > 0 ? (cf.url ? ':' : 'line ') + line : ''}`;
};
const folded = (id) => {
	const frames = [];
	for (let at = id; at !== undefined; at = parent.get(at)) {
		const cf = byId.get(at).callFrame;
		if (cf.functionName !== '(root)') frames.push(shown(cf));
	}
	return frames.reverse().join(';');
};
const lines = [];
const counted = profile.samples ? profile.samples.map((id) => [id, 1])
	: profile.nodes.filter((n) => n.hitCount > 0).map((n) => [n.id, n.hitCount]);
for (const [id, count] of counted) {
	const stack = folded(id);
	if (stack) lines.push(`${stack} ${count}`);
}
process.stdout.write(lines.join('\n') + '\n');
