/* The flame graph as data: widths against the corpus' reference totals
 * (exact and additive, time-rules.md), time order on a hand-worked
 * example, and zoom, search share and narrow-frame merging on a small
 * tree whose layout is worked out below by hand. */
#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>

#include "tests/check.h"
#include "loaders/loaders.h"
#include "rules/rules.h"
#include "explorer/app.h"
#include "explorer/flame_job.h"
#include "explorer/flame_nav.h"
#include "base/util.h"
#include "views/flame.h"

/* ---- a model made by hand ---------------------------------------------- */

static uint32_t named_frame(struct model *m, const char *name)
{
	struct frame fr = { .name = model_string(m, name, strlen(name)),
			    .url = STR_NONE, .extra = STR_NONE, .line = -1,
			    .column = -1 };
	return model_intern_frame(m, &fr);
}

/* Samples given as paths "A B C" (root first) and durations. */
static void timeline_model(struct model *m, const char *const *stacks,
			   const double *durations, size_t n)
{
	model_init(m, "test");
	model_add_sample_type(m, "time", "us");
	for (size_t s = 0; s < n; s++) {
		char buf[64];
		snprintf(buf, sizeof(buf), "%s", stacks[s]);
		uint32_t node = NO_ID;
		for (char *tok = strtok(buf, " "); tok; tok = strtok(NULL, " "))
			node = model_add_child(m, node, named_frame(m, tok));
		model_add_sample(m, node, durations[s]);
	}
	uint32_t cycle;
	CHECK(model_finish(m, &cycle));
}

static const char *frame_name(const struct model *m, const struct flame *f,
			      uint32_t i)
{
	return model_str(m, m->frames[f->frames[i].frame].name);
}

struct expect_block {
	const char *name;
	uint32_t depth;
	double x, width, self;
};

static void check_blocks(const struct model *m, const struct flame *f,
			 const struct expect_block *want, size_t n, const char *what)
{
	CHECK_MSG(f->nframes == n, "%s: %zu frames, want %zu", what, f->nframes, n);
	for (size_t i = 0; i < n && i < f->nframes; i++) {
		CHECK_MSG(!strcmp(frame_name(m, f, (uint32_t)i), want[i].name),
			  "%s: frame %zu is %s, want %s", what, i,
			  frame_name(m, f, (uint32_t)i), want[i].name);
		CHECK_MSG(f->frames[i].depth == want[i].depth, "%s: depth of %zu", what, i);
		CHECK_CLOSE(f->frames[i].x, want[i].x, what);
		CHECK_CLOSE(f->frames[i].width, want[i].width, what);
		CHECK_CLOSE(f->frames[i].self, want[i].self, what);
	}
}

/* Samples A | A B | A B | A C | A B | D with durations 1..6: in time
 * order the two runs through A>B stay apart (C came between), the two
 * equal samples A B (2 and 3) are one block; A spans the first five. */
static void check_time_order(void)
{
	static const char *const stacks[] = { "A", "A B", "A B", "A C", "A B", "D" };
	static const double durations[] = { 1, 2, 3, 4, 5, 6 };
	struct model m;
	timeline_model(&m, stacks, durations, 6);
	struct rules rules;
	rules_init(&rules, &m);
	struct view_context ctx = { .model = &m, .rules = &rules, .rule = RULE_EXACT,
				    .focus_frame = NO_ID };
	CHECK(flame_has_time_order(&m, 0));
	struct flame f;
	flame_build(&f, &ctx, FLAME_TIME_ORDER);
	static const struct expect_block time_order[] = {
		{ "A", 0, 0, 15, 1 }, { "B", 1, 1, 5, 5 }, { "C", 1, 6, 4, 4 },
		{ "B", 1, 10, 5, 5 }, { "D", 0, 15, 6, 6 },
	};
	check_blocks(&m, &f, time_order, ARRAY_LEN(time_order), "time order");
	CHECK_CLOSE(f.whole, 21, "time order: whole");
	CHECK(f.frames[1].next_sibling == 2 && f.frames[2].next_sibling == 3);
	CHECK(f.frames[3].next_sibling == NO_ID && f.frames[0].next_sibling == 4);
	CHECK(f.frames[0].end == 4 && f.frames[4].end == 5);
	flame_free(&f);

	/* Left-heavy: A's children merged (B 10, C 4), largest first; the
	 * top frames too (A 15, D 6). */
	flame_build(&f, &ctx, FLAME_LEFT_HEAVY);
	static const struct expect_block left_heavy[] = {
		{ "A", 0, 0, 15, 1 }, { "B", 1, 0, 10, 10 }, { "C", 1, 10, 4, 4 },
		{ "D", 0, 15, 6, 6 },
	};
	check_blocks(&m, &f, left_heavy, ARRAY_LEN(left_heavy), "left-heavy");

	/* Search: B covers 10 of 21; A or B covers A's 15 (B inside it is
	 * counted once). */
	bool *want = xcalloc(m.nframes, sizeof(bool));
	uint8_t *marks = xcalloc(f.nframes, 1);
	want[f.frames[1].frame] = true;
	CHECK_CLOSE(flame_match(&f, want, marks), 10.0 / 21, "search B");
	CHECK(marks[1] && !marks[0] && !marks[2] && !marks[3]);
	want[f.frames[0].frame] = true;
	CHECK_CLOSE(flame_match(&f, want, marks), 15.0 / 21, "search A or B");
	free(want);
	free(marks);

	/* Moving: parent, first child, neighbours on a line. */
	CHECK(flame_parent(&f, 2) == 0 && flame_parent(&f, 0) == 0);
	CHECK(flame_first_child(&f, 0) == 1 && flame_first_child(&f, 1) == 1);
	CHECK(flame_neighbour(&f, 1, 1) == 2 && flame_neighbour(&f, 2, -1) == 1);
	CHECK(flame_neighbour(&f, 0, 1) == 3 && flame_neighbour(&f, 3, 1) == 3);
	flame_free(&f);
	rules_free(&rules);
	model_free(&m);
}

/* A block under 1/65536 of the profile is left to its parent: A runs
 * 100000 us, C 1 us, A 100000 us: one block A, all of it A's own. */
static void check_time_order_resolution(void)
{
	static const char *const stacks[] = { "A", "A C", "A", "A B" };
	static const double durations[] = { 100000, 1, 100000, 50000 };
	struct model m;
	timeline_model(&m, stacks, durations, 4);
	struct rules rules;
	rules_init(&rules, &m);
	struct view_context ctx = { .model = &m, .rules = &rules, .rule = RULE_EXACT,
				    .focus_frame = NO_ID };
	struct flame f;
	flame_build(&f, &ctx, FLAME_TIME_ORDER);
	static const struct expect_block blocks[] = {
		{ "A", 0, 0, 250001, 200001 }, { "B", 1, 200001, 50000, 50000 },
	};
	check_blocks(&m, &f, blocks, ARRAY_LEN(blocks), "time order, narrow block");
	CHECK(f.frames[0].end == 2 && f.frames[1].next_sibling == NO_ID);
	flame_free(&f);
	rules_free(&rules);
	model_free(&m);
}

/* Differential: BASE main>a 3, main>b 1; NEW main>a 1, main>c 2, and
 * main>b>a 1 (a under b: a path BASE lacks, though BASE knows a). */
static void check_differential(void)
{
	static const char *const base_stacks[] = { "main a", "main b" };
	static const double base_durations[] = { 3, 1 };
	static const char *const new_stacks[] = { "main a", "main c", "main b a" };
	static const double new_durations[] = { 1, 2, 1 };
	struct model base, now;
	timeline_model(&base, base_stacks, base_durations, 2);
	timeline_model(&now, new_stacks, new_durations, 3);
	struct rules base_rules, new_rules;
	rules_init(&base_rules, &base);
	rules_init(&new_rules, &now);
	struct view_context base_ctx = { .model = &base, .rules = &base_rules,
					 .rule = RULE_EXACT, .focus_frame = NO_ID };
	struct view_context new_ctx = { .model = &now, .rules = &new_rules,
					.rule = RULE_EXACT, .focus_frame = NO_ID };
	struct flame bf, nf;
	flame_build(&bf, &base_ctx, FLAME_LEFT_HEAVY);
	flame_build(&nf, &new_ctx, FLAME_LEFT_HEAVY);
	/* Functions paired by name, NEW's frame -> BASE's. */
	uint32_t *match = xmalloc(now.nframes * sizeof(uint32_t));
	for (uint32_t f = 0; f < now.nframes; f++) {
		match[f] = NO_ID;
		for (uint32_t g = 0; g < base.nframes; g++)
			if (!strcmp(model_str(&now, now.frames[f].name),
				    model_str(&base, base.frames[g].name)))
				match[f] = g;
	}
	double *was = xmalloc(nf.nframes * sizeof(double));
	flame_base_widths(&nf, &bf, match, was);
	/* NEW left-heavy: main 4, c 2, b 1 (a 1 under it), a 1. */
	static const struct expect_block now_blocks[] = {
		{ "main", 0, 0, 4, 0 }, { "c", 1, 0, 2, 2 }, { "a", 1, 2, 1, 1 },
		{ "b", 1, 3, 1, 0 }, { "a", 2, 3, 1, 1 },
	};
	check_blocks(&now, &nf, now_blocks, ARRAY_LEN(now_blocks), "differential: new");
	CHECK_CLOSE(was[0], 4, "main in base");
	CHECK_MSG(isnan(was[1]), "c is new");
	CHECK_CLOSE(was[2], 3, "main>a in base");
	CHECK_CLOSE(was[3], 1, "main>b in base");
	CHECK_MSG(isnan(was[4]), "main>b>a is a new path");
	free(was);
	free(match);
	flame_free(&bf);
	flame_free(&nf);
	rules_free(&base_rules);
	rules_free(&new_rules);
	model_free(&base);
	model_free(&now);
}

/* Frames only in BASE (difffolded's `-`): BASE main>a 3, main>b 1,
 * main>d>x 2, main>a>y 1; NEW main>a 1, main>c 2.  Gone from NEW:
 * main>b, main>d (x below it is not marked again) and main>a>y. */
static void check_base_only(void)
{
	static const char *const base_stacks[] = { "main a", "main b", "main d x", "main a y" };
	static const double base_durations[] = { 3, 1, 2, 1 };
	static const char *const new_stacks[] = { "main a", "main c" };
	static const double new_durations[] = { 1, 2 };
	struct model base, now;
	timeline_model(&base, base_stacks, base_durations, 4);
	timeline_model(&now, new_stacks, new_durations, 2);
	struct rules base_rules, new_rules;
	rules_init(&base_rules, &base);
	rules_init(&new_rules, &now);
	struct view_context base_ctx = { .model = &base, .rules = &base_rules,
					 .rule = RULE_EXACT, .focus_frame = NO_ID };
	struct view_context new_ctx = { .model = &now, .rules = &new_rules,
					.rule = RULE_EXACT, .focus_frame = NO_ID };
	struct flame bf, nf;
	flame_build(&bf, &base_ctx, FLAME_LEFT_HEAVY);
	flame_build(&nf, &new_ctx, FLAME_LEFT_HEAVY);
	uint32_t *match = xmalloc(now.nframes * sizeof(uint32_t));
	for (uint32_t f = 0; f < now.nframes; f++) {
		match[f] = NO_ID;
		for (uint32_t g = 0; g < base.nframes; g++)
			if (!strcmp(model_str(&now, now.frames[f].name),
				    model_str(&base, base.frames[g].name)))
				match[f] = g;
	}
	uint32_t *in_base = flame_base_counterparts(&nf, &bf, match);
	uint8_t *gone = xmalloc(bf.nframes + 1);
	CHECK(flame_base_only(&nf, &bf, in_base, gone) == 3);
	double gone_width = 0;
	for (uint32_t j = 0; j < bf.nframes; j++) {
		const char *name = model_str(&base, base.frames[bf.frames[j].frame].name);
		bool want = !strcmp(name, "b") || !strcmp(name, "d") || !strcmp(name, "y");
		CHECK_MSG(gone[j] == want, "%s %s in NEW", name, want ? "is gone" : "is still");
		gone_width += gone[j] ? bf.frames[j].width : 0;
	}
	CHECK_CLOSE(gone_width, 1 + 2 + 1, "the gone paths' time in BASE");
	free(gone);
	free(in_base);
	free(match);
	flame_free(&bf);
	flame_free(&nf);
	rules_free(&base_rules);
	rules_free(&new_rules);
	model_free(&base);
	model_free(&now);
}

/* Recursion: f inside f.  flamegraph.pl counts the outer f once. */
static void check_search_recursion(void)
{
	static const char *const stacks[] = { "main f f g", "main h", "main f" };
	static const double durations[] = { 6, 3, 1 };
	struct model m;
	timeline_model(&m, stacks, durations, 3);
	struct rules rules;
	rules_init(&rules, &m);
	struct view_context ctx = { .model = &m, .rules = &rules, .rule = RULE_EXACT,
				    .focus_frame = NO_ID };
	struct flame f;
	flame_build(&f, &ctx, FLAME_LEFT_HEAVY);
	bool *want = xcalloc(m.nframes, sizeof(bool));
	uint8_t *marks = xcalloc(f.nframes, 1);
	for (size_t i = 0; i < f.nframes; i++)
		if (!strcmp(frame_name(&m, &f, (uint32_t)i), "f"))
			want[f.frames[i].frame] = true;
	CHECK_CLOSE(flame_match(&f, want, marks), 7.0 / 10, "f counted once");
	free(want);
	free(marks);
	flame_free(&f);
	rules_free(&rules);
	model_free(&m);
}

/* ---- layout: zoom and merging ------------------------------------------- */

static const struct flame_span *span_of(const struct flame_layout *l, uint32_t index)
{
	for (size_t i = 0; i < l->nspans; i++)
		if (l->spans[i].index == index)
			return &l->spans[i];
	return NULL;
}

/* root 100: a 60 (a1 59.5, a2 0.5), b 30, then 40 children of 0.25 each.
 * On 10 cells (80 eighths): a is 48 eighths, b 24, the tiny ones 8 in
 * all, one remainder of 40 frames; a2 (0.4 eighth) rounds into a sliver. */
static void check_layout(void)
{
	struct model m;
	model_init(&m, "test");
	model_add_sample_type(&m, "time", "us");
	uint32_t root = model_add_child(&m, NO_ID, named_frame(&m, "root"));
	uint32_t a = model_add_child(&m, root, named_frame(&m, "a"));
	model_add_node_value(&m, model_add_child(&m, a, named_frame(&m, "a1")), 0, 59.5);
	model_add_node_value(&m, model_add_child(&m, a, named_frame(&m, "a2")), 0, 0.5);
	model_add_node_value(&m, model_add_child(&m, root, named_frame(&m, "b")), 0, 30);
	for (int i = 0; i < 40; i++) {
		char name[16];
		snprintf(name, sizeof(name), "t%02d", i);
		model_add_node_value(&m, model_add_child(&m, root, named_frame(&m, name)), 0, 0.25);
	}
	uint32_t cycle;
	CHECK(model_finish(&m, &cycle));
	struct rules rules;
	rules_init(&rules, &m);
	struct view_context ctx = { .model = &m, .rules = &rules, .rule = RULE_ADDITIVE,
				    .focus_frame = NO_ID };
	struct flame f;
	flame_build(&f, &ctx, FLAME_LEFT_HEAVY);
	CHECK(f.nframes == 45);
	struct flame_layout l = { 0 };
	flame_lay_out(&f, FLAME_WHOLE, 10, 10, &l);
	CHECK(l.levels == 3);
	const struct flame_span *s = span_of(&l, 0);
	CHECK(s && s->start == 0 && s->stop == 80 && s->level == 0);
	s = span_of(&l, 1); /* a */
	CHECK(s && s->start == 0 && s->stop == 48 && !s->flags);
	s = span_of(&l, 2); /* a1: 59.5 of 100 on 80 eighths = 47.6 -> 48 */
	CHECK(s && s->start == 0 && s->stop == 48 && s->level == 2);
	s = span_of(&l, 3); /* a2 alone: a remainder sliver */
	CHECK(s && (s->flags & FLAME_SPAN_REMAINDER) && s->merged == 1);
	s = span_of(&l, 4); /* b */
	CHECK(s && s->start == 48 && s->stop == 72);
	s = span_of(&l, 5); /* t00 .. t39 */
	CHECK(s && (s->flags & FLAME_SPAN_REMAINDER) && s->merged == 40 &&
	      s->start == 72 && s->stop == 80);
	CHECK(l.nspans == 6);

	/* Zoomed on a: root above it at full width, a over all 80 eighths,
	 * a1 over 79.33 -> 79, a2 a remainder of the last eighth. */
	flame_lay_out(&f, FLAME_ZOOM_FRAME(1), 10, 10, &l);
	s = span_of(&l, 0);
	CHECK(s && (s->flags & FLAME_SPAN_ANCESTOR) && s->level == 0 && s->stop == 80);
	s = span_of(&l, 1);
	CHECK(s && s->level == 1 && s->start == 0 && s->stop == 80);
	s = span_of(&l, 2);
	CHECK(s && s->stop == 79);
	s = span_of(&l, 3);
	CHECK(s && s->start == 79 && s->stop == 80 && (s->flags & FLAME_SPAN_REMAINDER));
	CHECK(!span_of(&l, 4) && l.nspans == 4);

	/* Lines run out: what lies deeper is left out. */
	flame_lay_out(&f, FLAME_WHOLE, 10, 2, &l);
	CHECK(l.levels == 2 && !span_of(&l, 2));
	flame_layout_free(&l);
	flame_free(&f);
	rules_free(&rules);
	model_free(&m);
}

/* ---- time order at a terminal's width: fragments merged -------------- */

/* main's calls as they came, 100 us in all, on 10 cells (0.8 eighth per
 * us): a 40, then b 1, main's own 1, c 1, b 1, c 2 (each under three
 * cells, a gap of one eighth), main's own 10 (eight eighths: the run
 * ends), d 2, e 2, a 40.  Frames in pre-order: main 0, a 1, b 2, c 3,
 * b 4, c 5, d 6, e 7, a 8. */
static void check_time_order_merging(void)
{
	static const char *const stacks[] = {
		"main a", "main b", "main", "main c", "main b", "main c", "main",
		"main d", "main e", "main a",
	};
	static const double durations[] = { 40, 1, 1, 1, 1, 2, 10, 2, 2, 40 };
	struct model m;
	timeline_model(&m, stacks, durations, ARRAY_LEN(stacks));
	struct app a;
	app_init(&a, "merging", &m, VIEW_FLAME);
	flame_toggle_order(&a);
	const struct flame *f = flame_pane_graph(&a);
	CHECK(f && f->order == FLAME_TIME_ORDER && f->nframes == 9);
	if (!f || f->nframes != 9) {
		app_free(&a);
		model_free(&m);
		return;
	}
	CHECK(!strcmp(frame_name(&m, f, 3), "c") && !strcmp(frame_name(&m, f, 6), "d"));
	uint32_t c = f->frames[3].frame, d = f->frames[6].frame;
	flame_nav_lay_out(&a, 10, 10);
	const struct flame_layout *l = &a.flame.layout;
	/* a: 0..32 eighths.  b c b c: 5 us (40..46 less the 1 us gap) from
	 * eighth 32, so 32..36; c has 3 of them, b 2. */
	const struct flame_span *s = span_of(l, 1);
	CHECK(s && !s->flags && s->start == 0 && s->stop == 32);
	s = span_of(l, 2);
	CHECK(s && (s->flags & FLAME_SPAN_REMAINDER) && s->merged == 4 && s->last == 5 &&
	      s->start == 32 && s->stop == 36 && s->named == c);
	/* d e: 56..60 us, eighths 44.8 -> 45 .. 48; d and e 2 us each, d
	 * first in frame order. */
	s = span_of(l, 6);
	CHECK(s && (s->flags & FLAME_SPAN_REMAINDER) && s->merged == 2 && s->last == 7 &&
	      s->start == 45 && s->stop == 48 && s->named == d);
	s = span_of(l, 8);
	CHECK(s && !s->flags && s->start == 48 && s->stop == 80);
	CHECK(l->nspans == 5);
	struct flame_share *shares = NULL;
	size_t cap = 0;
	CHECK(flame_shares(f, 2, 5, &shares, &cap) == 2);
	CHECK(shares[0].frame == c && shares[0].width == 3 && shares[1].width == 2);
	free(shares);
	double time;
	CHECK(flame_run_size(f, 2, 5, &time) == 4 && time == 5);

	/* The cursor on the second c is on the block: right goes to the
	 * next block, left back, up to main; down stays (no callee drawn). */
	struct pane *p = &a.panes[VIEW_FLAME];
	p->selected = 3;
	struct flame_zoom block = flame_selected_block(&a, f);
	CHECK(block.first == 2 && block.last == 5);
	flame_move(&a, FLAME_TO_RIGHT);
	CHECK(p->selected == 6);
	flame_move(&a, FLAME_TO_LEFT);
	CHECK(p->selected == 5);
	flame_move(&a, FLAME_TO_CALLEE);
	CHECK(p->selected == 5);
	/* Enter: the block's 40..46 us over the 80 eighths (13.3 per us):
	 * b 0..13 alone (a gap of 14 eighths follows it), c b 27..53 a
	 * block (b first in frame order on 1 us each), c 53..80. */
	flame_zoom_in(&a);
	struct flame_zoom zoom = flame_zoom_of(&a.flame, f);
	CHECK(zoom.first == 2 && zoom.last == 5);
	flame_nav_lay_out(&a, 10, 10);
	s = span_of(l, 0);
	CHECK(s && (s->flags & FLAME_SPAN_ANCESTOR) && s->stop == 80);
	s = span_of(l, 2);
	CHECK(s && !s->flags && s->start == 0 && s->stop == 13);
	s = span_of(l, 3);
	CHECK(s && (s->flags & FLAME_SPAN_REMAINDER) && s->merged == 2 && s->last == 4 &&
	      s->start == 27 && s->stop == 53 && s->named == f->frames[2].frame);
	s = span_of(l, 5);
	CHECK(s && !s->flags && s->start == 53 && s->stop == 80);
	CHECK(l->nspans == 4 && !span_of(l, 1) && !span_of(l, 6));
	flame_move(&a, FLAME_TO_CALLER);
	CHECK(p->selected == 0);
	flame_zoom_out(&a);
	CHECK(flame_zoom_of(&a.flame, f).first == NO_ID);
	app_free(&a);
	model_free(&m);
}

/* ---- the corpus: widths are the rules' totals -------------------------- */

static uint32_t find_function(const struct model *m, const char *key, bool with_place)
{
	char buf[2048];
	for (uint32_t f = 0; f < m->nframes; f++) {
		const struct frame *fr = &m->frames[f];
		if (with_place)
			snprintf(buf, sizeof(buf), "%s %s:%d:%d", model_str(m, fr->name),
				 model_str(m, fr->url), fr->line, fr->column);
		else
			snprintf(buf, sizeof(buf), "%s", model_str(m, fr->name));
		if (!strcmp(buf, key))
			return f;
	}
	return NO_ID;
}

/* exact(f): the frames of f with no f above them; additive(f): all of
 * them.  Each frame is as wide as its self plus its children. */
static void sum_widths(const struct flame *fl, size_t nfunctions,
		       double *exact, double *additive)
{
	uint32_t *inside = xcalloc(nfunctions, sizeof(uint32_t)); /* subtree end */
	for (uint32_t i = 0; i < fl->nframes; i++) {
		const struct flame_frame *fr = &fl->frames[i];
		additive[fr->frame] += fr->width;
		if (i >= inside[fr->frame]) {
			exact[fr->frame] += fr->width;
			inside[fr->frame] = fr->end;
		}
	}
	free(inside);
}

static void check_additivity(const struct flame *fl, const char *name)
{
	for (uint32_t i = 0; i < fl->nframes; i++) {
		double sum = fl->frames[i].self;
		for (uint32_t c = i + 1; c < fl->frames[i].end; c = fl->frames[c].end)
			sum += fl->frames[c].width;
		CHECK_CLOSE(fl->frames[i].width, sum, name);
	}
}

static void check_corpus_profile(const char *dir, const char *name, bool with_place,
				 bool tree)
{
	char path[1024], expected_path[1024];
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	snprintf(expected_path, sizeof(expected_path), "%s/expected/%s.rules.json", dir, name);
	char *text = check_read_file(expected_path, NULL);
	CHECK_MSG(text, "cannot read %s", expected_path);
	if (!text)
		return;
	cJSON *expected = cJSON_Parse(text);
	free(text);
	struct model m;
	struct load_error err;
	struct load_options opt = { .session = -1 };
	CHECK_MSG(load_file(path, &opt, &m, &err, NULL), "%s: %s", name, err.message);
	struct rules rules;
	rules_init(&rules, &m);
	for (enum rule rule = RULE_EXACT; rule <= RULE_ADDITIVE; rule++) {
		struct view_context ctx = { .model = &m, .rules = &rules, .rule = rule,
					    .focus_frame = NO_ID };
		struct flame fl;
		flame_build(&fl, &ctx, FLAME_LEFT_HEAVY);
		CHECK_MSG(fl.nframes, "%s: no flame graph: %s", name,
			  fl.why_not ? fl.why_not : "?");
		check_additivity(&fl, name);
		double all_self = 0;
		const cJSON *fn;
		cJSON_ArrayForEach(fn, cJSON_GetObjectItem(expected, "functions"))
			all_self += cJSON_GetObjectItem(fn, "self")->valuedouble;
		if (tree) /* the graph is as wide as every sample together */
			CHECK_CLOSE(fl.whole, all_self, name);
		double *exact = xcalloc(m.nframes, sizeof(double));
		double *additive = xcalloc(m.nframes, sizeof(double));
		sum_widths(&fl, m.nframes, exact, additive);
		cJSON_ArrayForEach(fn, cJSON_GetObjectItem(expected, "functions")) {
			uint32_t f = find_function(&m, fn->string, with_place);
			CHECK_MSG(f != NO_ID, "%s: no %s", name, fn->string);
			if (f == NO_ID)
				continue;
			char what[2200];
			snprintf(what, sizeof(what), "%s %s: %s", name, rule_name(rule), fn->string);
			const cJSON *e = cJSON_GetObjectItem(fn, "exact");
			const cJSON *add = cJSON_GetObjectItem(fn, "additive");
			if (tree && cJSON_IsNumber(e))
				CHECK_CLOSE(exact[f], e->valuedouble, what);
			if (tree)
				CHECK_CLOSE(additive[f], add->valuedouble, what);
		}
		free(exact);
		free(additive);
		flame_free(&fl);
	}
	rules_free(&rules);
	model_free(&m);
	cJSON_Delete(expected);
}

/* A range key on pane 5 of a large profile (past the size a key waits
 * for): the key returns with the old graph still shown and "computing";
 * the graph that arrives is the one built at once for the range, and the
 * cursor stays on its function.  main has 300 children f0..f299, each
 * with 400 leaves, one 1 ms sample per leaf in that order: the first half
 * of the samples is f0..f149 with all their leaves, 150 ms each. */
static void check_range_in_background(void)
{
	struct model m;
	model_init(&m, "test");
	model_add_sample_type(&m, "time", "us");
	uint32_t main_frame = named_frame(&m, "main"), root = model_add_child(&m, NO_ID, main_frame);
	for (int i = 0; i < 300; i++) {
		char name[16];
		snprintf(name, sizeof(name), "f%03d", i);
		uint32_t f = model_add_child(&m, root, named_frame(&m, name));
		for (int k = 0; k < 400; k++) {
			snprintf(name, sizeof(name), "g%03d", k);
			model_add_sample(&m, model_add_child(&m, f, named_frame(&m, name)), 1000);
		}
	}
	uint32_t cycle;
	CHECK(model_finish(&m, &cycle) && m.nnodes == 1 + 300 + 300 * 400);
	struct app a;
	app_init(&a, "big", &m, VIEW_FLAME);
	app_compute_in_background(&a);
	while (app_busy(&a))
		app_poll(&a);
	struct pane *p = &a.panes[VIEW_FLAME];
	const struct flame *before = flame_of_view(&p->view);
	unsigned long serial = before->serial;
	CHECK(before->nframes == m.nnodes);
	p->selected = 2; /* main, f000, its first leaf */
	uint32_t selected_frame = before->frames[2].frame;
	app_set_range(&a, 0, m.nsamples / 2);
	CHECK(app_flame_computing(&a));
	CHECK(flame_of_view(&p->view)->serial == serial); /* still shown */
	while (app_busy(&a))
		app_poll(&a);
	CHECK(!app_flame_computing(&a));
	const struct flame *got = flame_of_view(&p->view);
	CHECK(got->serial != serial && p->view.nrows == got->nframes);
	CHECK(got->nframes == 1 + 150 + 150 * 400);
	CHECK_CLOSE(got->whole, 150 * 400 * 1000.0, "the range's width");
	CHECK(p->selected < got->nframes && got->frames[p->selected].frame == selected_frame &&
	      got->frames[p->selected].depth == 2);
	struct flame want;
	flame_build(&want, &a.ctx, FLAME_LEFT_HEAVY);
	bool same = want.nframes == got->nframes && want.whole == got->whole;
	for (size_t i = 0; same && i < want.nframes; i++) {
		const struct flame_frame *x = &want.frames[i], *y = &got->frames[i];
		same = x->frame == y->frame && x->depth == y->depth && x->parent == y->parent &&
		       x->x == y->x && x->width == y->width && x->self == y->self;
	}
	CHECK_MSG(same, "the background graph differs from one built at once");
	flame_free(&want);
	/* x: time order is made on the thread too; the range's samples come
	 * one leaf after another, so each leaf is a block of its own. */
	serial = got->serial;
	flame_toggle_order(&a);
	CHECK(a.ctx.time_order && app_flame_computing(&a));
	CHECK(flame_of_view(&p->view)->serial == serial);
	while (app_busy(&a))
		app_poll(&a);
	got = flame_of_view(&p->view);
	CHECK(got->order == FLAME_TIME_ORDER && got->nframes == 1 + 150 + 150 * 400);
	CHECK_CLOSE(got->whole, 150 * 400 * 1000.0, "time order's width");
	/* x twice before the first graph comes: the first is dropped, not
	 * waited for, and the second (left-heavy again) takes its place. */
	flame_toggle_order(&a);
	flame_toggle_order(&a);
	CHECK(a.ctx.time_order && app_flame_computing(&a));
	flame_toggle_order(&a);
	CHECK(!a.ctx.time_order && app_flame_computing(&a));
	while (app_busy(&a))
		app_poll(&a);
	got = flame_of_view(&p->view);
	CHECK(got->order == FLAME_LEFT_HEAVY && got->nframes == 1 + 150 + 150 * 400);
	app_free(&a);
	model_free(&m);
}

int main(int argc, char **argv)
{
	const char *dir = argc > 1 ? argv[1] : "testdata";
	check_time_order();
	check_time_order_resolution();
	check_differential();
	check_base_only();
	check_search_recursion();
	check_layout();
	check_time_order_merging();
	check_range_in_background();
	static const char *const trees[] = {
		"worked-example.cpuprofile", "validate.cpuprofile",
		"recursion.cpuprofile", "chrome65-simple.cpuprofile",
	};
	for (size_t i = 0; i < ARRAY_LEN(trees); i++)
		check_corpus_profile(dir, trees[i], true, true);
	check_corpus_profile(dir, "validate.xsbug", false, true);
	/* A node graph: drawn as a tree, additive in itself only. */
	check_corpus_profile(dir, "validate-xs.cpuprofile", true, false);
	return check_done();
}
