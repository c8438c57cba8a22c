// Phases separated by debugger statements; each phase timed by the program itself.
function work(n) { let h = 0; for (let i = 0; i < n; i++) h = (h + Math.imul(i, 2654435761)) | 0; return h; }
function phase(label, rounds) {
	const t0 = Date.now();
	let s = 0;
	for (let r = 0; r < rounds; r++) s += work(20000);
	const line = "phase " + label + " " + (Date.now() - t0) + " ms";
	print(line);
	trace(line + "\n");
	return s;
}
print("start");
phase("A", 150);
debugger;
print("after 1st debugger");
phase("B", 150);
debugger;
print("after 2nd debugger");
phase("C", 150);
print("dbg done");
