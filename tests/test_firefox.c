/* The Firefox Profiler's processed format: testdata/firefox/ (hand-made
 * in the shapes Firefox 48-era profiles and samply/wasmtime's shared
 * tables take) and hostile text, numbers worked by hand from the files
 * (the profiler's traced timing: time to the next sample, the last one
 * interval; weights times the interval, or ms for tracing-ms). */
#include <stdio.h>
#include <string.h>

#include "tests/model_checks.h"

static const char *dir = "testdata";

static bool load(const char *file, const char *thread, struct model *m)
{
	return load_testdata(dir, "firefox", file, thread, m);
}

/* Parent Process GeckoMain, interval 1 ms, samples at 0 1 3 4 6 7 9 10
 * ms on stacks main, parse, parse, compute (line 21), compute (line 25),
 * compute>0x1234, none, compute: main 1, parse 2 + 1, compute 2 + 1 +
 * 1 (the last lasts one interval), 0x1234 2 ms; the stackless sample's
 * 9..10 is nobody's.  The two frames of compute are one function. */
static void check_parent_process(void)
{
	struct model m;
	if (!load("gecko-main.processed.json", "100", &m))
		return;
	check_function(&m, "main", 1000, 10000);
	check_function(&m, "parse", 3000, 3000);
	check_function(&m, "compute", 4000, 6000);
	check_function(&m, "0x1234", 2000, 2000);
	CHECK(m.nsamples == 7);
	CHECK(close_enough(m.start_time, 0) && close_enough(m.end_time, 11000));
	uint32_t compute = frame_named(&m, "compute");
	if (compute != NO_ID) {
		const struct frame *f = &m.frames[compute];
		CHECK(!strcmp(model_str(&m, f->url), "app.js") && f->line == 20 && f->column == 5);
		CHECK(f->kind == KIND_JS);
	}
	uint32_t native = frame_named(&m, "0x1234");
	CHECK(native != NO_ID && m.frames[native].kind == KIND_NATIVE &&
	      !*model_str(&m, m.frames[native].url));
	CHECK(!strcmp(model_str(&m, m.thread), "GeckoMain (Parent Process, pid 100, tid 100)"));
	CHECK(m.nother_threads == 1 &&
	      !strcmp(model_str(&m, m.other_threads[0]), "GeckoMain (Web Content, pid 200, tid 201)"));
	model_free(&m);
}

/* Ticks of a function's node at a line, summed over its nodes. */
static double ticks_at(const struct model *m, const char *name, int32_t line)
{
	double ticks = 0;
	for (size_t i = 0; i < m->nline_ticks; i++) {
		const struct line_ticks *t = &m->line_ticks[i];
		if (t->line == line && !strcmp(model_str(m, m->frames[m->nodes[t->node].frame].name), name))
			ticks += t->ticks;
	}
	return ticks;
}

/* frameTable.line of each sample's leaf frame: main line 3 once, parse
 * line 12 twice, compute line 21 twice and line 25 once; 0x1234 has no
 * line. */
static void check_line_ticks(void)
{
	struct model m;
	if (!load("gecko-main.processed.json", "100", &m))
		return;
	CHECK(ticks_at(&m, "main", 3) == 1);
	CHECK(ticks_at(&m, "parse", 12) == 2);
	CHECK(ticks_at(&m, "compute", 21) == 2);
	CHECK(ticks_at(&m, "compute", 25) == 1);
	CHECK(m.nline_ticks == 4);
	model_free(&m);
}

/* Without --thread: the tab process's GeckoMain, though less busy:
 * render at 20 and 22 ms, 2 + 1 ms.  The thread without samples is in
 * no list; the header's description selects a thread too. */
static void check_default_thread(void)
{
	struct model m;
	if (load("gecko-main.processed.json", NULL, &m)) {
		check_function(&m, "render", 3000, 3000);
		CHECK(!strcmp(model_str(&m, m.thread), "GeckoMain (Web Content, pid 200, tid 201)"));
		for (size_t i = 0; i < m.nother_threads; i++)
			CHECK(!strstr(model_str(&m, m.other_threads[i]), "Worker"));
		model_free(&m);
	}
	if (load("gecko-main.processed.json", "GeckoMain (Parent Process, pid 100, tid 100)", &m)) {
		check_function(&m, "parse", 3000, 3000);
		model_free(&m);
	}
}

/* Shared tables (version 66): prefixOffset, sources, timeDeltas.
 * meta.initialSelectedThreads picks "tracer" (tracing-ms): run 1, add
 * 1 + 0.25, mul 2 ms.  "wasm" weighs samples in intervals of 0.5 ms:
 * add 3, mul 2, run 1 of them. */
static void check_shared_tables(void)
{
	struct model m;
	if (load("shared-tables.processed.json", NULL, &m)) {
		check_function(&m, "run", 1000, 4250);
		check_function(&m, "add", 1250, 1250);
		check_function(&m, "mul", 2000, 2000);
		uint32_t add = frame_named(&m, "add");
		CHECK(add != NO_ID && !strcmp(model_str(&m, m.frames[add].url), "wasm://mod") &&
		      m.frames[add].line == 7);
		CHECK(close_enough(m.end_time - m.start_time, 4250));
		model_free(&m);
	}
	if (load("shared-tables.processed.json", "wasm", &m)) {
		check_function(&m, "run", 500, 3000);
		check_function(&m, "add", 1500, 1500);
		check_function(&m, "mul", 1000, 1000);
		CHECK(close_enough(m.period, 500));
		model_free(&m);
	}
}

/* A Gecko profile (testdata/firefox/firefox.gecko.json): tables of
 * schema and data rows (samples' data before its schema), functions
 * from location strings, a child process under "processes".  Parent
 * GeckoMain, interval 1 ms: main 0..2, run 2..3, helper 3..5, run 5..6,
 * 0x7f00aa 6..9, none 9..10, js::RunScript 10..11; run's two frames
 * (lines 13 and 14) are one function. */
static void check_gecko(void)
{
	struct model m;
	if (load("firefox.gecko.json", "10", &m)) {
		check_function(&m, "Startup::XRE_Main", 0, 10000);
		check_function(&m, "main", 2000, 10000);
		check_function(&m, "js::RunScript", 1000, 8000);
		check_function(&m, "(root scope) http://x.js", 0, 7000);
		check_function(&m, "run", 2000, 7000);
		check_function(&m, "helper", 2000, 2000);
		check_function(&m, "0x7f00aa", 3000, 3000);
		uint32_t f = frame_named(&m, "run");
		CHECK(f != NO_ID && !strcmp(model_str(&m, m.frames[f].url), "http://x.js") &&
		      m.frames[f].line == 12 && m.frames[f].column == 3 && m.frames[f].kind == KIND_JS);
		f = frame_named(&m, "helper");
		CHECK(f != NO_ID && !strcmp(model_str(&m, m.frames[f].url), "http://y.js") &&
		      m.frames[f].line == 7 && m.frames[f].column == -1);
		f = frame_named(&m, "main");
		CHECK(f != NO_ID && m.frames[f].kind == KIND_NATIVE &&
		      !strcmp(model_str(&m, m.frames[f].extra), "libxul.so"));
		f = frame_named(&m, "(root scope) http://x.js");
		CHECK(f != NO_ID && m.frames[f].line == 1);
		model_free(&m);
	}
	/* The default: the child process's tab GeckoMain, render 100..101.5
	 * and 101.5..103, layout one interval. */
	if (load("firefox.gecko.json", NULL, &m)) {
		check_function(&m, "render", 3000, 4000);
		check_function(&m, "layout", 1000, 1000);
		CHECK(!strcmp(model_str(&m, m.thread), "GeckoMain (Web Content, pid 20, tid 21)"));
		model_free(&m);
	}
}

static bool load_text(const char *text, struct model *m, struct load_error *err)
{
	struct load_options opt = { .session = -1 };
	return load_memory(text, strlen(text), "text", &opt, m, err);
}

#define HEAD "{\"meta\":{\"interval\":1,\"preprocessedProfileVersion\":48},\"threads\":[{"
#define TABLES                                                                   \
	"\"stackTable\":{\"frame\":[0,1],\"prefix\":[null,0]},"                  \
	"\"frameTable\":{\"func\":[0,1]},"                                       \
	"\"funcTable\":{\"name\":[0,1],\"fileName\":[null,null],\"isJS\":[false,false]}," \
	"\"stringArray\":[\"a\",\"b\"]"

/* A bytes-weighted thread: a space type, no timeline.  a>b 100 + 28,
 * a 7 bytes. */
static void check_bytes(void)
{
	static const char bytes[] = HEAD TABLES ",\"samples\":{\"stack\":[1,0,1],"
		"\"time\":[0,1,2],\"weight\":[100,7,28],\"weightType\":\"bytes\"}}]}";
	struct model m;
	struct load_error err;
	if (!load_text(bytes, &m, &err)) {
		CHECK_MSG(false, "bytes: %s", err.message);
		return;
	}
	CHECK(!strcmp(model_str(&m, m.types[0].unit), "bytes") && !m.nsamples);
	check_function(&m, "a", 7, 135);
	check_function(&m, "b", 128, 128);
	model_free(&m);
}

/* Told by content past a long head: "meta" first with 5000 bytes before
 * its interval, and a Gecko profile that lists its libraries first. */
static void check_sniffed(void)
{
	static const char thread[] = "\"threads\":[{" TABLES ",\"samples\":{\"stack\":[1],"
				     "\"time\":[0]}}]}";
	char *text = xmalloc(16384);
	char pad[5001];
	memset(pad, 'x', 5000);
	pad[5000] = '\0';
	const char *heads[] = {
		"{\"meta\":{\"product\":\"%s\",\"interval\":2},%s",
		"{\"libs\":[{\"breakpadId\":\"0\",\"name\":\"%s\"}],\"meta\":{\"interval\":2},%s",
	};
	for (size_t i = 0; i < ARRAY_LEN(heads); i++) {
		snprintf(text, 16384, heads[i], pad, thread);
		struct model m;
		struct load_error err;
		if (!load_text(text, &m, &err)) {
			CHECK_MSG(false, "head %zu: %s", i, err.message);
			continue;
		}
		check_function(&m, "b", 2000, 2000); /* one sample: one interval */
		model_free(&m);
	}
	free(text);
}

/* Text that must not load: the format, the byte, the words. */
static void check_rejected(const char *what, const char *text, const char *const *words)
{
	struct model m;
	struct load_error err;
	bool ok = load_text(text, &m, &err);
	CHECK_MSG(!ok, "%s: loaded", what);
	if (ok) {
		model_free(&m);
		return;
	}
	for (; *words; words++)
		CHECK_MSG(strstr(err.message, *words), "%s: \"%s\" not in \"%s\"", what, *words,
			  err.message);
}

#define REJECTED(what, text, ...) \
	check_rejected(what, text, (const char *const[]){ __VA_ARGS__, NULL })

#define SAMPLES(stack, time) ",\"samples\":{\"stack\":" stack ",\"time\":" time "}}]}"

static void check_bad_input(void)
{
	/* The byte of the stack column: strlen(HEAD TABLES) + 21. */
	char at[32];
	snprintf(at, sizeof(at), "byte %zu:", strlen(HEAD TABLES ",\"samples\":{\"stack\":"));
	REJECTED("stack out of range", HEAD TABLES SAMPLES("[0,5]", "[0,1]"),
		 "Firefox Profiler", at, "samples.stack[1] = 5", "stackTable (2 rows)");
	REJECTED("string out of range",
		 HEAD "\"stackTable\":{\"frame\":[0],\"prefix\":[null]},\"frameTable\":{\"func\":[0]},"
		      "\"funcTable\":{\"name\":[3]},\"stringArray\":[\"a\"]" SAMPLES("[0]", "[0]"),
		 "funcTable.name[0] = 3", "string array");
	REJECTED("prefix cycle",
		 HEAD "\"stackTable\":{\"frame\":[0,0],\"prefix\":[1,0]},\"frameTable\":{\"func\":[0]},"
		      "\"funcTable\":{\"name\":[0]},\"stringArray\":[\"a\"]" SAMPLES("[0]", "[0]"),
		 "cycle", "byte");
	REJECTED("prefixOffset forwards",
		 HEAD "\"stackTable\":{\"frame\":[0],\"prefixOffset\":[-1]},\"frameTable\":{\"func\":[0]},"
		      "\"funcTable\":{\"name\":[0]},\"stringArray\":[\"a\"]" SAMPLES("[0]", "[0]"),
		 "prefixOffset[0] = -1");
	REJECTED("time backwards", HEAD TABLES SAMPLES("[0,1]", "[5,4]"),
		 "sample 1 (at 4 ms) comes before sample 0", "byte");
	REJECTED("times short", HEAD TABLES SAMPLES("[0,1]", "[5]"),
		 "samples.time has 1 entries for 2 samples");
	REJECTED("no times", HEAD TABLES ",\"samples\":{\"stack\":[0]}}]}", "neither time nor timeDeltas");
	REJECTED("negative weight",
		 HEAD TABLES ",\"samples\":{\"stack\":[0],\"time\":[0],\"weight\":[-1]}}]}",
		 "samples.weight[0] = -1", "comparison");
	REJECTED("weight type", HEAD TABLES ",\"samples\":{\"stack\":[0],\"time\":[0],"
					     "\"weightType\":\"joules\"}}]}", "weightType 'joules'");
	REJECTED("no interval",
		 "{\"meta\":{\"preprocessedProfileVersion\":48},\"threads\":[{" TABLES SAMPLES("[0]", "[0]"),
		 "meta.interval", "missing");
	/* Gecko tables: "data" rows placed by "schema". */
#define GECKO "{\"meta\":{\"version\":27,\"interval\":1},\"threads\":[{\"samples\":"
	REJECTED("gecko: data without schema", GECKO "{\"data\":[[0,1]]}}]}",
		 "samples.data without a schema", "byte 66");
	REJECTED("gecko: row not an array", GECKO "{\"schema\":{\"stack\":0},\"data\":[7]}}]}",
		 "samples.data[0] is not a row", "byte 88");
	REJECTED("gecko: a string where a stack goes",
		 GECKO "{\"schema\":{\"stack\":0,\"time\":1},\"data\":[[0,1],[\"x\",2]]}}]}",
		 "samples.data[1][0] is not a number", "byte 96");
	REJECTED("gecko: schema place", GECKO "{\"schema\":{\"stack\":99}}}]}",
		 "samples.schema.stack = 99 is not a place");
	REJECTED("gecko: a thread as a string", "{\"meta\":{\"version\":3},\"threads\":[\"{}\"]}",
		 "expected a thread object");
	REJECTED("gecko: processes nested too deep",
		 "{\"meta\":{},\"threads\":[],\"processes\":[{\"processes\":[{\"processes\":[{\"processes\":[{"
		 "\"processes\":[{\"processes\":[{\"processes\":[{\"processes\":[{\"processes\":[{"
		 "\"processes\":[{\"processes\":[{\"processes\":[{\"processes\":[{\"processes\":[{"
		 "\"processes\":[{\"processes\":[{\"processes\":[{}]}]}]}]}]}]}]}]}]}]}]}]}]}]}]}]}]}",
		 "nested more than 16");
	REJECTED("truncated", HEAD TABLES ",\"samples\":{\"stack\":[0,", "Firefox Profiler", "byte");
	REJECTED("no samples anywhere", HEAD TABLES SAMPLES("[null]", "[0]"), "no thread has samples");
	REJECTED("string column", HEAD TABLES SAMPLES("[\"x\"]", "[0]"), "samples.stack[0] is not a number");
}

/* two-tabs.gecko.json.gz, cut from a real Firefox ESR profile
 * (testdata/README.md): two tab GeckoMain threads, WebExtensions with 206
 * samples and threadCPUDelta summing to 252 359 187 ns, file:// Content
 * with 201 samples and 587 789 478 ns.  The profiler scores activity by
 * threadCPUDelta, so file:// Content opens (sample counts would pick
 * WebExtensions); --thread still reaches the other. */
static void check_activity_choice(void)
{
	struct model m;
	if (!load("two-tabs.gecko.json.gz", NULL, &m))
		return;
	CHECK_MSG(!strcmp(model_str(&m, m.thread), "GeckoMain (file:// Content, pid 29224, tid 29224)"),
		  "opened %s", model_str(&m, m.thread));
	CHECK(m.nsamples == 201);
	model_free(&m);
	if (!load("two-tabs.gecko.json.gz", "GeckoMain (WebExtensions, pid 29202, tid 29202)", &m))
		return;
	CHECK(m.nsamples == 206);
	model_free(&m);
}

int main(int argc, char **argv)
{
	if (argc > 1)
		dir = argv[1];
	check_parent_process();
	check_default_thread();
	check_activity_choice();
	check_line_ticks();
	check_shared_tables();
	check_bytes();
	check_gecko();
	check_sniffed();
	check_bad_input();
	return check_done();
}
