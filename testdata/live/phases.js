// Three phases, each in a function of its own, timed by the program itself
// with Date.now() around the call and reported with trace(), so that a
// capture of the stream holds both the samples and the program's timings.
function makeNumbers(count) {
	const numbers = [];
	let seed = 12345;
	for (let i = 0; i < count; i++) {
		seed = (Math.imul(seed, 1103515245) + 12345) | 0;
		numbers.push(seed);
	}
	return numbers;
}
// The default order compares numbers as strings: a native sort and the
// garbage it makes.
function sortPhase(numbers) {
	numbers.sort();
	return numbers[0];
}
function jsonPhase(numbers) {
	const records = [];
	for (let i = 0; i < numbers.length; i++)
		records.push({ id: i, value: numbers[i], name: "n" + numbers[i] });
	const text = JSON.stringify(records);
	return JSON.parse(text).length;
}
// JavaScript alone: no native call, no allocation.
function loopPhase(count) {
	let h = 0;
	for (let i = 0; i < count; i++)
		h = (h * 31 + i) | 0;
	return h;
}
function timed(name, phase, argument) {
	const start = Date.now();
	phase(argument);
	const end = Date.now();
	trace("phase " + name + " " + (end - start) + " ms\n");
}
const numbers = makeNumbers(40000);
timed("sortPhase", sortPhase, numbers);
timed("jsonPhase", jsonPhase, numbers);
timed("loopPhase", loopPhase, 2000000);
// xst sends its samples 8 at a time and drops the last partial batch when
// it ends: this untimed tail keeps the timed phases out of that batch.
function tail(count) {
	let h = 0;
	for (let i = 0; i < count; i++)
		h = (h * 17 + i) | 0;
	return h;
}
tail(300000);
