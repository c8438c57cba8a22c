function fib(n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
function work() { let s = 0; for (let i = 0; i < 30; i++) s += fib(24); return s; }
const t0 = Date.now(); let total = 0;
while (Date.now() - t0 < 700) total += work();
console.log(total);
