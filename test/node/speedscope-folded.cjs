// A reference reading of a speedscope JSON file, for judging prof's reader:
// profile number N (default 0) as folded stacks, "a;b;c WEIGHT" per stack,
// weights summed. Sampled: each sample's frames, root first, and its
// weight. Evented: each stretch between two events, the frames open
// through it. Frame names as the file gives them, but where frames with a
// file or line share a name at different places, each is shown with its
// own, py-spy's "name (file:line)", so that they stay apart
// (docs/model.md).
// A frame index is used as the app uses it, to index the frames as
// JavaScript does ([32] and "32" name frame 32); one that names no frame
// leaves the app with no profile: exit 2.
// Usage: node speedscope-folded.cjs FILE [N]
'use strict';
const file = JSON.parse(require('node:fs').readFileSync(process.argv[2], 'utf8'));
const profile = file.profiles[Number(process.argv[3] || 0)];
const placed = (f) => Boolean(f.file) || f.line > 0;
const places = new Map(); // name -> the file:line of each placed frame of that name
for (const f of file.shared.frames) {
	if (!places.has(f.name)) places.set(f.name, new Set());
	if (placed(f)) places.get(f.name).add(`${f.file || ''}:${f.line > 0 ? f.line : 0}`);
}
const shown = (f) => {
	if (!placed(f) || places.get(f.name).size < 2) return f.name;
	const line = f.line > 0 ? (f.file ? ':' : 'line ') + f.line : '';
	return `${f.name} (${f.file || ''}${line})`;
};
const names = file.shared.frames.map(shown);
const sums = new Map();
const add = (frames, w) => {
	if (!frames.length) return;
	const key = frames.map((i) => {
		if (names[i] === undefined) { console.error(`frame index ${JSON.stringify(i)} names no frame`); process.exit(2); }
		return names[i];
	}).join(';');
	sums.set(key, (sums.get(key) || 0) + w);
};
if (profile.type === 'sampled') {
	profile.samples.forEach((s, i) => add(s, profile.weights[i]));
} else {
	const open = [];
	let last = 0;
	for (const e of profile.events) {
		if (e.at > last) add(open, e.at - last);
		last = e.at;
		if (e.type === 'O') open.push(e.frame);
		else open.pop();
	}
}
for (const [k, v] of sums) console.log(`${k} ${Number(v.toPrecision(15))}`);
