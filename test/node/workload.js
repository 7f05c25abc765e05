// A small CPU-bound workload for node --cpu-prof (test/make-cpuprofile-samples.sh):
// named and anonymous functions, a getter, a method whose name has a blank,
// a UTF-8 name, a closure reached by two paths, and garbage to collect.
'use strict';
function fib(n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
const größe = (n) => { let s = 0; for (let i = 0; i < n; i++) s += Math.sqrt(i); return s; };
class Box {
	constructor(n) { this.n = n; }
	get value() { return fib(this.n); }
	['my method'](n) { return größe(n); }
}
function garbage(n) { const a = []; for (let i = 0; i < n; i++) a.push({ i, s: 'x' + i }); return a.length; }
function twoPaths(n) { return [1, 2, 3].map(function (k) { return größe(n * k); }).length; }
const until = Date.now() + Number(process.argv[2] || 300);
let sink = 0;
while (Date.now() < until) {
	const box = new Box(20);
	sink += box.value + box['my method'](20000) + garbage(20000) + twoPaths(5000);
}
setTimeout(() => { console.log(sink > 0 ? 'done' : 'none'); }, 20);
