/* The granularity key's kept models (explorer/granularity_cache.h): a
 * model made on the thread, waited for or taken after, is the one made at
 * once.  The profile (tests/lines_profile.h) and its numbers are
 * test_granularity.c's, worked by hand:
 *   lines: 30 us and 30 us, 2 and 1 samples (whole samples);
 *   files: one frame "f.js" (calls within a file are the file), 60 us
 *          and 3 samples on it. */
#include <stdatomic.h>
#include <string.h>
#include <time.h>

#include "tests/check.h"
#include "base/util.h"
#include "explorer/app.h"
#include "explorer/granularity_cache.h"
#include "tests/lines_profile.h"

static void check_lines(const struct model *m, const char *when)
{
	uint32_t counts = model_count_type(m);
	uint32_t l4 = node_at(m, "f", 4), l5 = node_at(m, "f", 5);
	CHECK_MSG(counts != NO_ID && l4 != NO_ID && l5 != NO_ID, "lines %s", when);
	if (counts == NO_ID || l4 == NO_ID || l5 == NO_ID)
		return;
	CHECK_CLOSE(node_value(m, l4, 0), 30, "line 4's time");
	CHECK_CLOSE(node_value(m, l5, 0), 30, "line 5's time");
	CHECK_CLOSE(node_value(m, l4, counts), 2, "line 4's samples");
	CHECK_CLOSE(node_value(m, l5, counts), 1, "line 5's samples");
	CHECK(m->nsamples == 3);
}

/* Made on the thread and taken once it is done. */
static void taken_when_done(struct model *src)
{
	struct granularity_cache c;
	granularity_cache_init(&c, src);
	granularity_cache_prepare(&c, GRANULARITY_LINES, NULL);
	CHECK(c.building);
	while (!background_done(&c.jobs[GRANULARITY_LINES].work, 1))
		;
	struct model *m = granularity_cache_take(&c, GRANULARITY_LINES);
	CHECK(m != NULL);
	if (m)
		check_lines(m, "taken when done");
	CHECK(granularity_cache_take(&c, GRANULARITY_LINES) == m); /* kept */
	CHECK(granularity_cache_take(&c, GRANULARITY_FUNCTIONS) == src);
	granularity_cache_free(&c);
}

/* Taken at once, while the thread may still be making it. */
static void taken_at_once(struct model *src)
{
	struct granularity_cache c;
	granularity_cache_init(&c, src);
	granularity_cache_prepare(&c, GRANULARITY_LINES, NULL);
	struct model *m = granularity_cache_take(&c, GRANULARITY_LINES);
	CHECK(m != NULL && !c.queued[GRANULARITY_LINES]);
	if (m)
		check_lines(m, "taken at once");
	granularity_cache_free(&c);
}

/* Stopped while making them (the explorer leaving the profile), the
 * models not made are made when prepared again; freed at once, none is
 * waited for beyond its thread's next pause point. */
static void stopped_then_again(struct model *src)
{
	struct granularity_cache c;
	granularity_cache_init(&c, src);
	granularity_cache_prepare(&c, GRANULARITY_FILES, NULL);
	granularity_cache_quiet(&c);
	CHECK(!c.building && !c.queued[GRANULARITY_FILES] && !c.queued[GRANULARITY_LINES]);
	granularity_cache_prepare(&c, GRANULARITY_FILES, NULL);
	struct model *m = granularity_cache_take(&c, GRANULARITY_LINES);
	CHECK(m != NULL);
	if (m)
		check_lines(m, "made again after a stop");
	granularity_cache_free(&c);
	granularity_cache_init(&c, src);
	granularity_cache_prepare(&c, GRANULARITY_LINES, NULL);
	granularity_cache_free(&c);
	CHECK(!c.building);
}

/* Quitting while the work ahead waits for a core (one core, taken by a
 * key's work) makes no model: the threads stop at the gate, where the
 * explorer of issue 3 waited for the whole model being made. */
static void quit_waits_for_no_model(struct model *src)
{
	struct granularity_cache c;
	background_set_cores(1);
	background_foreground_begin();
	granularity_cache_init(&c, src);
	granularity_cache_prepare(&c, GRANULARITY_FILES, NULL);
	CHECK(c.building == 2);
	granularity_cache_quiet(&c);
	CHECK(!c.building && !c.models[GRANULARITY_FILES] && !c.models[GRANULARITY_LINES]);
	granularity_cache_free(&c);
	background_foreground_end();
	background_set_cores(0);
}

/* Freed at every moment of their making, the threads leave nothing
 * behind (ASan's leak check) and never a model half made. */
static void freed_while_making(struct model *src)
{
	for (long us = 0; us < 400; us += 10) {
		struct granularity_cache c;
		granularity_cache_init(&c, src);
		granularity_cache_prepare(&c, GRANULARITY_LINES, NULL);
		struct timespec t = { 0, us * 1000 };
		nanosleep(&t, NULL);
		granularity_cache_quiet(&c);
		CHECK(!c.building);
		if (c.models[GRANULARITY_LINES])
			check_lines(c.models[GRANULARITY_LINES], "kept after a stop");
		granularity_cache_free(&c);
	}
}

/* Sample counts added to the profile after a model was kept would not be
 * split by line: that model is made again. */
static void counted_later(void)
{
	struct model src, *lines = xmalloc(sizeof(*lines));
	build_lines_profile(&src, false);
	struct granularity_cache c;
	granularity_cache_init(&c, &src);
	granularity_cache_prepare(&c, GRANULARITY_LINES, NULL);
	CHECK(!c.building); /* counting would change src under the thread */
	const char *why_not = NULL;
	CHECK(model_by_granularity(&src, GRANULARITY_LINES, lines, &why_not));
	granularity_cache_keep(&c, GRANULARITY_LINES, lines);
	CHECK(granularity_cache_take(&c, GRANULARITY_LINES) == lines);
	model_add_sample_counts(&src);
	CHECK(granularity_cache_take(&c, GRANULARITY_LINES) == NULL);
	granularity_cache_free(&c);
	model_free(&src);
}

/* The key in the explorer: by files through the thread's model, then by
 * lines, then back to functions, each with the hand-worked numbers. */
/* The strip of the profile in 3 cells of 20 us, worked by hand: samples
 * [0, 10), [10, 30), [30, 60) give each cell 20 us of JavaScript, and
 * the cells' first samples are 0, 2 and none (3). */
static void check_strip(const struct timeline *t, const char *when)
{
	static const size_t first[] = { 0, 2, 3, 3 };
	CHECK_MSG(t->nbins == 3, "strip %s", when);
	for (size_t b = 0; t->nbins == 3 && b < 3; b++) {
		CHECK_CLOSE(t->value[b * KIND_COUNT + KIND_JS], 20, "a cell's time");
		CHECK(t->first_sample[b] == first[b]);
	}
	CHECK(t->nbins != 3 || t->first_sample[3] == first[3]);
}

/* The flat pane's first row: the hottest function, f (or f.js), with
 * all 60 us of the profile as its total. */
static void check_flat_row(struct app *a, double total, const char *when)
{
	const struct view *v = &app_pane(a)->view;
	CHECK_MSG(v->nrows >= 1, "flat rows %s", when);
	if (v->nrows >= 1)
		CHECK_CLOSE(v->rows[0].total, total, "the first row's total");
}

/* The explorer on src's first screen, with the other granularities'
 * models being made, as tui_run starts them. */
static void open_explorer(struct granularity_cache *c, struct app *a, struct model *src)
{
	granularity_cache_init(c, src);
	app_init(a, "cache", src, VIEW_FLAT);
	app_compute_in_background(a);
	granularity_cache_prepare(c, GRANULARITY_FILES, &a->original_rules);
}

static void close_explorer(struct granularity_cache *c, struct app *a)
{
	while (app_busy(a))
		app_poll(a);
	app_free(a);
	granularity_cache_free(c);
}

static void key_in_explorer(struct model *src)
{
	struct granularity_cache c;
	struct app a;
	open_explorer(&c, &a, src);
	/* Both ahead, by files first: the key's next. */
	CHECK(c.building == 2 && c.queued[GRANULARITY_FILES] && c.queued[GRANULARITY_LINES]);
	CHECK(c.jobs[GRANULARITY_FILES].work.rank == 0 && c.jobs[GRANULARITY_LINES].work.rank == 1);
	while (app_busy(&a))
		app_poll(&a);
	const struct timeline *strip = app_timeline(&a, 3);
	check_strip(strip, "by functions");
	const double *cells = strip->value;
	const struct totals *exact = a.original_rules.cache[RULE_EXACT][0];
	CHECK(exact != NULL);
	app_switch_granularity(&a, &c, NULL, GRANULARITY_FILES);
	CHECK(a.granularity == GRANULARITY_FILES && a.original == c.models[GRANULARITY_FILES]);
	/* By functions' rules put aside; by files' made on the thread. */
	CHECK(c.has_rules[GRANULARITY_FUNCTIONS] && !c.has_rules[GRANULARITY_FILES]);
	CHECK(c.has_rules[GRANULARITY_LINES]);
	/* The thread held base's outermost nodes, made for the first
	 * screen; the lines' it has are the walk's. */
	CHECK(c.base_shape && c.base_shape == c.rules[GRANULARITY_FUNCTIONS].shape);
	const struct model *lines = c.models[GRANULARITY_LINES];
	const struct node_shape *derived = c.rules[GRANULARITY_LINES].shape;
	struct node_shape *walked = node_shape_walk(lines);
	CHECK(derived && lines->nnodes == 4);
	if (derived)
		CHECK(!memcmp(derived->outermost, walked->outermost, lines->nnodes) &&
		      !memcmp(derived->arc_outermost, walked->arc_outermost, lines->nnodes));
	node_shape_release(walked);
	CHECK(a.original_rules.model == a.original);
	check_flat_row(&a, 60, "by files");
	/* The same samples: the strip is carried over, not made again. */
	CHECK(a.strip.model == a.loaded && a.strip.timeline.value == cells);
	strip = app_timeline(&a, 3);
	CHECK(strip->value == cells);
	check_strip(strip, "by files");
	uint32_t file = node_at(a.original, "f.js", -1);
	CHECK(file != NO_ID && a.original->nnodes == 1);
	if (file != NO_ID)
		CHECK_CLOSE(node_value(a.original, file, 0), 60, "f.js's time");
	app_switch_granularity(&a, &c, NULL, GRANULARITY_LINES);
	CHECK(a.original == c.models[GRANULARITY_LINES]);
	check_lines(a.original, "in the explorer");
	CHECK(a.strip.model == a.loaded && app_timeline(&a, 3)->value == cells);
	app_switch_granularity(&a, &c, NULL, GRANULARITY_FUNCTIONS);
	CHECK(a.original == src);
	check_strip(app_timeline(&a, 3), "by functions again");
	/* Its rules taken back, their totals not made again. */
	CHECK(!c.has_rules[GRANULARITY_FUNCTIONS] && a.original_rules.cache[RULE_EXACT][0] == exact);
	check_flat_row(&a, 60, "by functions again");
	app_switch_granularity(&a, &c, NULL, GRANULARITY_FILES);
	CHECK(a.original == c.models[GRANULARITY_FILES] && a.original_rules.model == a.original);
	check_flat_row(&a, 60, "by files again");
	close_explorer(&c, &a);
}

/* The thread of key_before_ready: as granularity_cache's, making the
 * model by files, but only once the test lets it. */
struct held_job {
	struct granularity_cache *c;
	atomic_bool go;
};

static void held_make(void *arg)
{
	struct held_job *h = arg;
	struct timespec ms = { 0, 1000000 };
	while (!atomic_load(&h->go))
		nanosleep(&ms, NULL);
	const char *why_not;
	struct model *m = xmalloc(sizeof(*m));
	CHECK(model_by_granularity(h->c->base, GRANULARITY_FILES, m, &why_not));
	h->c->jobs[GRANULARITY_FILES].made = m;
}

/* The key pressed while the thread is still making the model: the panes
 * stay as they are, the status line says so, the key waits; once the
 * model is made, the next poll switches, with the hand-worked numbers. */
static void key_before_ready(struct model *src)
{
	struct granularity_cache c;
	struct app a;
	granularity_cache_init(&c, src);
	app_init(&a, "cache", src, VIEW_FLAT);
	app_compute_in_background(&a);
	while (app_busy(&a))
		app_poll(&a);
	struct held_job h = { .c = &c };
	atomic_init(&h.go, false);
	c.building = 1;
	c.counted_at_start = model_count_type(src) != NO_ID;
	c.queued[GRANULARITY_FILES] = true;
	background_start(&c.jobs[GRANULARITY_FILES].work, held_make, &h);
	app_next_granularity(&a);
	CHECK(app_granularity_poll(&a, &c, NULL)); /* the status line changed */
	CHECK(a.next_granularity && a.granularity == GRANULARITY_FUNCTIONS && a.original == src);
	CHECK(strstr(a.message, "files (computing)") != NULL);
	CHECK(!app_granularity_poll(&a, &c, NULL)); /* said once */
	atomic_store(&h.go, true);
	struct timespec ms = { 0, 1000000 };
	while (a.next_granularity) {
		nanosleep(&ms, NULL);
		app_granularity_poll(&a, &c, NULL);
	}
	CHECK(a.granularity == GRANULARITY_FILES && a.original == c.models[GRANULARITY_FILES]);
	CHECK(strstr(a.message, "granularity: files") != NULL);
	uint32_t file = node_at(a.original, "f.js", -1);
	CHECK(file != NO_ID && a.original->nnodes == 1);
	if (file != NO_ID)
		CHECK_CLOSE(node_value(a.original, file, 0), 60, "f.js's time");
	while (app_busy(&a))
		app_poll(&a);
	app_free(&a);
	granularity_cache_free(&c);
}

int main(void)
{
	struct model src;
	build_lines_profile(&src, true);
	taken_when_done(&src);
	taken_at_once(&src);
	key_in_explorer(&src);
	key_before_ready(&src);
	stopped_then_again(&src);
	quit_waits_for_no_model(&src);
	freed_while_making(&src);
	model_free(&src);
	counted_later();
	return check_done();
}
