// A reference reading of a stackprof JSON dump taken without raw: true,
// for judging prof's reading of it (test/stackprof.sh): each frame's own
// samples (`samples`), times the dump's interval, as "NAME WEIGHT", summed
// by name (frames of one name at several places are one line here) and
// sorted as C sorts bytes; frames with no samples of their own left out.
// A frame without a name is "(unknown)", as speedscope names it.
// Usage: node stackprof-self.cjs FILE.json
'use strict';
const dump = JSON.parse(require('node:fs').readFileSync(process.argv[2], 'utf8'));
if (dump.raw) throw new Error(`${process.argv[2]} has raw samples: not a dump of frame counts alone`);
const sums = new Map();
for (const frame of Object.values(dump.frames)) {
	if (!frame.samples) continue;
	const name = frame.name == null ? '(unknown)' : frame.name;
	sums.set(name, (sums.get(name) || 0) + frame.samples * dump.interval);
}
const lines = [...sums].map(([name, w]) => `${name} ${w}`);
lines.sort((a, b) => (Buffer.compare(Buffer.from(a), Buffer.from(b))));
for (const line of lines) console.log(line);
