// For tests/e2e/trace.py: `three` spins three times as long as `one`
// (spin is warmed up first, so both run optimised code).  Each call is
// timed on the program's own clock (process.hrtime, the monotonic clock
// V8 stamps its samples with), said in µs on the last line of output:
// on a loaded machine a call's wall time is not its work, and the
// profile's totals are wall time.
function spin(n) { let s = 0; for (let i = 0; i < n; i++) s = (s + (i ^ 5)) | 0; return s; }
function one() { return spin(100000000); }
function three() { return spin(300000000); }
const own = {};
function timed(f) {
	const t = process.hrtime.bigint();
	const r = f();
	own[f.name] = Number(process.hrtime.bigint() - t) / 1000;
	return r;
}
for (let k = 0; k < 50; k++) spin(200000);
console.log(timed(one) + timed(three));
console.log(JSON.stringify(own));
