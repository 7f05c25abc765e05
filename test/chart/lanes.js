// A second of busy work in two phases, for the flame chart of a
// .cpuprofile (test/make-chart-recordings.sh records it with node --cpu-prof).
'use strict';
function hash(until) {
	let h = 1;
	while (Date.now() < until)
		for (let i = 0; i < 10000; i++) h = (h * 31 + i) | 0;
	return h;
}
function sort(until) {
	let n = 0;
	while (Date.now() < until) {
		const a = Array.from({ length: 2000 }, (_, i) => (i * 2654435761) % 1000);
		a.sort((x, y) => x - y);
		n += a[7];
	}
	return n;
}
const start = Date.now();
console.log(hash(start + 500) + sort(start + 1000));
