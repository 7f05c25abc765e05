// Two anonymous functions in different places, as node --cpu-prof names
// them (test/make-cpuprofile-samples.sh): DevTools shows each as
// "(anonymous)" with its own file:line, and so must every view of prof.
'use strict';
function run(f, n) { return f(n); }
const until = Date.now() + Number(process.argv[2] || 300);
let sink = 0;
while (Date.now() < until) {
	sink += run(function (n) { let s = 0; for (let i = 0; i < n; i++) s += i * i; return s; }, 20000);
	sink += run(function (n) { let s = 0; for (let i = 0; i < n; i++) s += Math.sqrt(i); return s; }, 20000);
}
console.log(sink > 0 ? 'done' : 'none');
