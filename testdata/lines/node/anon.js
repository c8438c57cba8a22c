// Two anonymous functions in one file doing different amounts of work:
// a sort comparator (much) and a mapper (little).
const data = [];
for (let i = 0; i < 200000; i++) data.push((i * 7919) % 100003);
const light = data.slice(0, 20000).map(function (x) {
	let s = 0;
	for (let k = 0; k < 600; k++) s += (x + k) % 7;
	return s;
});
for (let round = 0; round < 6; round++) {
	const copy = data.slice();
	copy.sort(function (a, b) {
		let w = 0;
		for (let k = 0; k < 8; k++) w += (a ^ k) & 1;
		return a - b + w * 0;
	});
}
console.log(light.length);
