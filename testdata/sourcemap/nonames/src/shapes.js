// Functions of the shapes the enclosing-function scanner reads; each
// loops long enough to take samples of its own.
function declared(n) {
  let x = 0;
  for (let i = 0; i < n; i++) x += Math.sqrt(i);
  return x;
}

const arrowBlock = (n) => {
  let s = 0;
  for (let i = 0; i < n; i++) s += String.fromCharCode(65 + (i % 26)).length;
  return s;
};

const assigned = function (n) {
  const a = [];
  for (let i = 0; i < n; i++) a.push((i * 7) % 13);
  return a.sort((p, q) => p - q).length;
};

class Shape {
  area(n) {
    let t = 0;
    for (let i = 0; i < n; i++) t += Math.sin(i);
    return t;
  }
}

const helpers = {
  counted: function (n) {
    let c = 0;
    for (let i = 0; i < n; i++) if (`${i}`.endsWith('7')) c++;
    return c;
  },
  method(n) {
    let m = 1;
    for (let i = 1; i < n; i++) m = (m * i) % 1000003;
    return m;
  },
};

const started = Date.now();
let total = 0;
while (Date.now() - started < 1500) {
  total += declared(20000) + arrowBlock(20000) + assigned(20000);
  total += new Shape().area(20000) + helpers.counted(20000) + helpers.method(20000);
}
console.log(total > 0);
