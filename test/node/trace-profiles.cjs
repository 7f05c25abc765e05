// A reference reading of the V8 CPU profiles in a Chrome trace: each
// Profile event's profile, its ProfileChunks (paired by process and id, as
// Chrome numbers profiles in each process) joined in the file's order,
// written as one .cpuprofile, OUTDIR/N.cpuprofile, for DevTools' rule
// (devtools-folded.cjs) to read. Prints how many it wrote.
// Usage: node trace-profiles.cjs TRACE OUTDIR
'use strict';
const fs = require('node:fs');
const trace = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));
const events = Array.isArray(trace) ? trace : trace.traceEvents;
const profiles = new Map();
for (const e of events) {
	const key = `${e.pid}:${e.id}`;
	const data = e.args && e.args.data;
	if (e.name === 'Profile' && data)
		profiles.set(key, { startTime: data.startTime, nodes: [], samples: [], timeDeltas: [] });
	if (e.name !== 'ProfileChunk' || !data || !profiles.has(key)) continue;
	const p = profiles.get(key);
	const cpu = data.cpuProfile || {};
	p.nodes.push(...(cpu.nodes || []));
	p.samples.push(...(cpu.samples || []));
	p.timeDeltas.push(...(data.timeDeltas || []));
	if (data.endTime != null) p.endTime = data.endTime;
}
let n = 0;
for (const p of profiles.values()) {
	if (!p.samples.length) continue;
	fs.writeFileSync(`${process.argv[3]}/${n++}.cpuprofile`, JSON.stringify(p));
}
console.log(n);
