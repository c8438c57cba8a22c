/* Time ranges: --range specs read and resolved, the cut of the worked
 * example (time-rules.md) at a sample boundary with its numbers worked on
 * paper, and the timeline strip's bins; no curses. */
#include <string.h>

#include "tests/check.h"
#include "loaders/loaders.h"
#include "loaders/xsbug.h"
#include "transform/range.h"
#include "model/sample_counts.h"
#include "rules/rules.h"
#include "transform/timeline.h"
#include "views/flame.h"
#include "explorer/app.h"
#include "base/util.h"

static void test_parse(void)
{
	struct range_spec r;
	char why[256];
	CHECK(range_parse("1.2s-3.4s", &r, why, sizeof(why)));
	CHECK(r.start.kind == RANGE_TIME && r.start.value == 1.2e6);
	CHECK(r.end.kind == RANGE_TIME && close_enough(r.end.value, 3.4e6));
	CHECK(range_parse("200ms-3s", &r, why, sizeof(why)));
	CHECK(r.start.value == 200e3 && r.end.value == 3e6);
	CHECK(range_parse("1500us-", &r, why, sizeof(why)));
	CHECK(r.start.value == 1500 && r.end.kind == RANGE_OPEN);
	CHECK(range_parse("20%-40%", &r, why, sizeof(why)));
	CHECK(r.start.kind == RANGE_PERCENT && r.start.value == 20 && r.end.value == 40);
	CHECK(range_parse("#100-#500", &r, why, sizeof(why)));
	CHECK(r.start.kind == RANGE_SAMPLE && r.start.value == 100 && r.end.value == 500);
	CHECK(range_parse("0-3ms", &r, why, sizeof(why)));
	CHECK(r.start.kind == RANGE_TIME && r.start.value == 0);
	CHECK(range_parse("-2m", &r, why, sizeof(why)));
	CHECK(r.start.kind == RANGE_OPEN && r.end.value == 120e6);
	/* Wrong ones say why. */
	CHECK(!range_parse("1.2s", &r, why, sizeof(why)) && strstr(why, "START-END"));
	CHECK(!range_parse("1-2", &r, why, sizeof(why)) && strstr(why, "needs a unit"));
	CHECK(!range_parse("1s-2s-3s", &r, why, sizeof(why)));
	CHECK(!range_parse("10%-120%", &r, why, sizeof(why)) && strstr(why, "100%"));
	CHECK(!range_parse("#0-#5", &r, why, sizeof(why)) && strstr(why, "#1"));
	CHECK(!range_parse("#1.5-#5", &r, why, sizeof(why)));
	CHECK(!range_parse("1e3s-2s", &r, why, sizeof(why)));
	CHECK(!range_parse("#5%-6%", &r, why, sizeof(why)));
}

/* main>a>leaf 3 ms, main>b>leaf 1 ms, main>a 2 ms, at 0, 3 and 4 ms. */
static void test_resolve(const struct model *m)
{
	struct range_spec spec;
	struct sample_range r;
	char why[256];
	CHECK(range_parse("3ms-", &spec, why, sizeof(why)));
	CHECK(range_resolve(m, &spec, &r, why, sizeof(why)) && r.first == 1 && r.end == 3);
	CHECK(range_parse("50%-4ms", &spec, why, sizeof(why))); /* 50%: 3 ms */
	CHECK(range_resolve(m, &spec, &r, why, sizeof(why)) && r.first == 1 && r.end == 2);
	CHECK(range_parse("#1-#2", &spec, why, sizeof(why)));
	CHECK(range_resolve(m, &spec, &r, why, sizeof(why)) && r.first == 0 && r.end == 2);
	CHECK(range_parse("1ms-3.5ms", &spec, why, sizeof(why))); /* starts at 3 ms */
	CHECK(range_resolve(m, &spec, &r, why, sizeof(why)) && r.first == 1 && r.end == 2);
	CHECK(range_parse("4.5ms-5ms", &spec, why, sizeof(why))); /* none starts there */
	CHECK(!range_resolve(m, &spec, &r, why, sizeof(why)) && strstr(why, "no sample"));
	CHECK(close_enough(range_timeline_span(m), 6000));
	char text[128];
	range_describe(m, (struct sample_range){ 1, 3 }, true, text, sizeof(text));
	CHECK_MSG(!strcmp(text, "range 3.0ms-6.0ms of 6.0ms"), "%s", text);
}

static double frame_total(struct rules *rules, const struct model *m, enum rule rule,
			  const char *name, bool self)
{
	const struct totals *t = rules_totals(rules, rule, 0);
	for (uint32_t f = 0; f < m->nframes; f++)
		if (!strcmp(model_str(m, m->frames[f].name), name))
			return self ? t->self[f] : t->total[f];
	return -1;
}

/* Cut at 3 ms: main>b>leaf 1 ms, main>a 2 ms.  leaf now has one caller,
 * b, so divided gives b all of it, where the whole profile halves it:
 *   self:  leaf 1, a 2, b 0, main 0
 *   exact = additive: leaf 1, a 2, b 1, main 3
 *   divided: leaf 1, b 1, a 2, main 1 + 2 = 3 */
static void test_cut_worked_example(const struct model *whole)
{
	struct model cut;
	const char *why_not;
	CHECK(model_cut_range(whole, (struct sample_range){ 1, 3 }, true, &cut, &why_not));
	CHECK(cut.nsamples == 2 && close_enough(cut.duration, 3000));
	CHECK(cut.nframes == whole->nframes); /* frame ids kept */
	CHECK(cut.nnodes == 4); /* a's leaf node is not in the range */
	struct rules rules;
	rules_init(&rules, &cut);
	static const char *const names[] = { "leaf", "a", "b", "main" };
	static const double self[] = { 1000, 2000, 0, 0 };
	static const double exact[] = { 1000, 2000, 1000, 3000 };
	static const double divided[] = { 1000, 2000, 1000, 3000 };
	for (int i = 0; i < 4; i++) {
		CHECK_MSG(close_enough(frame_total(&rules, &cut, RULE_EXACT, names[i], true),
				       self[i]), "self %s", names[i]);
		CHECK_MSG(close_enough(frame_total(&rules, &cut, RULE_EXACT, names[i], false),
				       exact[i]), "exact %s", names[i]);
		CHECK_MSG(close_enough(frame_total(&rules, &cut, RULE_ADDITIVE, names[i], false),
				       exact[i]), "additive %s", names[i]);
		CHECK_MSG(close_enough(frame_total(&rules, &cut, RULE_DIVIDED, names[i], false),
				       divided[i]), "divided %s", names[i]);
	}
	rules_free(&rules);
	model_free(&cut);

	/* Without its samples (as the explorer cuts): the same numbers, and
	 * sample counts (type 1, added: the file has none) of 1 each. */
	CHECK(model_cut_range(whole, (struct sample_range){ 1, 3 }, false, &cut, &why_not));
	CHECK(cut.nsamples == 0 && cut.ntypes == 2 && model_count_type(&cut) == 1);
	rules_init(&rules, &cut);
	for (int i = 0; i < 4; i++)
		CHECK_MSG(close_enough(frame_total(&rules, &cut, RULE_DIVIDED, names[i], false),
				       divided[i]), "divided %s without samples", names[i]);
	const struct totals *counts = rules_totals(&rules, RULE_EXACT, 1);
	for (uint32_t f = 0; f < cut.nframes; f++)
		if (!strcmp(model_str(&cut, cut.frames[f].name), "main"))
			CHECK(counts->total[f] == 2);
	rules_free(&rules);
	model_free(&cut);

	/* The first sample alone: main>a>leaf 3 ms; leaf's one caller is a. */
	CHECK(model_cut_range(whole, (struct sample_range){ 0, 1 }, true, &cut, &why_not));
	rules_init(&rules, &cut);
	CHECK(close_enough(frame_total(&rules, &cut, RULE_DIVIDED, "a", false), 3000));
	CHECK(close_enough(frame_total(&rules, &cut, RULE_DIVIDED, "main", false), 3000));
	CHECK(frame_total(&rules, &cut, RULE_DIVIDED, "b", false) == 0);
	rules_free(&rules);
	model_free(&cut);
}

/* 3 bins of 2 ms: [0,2) holds sample 1 (3 ms, starts at 0), [2,4) sample
 * 2 (starts at 3), [4,6) sample 3 (starts at 4).  All are JS frames.  A
 * bin's time is what the samples run in it: sample 1's last 1 ms is
 * in [2,4), with sample 2's 1 ms. */
static void test_timeline(const struct model *m)
{
	struct timeline t;
	timeline_build(&t, m, 3);
	CHECK(t.nbins == 3 && close_enough(t.span, 6000));
	CHECK(t.first_sample[0] == 0 && t.first_sample[1] == 1 &&
	      t.first_sample[2] == 2 && t.first_sample[3] == 3);
	CHECK(t.value[0 * KIND_COUNT + KIND_JS] == 2000);
	CHECK(t.value[1 * KIND_COUNT + KIND_JS] == 2000);
	CHECK(t.value[2 * KIND_COUNT + KIND_JS] == 2000);
	CHECK(timeline_bin_of(&t, 0) == 0 && timeline_bin_of(&t, 2) == 2 &&
	      timeline_bin_of(&t, 3) == 3);
	CHECK(timeline_busy_share(&t, 1) == 1 && timeline_main_kind(&t, 1) == KIND_JS);
	timeline_free(&t);
	/* 6 bins of 1 ms: sample 1 starts in bin 0 and runs through bins 1
	 * and 2, which start no sample but are busy with it. */
	timeline_build(&t, m, 6);
	CHECK(t.first_sample[1] == 1 && t.first_sample[2] == 1 && t.first_sample[3] == 1);
	CHECK(t.first_sample[4] == 2 && t.first_sample[5] == 3 && t.first_sample[6] == 3);
	CHECK(timeline_bin_of(&t, 1) == 3 && timeline_bin_of(&t, 2) == 4);
	for (int b = 0; b < 6; b++)
		CHECK_MSG(t.value[b * KIND_COUNT + KIND_JS] == 1000, "bin %d: %g", b,
			  t.value[b * KIND_COUNT + KIND_JS]);
	CHECK(timeline_busy_share(&t, 1) == 1 && timeline_main_kind(&t, 1) == KIND_JS);
	timeline_free(&t);
}

/* Live mode's strip over the same samples (3 ms at 0, 1 ms at 3 ms,
 * 2 ms at 4 ms): with 3 cells of 1 ms the newest cell is [4, 5) ms,
 * so the window is [2, 5) ms and the first sample has scrolled out
 * (its last 1 ms is in the first cell; the last sample's 2 ms in the
 * newest, which it starts in); with 10 cells all fit, starting in cells
 * 5, 8 and 9, the first running through cells 5 to 7. */
static void test_scrolling_timeline(const struct model *m)
{
	struct timeline t;
	timeline_build_window(&t, m, 3, 1000);
	CHECK(t.nbins == 3 && close_enough(t.span, 3000));
	CHECK(t.first_sample[0] == 1 && t.first_sample[1] == 1 &&
	      t.first_sample[2] == 2 && t.first_sample[3] == 3);
	CHECK(t.value[0 * KIND_COUNT + KIND_JS] == 1000);
	CHECK(t.value[1 * KIND_COUNT + KIND_JS] == 1000);
	CHECK(t.value[2 * KIND_COUNT + KIND_JS] == 2000);
	timeline_free(&t);
	timeline_build_window(&t, m, 10, 1000);
	static const size_t first[11] = { 0, 0, 0, 0, 0, 0, 1, 1, 1, 2, 3 };
	for (int c = 0; c <= 10; c++)
		CHECK_MSG(t.first_sample[c] == first[c], "cell %d: %zu", c, t.first_sample[c]);
	static const double busy[10] = { 0, 0, 0, 0, 0, 1000, 1000, 1000, 1000, 2000 };
	for (int c = 0; c < 10; c++)
		CHECK_MSG(t.value[c * KIND_COUNT + KIND_JS] == busy[c], "cell %d: %g", c,
			  t.value[c * KIND_COUNT + KIND_JS]);
	timeline_free(&t);
}

/* The total of a frame in the app's flat pane (exact), or -1. */
static double flat_total(struct app *a, const char *name)
{
	struct pane *p = app_pane(a);
	for (size_t i = 0; i < p->view.nrows; i++) {
		const struct row *r = &p->view.rows[i];
		if (!strcmp(model_str(a->ctx.model, a->ctx.model->frames[r->frame].name), name))
			return r->total;
	}
	return -1;
}

/* The explorer's keys: with 6 cells of 1 ms, `[` moves the start past
 * the first sample (the next starts in cell 3), `]` the end before the
 * last (cell 4); the panes show the cut; `0` the whole again.  A live
 * snapshot (here the same file, loaded again) keeps the range pinned. */
static void test_app_keys(const char *path)
{
	struct model m, snapshot;
	struct load_error err;
	struct load_options opt = { .session = -1 };
	if (!load_file(path, &opt, &m, &err, NULL) ||
	    !load_file(path, &opt, &snapshot, &err, NULL)) {
		CHECK(false);
		return;
	}
	struct app a;
	app_init(&a, "test", &m, VIEW_FLAT);
	a.strip.cells = 6;
	CHECK(app_has_timeline(&a) && close_enough(flat_total(&a, "main"), 6000));
	app_range_move_start(&a, 1);
	CHECK(a.range.samples.first == 1 && a.range.samples.end == 3 && a.range.cut);
	CHECK(close_enough(flat_total(&a, "main"), 3000));
	CHECK(close_enough(flat_total(&a, "a"), 2000));
	CHECK(close_enough(flat_total(&a, "leaf"), 1000));
	CHECK_MSG(strstr(a.message, "range 3.0ms"), "%s", a.message);
	app_range_move_end(&a, -1);
	CHECK(a.range.samples.first == 1 && a.range.samples.end == 2);
	CHECK(close_enough(flat_total(&a, "main"), 1000) && flat_total(&a, "a") == -1);
	app_range_move_end(&a, -1); /* the end cannot pass the start */
	CHECK(a.range.samples.end == 2 && strstr(a.message, "cannot pass"));
	app_replace_model(&a, &snapshot);
	CHECK(a.loaded == &snapshot && a.range.samples.first == 1 && a.range.samples.end == 2);
	CHECK(close_enough(flat_total(&a, "main"), 1000));
	/* Live mode: a sample more (5 ms on the last sample's stack) scrolls
	 * into the strip's newest cell (100 ms each: all four are in it);
	 * the pinned range keeps its sample and numbers. */
	struct model grown;
	CHECK(load_file(path, &opt, &grown, &err, NULL));
	model_add_sample(&grown, grown.sample_node[2], 5000);
	a.strip.scrolls = true;
	app_replace_model(&a, &grown);
	CHECK(a.range.samples.first == 1 && a.range.samples.end == 2 && a.range.cut);
	CHECK(close_enough(flat_total(&a, "main"), 1000));
	const struct timeline *t = app_timeline(&a, 10);
	CHECK(t->first_sample[9] == 0 && t->first_sample[10] == 4 &&
	      close_enough(t->span, 10 * 100000.0));
	CHECK(close_enough(t->value[9 * KIND_COUNT + KIND_JS], 11000));
	app_replace_model(&a, &snapshot);
	a.strip.scrolls = false;
	model_free(&grown);
	app_range_whole(&a);
	CHECK(!a.range.cut && a.ctx.model == &snapshot);
	CHECK(close_enough(flat_total(&a, "main"), 6000));
	app_free(&a);
	model_free(&m);
	model_free(&snapshot);
}

/* Once the first screen is up the whole profile's sums are made on a
 * thread; the first range key moves them: the same numbers as above. */
static void test_app_keys_from_whole(const char *path)
{
	struct model m;
	struct load_error err;
	struct load_options opt = { .session = -1 };
	if (!load_file(path, &opt, &m, &err, NULL)) {
		CHECK(false);
		return;
	}
	struct app a;
	app_init(&a, "test", &m, VIEW_FLAT);
	a.strip.cells = 6;
	app_compute_in_background(&a);
	CHECK(a.range.whole_sums != NULL);
	while (app_busy(&a))
		app_poll(&a);
	app_range_move_start(&a, 1);
	CHECK(a.range.samples.first == 1 && a.range.samples.end == 3 && a.range.cut);
	CHECK(close_enough(flat_total(&a, "main"), 3000));
	CHECK(close_enough(flat_total(&a, "a"), 2000));
	CHECK(close_enough(flat_total(&a, "leaf"), 1000));
	app_range_whole(&a);
	app_range_move_end(&a, -1);
	/* [#1, #2]: main > a > leaf 3 ms, main > b > leaf 1 ms. */
	CHECK(a.range.samples.first == 0 && a.range.samples.end == 2);
	CHECK(close_enough(flat_total(&a, "main"), 4000));
	CHECK(close_enough(flat_total(&a, "a"), 3000));
	CHECK(close_enough(flat_total(&a, "leaf"), 4000));
	app_free(&a);
	model_free(&m);
}

/* Every row of a pane, each row opened, as text: depth, flags a cut
 * would give too, function and numbers. */
static char *pane_text(const struct model *m, enum view_kind kind, enum rule rule)
{
	struct rules rules;
	rules_init(&rules, m);
	struct view_context ctx = { .model = m, .rules = &rules, .rule = rule,
				    .focus_frame = NO_ID };
	struct view v;
	view_open(&v, kind, &ctx);
	view_expand_all(&v, SIZE_MAX, 64, 100000);
	size_t cap = 64 + v.nrows * 160, len = 0;
	char *text = xmalloc(cap);
	text[0] = 0;
	for (size_t i = 0; i < v.nrows; i++) {
		const struct row *r = &v.rows[i];
		len += (size_t)snprintf(text + len, cap - len, "%u %x %s %.6g %.6g\n",
					r->depth, r->flags & ~(unsigned)ROW_EXPANDED,
					model_str(m, m->frames[r->frame].name), r->self,
					r->total);
	}
	view_close(&v);
	rules_free(&rules);
	return text;
}

static char *flame_text(const struct model *m)
{
	struct rules rules;
	rules_init(&rules, m);
	struct view_context ctx = { .model = m, .rules = &rules, .rule = RULE_EXACT,
				    .focus_frame = NO_ID };
	struct flame f;
	flame_build(&f, &ctx, FLAME_LEFT_HEAVY);
	size_t cap = 64 + f.nframes * 160, len = 0;
	char *text = xmalloc(cap);
	text[0] = 0;
	for (size_t i = 0; i < f.nframes; i++)
		len += (size_t)snprintf(text + len, cap - len, "%u %s %.6g %.6g\n",
					f.frames[i].depth,
					model_str(m, m->frames[f.frames[i].frame].name),
					f.frames[i].x, f.frames[i].width);
	flame_free(&f);
	rules_free(&rules);
	return text;
}

static void check_same_text(char *view, char *cut, const char *what)
{
	CHECK_MSG(!strcmp(view, cut), "%s: the range's view shows\n%s\nthe cut\n%s",
		  what, view, cut);
	free(view);
	free(cut);
}

/* The explorer's range (range_view_make: the whole profile's nodes, the
 * range's values, the rest hidden) shows in every pane, under every
 * rule, the rows of the profile cut to the range (model_cut_range, whose
 * numbers e2e/range.py checks against the cut written out and loaded
 * back). */
static void test_view_equals_cut(const char *dir)
{
	static const char *const files[] = {
		"worked-example.cpuprofile", "validate.cpuprofile", "recursion.cpuprofile",
		"node10-example.cpuprofile", "chrome65-simple.cpuprofile", "validate.xsbug",
	};
	static const enum rule rules[] = { RULE_EXACT, RULE_ADDITIVE, RULE_DIVIDED };
	for (size_t i = 0; i < ARRAY_LEN(files); i++) {
		char path[1024];
		snprintf(path, sizeof(path), "%s/%s", dir, files[i]);
		struct model m;
		struct load_error err;
		struct load_options opt = { .session = -1 };
		if (!load_file(path, &opt, &m, &err, NULL)) {
			CHECK_MSG(false, "%s: %s", path, err.message);
			continue;
		}
		model_add_sample_counts(&m);
		size_t n = m.nsamples;
		/* The last four move an end or two by a sample: each view is
		 * made again from the one before (its sums moved, not summed). */
		const struct sample_range ranges[] = {
			{ 0, 1 }, { n / 5, n * 3 / 5 + 1 }, { n / 2, n }, { 1, n - 1 },
			{ 2, n - 1 }, { 2, n - 2 }, { 1, n - 3 }, { 3, n - 2 },
		};
		struct model before;
		bool have_before = false;
		for (size_t k = 0; k < ARRAY_LEN(ranges); k++) {
			struct sample_range r = ranges[k];
			if (r.first >= r.end || r.end > n)
				continue;
			struct model view, cut;
			const char *why_not;
			CHECK(range_view_make(&m, r, have_before ? &before : NULL, &view, &why_not));
			CHECK(model_cut_range(&m, r, false, &cut, &why_not));
			char what[1200];
			for (int kind = 0; kind < VIEW_FLAME; kind++)
				for (size_t j = 0; j < ARRAY_LEN(rules); j++) {
					snprintf(what, sizeof(what), "%s #%zu-#%zu %s %s", files[i],
						 r.first, r.end, view_kind_name(kind),
						 rule_name(rules[j]));
					check_same_text(pane_text(&view, kind, rules[j]),
							pane_text(&cut, kind, rules[j]), what);
				}
			snprintf(what, sizeof(what), "%s #%zu-#%zu flame", files[i], r.first, r.end);
			check_same_text(flame_text(&view), flame_text(&cut), what);
			CHECK(view.nsamples == r.end - r.first && close_enough(view.duration, cut.duration));
			if (have_before)
				model_free(&before);
			before = view;
			have_before = true;
			model_free(&cut);
		}
		if (have_before)
			model_free(&before);
		model_free(&m);
	}
}

/* A view made from a nearby one moves its sums only where that is exact:
 * 0.1 + 0.2 + 0.3 - 0.1 is 0.5000000000000001, the one pass over
 * [#2, #3] 0.5.  Whole numbers (cpuprofile's microseconds) move; these
 * are summed again, to the same bits as a fresh view. */
static void test_near_sums_exact(void)
{
	static const double durations[] = { 0.1, 0.2, 0.3, 0.4, 1, 2 };
	struct model m;
	model_init(&m, "cpuprofile");
	model_add_sample_type(&m, "time", "us");
	struct frame fr = { .name = model_string(&m, "a", 1), .url = STR_NONE,
			    .extra = STR_NONE, .line = -1, .column = -1 };
	uint32_t a = model_add_node(&m, model_intern_frame(&m, &fr));
	model_add_node_value(&m, a, 0, 0);
	for (size_t i = 0; i < ARRAY_LEN(durations); i++)
		model_add_sample(&m, a, durations[i]);
	uint32_t cycle;
	CHECK(model_finish(&m, &cycle));
	CHECK(m.integral_samples == 0);
	model_add_sample_counts(&m);
	const char *why_not;
	struct model near, moved, fresh;
	CHECK(range_view_make(&m, (struct sample_range){ 0, 3 }, NULL, &near, &why_not));
	CHECK(range_view_make(&m, (struct sample_range){ 1, 3 }, &near, &moved, &why_not));
	CHECK(range_view_make(&m, (struct sample_range){ 1, 3 }, NULL, &fresh, &why_not));
	CHECK_MSG(node_value(&moved, a, 0) == 0.2 + 0.3 &&
		  node_value(&moved, a, 0) == node_value(&fresh, a, 0),
		  "[#2, #3] made from [#1, #3]: %.17g, not %.17g",
		  node_value(&moved, a, 0), 0.2 + 0.3);
	model_free(&near);
	model_free(&moved);
	model_free(&fresh);
	model_free(&m);
}

/* The XS stream of test_live_window: (host) 0, a 36 (x.js), b 37 under a. */
#define XS_MSG(x) "\r\n<xsbug>" x "</xsbug>\r\n"

static void feed_xs(struct xsbug_parser *p, const char *text)
{
	struct load_error err;
	CHECK(xsbug_parser_feed(p, (const uint8_t *)text, strlen(text), &err));
}

/* A live XS session whose window holds 4 samples: a 1.0 s, b 0.5, a 0.3,
 * a 0.2, then a 0.4, a 0.1, a 0.1 (base 36: LFLS, APSW, 6FHC, 4ABK,
 * 8KN4, 255S).  The range of samples 1-2 (b 0.5 under a, a 0.3: a's total
 * 0.8 s, b's 0.5 s) is pinned: when a 0.4 pushes a 1.0 out of the window
 * it follows its samples (now 0-1); when a 0.1 pushes b out, it keeps its
 * numbers as a model of its own, said so on the header, and stays so as
 * more come; `0` shows the whole session: a's total 2.6 s (1.0 + 0.5 +
 * 0.3 + 0.2 + 0.4 + 0.1 + 0.1), b's 0.5 s. */
static void test_live_window(void)
{
	struct xsbug_limits limits = xsbug_default_limits;
	limits.max_timeline = 4;
	struct xsbug_parser *p = xsbug_parser_new(&limits);
	struct xsbug_follower *f = xsbug_follower_new();
	feed_xs(p, XS_MSG("<pt name=\"start\" value=\"@0000000000000100\"/>")
		   XS_MSG("<pr name=\"(host)\" value=\"0\"/>")
		   XS_MSG("<pr name=\"a\" value=\"36\" path=\"x.js\" line=\"3\"/>")
		   XS_MSG("<pr name=\"b\" value=\"37\"/>")
		   XS_MSG("<ps>LFLS,10,0.APSW,11,10,0.6FHC,10,0.4ABK,10,0</ps>"));
	struct model m, unused;
	CHECK(xsbug_follow(f, p) && xsbug_follower_model(f, NULL, &m));
	struct app a;
	app_init(&a, "test", &m, VIEW_FLAT);
	a.strip.scrolls = true; /* live mode's strip and range */
	app_set_range(&a, 1, 3);
	CHECK(a.range.cut && close_enough(flat_total(&a, "a"), 800000) &&
	      close_enough(flat_total(&a, "b"), 500000));
	CHECK_MSG(strstr(a.message, "range 1.00s–1.80s of 2.00s"), "%s", a.message);

	feed_xs(p, XS_MSG("<ps>8KN4,10,0</ps>"));
	CHECK(xsbug_follow(f, p) && !xsbug_follower_model(f, &m, &unused));
	app_values_changed(&a);
	CHECK(m.live.samples_before == 1 && a.range.samples.first == 0 && a.range.samples.end == 2);
	CHECK(close_enough(flat_total(&a, "a"), 800000) &&
	      close_enough(flat_total(&a, "b"), 500000));
	char said[160];
	app_describe_range(&a, true, said, sizeof(said));
	CHECK_MSG(strstr(said, "range 1.00s-1.80s of 2.40s"), "%s", said);
	/* The strip follows the slide: its cells hold the 4 samples held. */
	const struct timeline *t = app_timeline(&a, 30);
	CHECK(t->first_sample[30] == 4 && a.strip.before == 1);

	feed_xs(p, XS_MSG("<ps>255S,10,0</ps>"));
	CHECK(xsbug_follow(f, p) && !xsbug_follower_model(f, &m, &unused));
	app_values_changed(&a);
	CHECK(m.live.samples_before == 2 && a.range.cut && !a.range.cut->range.of);
	CHECK(close_enough(flat_total(&a, "a"), 800000) &&
	      close_enough(flat_total(&a, "b"), 500000));
	app_describe_range(&a, true, said, sizeof(said));
	CHECK_MSG(strstr(said, "range 1.00s-1.80s (kept"), "%s", said);
	feed_xs(p, XS_MSG("<ps>255S,10,0</ps>"));
	CHECK(xsbug_follow(f, p) && !xsbug_follower_model(f, &m, &unused));
	app_values_changed(&a);
	CHECK(a.range.gone[0] && close_enough(flat_total(&a, "a"), 800000) &&
	      close_enough(flat_total(&a, "b"), 500000));

	app_range_whole(&a);
	CHECK(!a.range.cut && !a.range.gone[0] && a.ctx.model == &m);
	CHECK(close_enough(flat_total(&a, "a"), 2600000) &&
	      close_enough(flat_total(&a, "b"), 500000));
	/* All of the window is a range, not the whole session. */
	app_set_range(&a, 0, m.nsamples);
	CHECK(a.range.cut && close_enough(flat_total(&a, "a"), 800000) &&
	      flat_total(&a, "b") == -1);
	app_free(&a);
	model_free(&m);
	xsbug_follower_free(f);
	xsbug_parser_free(p);
}

int main(int argc, char **argv)
{
	const char *dir = argc > 1 ? argv[1] : "testdata";
	char path[1024];
	snprintf(path, sizeof(path), "%s/worked-example.cpuprofile", dir);
	struct model m;
	struct load_error err;
	struct load_options opt = { .session = -1 };
	if (!load_file(path, &opt, &m, &err, NULL)) {
		fprintf(stderr, "%s: %s\n", path, err.message);
		return 1;
	}
	test_parse();
	test_resolve(&m);
	test_cut_worked_example(&m);
	test_timeline(&m);
	test_scrolling_timeline(&m);
	model_free(&m);
	test_app_keys(path);
	test_app_keys_from_whole(path);
	test_view_equals_cut(dir);
	test_near_sums_exact();
	test_live_window();
	return check_done();
}
