// A profile's samples in time order, read off the file by each format's
// own rule, for the tests to compare prof's .cpuprofile with the input:
// a line a run of consecutive samples with the same stack,
// "outer;...;leaf<TAB>microseconds". Samples of no time are left out (a
// speedscope profile has none).
//   .cpuprofile (V8's rule): the stack is the path from the root, "(root)"
//     left out; sample i lasts from its time (startTime + deltas up to i)
//     to the next sample's, the last to endTime; a last sample at the
//     root with no time after it only ends the one before.
//   speedscope JSON of one profile (as prof writes it with -s): each
//     sample its weight, in time order; the time of the samples so far is
//     made microseconds and rounded down, as prof's writer does. A frame
//     is named as the .cpuprofile names it: without the " (file:line)"
//     or " url:line" that prof's views add, from the frame's own file and
//     line, where functions of one name are at other places
//     (docs/model.md).
// Usage: node timeline.cjs FILE
'use strict';
const file = JSON.parse(require('node:fs').readFileSync(process.argv[2], 'utf8'));
const samples = []; // [stack, microseconds]
if (file.nodes) {
	const byId = new Map(file.nodes.map((n) => [n.id, n])), parent = new Map();
	for (const n of file.nodes) for (const c of n.children || []) parent.set(c, n.id);
	const stack = (id) => {
		const names = [];
		for (let at = id; at !== undefined; at = parent.get(at))
			if (byId.get(at).callFrame.functionName !== '(root)') names.push(byId.get(at).callFrame.functionName);
		return names.reverse().join(';');
	};
	let t = file.startTime;
	const times = file.timeDeltas.map((d) => (t += d));
	file.samples.forEach((id, i) => {
		const w = (i + 1 < times.length ? times[i + 1] : file.endTime) - times[i];
		if (i + 1 === times.length && stack(id) === '' && w === 0) return;
		samples.push([stack(id), w]);
	});
} else {
	const p = file.profiles[0], frames = file.shared.frames;
	const ownName = (f) => {
		const place = (f.file || '') + (f.line > 0 ? (f.file ? ':' : 'line ') + f.line : '');
		for (const suffix of [` (${place})`, ` ${place}`])
			if (place && f.name.endsWith(suffix)) return f.name.slice(0, -suffix.length);
		return f.name;
	};
	const toUs = { nanoseconds: (v) => Math.floor(v / 1000), microseconds: Math.floor,
		milliseconds: (v) => Math.floor(v * 1000), seconds: (v) => Math.floor(v * 1e6),
		none: (v) => Math.floor(v * 1000) }[p.unit];
	let sum = 0, before = 0;
	p.samples.forEach((s, i) => {
		sum += p.weights[i];
		const now = toUs(sum);
		samples.push([s.map((f) => ownName(frames[f])).join(';'), now - before]);
		before = now;
	});
}
const runs = [];
for (const [stack, w] of samples.filter(([, w]) => w !== 0)) {
	if (runs.length && runs.at(-1)[0] === stack) runs.at(-1)[1] += w;
	else runs.push([stack, w]);
}
for (const [stack, w] of runs) console.log(`${stack}\t${w}`);
