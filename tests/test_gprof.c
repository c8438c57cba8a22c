/* The gprof rule and its loaders: the corpus gmon.out against what
 * `gprof -b` printed for it (testdata/expected/validate.gprof.txt), the
 * WasmProf thesis's examples as arc files, the streaming parser fed byte
 * by byte, and bad input of both formats. */
#include <stdlib.h>
#include <string.h>

#include "tests/check.h"
#include "loaders/arcs.h"
#include "loaders/loaders.h"
#include "output/gprof_report.h"
#include "rules/rules.h"
#include "base/util.h"

static const char *testdata;
static const char *this_program; /* an ELF executable that is not `validate` */

static uint32_t frame_named(const struct model *m, const char *name)
{
	for (uint32_t f = 0; f < m->nframes; f++)
		if (!strcmp(model_str(m, m->frames[f].name), name))
			return f;
	return NO_ID;
}

static void seconds(double us, char *buf, size_t cap)
{
	snprintf(buf, cap, "%.2f", us / 1e6);
}

/* "50045713", "1+7049154" or "" as gprof prints the called column. */
static void called_text(double calls, double self_calls, char *buf, size_t cap)
{
	if (calls + self_calls == 0)
		snprintf(buf, cap, "%s", "");
	else if (self_calls)
		snprintf(buf, cap, "%.0f+%.0f", calls, self_calls);
	else
		snprintf(buf, cap, "%.0f", calls);
}

/* Flat profile line: "%time cumulative self [calls self/call total/call] name". */
static void check_flat_line(const struct model *m, const struct totals *t,
			    const char *line)
{
	char cols[6][64], name[256];
	int n = sscanf(line, "%63s %63s %63s %63s %63s %63s %255s", cols[0],
		       cols[1], cols[2], cols[3], cols[4], cols[5], name);
	const char *fname = n == 7 ? name : cols[3];
	if (n != 7 && n != 4)
		return;
	uint32_t f = frame_named(m, fname);
	CHECK_MSG(f != NO_ID, "flat: no function %s", fname);
	if (f == NO_ID)
		return;
	char self[32];
	seconds(t->self[f], self, sizeof(self));
	CHECK_MSG(!strcmp(self, cols[2]), "flat %s: self %s, gprof %s", fname, self, cols[2]);
	double calls = n == 7 ? strtod(cols[3], NULL) : 0;
	CHECK_MSG(t->calls[f] == calls, "flat %s: calls %.0f, gprof %.0f", fname,
		  t->calls[f], calls);
}

/* Primary line: "[N] %time self children [called] name [<cycle K>] [N]". */
static void check_primary_line(const struct model *m, const struct totals *t,
			       const char *line)
{
	char index[16], pct[16], self[32], children[32], rest[512];
	if (sscanf(line, "%15s %15s %31s %31s %511[^\n]", index, pct, self,
		   children, rest) != 5)
		return;
	char called[64] = "", *name = rest;
	if (rest[0] >= '0' && rest[0] <= '9') {
		size_t k = strcspn(rest, " ");
		snprintf(called, sizeof(called), "%.*s", (int)k, rest);
		name = rest + k;
	}
	name += strspn(name, " ");
	*strrchr(name, ' ') = '\0'; /* the trailing [N] */
	const struct gprof_graph *g = t->gprof;
	char got_self[32], got_children[32], got_called[64];
	unsigned cycle;
	if (sscanf(name, "<cycle %u as a whole>", &cycle) == 1) {
		CHECK_MSG(cycle <= g->ncycles, "no cycle %u", cycle);
		if (cycle > g->ncycles)
			return;
		const struct gprof_cycle *c = &g->cycles[cycle];
		seconds(c->self, got_self, sizeof(got_self));
		seconds(c->child, got_children, sizeof(got_children));
		called_text(c->calls, c->self_calls, got_called, sizeof(got_called));
	} else {
		char *tag = strstr(name, " <cycle");
		if (tag)
			*tag = '\0';
		uint32_t f = frame_named(m, name);
		CHECK_MSG(f != NO_ID, "call graph: no function %s", name);
		if (f == NO_ID)
			return;
		CHECK_MSG(!tag || g->cycle[f], "%s should be in a cycle", name);
		seconds(t->self[f], got_self, sizeof(got_self));
		seconds(g->child[f], got_children, sizeof(got_children));
		called_text(g->calls[f], g->self_calls[f], got_called, sizeof(got_called));
	}
	CHECK_MSG(!strcmp(got_self, self), "%s: self %s, gprof %s", name, got_self, self);
	CHECK_MSG(!strcmp(got_children, children), "%s: children %s, gprof %s", name,
		  got_children, children);
	CHECK_MSG(!strcmp(got_called, called), "%s: called '%s', gprof '%s'", name,
		  got_called, called);
}

static void test_corpus_gmon(void)
{
	char path[1024], exe[1024], expected_path[1024];
	snprintf(path, sizeof(path), "%s/gprof/gmon.out", testdata);
	snprintf(exe, sizeof(exe), "%s/gprof/validate", testdata);
	snprintf(expected_path, sizeof(expected_path), "%s/expected/validate.gprof.txt", testdata);
	char *expected = check_read_file(expected_path, NULL);
	CHECK_MSG(expected, "cannot read %s", expected_path);
	struct model m;
	struct load_error err;
	struct load_options opt = { .exe = exe, .session = -1 };
	bool loaded = load_file(path, &opt, &m, &err, NULL);
	CHECK_MSG(loaded, "gmon.out: %s", err.message);
	if (!loaded || !expected) {
		free(expected);
		return;
	}
	struct rules rules;
	rules_init(&rules, &m);
	const struct totals *t = rules_totals(&rules, RULE_GPROF, 0);
	CHECK(t->gprof && t->total);
	int flat = 0, primaries = 0, section = 0;
	for (char *line = strtok(expected, "\n"); line; line = strtok(NULL, "\n")) {
		if (strstr(line, "Call graph"))
			section = 2;
		else if (strstr(line, "name") && strstr(line, "calls") && section == 0)
			section = 1;
		else if (strstr(line, "Index by function name"))
			section = 3;
		else if (section == 1 && (line[0] == ' ' || (line[0] >= '0' && line[0] <= '9')))
			check_flat_line(&m, t, line), flat++;
		else if (section == 2 && line[0] == '[')
			check_primary_line(&m, t, line), primaries++;
	}
	CHECK_MSG(flat == 12 && primaries == 14, "read %d flat and %d primary lines",
		  flat, primaries);
	CHECK(t->calls[frame_named(&m, "fib")] == 1);
	/* exact and additive have no meaning on arcs; divided does. */
	CHECK(!rules_totals(&rules, RULE_EXACT, 0)->total);
	CHECK(!rules_totals(&rules, RULE_ADDITIVE, 0)->total);
	CHECK(rules_totals(&rules, RULE_DIVIDED, 0)->total);
	rules_free(&rules);
	model_free(&m);
	free(expected);
}

static bool load_arcs_file(const char *name, struct model *m)
{
	char path[1024];
	snprintf(path, sizeof(path), "%s/arcs/%s", testdata, name);
	struct load_error err;
	struct load_options opt = { .session = -1 };
	bool ok = load_file(path, &opt, m, &err, NULL);
	CHECK_MSG(ok, "%s: %s", name, err.message);
	return ok;
}

/* The thesis's numbers, in ms: _main self 0.038 total 0.042, _double
 * 0.003, _add 0.001. */
static void test_thesis_example(void)
{
	struct model m;
	if (!load_arcs_file("thesis-main.arcs", &m))
		return;
	struct rules rules;
	rules_init(&rules, &m);
	const struct totals *t = rules_totals(&rules, RULE_GPROF, 0);
	uint32_t main_f = frame_named(&m, "_main"), dbl = frame_named(&m, "_double"),
		 add = frame_named(&m, "_add");
	CHECK(main_f != NO_ID && dbl != NO_ID && add != NO_ID);
	if (main_f != NO_ID && dbl != NO_ID && add != NO_ID) {
		CHECK(close_enough(t->self[main_f], 38));
		CHECK(close_enough(t->total[main_f], 42));
		CHECK(close_enough(t->self[dbl], 3) && close_enough(t->total[dbl], 3));
		CHECK(close_enough(t->self[add], 1) && close_enough(t->total[add], 1));
		CHECK(t->calls[main_f] == 1 && t->calls[add] == 1);
	}
	CHECK(close_enough(t->profile_total, 42));
	rules_free(&rules);
	model_free(&m);
}

static void test_negative_self(void)
{
	struct model m;
	if (!load_arcs_file("negative-self.arcs", &m))
		return;
	struct rules rules;
	rules_init(&rules, &m);
	struct view_context ctx = { .model = &m, .rules = &rules, .rule = RULE_GPROF,
				    .focus_frame = NO_ID };
	struct view v;
	view_open(&v, VIEW_FLAT, &ctx);
	uint32_t outer = frame_named(&m, "_outer");
	CHECK(outer != NO_ID && close_enough(v.totals->self[outer], -5));
	CHECK(outer != NO_ID && close_enough(v.totals->total[outer], 10));
	char *text = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&text, &len);
	gprof_print_flat(out, &v);
	fclose(out);
	const char *outer_line = strstr(text, "_outer");
	const char *inner_line = strstr(text, "_inner");
	CHECK_MSG(outer_line && inner_line && strstr(outer_line, "negative self") &&
		  strstr(text, " -0.005 ") &&
		  strcspn(inner_line, "\n") < strcspn(inner_line, "["),
		  "flat report does not show and mark the negative self:\n%s", text);
	free(text);
	view_close(&v);
	rules_free(&rules);
	model_free(&m);
}

static const struct row *find_row(const struct view *v, const char *name,
				  uint32_t depth)
{
	const struct model *m = v->ctx->model;
	for (size_t i = 0; i < v->nrows; i++)
		if (v->rows[i].depth == depth &&
		    !strcmp(model_str(m, m->frames[v->rows[i].frame].name), name))
			return &v->rows[i];
	return NULL;
}

/* Top-down and bottom-up expanded from the arcs of the thesis example. */
static void test_arc_trees(void)
{
	struct model m;
	if (!load_arcs_file("thesis-main.arcs", &m))
		return;
	struct rules rules;
	rules_init(&rules, &m);
	struct view_context ctx = { .model = &m, .rules = &rules, .rule = RULE_GPROF,
				    .focus_frame = NO_ID };
	struct view v;
	view_open(&v, VIEW_TOPDOWN, &ctx);
	view_expand_all(&v, SIZE_MAX, UINT32_MAX, SIZE_MAX);
	const struct row *root = find_row(&v, "<spontaneous>", 0);
	const struct row *main_row = find_row(&v, "_main", 1);
	const struct row *dbl = find_row(&v, "_double", 2);
	CHECK(v.nrows == 4 && root && close_enough(root->total, 42));
	CHECK(main_row && close_enough(main_row->self, 38) &&
	      close_enough(main_row->total, 42));
	CHECK(dbl && close_enough(dbl->self, 3));
	view_close(&v);
	view_open(&v, VIEW_BOTTOMUP, &ctx);
	view_expand_all(&v, SIZE_MAX, UINT32_MAX, SIZE_MAX);
	const struct row *add = find_row(&v, "_add", 0);
	const struct row *add_caller = add && add + 1 < v.rows + v.nrows ? add + 1 : NULL;
	CHECK(add && close_enough(add->self, 1));
	CHECK(add_caller && add_caller->depth == 1 && close_enough(add_caller->self, 1));
	CHECK(find_row(&v, "<spontaneous>", 2));
	view_close(&v);
	rules_free(&rules);
	model_free(&m);
}

/* The corpus's cycle even <-> odd, reached from main: the top-down tree
 * gives main the whole cycle (gprof's arc main -> even carries 1.58 s of
 * self time, expected/validate.gprof.txt) and cuts the cycle where it
 * comes back to even. */
static void test_cycle_in_tree(void)
{
	char path[1024], exe[1024];
	snprintf(path, sizeof(path), "%s/gprof/gmon.out", testdata);
	snprintf(exe, sizeof(exe), "%s/gprof/validate", testdata);
	struct model m;
	struct load_error err;
	struct load_options opt = { .exe = exe, .session = -1 };
	if (!load_file(path, &opt, &m, &err, NULL))
		return; /* reported by test_corpus_gmon */
	struct rules rules;
	rules_init(&rules, &m);
	struct view_context ctx = { .model = &m, .rules = &rules, .rule = RULE_GPROF,
				    .focus_frame = NO_ID };
	struct view v;
	view_open(&v, VIEW_TOPDOWN, &ctx);
	view_expand_all(&v, SIZE_MAX, 4, SIZE_MAX);
	const struct row *even = find_row(&v, "even", 1);
	const struct row *odd = find_row(&v, "odd", 2);
	const struct row *again = find_row(&v, "even", 3);
	CHECK(even && odd && again);
	if (even && odd && again) {
		CHECK(fabs((even->self + odd->self) / 1e6 - 1.58) < 0.005);
		CHECK(!(even->flags & ROW_CYCLE) && (again->flags & ROW_CYCLE));
		CHECK(!(again->flags & ROW_EXPANDABLE));
	}
	view_close(&v);
	rules_free(&rules);
	model_free(&m);
}

/* The parser must not care where the bytes are split. */
static void test_stream_split(void)
{
	char path[1024];
	size_t len;
	snprintf(path, sizeof(path), "%s/arcs/thesis-main.arcs", testdata);
	char *text = check_read_file(path, &len);
	struct arcs_parser *p = arcs_parser_new();
	struct load_error err;
	bool ok = true;
	unsigned long prints_seen = 0;
	for (size_t i = 0; ok && i < len; i++) {
		ok = arcs_parser_feed(p, (const uint8_t *)text + i, 1, &err);
		if (arcs_parser_prints(p) != prints_seen)
			prints_seen = arcs_parser_prints(p);
	}
	CHECK_MSG(ok && arcs_parser_end(p, &err), "byte by byte: %s", err.message);
	CHECK(prints_seen == 1);
	struct model m;
	CHECK(arcs_parser_model(p, &m, &err));
	uint32_t main_f = frame_named(&m, "_main");
	struct rules rules;
	rules_init(&rules, &m);
	CHECK(main_f != NO_ID &&
	      close_enough(rules_totals(&rules, RULE_GPROF, 0)->self[main_f], 38));
	rules_free(&rules);
	model_free(&m);
	arcs_parser_free(p);
	free(text);
}

static void expect_failure(const void *data, size_t len, const char *exe,
			   const char *want)
{
	struct model m;
	struct load_error err = { "" };
	struct load_options opt = { .exe = exe, .session = -1 };
	bool ok = load_memory(data, len, "bad", &opt, &m, &err);
	CHECK_MSG(!ok, "loaded although it should fail with '%s'", want);
	if (ok) {
		model_free(&m);
		return;
	}
	CHECK_MSG(strstr(err.message, want), "message '%s' lacks '%s'", err.message, want);
}

static size_t put_word(uint8_t *at, uint64_t v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		at[i] = (uint8_t)(v >> (8 * i));
	return n;
}

/* A gmon.out header, then an arc between two addresses. */
static size_t gmon_with_arc(uint8_t *buf, uint64_t from, uint64_t to)
{
	memset(buf, 0, 20);
	memcpy(buf, "gmon\1\0\0\0", 8);
	size_t n = 20;
	buf[n++] = 1;
	n += put_word(buf + n, from, 8);
	n += put_word(buf + n, to, 8);
	n += put_word(buf + n, 3, 4);
	return n;
}

static void test_bad_gmon(void)
{
	char exe[1024], not_elf[1024], path[1024];
	snprintf(exe, sizeof(exe), "%s/gprof/validate", testdata);
	snprintf(not_elf, sizeof(not_elf), "%s/arcs/thesis-main.arcs", testdata);
	snprintf(path, sizeof(path), "%s/gprof/gmon.out", testdata);
	size_t len;
	char *good = check_read_file(path, &len);
	uint8_t buf[256];

	expect_failure(good, 22, exe, "histogram header cut short");
	expect_failure(good, 200, exe, "needs 2632 bytes");
	expect_failure(good, 10, exe, "no 20-byte");
	size_t n = gmon_with_arc(buf, 0x11e0, 0x11c3);
	expect_failure(buf, n - 3, exe, "arc cut short");
	buf[n] = 9;
	expect_failure(buf, n + 1, exe, "unknown record tag 9");
	n = gmon_with_arc(buf, 0x10, 0x11c3); /* before the first function */
	expect_failure(buf, n, exe, "outside every function");
	n = gmon_with_arc(buf, 0x11e0, 0x11c3);
	expect_failure(buf, n, not_elf, "is not an ELF file");
	expect_failure(buf, n, "/nonexistent/a.out", "No such file");
	/* Another program's executable: its text ends elsewhere. */
	expect_failure(good, len, this_program, "is it the program that wrote this file");
	/* A histogram that claims more bins than the file holds. */
	memcpy(buf, good, 20 + 1 + 16);
	put_word(buf + 37, 1000000, 4);
	expect_failure(buf, 80, exe, "histogram of 1000000 bins");
	/* Basic-block counts that run past the end. */
	memcpy(buf, good, 20);
	buf[20] = 2;
	put_word(buf + 21, 5, 4);
	expect_failure(buf, 40, exe, "basic-block counts run past");
	free(good);
}

static void test_bad_arcs(void)
{
	static const struct { const char *text, *want; } cases[] = {
		{ "name 1 f\nadd 0 1 1\n", "WasmProf arcs, byte 9: line 2: add needs SRC DST COUNT TIME_MS" },
		{ "name 1 f\nadd 0 1 1 0.5\nadd 1 7 2 0.1\n", "WasmProf arcs, byte 23: line 3: id 7 is never named" },
		{ "name 1\n", "WasmProf arcs, byte 0: line 1: name needs ID NAME" },
		{ "name 0 main\n", "id 0 is <spontaneous>" },
		{ "name 1 f\nset 0 1 x 1\n", "COUNT must be a whole number" },
		{ "name 1 f\nadd 0 1 1 -2\n", "TIME_MS must be" },
		{ "name 1 f\nadd 1 0 1 1\n", "DST 0" },
		{ "name 1 f\nprint now\n", "WasmProf arcs, byte 9: line 2: clear and print take nothing" },
		{ "name 1 f\nadd 0 1 1 1 1\n", "add needs" },
		{ "name 1 f file.c:x\n", "FILE:LINE" },
		{ "print\nbogus 1 2\n", "WasmProf arcs, byte 6: line 2: unknown command" },
	};
	for (size_t i = 0; i < ARRAY_LEN(cases); i++)
		expect_failure(cases[i].text, strlen(cases[i].text), NULL, cases[i].want);
	/* Fed a byte at a time, a line's offset still counts from the start. */
	const char *text = "name 1 f\nadd 0 1 1\n";
	struct arcs_parser *p = arcs_parser_new();
	struct load_error err;
	bool ok = true;
	for (size_t i = 0; ok && text[i]; i++)
		ok = arcs_parser_feed(p, (const uint8_t *)text + i, 1, &err);
	CHECK_MSG(!ok && strstr(err.message, "WasmProf arcs, byte 9: line 2: add needs"),
		  "%s", err.message);
	arcs_parser_free(p);
}

int main(int argc, char **argv)
{
	testdata = argc > 1 ? argv[1] : "testdata";
	this_program = argv[0];
	test_corpus_gmon();
	test_thesis_example();
	test_negative_self();
	test_stream_split();
	test_arc_trees();
	test_cycle_in_tree();
	test_bad_gmon();
	test_bad_arcs();
	return check_done();
}
