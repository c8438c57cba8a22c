/* Filters as transforms (src/transform.c) on profiles worked by hand:
 * merge, collapse recursion, collapse a file, "my code", the order of a
 * stack, under the exact, additive and divided rules (spec/time-rules.md).
 * pprof's focus/ignore/hide/show/prune_from/tagfocus/tagignore are held to
 * go tool pprof itself in tests/test_pprof.py (filters). */
#include <math.h>
#include <string.h>

#include "tests/check.h"
#include "rules/rules.h"
#include "transform/transform.h"
#include "base/util.h"

struct stack {
	const char *frames[6]; /* "name@file", root first, NULL ends */
	double value;
};

struct want {
	const char *name;
	double self, exact, additive, divided;
};

static uint32_t intern(struct model *m, const char *spec)
{
	const char *at = strchr(spec, '@');
	size_t len = at ? (size_t)(at - spec) : strlen(spec);
	struct frame f = { .line = -1, .column = -1, .kind = KIND_JS };
	f.name = model_string(m, spec, len);
	f.url = at ? model_string(m, at + 1, strlen(at + 1)) : model_string(m, "", 0);
	f.extra = STR_NONE;
	return model_intern_frame(m, &f);
}

/* Stacks root first, as a sample's leaf node with its value. */
static void build(struct model *m, const struct stack *stacks, size_t n)
{
	model_init(m, "test");
	model_add_sample_type(m, "time", "us");
	for (size_t s = 0; s < n; s++) {
		uint32_t frames[6];
		size_t depth = 0;
		while (depth < 6 && stacks[s].frames[depth])
			depth++;
		for (size_t i = 0; i < depth; i++) /* leaf first */
			frames[depth - 1 - i] = intern(m, stacks[s].frames[i]);
		model_add_node_value(m, model_add_stack(m, frames, depth), 0, stacks[s].value);
	}
	uint32_t cycle;
	model_finish(m, &cycle);
}

static uint32_t frame_named(const struct model *m, const char *name)
{
	for (uint32_t f = 0; f < m->nframes; f++)
		if (!strcmp(model_str(m, m->frames[f].name), name))
			return f;
	return NO_ID;
}

static void check_rules(const char *what, const struct model *m,
			const struct want *rows, size_t n)
{
	struct rules r;
	rules_init(&r, m);
	const struct totals *t[3] = {
		rules_totals(&r, RULE_EXACT, 0),
		rules_totals(&r, RULE_ADDITIVE, 0),
		rules_totals(&r, RULE_DIVIDED, 0),
	};
	for (size_t i = 0; i < n; i++) {
		char label[128];
		snprintf(label, sizeof(label), "%s: %s", what, rows[i].name);
		uint32_t f = frame_named(m, rows[i].name);
		if (isnan(rows[i].self)) { /* gone from every stack */
			CHECK_MSG(f == NO_ID || (t[0]->self[f] == 0 && t[0]->total[f] == 0),
				  "%s is still there", label);
			continue;
		}
		CHECK_MSG(f != NO_ID, "%s: missing", label);
		if (f == NO_ID)
			continue;
		CHECK_CLOSE(t[0]->self[f], rows[i].self, label);
		CHECK_CLOSE(t[0]->total[f], rows[i].exact, label);
		CHECK_CLOSE(t[1]->total[f], rows[i].additive, label);
		CHECK_CLOSE(t[2]->total[f], rows[i].divided, label);
	}
	rules_free(&r);
}

/* Applies `text` transforms of `kind` (text NULL: on the frame named
 * `frame_name`) and checks the rules on the result. */
static void check_transform(const char *what, const struct stack *stacks, size_t nstacks,
			    enum transform_kind kind, const char *frame_name, const char *text,
			    const struct want *rows, size_t nrows)
{
	struct model m, out;
	build(&m, stacks, nstacks);
	struct transform_stack s = { 0 };
	char err[128];
	uint32_t frame = frame_name ? frame_named(&m, frame_name) : NO_ID;
	CHECK(transform_push(&s, kind, frame, text, err, sizeof(err)));
	const char *why;
	CHECK(model_transform(&m, s.items, s.n, &out, &why));
	check_rules(what, &out, rows, nrows);
	/* Frames keep their ids. */
	for (uint32_t f = 0; f < m.nframes; f++)
		CHECK(!strcmp(model_str(&m, m.frames[f].name), model_str(&out, out.frames[f].name)));
	transform_stack_free(&s);
	model_free(&out);
	model_free(&m);
}

/* main>a>g>h 4, main>a>g 2, main>b>g 1, main>a 3; g merged into its
 * callers: main>a>h 4, main>a 2+3, main>b 1.  A tree without recursion:
 * exact = additive; one caller each: divided = exact. */
static void test_merge(void)
{
	static const struct stack stacks[] = {
		{ { "main", "a", "g", "h" }, 4 },
		{ { "main", "a", "g" }, 2 },
		{ { "main", "b", "g" }, 1 },
		{ { "main", "a" }, 3 },
	};
	static const struct want want[] = {
		{ "main", 0, 10, 10, 10 },
		{ "a", 5, 9, 9, 9 },
		{ "b", 1, 1, 1, 1 },
		{ "h", 4, 4, 4, 4 },
		{ "g", NAN, 0, 0, 0 },
	};
	check_transform("merge g", stacks, ARRAY_LEN(stacks), TF_MERGE, "g", NULL, want,
			ARRAY_LEN(want));
	check_transform("merge ^g$", stacks, ARRAY_LEN(stacks), TF_MERGE, NULL, "^g$", want,
			ARRAY_LEN(want));
}

/* main>f>f>f 3 (direct), main>f>g>f 2 (indirect), main>g 1.  Inner
 * occurrences removed: main>f 3, main>f>g 2, main>g 1.
 * self f 3, g 2 + 1.  exact: f 5, g 3, main 6; additive: the tree
 * main(6)>f(5)>g(2), main>g(1): f 5, g 3.  divided: callers(f) = {main},
 * callers(g) = {f, main}: f 3 + 3/2, g 3, main 6. */
static void test_collapse_recursion(void)
{
	static const struct stack stacks[] = {
		{ { "main", "f", "f", "f" }, 3 },
		{ { "main", "f", "g", "f" }, 2 },
		{ { "main", "g" }, 1 },
	};
	static const struct want want[] = {
		{ "main", 0, 6, 6, 6 },
		{ "f", 3, 5, 5, 4.5 },
		{ "g", 3, 3, 3, 3 },
	};
	check_transform("collapse recursion", stacks, ARRAY_LEN(stacks), TF_COLLAPSE_RECURSION,
			NULL, NULL, want, ARRAY_LEN(want));
	/* Before: additive counts f's nested nodes again (3+3+3... by hand:
	 * main>f sub 5, main>f>f 3, main>f>f>f 3, main>f>g>f 2: 13). */
	static const struct want before[] = {
		{ "f", 5, 5, 13, 0 },
	};
	struct model m;
	build(&m, stacks, ARRAY_LEN(stacks));
	struct rules r;
	rules_init(&r, &m);
	uint32_t f = frame_named(&m, "f");
	CHECK_CLOSE(rules_totals(&r, RULE_EXACT, 0)->total[f], before[0].exact, "f before");
	CHECK_CLOSE(rules_totals(&r, RULE_ADDITIVE, 0)->total[f], before[0].additive,
		    "f additive before");
	rules_free(&r);
	model_free(&m);
}

/* app.js's main calls into node_modules/react (render > commit) which
 * calls back cb in app.js.  Collapsed, react is one frame named by the
 * match: main>node_modules/react>cb 2, main>node_modules/react 1. */
static void test_collapse_file(void)
{
	static const struct stack stacks[] = {
		{ { "main@/app/app.js", "render@/app/node_modules/react/r.js",
		    "commit@/app/node_modules/react/c.js", "cb@/app/app.js" }, 2 },
		{ { "main@/app/app.js", "render@/app/node_modules/react/r.js",
		    "commit@/app/node_modules/react/c.js" }, 1 },
	};
	static const struct want want[] = {
		{ "main", 0, 3, 3, 3 },
		{ "node_modules/react", 1, 3, 3, 3 },
		{ "cb", 2, 2, 2, 2 },
		{ "render", NAN, 0, 0, 0 },
		{ "commit", NAN, 0, 0, 0 },
	};
	check_transform("collapse react", stacks, ARRAY_LEN(stacks), TF_COLLAPSE_FILE, NULL,
			"node_modules/react", want, ARRAY_LEN(want));
	/* C on render: its own file only, named by the whole path. */
	static const struct want own_file[] = {
		{ "/app/node_modules/react/r.js", 0, 3, 3, 3 },
		{ "commit", 1, 3, 3, 3 },
		{ "cb", 2, 2, 2, 2 },
		{ "render", NAN, 0, 0, 0 },
	};
	check_transform("collapse render's file", stacks, ARRAY_LEN(stacks), TF_COLLAPSE_FILE,
			"render", NULL, own_file, ARRAY_LEN(own_file));
}

/* Root /app: lib (node_modules) and node:fs are not mine; their time goes
 * to the caller that is.  (program), outside too but with nothing of
 * mine above it, keeps its time. */
static void test_mine(void)
{
	static const struct stack stacks[] = {
		{ { "main@/app/main.js", "lib@/app/node_modules/x/lib.js", "cb@/app/cb.js" }, 2 },
		{ { "main@/app/main.js", "lib@/app/node_modules/x/lib.js" }, 3 },
		{ { "main@/app/main.js", "read@node:fs" }, 1 },
		{ { "(program)" }, 4 },
	};
	static const struct want want[] = {
		{ "main", 4, 6, 6, 6 },
		{ "cb", 2, 2, 2, 2 },
		{ "(program)", 4, 4, 4, 4 },
		{ "lib", NAN, 0, 0, 0 },
		{ "read", NAN, 0, 0, 0 },
	};
	check_transform("mine", stacks, ARRAY_LEN(stacks), TF_MINE, NULL, "/app", want,
			ARRAY_LEN(want));
}

/* Root C:\Users\Me\app against Windows file URLs (another case, other
 * slashes): main is mine; Node's internal/timers.js of the days before
 * node: and the root's node_modules are not, their 2 and 3 ms going to
 * main: main self 1 + 2 + 3 = 6. */
static void test_mine_windows_old_node(void)
{
	static const struct stack stacks[] = {
		{ { "main@file:///C:/Users/me/app/main.js", "listOnTimeout@internal/timers.js" }, 2 },
		{ { "main@file:///C:/Users/me/app/main.js",
		    "lib@file:///C:/Users/me/app/node_modules/x/lib.js" }, 3 },
		{ { "main@file:///C:/Users/me/app/main.js" }, 1 },
	};
	static const struct want want[] = {
		{ "main", 6, 6, 6, 6 },
		{ "listOnTimeout", NAN, 0, 0, 0 },
		{ "lib", NAN, 0, 0, 0 },
	};
	check_transform("mine on Windows", stacks, ARRAY_LEN(stacks), TF_MINE, NULL,
			"C:\\Users\\Me\\app", want, ARRAY_LEN(want));
}

/* A profile made under /nonexistent-elsewhere has nothing under another
 * root, something under its own; one of relative files only is all
 * mine wherever it was made. */
static void test_mine_elsewhere(void)
{
	static const struct stack elsewhere[] = {
		{ { "main@/nonexistent-elsewhere/app/main.js" }, 1 },
	};
	static const struct stack relative[] = { { { "main@main.go" }, 1 } };
	struct model m;
	build(&m, elsewhere, ARRAY_LEN(elsewhere));
	CHECK(!transform_mine_in(&m, NULL));
	CHECK(!transform_mine_in(&m, "/somewhere/else"));
	CHECK(transform_mine_in(&m, "/nonexistent-elsewhere/app"));
	model_free(&m);
	build(&m, relative, ARRAY_LEN(relative));
	CHECK(transform_mine_in(&m, NULL));
	model_free(&m);
}

/* The order matters: focus on b, then hide leaf, is main>b 1 (leaf's
 * 1 ms to b); the other way round the same; ignore a then focus leaf:
 * main>b>leaf 1. */
static void test_order(void)
{
	static const struct stack stacks[] = {
		{ { "main", "a", "leaf" }, 3 },
		{ { "main", "b", "leaf" }, 1 },
		{ { "main", "a" }, 2 },
	};
	struct model m, out;
	build(&m, stacks, ARRAY_LEN(stacks));
	struct transform_stack s = { 0 };
	char err[128];
	CHECK(transform_push(&s, TF_IGNORE, NO_ID, "^a$", err, sizeof(err)));
	CHECK(transform_push(&s, TF_FOCUS, NO_ID, "leaf", err, sizeof(err)));
	const char *why;
	CHECK(model_transform(&m, s.items, s.n, &out, &why));
	static const struct want want[] = {
		{ "main", 0, 1, 1, 1 },
		{ "b", 0, 1, 1, 1 },
		{ "leaf", 1, 1, 1, 1 },
		{ "a", NAN, 0, 0, 0 },
	};
	check_rules("ignore a, focus leaf", &out, want, ARRAY_LEN(want));
	model_free(&out);
	char text[64];
	transform_describe(&m, &s.items[0], text, sizeof(text));
	CHECK(!strcmp(text, "ignore=^a$"));
	CHECK(!transform_push(&s, TF_FOCUS, NO_ID, "(", err, sizeof(err)));
	CHECK(strstr(err, "bad regular expression") != NULL);
	CHECK(s.n == 2);
	transform_stack_free(&s);
	model_free(&m);
}

int main(void)
{
	test_merge();
	test_collapse_recursion();
	test_collapse_file();
	test_mine();
	test_mine_windows_old_node();
	test_mine_elsewhere();
	test_order();
	return check_done();
}
