// A program whose time goes to one line: the loop body of spin(),
// line 8 of this file (DevTools shows its cost on that line).
'use strict';

function spin(n) {
	let x = 0;
	for (let i = 0; i < n; i++) {
		x = (x * 31 + i) % 1000003;
	}
	return x;
}

function main() {
	let sum = 0;
	const end = Date.now() + 400;
	while (Date.now() < end)
		sum += spin(200000);
	console.log(sum > 0 ? 'done' : 'none');
}

main();
