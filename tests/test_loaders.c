/* The loaders on small hand-made files of the shapes other tools write
 * (issue 11) and on hostile ones (issue 17).  Each file is written here,
 * its numbers worked out by hand from ../shared/spec/time-rules.md. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "tests/check.h"
#include "loaders/loaders.h"
#include "rules/rules.h"
#include "base/util.h"

static uint32_t frame_named(const struct model *m, const char *name)
{
	for (uint32_t f = 0; f < m->nframes; f++)
		if (!strcmp(model_str(m, m->frames[f].name), name))
			return f;
	return NO_ID;
}

static bool load_text(const char *what, const char *text, struct model *m,
		      struct load_error *err)
{
	struct load_options opt = { .session = -1 };
	return load_memory(text, strlen(text), what, &opt, m, err);
}

/* Loads text that must load, with the message in the failure. */
static bool load_ok(const char *what, const char *text, struct model *m)
{
	struct load_error err;
	bool ok = load_text(what, text, m, &err);
	CHECK_MSG(ok, "%s: %s", what, err.message);
	return ok;
}

/* Text that must not load, with every word in the message. */
static void check_rejected(const char *what, const char *text, const char *const *words)
{
	struct model m;
	struct load_error err;
	bool ok = load_text(what, text, &m, &err);
	CHECK_MSG(!ok, "%s: loaded", what);
	if (ok) {
		model_free(&m);
		return;
	}
	for (; *words; words++)
		CHECK_MSG(strstr(err.message, *words), "%s: \"%s\" not in \"%s\"", what,
			  *words, err.message);
}

#define REJECTED(what, text, ...) \
	check_rejected(what, text, (const char *const[]){ __VA_ARGS__, NULL })

/* The total of a function under a rule (NAN: n/a). */
static double total_of(struct rules *r, enum rule rule, const char *name)
{
	const struct totals *t = rules_totals(r, rule, 0);
	uint32_t f = frame_named(r->model, name);
	CHECK_MSG(f != NO_ID, "no function %s", name);
	return f == NO_ID || !t->total ? NAN : t->total[f];
}

#define FRAME(name, line) \
	"\"callFrame\":{\"functionName\":\"" name "\",\"url\":\"a.js\"," \
	"\"lineNumber\":" #line ",\"columnNumber\":0}"

/* Chrome 116+ trace ProfileChunk nodes carry "parent"; converted traces
 * keep "children" as well.  (root) > main > f, samples main, f, f with
 * deltas 0, 100, 100 and endTime 400: main 100 us, f 100 + 200 us. */
static const char both_links[] =
	"{\"nodes\":["
	"{\"id\":1," FRAME("(root)", -1) ",\"children\":[2]},"
	"{\"id\":2,\"parent\":1," FRAME("main", 0) ",\"children\":[3]},"
	"{\"id\":3,\"parent\":2," FRAME("f", 5) "}],"
	"\"startTime\":0,\"endTime\":400,\"samples\":[2,3,3],\"timeDeltas\":[0,100,100]}";

static void check_parent_and_children(void)
{
	struct model m;
	if (!load_ok("both links", both_links, &m))
		return;
	CHECK(m.caps & HAS_STACKS);
	CHECK(m.nnodes == 3);
	struct rules r;
	rules_init(&r, &m);
	CHECK(rule_default(&m) == RULE_EXACT);
	CHECK_CLOSE(total_of(&r, RULE_EXACT, "(root)"), 400, "exact (root)");
	CHECK_CLOSE(total_of(&r, RULE_ADDITIVE, "(root)"), 400, "additive (root)");
	CHECK_CLOSE(total_of(&r, RULE_ADDITIVE, "main"), 400, "additive main");
	CHECK_CLOSE(total_of(&r, RULE_EXACT, "f"), 300, "exact f");
	rules_free(&r);
	model_free(&m);

	/* A child list stating an edge twice is one edge too. */
	static const char twice[] =
		"{\"nodes\":["
		"{\"id\":1," FRAME("(root)", -1) ",\"children\":[2,2]},"
		"{\"id\":2," FRAME("main", 0) "}],"
		"\"startTime\":0,\"endTime\":10,\"samples\":[2],\"timeDeltas\":[0]}";
	if (load_ok("child twice", twice, &m)) {
		CHECK(m.caps & HAS_STACKS);
		CHECK(m.nodes[1].nparents == 1);
		model_free(&m);
	}

	/* Node 3 says its parent is 2, but node 1 lists it as a child. */
	REJECTED("contradiction",
		 "{\"nodes\":["
		 "{\"id\":1," FRAME("(root)", -1) ",\"children\":[2,3]},"
		 "{\"id\":2,\"parent\":1," FRAME("main", 0) "},"
		 "{\"id\":3,\"parent\":2," FRAME("f", 5) "}],"
		 "\"startTime\":0,\"endTime\":400,\"samples\":[2],\"timeDeltas\":[0]}",
		 "node 1", "child 3", "node 2", "byte");
	REJECTED("two parents",
		 "{\"nodes\":["
		 "{\"id\":1," FRAME("(root)", -1) "},"
		 "{\"id\":2,\"parent\":1," FRAME("main", 0) "},"
		 "{\"id\":3,\"parent\":2,\"parent\":1," FRAME("f", 5) "}],"
		 "\"startTime\":0,\"endTime\":400,\"samples\":[2],\"timeDeltas\":[0]}",
		 "node 3", "two parents", "byte");
}

/* An XS stream exported as a .cpuprofile is a tree under (host): every
 * node has one parent, so its stacks are whole and exact is defined
 * (issue 12).  An XS function graph (a node under two parents) is not. */
static void check_tree_under_host(void)
{
	static const char tree[] =
		"{\"nodes\":["
		"{\"id\":1," FRAME("(host)", -1) ",\"children\":[2]},"
		"{\"id\":2," FRAME("main", 0) ",\"children\":[3]},"
		"{\"id\":3," FRAME("f", 5) "}],"
		"\"startTime\":0,\"endTime\":30,\"samples\":[3,2],\"timeDeltas\":[0,10]}";
	struct model m;
	if (load_ok("tree under (host)", tree, &m)) {
		CHECK(m.caps & HAS_STACKS);
		CHECK(!(m.caps & HAS_NODE_GRAPH));
		struct rules r;
		rules_init(&r, &m);
		CHECK_CLOSE(total_of(&r, RULE_EXACT, "main"), 30, "exact main");
		CHECK_CLOSE(total_of(&r, RULE_EXACT, "f"), 10, "exact f");
		rules_free(&r);
		model_free(&m);
	}
	static const char graph[] =
		"{\"nodes\":["
		"{\"id\":0," FRAME("(host)", -1) ",\"children\":[2,3]},"
		"{\"id\":2," FRAME("main", 0) ",\"children\":[3]},"
		"{\"id\":3," FRAME("f", 5) "}],"
		"\"startTime\":0,\"endTime\":30,\"samples\":[3,2],\"timeDeltas\":[0,10]}";
	if (load_ok("graph under (host)", graph, &m)) {
		CHECK(!(m.caps & HAS_STACKS));
		CHECK(m.caps & HAS_NODE_GRAPH);
		model_free(&m);
	}
}

/* Moddable's xsbug-log writes null for what a native function does not
 * have; null where a field may be left out is "unknown".  Where the
 * field is required (a node's id, a sample), null stays an error. */
static void check_null_fields(void)
{
	static const char nulls[] =
		"{\"nodes\":["
		"{\"id\":1," FRAME("(root)", -1) ",\"children\":[2],\"parent\":null},"
		"{\"id\":2,\"callFrame\":{\"functionName\":\"sort\",\"scriptId\":null,"
		"\"url\":null,\"lineNumber\":null,\"columnNumber\":null},"
		"\"hitCount\":null,\"children\":null,\"positionTicks\":null}],"
		"\"startTime\":0,\"endTime\":null,\"samples\":[2,2],\"timeDeltas\":[0,10]}";
	struct model m;
	if (load_ok("nulls", nulls, &m)) {
		uint32_t f = frame_named(&m, "sort");
		CHECK(f != NO_ID);
		if (f != NO_ID) {
			CHECK(m.frames[f].line == -1);
			CHECK(m.frames[f].column == -1);
			CHECK(!strcmp(model_str(&m, m.frames[f].url), ""));
		}
		CHECK(m.caps & HAS_STACKS);
		model_free(&m);
	}
	REJECTED("null id",
		 "{\"nodes\":[{\"id\":null," FRAME("main", 0) "}],"
		 "\"samples\":[1],\"timeDeltas\":[0]}",
		 "node id", "byte 16");
	REJECTED("null sample",
		 "{\"nodes\":[{\"id\":1," FRAME("main", 0) "}],"
		 "\"samples\":[null],\"timeDeltas\":[0]}",
		 "samples[0]", "byte");
	REJECTED("null delta",
		 "{\"nodes\":[{\"id\":1," FRAME("main", 0) "}],"
		 "\"samples\":[1],\"timeDeltas\":[null]}",
		 "timeDeltas[0]", "byte");
}

/* A file is blamed on the format it looks like, not on .cpuprofile:
 * traces without a profile (shapes from Chrome's Performance panel, cut
 * down by hand) get the trace loader's word, and formats not read at all
 * are named with the way to one that is. */
static void check_formats_named(void)
{
	/* A trace of duration events without a CPU profile opens them
	 * (issue 24): the slice "a" of 3 us is one sample of 3 us. */
	struct model m;
	if (load_ok("trace array", "[{\"pid\":1,\"tid\":2,\"ph\":\"X\",\"ts\":5,\"dur\":3,"
				   "\"name\":\"a\"}]", &m)) {
		CHECK(!strcmp(m.format, "trace-event JSON (duration events)"));
		CHECK(m.nsamples == 1 && m.sample_duration[0] == 3);
		model_free(&m);
	}
	REJECTED("trace array, no slice time",
		 "[{\"pid\":1,\"tid\":2,\"ph\":\"X\",\"ts\":5,\"name\":\"a\"}]",
		 "trace-event JSON", "no CPU profile");
	REJECTED("trace object",
		 "{\"metadata\":{},\"traceEvents\":[{\"ph\":\"X\",\"ts\":5}]}",
		 "trace-event JSON", "no CPU profile");
	REJECTED("perf.data", "PERFILE2\x01\x02\x03", "perf.data", "perf script");
	REJECTED("callgrind without costs", "# callgrind format\nevents: Ir\n",
		 "callgrind", "no function");
	REJECTED("not JSON either", "hello\n", "not a profile wprof-tui knows");
}

/* timeDeltas that run far backwards (issue 17): a one-second profile
 * whose second sample is 999 000 s before the start was shown as 277
 * hours.  Times are clamped into startTime..endTime and the model says
 * so: b at 1.0 s (clamped), a at 1.1 s, a at 1.5 s, b at 1.7 s, end 2 s:
 * a 0.4 + 0.2 s, b 0.1 + 0.3 s. */
static void check_times_clamped(void)
{
	static const char back[] =
		"{\"nodes\":["
		"{\"id\":1," FRAME("(root)", -1) ",\"children\":[2,3]},"
		"{\"id\":2," FRAME("a", 0) "},"
		"{\"id\":3," FRAME("b", 3) "}],"
		"\"startTime\":1000000,\"endTime\":2000000,\"samples\":[2,3,2,3],"
		"\"timeDeltas\":[100000,-999000000000,999000400000,200000]}";
	struct model m;
	if (!load_ok("backwards", back, &m))
		return;
	struct rules r;
	rules_init(&r, &m);
	CHECK_CLOSE(total_of(&r, RULE_EXACT, "(root)"), 1e6, "root");
	CHECK_CLOSE(total_of(&r, RULE_EXACT, "a"), 600000, "a");
	CHECK_CLOSE(total_of(&r, RULE_EXACT, "b"), 400000, "b");
	CHECK(m.warning != STR_NONE && strstr(model_str(&m, m.warning), "1 of 4 samples"));
	rules_free(&r);
	model_free(&m);
	/* The corpus files keep inside their span: no warning. */
	if (load_ok("both links", both_links, &m)) {
		CHECK(m.warning == STR_NONE);
		model_free(&m);
	}
}

/* testdata/xsbug-log-cycle.cpuprofile: an XS function graph as
 * Moddable's xsbug-log writes it, cycles in: (host) > main > a, c;
 * a > b, a (itself); b > a, c.  The XS profiler's walk from (host) drops
 * b > a (a is on the walk) and a > a, keeping main > a > b > c and
 * main > c: c has two callers, a graph.  Seven samples of 1000 us (deltas
 * of 1000 from 0, endTime 8000): main 1, a 2, b 1, c 2, (gc) 1 ms self.
 * additive: c 2, b 1 + 2 = 3, a 2 + 3 = 5, main 1 + 5 + 2 = 8, (host) 8.
 * divided: main's 1 and a's 2 go up to (host); b's 1 to a, main,
 * (host); c's 2 split 1 to main (and (host)), 1 to b (a, main, (host)):
 * b 2, a 2 + 1 + 1 = 4, main 1 + 2 + 1 + 1 + 1 = 6, (host) 6, c 2. */
static void check_xs_graph_with_cycles(const char *dir)
{
	char path[512];
	snprintf(path, sizeof(path), "%s/xsbug-log-cycle.cpuprofile", dir);
	struct load_options opt = { .session = -1 };
	struct load_error err;
	struct model m;
	bool ok = load_file(path, &opt, &m, &err, NULL);
	CHECK_MSG(ok, "%s: %s", path, err.message);
	if (!ok)
		return;
	CHECK(m.caps & HAS_NODE_GRAPH);
	struct rules r;
	rules_init(&r, &m);
	static const struct {
		const char *name;
		double additive, divided;
	} want[] = {
		{ "(host)", 8000, 6000 }, { "main", 8000, 6000 }, { "a", 5000, 4000 },
		{ "b", 3000, 2000 }, { "c", 2000, 2000 }, { "(gc)", 1000, 1000 },
	};
	for (size_t i = 0; i < ARRAY_LEN(want); i++) {
		CHECK_CLOSE(total_of(&r, RULE_ADDITIVE, want[i].name), want[i].additive,
			    want[i].name);
		CHECK_CLOSE(total_of(&r, RULE_DIVIDED, want[i].name), want[i].divided,
			    want[i].name);
	}
	CHECK(isnan(total_of(&r, RULE_EXACT, "main")));
	rules_free(&r);
	model_free(&m);
}

/* perf 6.1's lines (testdata/formats/inline.perf.txt, wasm.perf.txt.gz):
 * a function inlined at an address comes before the symbol at that
 * address, and the symbol has the self (perf report --no-children); V8's
 * wasm code is "JS:<name>-<index>-<tier>", both tiers one wasm function. */
static void check_perf_inline_and_wasm(void)
{
	static const char text[] =
		"inl 31086   442.563726:    5000000 cpu-clock:ppp: \n"
		"\t            11cb mix+0x2b (inlined)\n"
		"\t            11cb work+0x2b (/r3/inl)\n"
		"\t            1087 main+0x27 (/r3/inl)\n\n"
		"node  1408   469.370328:    3344481 cpu-clock:ppp: \n"
		"\t    7f0a12345678 JS:fib-0-turbofan+0x5a (/tmp/perf-1408.map)\n"
		"\t    7f0a12340000 JS:fib-0-liftoff+0x21 (/tmp/perf-1408.map)\n"
		"\t    7f0a12330000 JS:wasm-function[3]-3-liftoff+0x1 (/tmp/perf-1408.map)\n";
	struct model m;
	if (!load_ok("perf inline", text, &m))
		return;
	struct rules r;
	rules_init(&r, &m);
	const struct totals *t = rules_totals(&r, RULE_EXACT, 0);
	uint32_t work = frame_named(&m, "work"), mix = frame_named(&m, "mix (inlined)");
	uint32_t fib = frame_named(&m, "fib"), unnamed = frame_named(&m, "wasm-function[3]");
	CHECK(work != NO_ID && mix != NO_ID && fib != NO_ID && unnamed != NO_ID);
	if (work != NO_ID && mix != NO_ID && fib != NO_ID && unnamed != NO_ID) {
		CHECK_CLOSE(t->self[work], 5000, "work keeps the self");
		CHECK_CLOSE(t->self[mix], 0, "mix (inlined) self");
		CHECK_CLOSE(t->total[mix], 5000, "mix (inlined) total");
		CHECK(m.frames[mix].flags & FRAME_INLINED);
		CHECK(!*model_str(&m, m.frames[mix].url));
		CHECK_CLOSE(t->self[fib], 3344.481, "fib's two tiers");
		CHECK_CLOSE(t->total[fib], 3344.481, "fib counted once");
		CHECK(m.frames[fib].kind == KIND_WASM && m.frames[unnamed].kind == KIND_WASM);
		CHECK(!*model_str(&m, m.frames[fib].url));
	}
	rules_free(&r);
	model_free(&m);
}

/* callgrind --demangle=no keeps names mangled: shown as c++filt (and
 * gprof) prints them, the recursion level after the name. */
static void check_callgrind_demangled(void)
{
	static const char text[] =
		"# callgrind format\nevents: Ir\nfl=a.cc\n"
		"fn=(1) _ZN3geo5Accum3addEd'2\n1 5\n"
		"fn=(2) _RNvCs1234_7mycrate3foo\n1 2\n"
		"fn=(3) main\n1 1\n";
	struct model m;
	if (!load_ok("callgrind mangled", text, &m))
		return;
	CHECK(frame_named(&m, "geo::Accum::add(double)'2") != NO_ID);
	CHECK(frame_named(&m, "mycrate::foo") != NO_ID);
	CHECK(frame_named(&m, "main") != NO_ID);
	model_free(&m);
}

/* A legacy profile's --- symbol names, mangled by the C++ compiler: as
 * pprof shows them, demangled, the symbol kept as the system name. */
static void check_legacy_symbols_demangled(void)
{
	static const char text[] =
		"--- symbol\nbinary=/usr/bin/demo\n"
		"0x0000000000401000 main\n"
		"0x0000000000402000 _ZN4demo5allocEm\n---\n--- heap\n"
		"heap profile:   2:  2048 [   3:  3072] @ heapprofile\n"
		"     2:  2048 [     3:  3072] @ 0x402010 0x401100\n\n"
		"MAPPED_LIBRARIES:\n"
		"00400000-00405000 r-xp 00000000 08:01 1234 /usr/bin/demo\n";
	struct model m;
	if (!load_ok("legacy mangled", text, &m))
		return;
	uint32_t alloc = frame_named(&m, "demo::alloc(unsigned long)");
	CHECK(alloc != NO_ID && frame_named(&m, "main") != NO_ID);
	if (alloc != NO_ID)
		CHECK(!strcmp(model_str(&m, m.frames[alloc].extra), "_ZN4demo5allocEm"));
	model_free(&m);
}

/* positionTicks as V8 writes them are read at once, any other way of
 * writing them token by token: the ticks are those the text gives
 * either way.  (root) > f, with f's positionTicks spelled each way. */
static void check_position_ticks(void)
{
	static const struct {
		const char *what, *ticks;
		size_t n;
		int32_t line[2];
		double count[2];
	} cases[] = {
		{ "as V8 writes them", "[{\"line\":4,\"ticks\":2},{\"line\":17,\"ticks\":30}]",
		  2, { 4, 17 }, { 2, 30 } },
		{ "spaced out", "[ {\"line\": 4, \"ticks\": 2}, {\"line\": 17, \"ticks\": 30} ]",
		  2, { 4, 17 }, { 2, 30 } },
		{ "ticks first", "[{\"ticks\":2,\"line\":4}]", 1, { 4 }, { 2 } },
		{ "a fraction", "[{\"line\":4,\"ticks\":2.5}]", 1, { 4 }, { 2.5 } },
		{ "ten digits", "[{\"line\":4,\"ticks\":2},{\"line\":1234567890,\"ticks\":0}]",
		  2, { 4, 1234567890 }, { 2, 0 } },
		{ "empty", "[]", 0, { 0 }, { 0 } },
	};
	for (size_t i = 0; i < ARRAY_LEN(cases); i++) {
		char text[1024];
		snprintf(text, sizeof(text),
			 "{\"nodes\":[{\"id\":1," FRAME("(root)", -1) ",\"children\":[2]},"
			 "{\"id\":2," FRAME("f", 3) ",\"positionTicks\":%s}],"
			 "\"startTime\":0,\"endTime\":300,\"samples\":[2,2],\"timeDeltas\":[0,100]}",
			 cases[i].ticks);
		struct model m;
		if (!load_ok(cases[i].what, text, &m))
			continue;
		CHECK_MSG(m.nline_ticks == cases[i].n, "%s: %zu ticks", cases[i].what, m.nline_ticks);
		for (size_t k = 0; k < cases[i].n && k < m.nline_ticks; k++)
			CHECK_MSG(m.line_ticks[k].node == 1 && m.line_ticks[k].line == cases[i].line[k] &&
				  m.line_ticks[k].ticks == cases[i].count[k],
				  "%s: tick %zu is node %u line %d ticks %g", cases[i].what, k,
				  m.line_ticks[k].node, m.line_ticks[k].line, m.line_ticks[k].ticks);
		model_free(&m);
	}
	/* The bad number is said at its byte, as the JSON reader says it. */
	REJECTED("a leading zero",
		 "{\"nodes\":[{\"id\":1," FRAME("(root)", -1) ","
		 "\"positionTicks\":[{\"line\":04,\"ticks\":2}]}],\"samples\":[1],\"timeDeltas\":[0]}",
		 "cpuprofile", "byte 127", "malformed number");
}

/* A callFrame as V8 writes it is read at once, any other way of writing
 * it token by token: the frame is the one the text gives either way.
 * (root) > f, f's callFrame spelled each way. */
static void check_call_frames(void)
{
	static const struct {
		const char *what, *frame, *name, *url;
		int32_t line, column;
	} cases[] = {
		{ "as V8 writes it", "{\"functionName\":\"f\",\"scriptId\":\"7\",\"url\":\"a.js\","
		  "\"lineNumber\":12,\"columnNumber\":-1}", "f", "a.js", 12, -1 },
		{ "spaced out", "{ \"functionName\": \"f\", \"scriptId\": \"7\", \"url\": \"a.js\", "
		  "\"lineNumber\": 12, \"columnNumber\": -1 }", "f", "a.js", 12, -1 },
		{ "a number for scriptId", "{\"functionName\":\"f\",\"scriptId\":7,\"url\":\"a.js\","
		  "\"lineNumber\":12,\"columnNumber\":3}", "f", "a.js", 12, 3 },
		{ "an escape", "{\"functionName\":\"f\\\"g\",\"scriptId\":\"7\",\"url\":\"a.js\","
		  "\"lineNumber\":12,\"columnNumber\":3}", "f\"g", "a.js", 12, 3 },
		{ "UTF-8 as it is", "{\"functionName\":\"f\xc3\xb1\",\"scriptId\":\"7\",\"url\":\"\","
		  "\"lineNumber\":0,\"columnNumber\":0}", "f\xc3\xb1", "", 0, 0 },
		{ "a line below -1", "{\"functionName\":\"f\",\"scriptId\":\"7\",\"url\":\"a.js\","
		  "\"lineNumber\":-5,\"columnNumber\":1234567890}", "f", "a.js", -1, 1234567890 },
	};
	for (size_t i = 0; i < ARRAY_LEN(cases); i++) {
		char text[1024];
		snprintf(text, sizeof(text),
			 "{\"nodes\":[{\"id\":1," FRAME("(root)", -1) ",\"children\":[2]},"
			 "{\"id\":2,\"callFrame\":%s}],"
			 "\"startTime\":0,\"endTime\":300,\"samples\":[2,2],\"timeDeltas\":[0,100]}",
			 cases[i].frame);
		struct model m;
		if (!load_ok(cases[i].what, text, &m))
			continue;
		uint32_t f = frame_named(&m, cases[i].name);
		CHECK_MSG(f != NO_ID, "%s: no frame named %s", cases[i].what, cases[i].name);
		if (f != NO_ID)
			CHECK_MSG(!strcmp(model_str(&m, m.frames[f].url), cases[i].url) &&
				  m.frames[f].line == cases[i].line &&
				  m.frames[f].column == cases[i].column,
				  "%s: url %s line %d column %d", cases[i].what,
				  model_str(&m, m.frames[f].url), m.frames[f].line, m.frames[f].column);
		model_free(&m);
	}
	/* A control byte in a name is said at its byte, as the JSON reader
	 * says it. */
	REJECTED("a tab in a name",
		 "{\"nodes\":[{\"id\":1,\"callFrame\":{\"functionName\":\"a\tb\",\"scriptId\":\"0\","
		 "\"url\":\"\",\"lineNumber\":-1,\"columnNumber\":-1}}],\"samples\":[1],\"timeDeltas\":[0]}",
		 "cpuprofile", "byte 48", "control character 0x09");
}

int main(int argc, char **argv)
{
	check_parent_and_children();
	check_tree_under_host();
	check_null_fields();
	check_formats_named();
	check_times_clamped();
	check_xs_graph_with_cycles(argc > 1 ? argv[1] : "testdata");
	check_perf_inline_and_wasm();
	check_callgrind_demangled();
	check_legacy_symbols_demangled();
	check_position_ticks();
	check_call_frames();
	return check_done();
}
