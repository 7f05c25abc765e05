// The reference reading of a .cpuprofile that prof's folded output is
// judged by (docs/formats/cpuprofile.md, "What prof builds"): DevTools' rule,
// a frame per node from the root's child to the sampled node, named by
// functionName or "(anonymous)", "(root)" left out, one count per entry of
// `samples` (not hitCount). A profile without `samples` is counted by
// hitCount, as DevTools' CPUProfileDataModel counts it. The old format's
// `head` tree is made a nodes list first, as DevTools'
// compatibilityConversionHeadToNodes makes it (here without recursion: a
// tree may be deeper than node's stack). Prints "a;b;c N" per sample or node.
// Usage: node devtools-folded.cjs FILE.cpuprofile
'use strict';
const profile = JSON.parse(require('node:fs').readFileSync(process.argv[2], 'utf8'));
if (profile.head && !profile.nodes) {
	profile.nodes = [];
	for (const todo = [profile.head]; todo.length;) {
		const n = todo.pop();
		profile.nodes.push({ id: n.id, hitCount: n.hitCount, callFrame: { functionName: n.functionName },
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
const folded = (id) => {
	const frames = [];
	for (let at = id; at !== undefined; at = parent.get(at)) {
		const name = byId.get(at).callFrame.functionName;
		if (name !== '(root)') frames.push(name || '(anonymous)');
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
