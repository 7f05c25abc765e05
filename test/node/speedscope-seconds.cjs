// node speedscope-seconds.cjs FILE DIGITS: the seconds profile 0 of a
// speedscope file counts, with DIGITS decimals: a sampled profile's
// weights summed, an evented one's time with a frame open, over its unit.
'use strict';
const fs = require('fs');
const [file, digits] = process.argv.slice(2);
const profile = JSON.parse(fs.readFileSync(file, 'utf8')).profiles[0];
const perSecond = { seconds: 1, milliseconds: 1e3, microseconds: 1e6, nanoseconds: 1e9 }[profile.unit];
let total = 0;
if (profile.type === 'sampled') {
	total = profile.weights.reduce((sum, w) => sum + w, 0);
} else {
	let open = 0, last = 0;
	for (const e of profile.events) {
		if (open > 0)
			total += e.at - last;
		last = e.at;
		open += e.type === 'O' ? 1 : -1;
	}
}
console.log((total / perSecond).toFixed(Number(digits)));
