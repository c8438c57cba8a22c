// Three anonymous functions in one file, each busy for its share of the run.
const ms = Number(process.argv[2] || 300);
function spin(until) { let x = 0; while (Date.now() < until) x += Math.sqrt(x + 1); return x; }
const work = [
	function () { return spin(Date.now() + ms * 0.5); },
	function () { return spin(Date.now() + ms * 0.3); },
	() => spin(Date.now() + ms * 0.2),
];
for (let round = 0; round < 5; round++)
	for (const w of work) w();
