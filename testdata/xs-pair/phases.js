// Three clearly separated phases: build, sort, stringify. Each timed by the program itself.
const N = 60000;
function makeItem(i) { return { id: i, key: (i * 2654435761) % 1000003, name: "item" + i, tags: [i % 7, i % 11] }; }
function buildPhase(n) { const a = []; for (let i = 0; i < n; i++) a.push(makeItem(i)); return a; }
function compareKeys(x, y) { return x.key - y.key || x.id - y.id; }
function sortPhase(a) { a.sort(compareKeys); return a; }
function stringifyPhase(a) { let total = 0; for (let r = 0; r < 3; r++) total += JSON.stringify(a).length; return total; }
function report(label, t0, t1) { const line = "phase " + label + " " + (t1 - t0) + " ms"; print(line); trace(line + "\n"); }
function main() {
	const t0 = Date.now();
	const a = buildPhase(N);
	const t1 = Date.now();
	report("build", t0, t1);
	sortPhase(a);
	const t2 = Date.now();
	report("sort", t1, t2);
	const len = stringifyPhase(a);
	const t3 = Date.now();
	report("stringify", t2, t3);
	report("total", t0, t3);
	print("json length " + len);
}
main();
