/* Comparing two profiles (views/diff.c): the pairing steps, the delta rows
 * against numbers worked out by hand, a profile against itself, profiles
 * of two engines, and the split screen's row mirroring. */
#include <stdlib.h>
#include <string.h>

#include "tests/check.h"
#include "loaders/loaders.h"
#include "base/util.h"
#include "compare/diff.h"

static const char *testdata;

struct side {
	struct model model;
	struct rules rules;
};

static bool open_side(struct side *s, const char *name)
{
	char path[1024];
	snprintf(path, sizeof(path), "%s/%s", testdata, name);
	struct load_options opt = { .session = -1 };
	struct load_error err;
	bool loaded = load_file(path, &opt, &s->model, &err, NULL);
	CHECK_MSG(loaded, "%s: %s", name, err.message);
	if (loaded)
		rules_init(&s->rules, &s->model);
	return loaded;
}

static void close_side(struct side *s)
{
	rules_free(&s->rules);
	model_free(&s->model);
}

static void close_pair(struct diff *d, struct side *a, struct side *b)
{
	diff_free(d);
	close_side(a);
	close_side(b);
}

/* Two files of testdata and their diff; false (said) when one does not
 * load. */
static bool open_file_pair(struct side *a, const char *base, struct side *b,
			   const char *new_name, struct diff *d)
{
	if (!open_side(a, base) || !open_side(b, new_name))
		return false;
	diff_init(d, &a->rules, &b->rules);
	return true;
}

static uint32_t frame_named(const struct model *m, const char *name)
{
	uint32_t found = NO_ID;
	for (uint32_t f = 0; f < m->nframes; f++)
		if (!strcmp(model_str(m, m->frames[f].name), name)) {
			CHECK_MSG(found == NO_ID, "'%s' is not unique", name);
			found = f;
		}
	CHECK_MSG(found != NO_ID, "no function '%s'", name);
	return found;
}

/* The base side's function `base` is paired with `new_name`, by `how`. */
static void check_paired(const struct diff *d, const char *base,
			 const char *new_name, enum diff_match how)
{
	uint32_t f = frame_named(d->model[DIFF_BASE], base);
	CHECK_MSG(diff_match(d, DIFF_BASE, f) == frame_named(d->model[DIFF_NEW], new_name),
		  "%s is not paired with %s", base, new_name);
	CHECK_MSG(diff_match_how(d, DIFF_BASE, f) == how, "%s paired as %s", base,
		  diff_match_name(diff_match_how(d, DIFF_BASE, f)));
}

static const struct diff_row *row_named(const struct diff *d, const char *name)
{
	for (size_t i = 0; i < d->nrows; i++) {
		const struct diff_row *r = &d->rows[i];
		enum diff_side s = diff_row_side(r);
		const struct model *m = d->model[s];
		if (!strcmp(model_str(m, m->frames[r->frame[s]].name), name))
			return r;
	}
	CHECK_MSG(false, "no row for '%s'", name);
	return NULL;
}

/* ---- a profile against itself ------------------------------------------ */

static size_t flat_rows(struct side *s, enum rule rule)
{
	struct view_context ctx = { .model = &s->model, .rules = &s->rules,
				    .rule = rule, .type = s->model.default_type,
				    .focus_frame = NO_ID };
	struct view v;
	view_open(&v, VIEW_FLAT, &ctx);
	size_t n = v.nrows;
	view_close(&v);
	return n;
}

static void check_against_itself(const char *name)
{
	struct side a, b;
	if (!open_side(&a, name) || !open_side(&b, name))
		return;
	struct diff d;
	diff_init(&d, &a.rules, &b.rules);
	for (int rule = 0; rule < RULE_COUNT; rule++)
		for (int normalize = 0; normalize < 2; normalize++) {
			d.rule = (enum rule)rule;
			d.normalize = normalize;
			diff_build(&d);
			bool has_totals = d.totals[DIFF_BASE]->total != NULL;
			/* Without totals, the functions present are those the
			 * rule that applies lists (present, n/a). */
			enum rule listing = has_totals ? d.rule
				: a.model.caps & HAS_NODES ? RULE_ADDITIVE : RULE_GPROF;
			CHECK_MSG(d.nrows == flat_rows(&a, listing), "%s %s: %zu rows",
				  name, rule_name(d.rule), d.nrows);
			for (size_t i = 0; i < d.nrows; i++) {
				const struct diff_row *r = &d.rows[i];
				CHECK_MSG(r->match == MATCH_SAME &&
						  r->frame[DIFF_BASE] == r->frame[DIFF_NEW],
					  "%s: row %zu paired as %s", name, i,
					  diff_match_name(r->match));
				CHECK(r->self[DIFF_BASE] == r->self[DIFF_NEW]);
				if (has_totals)
					CHECK_MSG(r->delta == 0, "%s %s: delta %g", name,
						  rule_name(d.rule), r->delta);
				else /* no total on either side: no delta either */
					CHECK(isnan(r->delta) && isnan(r->total[DIFF_NEW]));
			}
		}
	close_pair(&d, &a, &b);
}

/* ---- the worked example against a hand-edited run ------------------------ */

/* worked-example-new.cpuprofile is worked-example.cpuprofile edited:
 * samples main>a>leaf 1 ms, main>b>leaf 2.5 ms, main>a 1.5 ms and a new
 * function main>c 2 ms (timeDeltas 0, 1000, 2500, 1500; endTime 7000),
 * and b moved from line 2 to line 5.  By time-rules.md:
 *   self:  leaf 3.5, a 1.5, b 0, c 2, main 0
 *   exact = additive: leaf 3.5, a 2.5, b 2.5, c 2, main 7
 *   divided: leaf 3.5 split over a and b: a 1.5 + 1.75 = 3.25, b 1.75,
 *            c 2, main 7
 * against the base's leaf 4/4/4, a 5/5/4, b 1/1/2, main 6/6/6 (ms). */
struct expected_row {
	const char *name;
	double base_self, base_total, new_self, new_total;
};

static void check_rows(const struct diff *d, const struct expected_row *want,
		       size_t n, const char *what)
{
	CHECK_MSG(d->nrows == n, "%s: %zu rows", what, d->nrows);
	for (size_t i = 0; i < n && i < d->nrows; i++) {
		const struct expected_row *w = &want[i];
		const struct diff_row *r = &d->rows[i];
		char where[256];
		snprintf(where, sizeof(where), "%s: row %zu, %s", what, i, w->name);
		CHECK_MSG(r == row_named(d, w->name), "%s is out of order", where);
		CHECK_CLOSE(r->self[DIFF_BASE], w->base_self, where);
		CHECK_CLOSE(r->total[DIFF_BASE], w->base_total, where);
		CHECK_CLOSE(r->self[DIFF_NEW], w->new_self, where);
		CHECK_CLOSE(r->total[DIFF_NEW], w->new_total, where);
		double was = isnan(w->base_total) ? 0 : w->base_total;
		CHECK_CLOSE(r->delta, w->new_total - was, where);
		CHECK_CLOSE(r->delta_pct, was ? 100 * (w->new_total - was) / was : NAN,
			    where);
	}
}

static void check_hand_edited_run(void)
{
	struct side a, b;
	struct diff d;
	if (!open_file_pair(&a, "worked-example.cpuprofile",
			    &b, "worked-example-new.cpuprofile", &d))
		return;
	CHECK(d.rule == RULE_EXACT);
	CHECK(d.sort == DIFF_SORT_DELTA);
	const struct model *mb = &a.model, *mn = &b.model;
	CHECK(diff_match_how(&d, DIFF_BASE, frame_named(mb, "a")) == MATCH_SAME);
	CHECK(diff_match_how(&d, DIFF_BASE, frame_named(mb, "b")) == MATCH_NAME_URL);
	CHECK(diff_match(&d, DIFF_NEW, frame_named(mn, "c")) == NO_ID);
	CHECK(diff_match(&d, DIFF_BASE, frame_named(mb, "leaf")) ==
	      frame_named(mn, "leaf"));
	CHECK(diff_match(&d, DIFF_NEW, frame_named(mn, "b")) == frame_named(mb, "b"));

	/* Sorted by |delta|: a -2.5, c +2, b +1.5, main +1, leaf -0.5. */
	static const struct expected_row exact[] = {
		{ "a", 2000, 5000, 1500, 2500 },
		{ "c", NAN, NAN, 2000, 2000 },
		{ "b", 0, 1000, 0, 2500 },
		{ "main", 0, 6000, 0, 7000 },
		{ "leaf", 4000, 4000, 3500, 3500 },
	};
	for (enum rule rule = RULE_EXACT; rule <= RULE_ADDITIVE; rule++) {
		d.rule = rule;
		diff_build(&d);
		check_rows(&d, exact, ARRAY_LEN(exact), rule_name(rule));
	}
	CHECK(row_named(&d, "c")->match == MATCH_NONE);
	CHECK(diff_find_row(&d, DIFF_NEW, frame_named(mn, "c")) == 1);
	CHECK(diff_find_row(&d, DIFF_BASE, frame_named(mb, "a")) == 0);

	/* divided: c +2, main +1, a -0.75, leaf -0.5, b -0.25. */
	static const struct expected_row divided[] = {
		{ "c", NAN, NAN, 2000, 2000 },
		{ "main", 0, 6000, 0, 7000 },
		{ "a", 2000, 4000, 1500, 3250 },
		{ "leaf", 4000, 4000, 3500, 3500 },
		{ "b", 0, 2000, 0, 1750 },
	};
	d.rule = RULE_DIVIDED;
	diff_build(&d);
	check_rows(&d, divided, ARRAY_LEN(divided), "divided");

	/* Largest regression first: c +2, b +1.5, main +1, leaf, a. */
	d.rule = RULE_EXACT;
	d.sort = DIFF_SORT_REGRESSION;
	diff_build(&d);
	static const char *const regression[] = { "c", "b", "main", "leaf", "a" };
	for (size_t i = 0; i < ARRAY_LEN(regression); i++)
		CHECK_MSG(&d.rows[i] == row_named(&d, regression[i]),
			  "regression order: %s not at %zu", regression[i], i);

	/* Shares: base of 6 ms, new of 7 ms, in percent. */
	static const struct expected_row shares[] = {
		{ "a", 100.0 * 2 / 6, 100.0 * 5 / 6, 100.0 * 1.5 / 7, 100.0 * 2.5 / 7 },
		{ "c", NAN, NAN, 100.0 * 2 / 7, 100.0 * 2 / 7 },
		{ "b", 0, 100.0 * 1 / 6, 0, 100.0 * 2.5 / 7 },
		{ "leaf", 100.0 * 4 / 6, 100.0 * 4 / 6, 100.0 * 3.5 / 7, 100.0 * 3.5 / 7 },
		{ "main", 0, 100, 0, 100 },
	};
	d.sort = DIFF_SORT_DELTA;
	d.normalize = true;
	diff_build(&d);
	check_rows(&d, shares, ARRAY_LEN(shares), "normalized");

	close_pair(&d, &a, &b);
}

/* ---- two engines running the same program ------------------------------- */

static void check_two_engines(void)
{
	struct side v8, xs;
	struct diff d;
	if (!open_file_pair(&v8, "validate.cpuprofile",
			    &xs, "validate-xs.cpuprofile", &d))
		return;
	/* The XS file has no whole stacks, only a function graph: divided,
	 * under which an XS stream and the engine's file agree. */
	CHECK(d.rule == RULE_DIVIDED);
	diff_build(&d);
	const struct model *mb = &v8.model, *mn = &xs.model;

	/* Same name, other url (file:///.../validate.js vs validate_small.js). */
	static const char *const by_name[] = { "add", "main", "f_main_1", "f_main_2",
					       "f_main_3", "f_main_4", "f_half",
					       "f_half_2", "f_quarter" };
	for (size_t i = 0; i < ARRAY_LEN(by_name); i++) {
		const struct diff_row *r = row_named(&d, by_name[i]);
		if (!r)
			continue;
		CHECK_MSG(r->match == MATCH_NAME, "%s paired as %s", by_name[i],
			  diff_match_name(r->match));
		CHECK(!isnan(r->total[DIFF_BASE]) && !isnan(r->total[DIFF_NEW]));
		CHECK_CLOSE(r->delta, r->total[DIFF_NEW] - r->total[DIFF_BASE], by_name[i]);
	}
	/* The roots pair by kind: (root) in V8, (host) in XS. */
	CHECK(diff_match(&d, DIFF_BASE, frame_named(mb, "(root)")) ==
	      frame_named(mn, "(host)"));
	CHECK(diff_match_how(&d, DIFF_NEW, frame_named(mn, "(host)")) == MATCH_KIND);

	const struct diff_row *program = row_named(&d, "(program)");
	if (program) {
		CHECK(program->match == MATCH_NONE && program->frame[DIFF_NEW] == NO_ID);
		CHECK(isnan(program->self[DIFF_NEW]) && isnan(program->total[DIFF_NEW]));
		CHECK_CLOSE(program->delta, -program->total[DIFF_BASE], "(program)");
		CHECK_CLOSE(program->delta_pct, -100, "(program)");
	}
	const struct diff_row *string = row_named(&d, "String");
	if (string) {
		CHECK(string->frame[DIFF_BASE] == NO_ID);
		CHECK(isnan(string->self[DIFF_BASE]) && isnan(string->delta_pct));
		CHECK_CLOSE(string->delta, string->total[DIFF_NEW], "String");
	}
	/* "(anonymous)" names many V8 functions and none in XS: unpaired. */
	for (uint32_t f = 0; f < mb->nframes; f++)
		if (!strcmp(model_str(mb, mb->frames[f].name), "(anonymous)"))
			CHECK(diff_match(&d, DIFF_BASE, f) == NO_ID);

	/* exact is not defined for XS: present XS functions have no total,
	 * so no delta; V8-only functions still do. */
	d.rule = RULE_EXACT;
	diff_build(&d);
	CHECK(!d.totals[DIFF_NEW]->total && d.totals[DIFF_BASE]->total);
	const struct diff_row *add = row_named(&d, "add");
	if (add)
		CHECK(!isnan(add->self[DIFF_NEW]) && isnan(add->total[DIFF_NEW]) &&
		      isnan(add->delta));
	program = row_named(&d, "(program)");
	if (program)
		CHECK_CLOSE(program->delta, -program->total[DIFF_BASE], "(program) exact");
	diff_free(&d);
	close_side(&v8);
	close_side(&xs);
}

/* ---- the pairing steps on models built by hand --------------------------- */

static uint32_t hand_frame(struct model *m, const char *name, const char *url,
			   int32_t line, enum frame_kind kind)
{
	struct frame f = { .name = model_string(m, name, strlen(name)),
			   .url = model_string(m, url, strlen(url)),
			   .extra = STR_NONE, .line = line, .column = 0,
			   .kind = (uint8_t)kind };
	return model_intern_frame(m, &f);
}

/* One sample of 1 µs in each function, called from the root. */
static void hand_model(struct model *m, const char *const (*functions)[3], size_t n)
{
	model_init(m, "hand");
	model_add_sample_type(m, "time", "us");
	uint32_t root = hand_frame(m, "(root)", "", -1, KIND_ROOT);
	for (size_t i = 0; i < n; i++) {
		uint32_t stack[2] = { hand_frame(m, functions[i][0], functions[i][1],
						 atoi(functions[i][2]), KIND_JS), root };
		model_add_sample(m, model_add_stack(m, stack, 2), 1);
	}
	uint32_t cycle;
	CHECK(model_finish(m, &cycle));
}

/* Two hand models and their diff. */
static void open_hand_pair(struct side *a, const char *const (*base_functions)[3],
			   size_t nbase, struct side *b,
			   const char *const (*new_functions)[3], size_t nnew,
			   struct diff *d)
{
	hand_model(&a->model, base_functions, nbase);
	hand_model(&b->model, new_functions, nnew);
	rules_init(&a->rules, &a->model);
	rules_init(&b->rules, &b->model);
	diff_init(d, &a->rules, &b->rules);
}

static void check_pairing_steps(void)
{
	/* base: f twice in x.js, g in y.js, h in x.js;
	 * new:  f once (moved), g in z.js, h twice in x.js, k. */
	static const char *const base_functions[][3] = {
		{ "f", "x.js", "1" }, { "f", "x.js", "5" }, { "g", "y.js", "1" },
		{ "h", "x.js", "9" },
	};
	static const char *const new_functions[][3] = {
		{ "f", "x.js", "2" }, { "g", "z.js", "1" }, { "h", "x.js", "9" },
		{ "h", "w.js", "3" }, { "k", "x.js", "7" },
	};
	struct side a, b;
	struct diff d;
	open_hand_pair(&a, base_functions, ARRAY_LEN(base_functions), &b,
		       new_functions, ARRAY_LEN(new_functions), &d);
	/* h x.js:9 is the same function on both sides despite the second h. */
	CHECK(diff_match_how(&d, DIFF_BASE, hand_frame(&a.model, "h", "x.js", 9, KIND_JS)) ==
	      MATCH_SAME);
	/* Two f in x.js on the base side: neither name+url nor name decides. */
	CHECK(diff_match(&d, DIFF_BASE, hand_frame(&a.model, "f", "x.js", 1, KIND_JS)) == NO_ID);
	CHECK(diff_match(&d, DIFF_BASE, hand_frame(&a.model, "f", "x.js", 5, KIND_JS)) == NO_ID);
	CHECK(diff_match(&d, DIFF_NEW, hand_frame(&b.model, "f", "x.js", 2, KIND_JS)) == NO_ID);
	/* g moved to another file: paired by name alone. */
	CHECK(diff_match_how(&d, DIFF_BASE, hand_frame(&a.model, "g", "y.js", 1, KIND_JS)) ==
	      MATCH_NAME);
	CHECK(diff_match(&d, DIFF_NEW, hand_frame(&b.model, "h", "w.js", 3, KIND_JS)) == NO_ID);
	CHECK(diff_match(&d, DIFF_NEW, hand_frame(&b.model, "k", "x.js", 7, KIND_JS)) == NO_ID);
	CHECK(diff_match_how(&d, DIFF_BASE, frame_named(&a.model, "(root)")) ==
	      MATCH_SAME);
	/* The look-ups found the functions rather than adding new ones. */
	CHECK(a.model.nframes == 5 && b.model.nframes == 6);
	diff_build(&d);
	/* 5 base functions and 6 new with their roots; pairs: (root), h, g. */
	CHECK_MSG(d.nrows == 5 + 6 - 3, "%zu rows", d.nrows);
	close_pair(&d, &a, &b);
}

/* XS names a constructor `Vec` in its file profiler and
 * `Vec.prototype.Vec` in its stream, at the same file and line: paired by
 * place.  Two functions on one line pair nothing that way, nor do
 * natives without a place. */
static void check_pairing_by_place(void)
{
	static const char *const base_functions[][3] = {
		{ "Vec", "v.js", "3" }, { "a", "v.js", "8" }, { "b", "v.js", "8" },
		{ "gone", "", "-1" },
	};
	static const char *const new_functions[][3] = {
		{ "Vec.prototype.Vec", "v.js", "3" }, { "x", "v.js", "8" },
		{ "lost", "", "-1" },
	};
	struct side a, b;
	struct diff d;
	open_hand_pair(&a, base_functions, ARRAY_LEN(base_functions), &b,
		       new_functions, ARRAY_LEN(new_functions), &d);
	check_paired(&d, "Vec", "Vec.prototype.Vec", MATCH_URL_LINE);
	CHECK(!strcmp(diff_match_name(MATCH_URL_LINE), "url+line"));
	CHECK(diff_match(&d, DIFF_NEW, frame_named(&b.model, "x")) == NO_ID);
	CHECK(diff_match(&d, DIFF_NEW, frame_named(&b.model, "lost")) == NO_ID);
	diff_build(&d);
	const struct diff_row *r = row_named(&d, "Vec");
	CHECK(r && r->self[DIFF_BASE] == 1 && r->self[DIFF_NEW] == 1);
	close_pair(&d, &a, &b);
}

/* XS names a native `String.prototype.@fxStringAccessorGetter` in its
 * stream and `@fxStringAccessorGetter` in its file profiler: paired by
 * the name after the last `.` and the place (both native), when one name
 * is that bare tail.  Two prefixed names are two functions, an ambiguous
 * tail pairs nothing, and another place keeps them apart. */
static void check_pairing_by_tail(void)
{
	static const char *const base_functions[][3] = {
		{ "String.prototype.@fxStringAccessorGetter", "", "-1" },
		{ "Array.prototype.push", "", "-1" },
		{ "A.f", "", "-1" }, { "B.f", "", "-1" },
		{ "Object.keys", "o.js", "4" }, { "M.run", "m.js", "2" },
	};
	static const char *const new_functions[][3] = {
		{ "@fxStringAccessorGetter", "", "-1" },
		{ "String.prototype.push", "", "-1" },
		{ "f", "", "-1" }, { "keys", "o.js", "5" }, { "run", "m.js", "2" },
	};
	struct side a, b;
	struct diff d;
	open_hand_pair(&a, base_functions, ARRAY_LEN(base_functions), &b,
		       new_functions, ARRAY_LEN(new_functions), &d);
	check_paired(&d, "String.prototype.@fxStringAccessorGetter",
		     "@fxStringAccessorGetter", MATCH_TAIL_PLACE);
	CHECK(!strcmp(diff_match_name(MATCH_TAIL_PLACE), "tail+place"));
	CHECK(diff_match(&d, DIFF_BASE, frame_named(&a.model, "Array.prototype.push")) == NO_ID);
	CHECK(diff_match(&d, DIFF_NEW, frame_named(&b.model, "f")) == NO_ID);
	CHECK(diff_match(&d, DIFF_NEW, frame_named(&b.model, "keys")) == NO_ID);
	/* With a place, the place step pairs first. */
	CHECK(diff_match_how(&d, DIFF_BASE, frame_named(&a.model, "M.run")) == MATCH_URL_LINE);
	close_pair(&d, &a, &b);
}

/* The same program, streamed live and saved by the XS file profiler
 * (testdata/README.md: record 171). */
static void check_xs_pair(void)
{
	struct side stream, file;
	struct diff d;
	if (!open_file_pair(&stream, "xs-pair/phases.xsbug",
			    &file, "xs-pair/phases.cpuprofile", &d))
		return;
	check_paired(&d, "String.prototype.@fxStringAccessorGetter",
		     "@fxStringAccessorGetter", MATCH_TAIL_PLACE);
	diff_build(&d);
	const struct diff_row *r = row_named(&d, "String.prototype.@fxStringAccessorGetter");
	CHECK(r && diff_present(r, DIFF_BASE) && diff_present(r, DIFF_NEW));
	close_pair(&d, &stream, &file);
}

/* The rule both support best: exact between a stream capture and a V8
 * file (both have stacks), divided against an XS function graph. */
static void check_rule_both_support(void)
{
	struct side stream, v8, graph;
	if (!open_side(&stream, "validate.xsbug") ||
	    !open_side(&v8, "validate.cpuprofile") ||
	    !open_side(&graph, "validate-xs.cpuprofile"))
		return;
	struct diff d;
	diff_init(&d, &stream.rules, &v8.rules);
	CHECK(d.rule == RULE_EXACT);
	diff_free(&d);
	diff_init(&d, &graph.rules, &stream.rules);
	CHECK(d.rule == RULE_DIVIDED);
	diff_free(&d);
	close_side(&stream);
	close_side(&v8);
	close_side(&graph);
}

/* Time against bytes: only shares of each profile compare. */
static void check_units(void)
{
	static const char *const functions[][3] = { { "f", "x.js", "1" } };
	struct side a, b;
	hand_model(&a.model, functions, 1);
	model_init(&b.model, "hand");
	model_add_sample_type(&b.model, "alloc_space", "bytes");
	uint32_t stack[2] = { hand_frame(&b.model, "f", "x.js", 1, KIND_JS),
			      hand_frame(&b.model, "(root)", "", -1, KIND_ROOT) };
	model_add_node_value(&b.model, model_add_stack(&b.model, stack, 2), 0, 4096);
	uint32_t cycle;
	CHECK(model_finish(&b.model, &cycle));
	rules_init(&a.rules, &a.model);
	rules_init(&b.rules, &b.model);
	struct diff d;
	diff_init(&d, &a.rules, &b.rules);
	CHECK(!diff_comparable(&d));
	d.normalize = true;
	CHECK(diff_comparable(&d));
	diff_build(&d);
	const struct diff_row *r = row_named(&d, "f");
	if (r) /* f holds the whole of each profile */
		CHECK(r->match == MATCH_SAME && r->total[DIFF_BASE] == 100 &&
		      r->total[DIFF_NEW] == 100 && r->delta == 0);
	close_pair(&d, &a, &b);
}

/* ---- the split screen: the counterpart of a row --------------------------- */

struct pane {
	struct view_context ctx;
	struct view view;
};

static void open_pane(struct pane *p, struct side *s, enum view_kind kind)
{
	p->ctx = (struct view_context){ .model = &s->model, .rules = &s->rules,
					.rule = RULE_EXACT,
					.type = s->model.default_type,
					.focus_frame = NO_ID };
	view_open(&p->view, kind, &p->ctx);
}

/* The row of the view whose path from the top is `names`. */
static size_t row_at_path(const struct view *v, const char *const *names,
			  size_t depth)
{
	const struct model *m = v->ctx->model;
	uint32_t level = 0;
	for (size_t i = 0; i < v->nrows; i++) {
		const struct row *r = &v->rows[i];
		if (r->depth == level &&
		    !strcmp(model_str(m, m->frames[r->frame].name), names[level])) {
			if (level + 1 == depth)
				return i;
			level++;
		} else if (r->depth < level) {
			break;
		}
	}
	return SIZE_MAX;
}

static void check_mirror_tree(struct diff *d, struct side *a, struct side *b,
			      enum view_kind kind, const char *const *path,
			      size_t depth)
{
	struct pane left, right;
	open_pane(&left, a, kind);
	open_pane(&right, b, kind);
	view_expand_all(&left.view, SIZE_MAX, UINT32_MAX, SIZE_MAX);
	size_t from = row_at_path(&left.view, path, depth);
	bool whole;
	size_t to = diff_mirror_row(d, DIFF_BASE, &left.view, from, &right.view, &whole);
	CHECK_MSG(from != SIZE_MAX && whole && to == row_at_path(&right.view, path, depth),
		  "%s: %s at depth %zu not mirrored", view_kind_name(kind),
		  path[depth - 1], depth);
	view_close(&left.view);
	view_close(&right.view);
}

static void check_mirroring(void)
{
	struct side a, b;
	struct diff d;
	if (!open_file_pair(&a, "worked-example.cpuprofile",
			    &b, "worked-example-new.cpuprofile", &d))
		return;
	static const char *const down[] = { "main", "b", "leaf" };
	check_mirror_tree(&d, &a, &b, VIEW_TOPDOWN, down, 3);
	static const char *const up[] = { "leaf", "b", "main" };
	check_mirror_tree(&d, &a, &b, VIEW_BOTTOMUP, up, 3);
	static const char *const flat[] = { "b" };
	check_mirror_tree(&d, &a, &b, VIEW_FLAT, flat, 1);

	/* c is new: from the new side, the cursor can only reach main. */
	struct pane left, right;
	open_pane(&left, &a, VIEW_TOPDOWN);
	open_pane(&right, &b, VIEW_TOPDOWN);
	view_expand_all(&right.view, SIZE_MAX, UINT32_MAX, SIZE_MAX);
	static const char *const to_c[] = { "main", "c" };
	bool whole;
	size_t to = diff_mirror_row(&d, DIFF_NEW, &right.view,
				    row_at_path(&right.view, to_c, 2), &left.view, &whole);
	CHECK(!whole && to == 0 && left.view.rows[0].frame == frame_named(&a.model, "main"));

	/* Mirrored expansion: collapsing main on the right collapses it on
	 * the left, expanding it again expands it there too. */
	view_expand(&left.view, 0);
	view_collapse(&right.view, 0);
	CHECK(diff_mirror_expansion(&d, DIFF_NEW, &right.view, 0, &left.view) == 0);
	CHECK(left.view.nrows == 1 && !(left.view.rows[0].flags & ROW_EXPANDED));
	view_expand(&right.view, 0);
	diff_mirror_expansion(&d, DIFF_NEW, &right.view, 0, &left.view);
	CHECK(left.view.nrows == 3 && (left.view.rows[0].flags & ROW_EXPANDED));
	view_close(&left.view);
	view_close(&right.view);

	/* Call graph: leaf's caller b in leaf's block. */
	open_pane(&left, &a, VIEW_CALLGRAPH);
	open_pane(&right, &b, VIEW_CALLGRAPH);
	uint32_t leaf = frame_named(&a.model, "leaf"), caller_b = frame_named(&a.model, "b");
	size_t from = SIZE_MAX;
	for (size_t i = 0; i < left.view.nrows; i++)
		if (left.view.rows[i].item == leaf && left.view.rows[i].frame == caller_b)
			from = i;
	to = diff_mirror_row(&d, DIFF_BASE, &left.view, from, &right.view, &whole);
	CHECK(whole && to != SIZE_MAX);
	if (to != SIZE_MAX) {
		const struct row *r = &right.view.rows[to];
		CHECK(r->item == frame_named(&b.model, "leaf") &&
		      r->frame == frame_named(&b.model, "b") && (r->flags & ROW_CALLER));
	}
	view_close(&left.view);
	view_close(&right.view);
	close_pair(&d, &a, &b);
}

static void check_mirror_engines(void)
{
	struct side v8, xs;
	struct diff d;
	if (!open_file_pair(&v8, "validate.cpuprofile",
			    &xs, "validate-xs.cpuprofile", &d))
		return;
	struct pane left, right;
	open_pane(&left, &v8, VIEW_TOPDOWN);
	open_pane(&right, &xs, VIEW_TOPDOWN);
	bool whole;
	size_t to = diff_mirror_row(&d, DIFF_BASE, &left.view, 0, &right.view, &whole);
	CHECK(whole && to != SIZE_MAX &&
	      right.view.rows[to].frame == frame_named(&xs.model, "(host)"));
	view_close(&left.view);
	view_close(&right.view);
	diff_free(&d);
	close_side(&v8);
	close_side(&xs);
}

int main(int argc, char **argv)
{
	testdata = argc > 1 ? argv[1] : "testdata";
	static const char *const corpus[] = {
		"worked-example.cpuprofile", "worked-example-new.cpuprofile",
		"validate.cpuprofile", "recursion.cpuprofile",
		"chrome65-simple.cpuprofile", "node10-example.cpuprofile",
		"validate-xs.cpuprofile",
	};
	for (size_t i = 0; i < ARRAY_LEN(corpus); i++)
		check_against_itself(corpus[i]);
	check_hand_edited_run();
	check_two_engines();
	check_pairing_steps();
	check_pairing_by_place();
	check_pairing_by_tail();
	check_xs_pair();
	check_rule_both_support();
	check_units();
	check_mirroring();
	check_mirror_engines();
	return check_done();
}
