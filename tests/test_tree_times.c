/* The old DevTools .cpuprofile (Chrome before 2014): a `head` tree whose
 * nodes carry their own selfTime and totalTime in milliseconds and no
 * samples.  Numbers worked by hand from the files (see
 * testdata/devtools-old/README.md) and ../shared/spec/time-rules.md. */
#include <string.h>

#include "tests/check.h"
#include "loaders/loaders.h"
#include "rules/rules.h"
#include "base/util.h"

static const char *testdata;

static uint32_t function(const struct model *m, const char *name)
{
	for (uint32_t f = 0; f < m->nframes; f++)
		if (!strcmp(model_str(m, m->frames[f].name), name))
			return f;
	CHECK_MSG(0, "no function %s", name);
	return NO_ID;
}

static bool load_path(const char *name, struct model *m)
{
	char path[4096];
	snprintf(path, sizeof(path), "%s/devtools-old/%s", testdata, name);
	struct load_options opt = { .session = -1 };
	struct load_error err;
	bool ok = load_file(path, &opt, m, &err, NULL);
	CHECK_MSG(ok, "%s: %s", name, err.message);
	return ok;
}

static bool load_text(const char *text, struct model *m, struct load_error *err)
{
	struct load_options opt = { .session = -1 };
	return load_memory(text, strlen(text), "text", &opt, m, err);
}

/* Self and total (µs) of a function under a rule. */
static void check_function(struct rules *r, enum rule rule, const char *name,
			   double self, double total)
{
	const struct totals *t = rules_totals(r, rule, 0);
	uint32_t f = function(r->model, name);
	if (f == NO_ID || !t->total)
		return;
	CHECK_CLOSE(t->self[f], self, name);
	CHECK_CLOSE(t->total[f], total, name);
}

/* tree-times.cpuprofile: (root) 100 ms = (program) 10.25 + main 79.75 +
 * (garbage collector) 10; main 5 + parse 29.75 (20 + tokenize 9.75) +
 * walk 45 (15 + walk 30 (20 + tokenize 10)).  Self per function is the
 * sum of its nodes' selfTime: walk 15 + 20, tokenize 9.75 + 10.  exact
 * counts walk's outer node only (45), additive both (45 + 30); divided
 * splits tokenize's 19.75 between parse and walk, 9.875 each (walk's
 * call to itself is dropped as a cycle). */
static void check_worked_file(void)
{
	struct model m;
	if (!load_path("tree-times.cpuprofile", &m))
		return;
	CHECK(m.caps & HAS_STACKS);
	CHECK(!(m.caps & HAS_TIMELINE));
	CHECK(m.nsamples == 0);
	CHECK_CLOSE(m.duration, 100000, "duration: the root's totalTime");
	CHECK(m.warning == STR_NONE);
	CHECK(!strcmp(m.format, "cpuprofile (tree times)"));
	struct rules r;
	rules_init(&r, &m);
	check_function(&r, RULE_EXACT, "(root)", 0, 100000);
	check_function(&r, RULE_EXACT, "main", 5000, 79750);
	check_function(&r, RULE_EXACT, "parse", 20000, 29750);
	check_function(&r, RULE_EXACT, "walk", 35000, 45000);
	check_function(&r, RULE_EXACT, "tokenize", 19750, 19750);
	check_function(&r, RULE_EXACT, "(program)", 10250, 10250);
	check_function(&r, RULE_EXACT, "(garbage collector)", 10000, 10000);
	check_function(&r, RULE_ADDITIVE, "walk", 35000, 75000);
	check_function(&r, RULE_DIVIDED, "walk", 35000, 44875);
	check_function(&r, RULE_DIVIDED, "parse", 20000, 29875);
	const struct totals *g = rules_totals(&r, RULE_GPROF, 0);
	CHECK(!g->total && g->why_not); /* no call counts: gprof is n/a */
	/* Lines count from 1 in these files, 0 being "none". */
	uint32_t f = function(&m, "main");
	if (f != NO_ID) {
		CHECK(m.frames[f].line == 1);
		CHECK(m.frames[f].kind == KIND_JS);
	}
	f = function(&m, "(program)");
	if (f != NO_ID) {
		CHECK(m.frames[f].line == -1);
		CHECK(m.frames[f].kind == KIND_PROGRAM);
	}
	CHECK(!m.lines_zero_based);
	rules_free(&r);
	model_free(&m);
}

/* The profile in V8's test/mjsunit/regress/regress-2374.js, a DevTools
 * protocol answer of 2012: (root) 0 ms self, (program) 495.72... ms. */
static void check_v8_file(void)
{
	struct model m;
	if (!load_path("v8-regress-2374.cpuprofile", &m))
		return;
	struct rules r;
	rules_init(&r, &m);
	check_function(&r, RULE_EXACT, "(program)", 495724.3772462511, 495724.3772462511);
	check_function(&r, RULE_EXACT, "(root)", 0, 495724.3772462511);
	CHECK(m.nnodes == 2); /* bottomUpHead is the same data inverted: not read */
	CHECK(m.warning == STR_NONE);
	rules_free(&r);
	model_free(&m);
}

#define NODE(name, self, total, kids) \
	"{\"functionName\":\"" name "\",\"url\":\"a.js\",\"lineNumber\":3," \
	"\"selfTime\":" #self ",\"totalTime\":" #total ",\"numberOfCalls\":0," \
	"\"visible\":true,\"callUID\":7,\"children\":[" kids "]}"

/* A totalTime that is not selfTime plus the children's: the totals come
 * from selfTime, and the model says which node disagrees. */
static void check_inconsistent_totals(void)
{
	static const char text[] =
		"{\"head\":" NODE("(root)", 0, 12, NODE("f", 4, 4, "") "," NODE("g", 6, 6, "")) "}";
	struct model m;
	struct load_error err;
	bool ok = load_text(text, &m, &err);
	CHECK_MSG(ok, "inconsistent: %s", err.message);
	if (!ok)
		return;
	CHECK(m.warning != STR_NONE);
	if (m.warning != STR_NONE) {
		const char *w = model_str(&m, m.warning);
		CHECK_MSG(strstr(w, "1 of 3 nodes") && strstr(w, "2.000 ms") &&
			  strstr(w, "byte 8"), "warning: %s", w);
	}
	CHECK_CLOSE(m.duration, 10000, "duration: the sum of selfTime");
	model_free(&m);
}

/* Samples without times cannot be weighed; the tree's times can. */
static void check_samples_without_times(void)
{
	static const char text[] =
		"{\"head\":{\"id\":1,\"functionName\":\"(root)\",\"selfTime\":0,\"children\":["
		"{\"id\":2,\"functionName\":\"f\",\"selfTime\":4},"
		"{\"id\":3,\"functionName\":\"g\",\"selfTime\":6}]},\"samples\":[2,3,3]}";
	struct model m;
	struct load_error err;
	bool ok = load_text(text, &m, &err);
	CHECK_MSG(ok, "samples without times: %s", err.message);
	if (!ok)
		return;
	struct rules r;
	rules_init(&r, &m);
	check_function(&r, RULE_EXACT, "g", 6000, 6000);
	CHECK(!(m.caps & HAS_TIMELINE));
	rules_free(&r);
	model_free(&m);
}

static void rejected(const char *what, const char *text, const char *word1,
		     const char *word2)
{
	struct model m;
	struct load_error err;
	if (load_text(text, &m, &err)) {
		CHECK_MSG(0, "%s: loaded", what);
		model_free(&m);
		return;
	}
	CHECK_MSG(strstr(err.message, word1) && strstr(err.message, word2),
		  "%s: \"%s\"", what, err.message);
}

static void check_bad_input(void)
{
	rejected("negative selfTime", "{\"head\":" NODE("(root)", -1, 0, "") "}",
		 "selfTime -1 is negative", "cpuprofile, byte 72: ");
	rejected("selfTime a string",
		 "{\"head\":{\"functionName\":\"f\",\"selfTime\":\"1\"}}",
		 "selfTime is not a number", "cpuprofile, byte 39: ");
	rejected("enormous totalTime", "{\"head\":" NODE("(root)", 0, 1e300, "") "}",
		 "totalTime 1e+300 is out of range", "cpuprofile, byte ");
	rejected("a node without selfTime",
		 "{\"head\":{\"functionName\":\"r\",\"selfTime\":0,\"children\":"
		 "[{\"functionName\":\"f\",\"totalTime\":3}]}}",
		 "a node without selfTime", "cpuprofile, byte 53: ");
	rejected("cut short", "{\"head\":" NODE("(root)", 0, 0, ""), "byte", "");
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: %s TESTDATA\n", argv[0]);
		return 2;
	}
	testdata = argv[1];
	check_worked_file();
	check_v8_file();
	check_inconsistent_totals();
	check_samples_without_times();
	check_bad_input();
	return check_done();
}
