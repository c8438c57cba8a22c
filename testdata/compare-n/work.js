// One program, three functions, in 30 rounds so that the machine's load
// falls on all of them alike:
//   planted: 1 unit a round; with `new`, an extra loop of 2 units
//            (3 units a round);
//   steady:  10 units a round, every run;
//   noisy:   a random 0 to 16 units a round, drawn once a run.
// A unit is 100000 iterations of spin().
const extra = process.argv[2] === 'new';
const UNIT = 100000;
function spin(n) { let x = 0; for (let i = 0; i < n; i++) x = (x + i * 7) % 1000003; return x; }
function planted() { let x = spin(UNIT); if (extra) x += spin(2 * UNIT); return x; }
function steady() { return spin(10 * UNIT); }
const noise = Math.random() * 16;
function noisy() { return spin(Math.floor(noise * UNIT)); }
let sink = 0;
for (let i = 0; i < 20; i++) sink += spin(UNIT); // warm up: spin compiled before the rounds
for (let round = 0; round < 30; round++) sink += planted() + steady() + noisy();
console.log(sink > 0 ? 'done' : 'none');
