// A CPU-bound node program for perf to record with --perf-basic-prof
// (test/make-perf-samples.sh): JIT frames named from /tmp/perf-PID.map.
function fib(n) {
	return n < 2 ? n : fib(n - 1) + fib(n - 2);
}
let total = 0;
for (let i = 0; i < 12; i++)
	total += fib(25);
console.log(total);
