// For tests/e2e/trace.py: `three` spins three times as long as `one`
// (spin is warmed up first, so both run optimised code).
function spin(n) { let s = 0; for (let i = 0; i < n; i++) s = (s + (i ^ 5)) | 0; return s; }
function one() { return spin(100000000); }
function three() { return spin(300000000); }
for (let k = 0; k < 50; k++) spin(200000);
console.log(one() + three());
