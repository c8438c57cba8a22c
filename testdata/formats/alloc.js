const keep = [];
function makeStrings(n) { const a = []; for (let i = 0; i < n; i++) a.push('s' + i + 'x'.repeat(i % 50)); return a; }
function makeObjects(n) { const a = []; for (let i = 0; i < n; i++) a.push({ i, v: [i, i + 1, i + 2] }); return a; }
function makeBuffers(n) { const a = []; for (let i = 0; i < n; i++) a.push(new Array(100).fill(i)); return a; }
function outer() { keep.push(makeStrings(20000)); keep.push(makeObjects(20000)); keep.push(makeBuffers(2000)); }
for (let r = 0; r < 5; r++) outer();
console.log(keep.length);
