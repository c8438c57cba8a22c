/* The explorer's time range: every pane, rule and comparison reads the
 * loaded profile's view of the samples of the range (range_view_make),
 * put in place of the original as a live snapshot would be, so that
 * filters, open rows and the selection carry over.  A view costs a pass
 * over the range's samples, so a range key is answered at once; only
 * divided, as ever, and pane 5's graph (flame_job.c) are computed on a
 * thread. */
#include "app.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/background.h"
#include "model/sample_counts.h"
#include "filters.h"
#include "base/util.h"

bool app_has_timeline(const struct app *a)
{
	return (a->loaded->caps & HAS_TIMELINE) && a->loaded->nsamples;
}

/* Live mode's strip scrolls: a column is this much time, the newest at
 * the right, so that what came in a second keeps its width while the
 * session grows (a range pinned meanwhile keeps its samples). */
#define LIVE_COLUMN_US 100000.0

bool app_timeline_scrolls(const struct app *a)
{
	return (a->live || a->strip.scrolls) &&
	       unit_is_time(a->loaded, 0);
}

const struct timeline *app_timeline(struct app *a, size_t cells)
{
	if (!cells)
		cells = 1;
	struct timeline *t = &a->strip.timeline;
	if (a->strip.model != a->loaded || t->nbins != cells ||
	    t->first_sample[cells] != a->loaded->nsamples ||
	    a->strip.before != a->loaded->live.samples_before) {
		timeline_free(t);
		if (a->loaded->live.nwindows)
			timeline_build_windows(t, a->loaded, cells);
		else if (app_timeline_scrolls(a))
			timeline_build_window(t, a->loaded, cells, LIVE_COLUMN_US);
		else
			timeline_build(t, a->loaded, cells);
		a->strip.model = a->loaded;
		a->strip.before = a->loaded->live.samples_before;
	}
	return t;
}

/* Do x and y have the same strip?  Whole models with the same durations
 * have: one lent them to the other or both were lent them by a third
 * (model_copy_timeline, whose node maps keep each leaf's kind). */
static bool same_strip(const struct model *x, const struct model *y)
{
	return x->sample_duration == y->sample_duration && x->nsamples == y->nsamples &&
	       !x->range.of && !y->range.of;
}

struct timeline app_timeline_take(struct app *a, const struct model *next)
{
	struct timeline strip = { 0 };
	if (a->strip.model != a->loaded || !a->strip.timeline.nbins || app_timeline_scrolls(a) ||
	    a->loaded->live.nwindows || !same_strip(a->loaded, next))
		return strip;
	strip = a->strip.timeline;
	memset(&a->strip.timeline, 0, sizeof(a->strip.timeline));
	a->strip.model = NULL;
	return strip;
}

void app_timeline_adopt(struct app *a, struct timeline strip)
{
	if (!strip.nbins)
		return;
	timeline_free(&a->strip.timeline);
	a->strip.timeline = strip;
	a->strip.model = a->loaded;
	a->strip.before = a->loaded->live.samples_before;
}

void app_describe_range(const struct app *a, bool ascii, char *buf, size_t cap)
{
	if (a->range.gone[0])
		snprintf(buf, cap, "%s", a->range.gone);
	else
		range_describe(a->loaded, a->range.samples, ascii, buf, cap);
}

static void say_range(struct app *a)
{
	if (a->range.cut)
		app_describe_range(a, false, a->message, sizeof(a->message));
	else
		app_message(a, "range: the whole profile");
}

/* Live mode: the view reads its own copy of its samples, not the loaded
 * model's, which the next refresh moves as the window slides. */
static void own_samples(struct model *view)
{
	size_t n = view->nsamples;
	uint32_t *nodes = xmalloc((n + 1) * sizeof(uint32_t));
	double *durations = xmalloc((n + 1) * sizeof(double));
	memcpy(nodes, view->sample_node, n * sizeof(uint32_t));
	memcpy(durations, view->sample_duration, n * sizeof(double));
	view->sample_node = nodes;
	view->sample_duration = durations;
}

static bool owns_samples(const struct app *a)
{
	return a->live || a->strip.scrolls;
}

/* The whole profile as a range's view: its sums made by the same pass as
 * a range's, so that a range key can move them (range_view_make's
 * `near`) rather than sum millions of samples, even the first key or
 * one after `0`.  Made on a thread once the first screen is up, behind
 * the work a key may wait for. */
struct whole_sums {
	struct background work;
	const struct model *src;
	struct model view;
	bool made;
};

/* The thread's, on a core no other work takes (base/background.h). */
static void make_whole_sums(void *arg)
{
	struct whole_sums *w = arg;
	const char *why_not;
	w->made = range_view_make(w->src, (struct sample_range){ 0, w->src->nsamples },
				  NULL, &w->view, &why_not);
}

/* Only where moving sums is exact (model.integral_samples) and the model
 * does not change under the thread (live snapshots change in place). */
void app_range_prepare(struct app *a)
{
	const struct model *m = a->loaded;
	if (a->live || a->range.whole_sums || !app_has_timeline(a) ||
	    m->integral_samples < m->nsamples || model_count_type(m) == NO_ID)
		return;
	struct whole_sums *w = xcalloc(1, sizeof(*w));
	w->src = m;
	a->range.whole_sums = w;
	background_start_behind(&w->work, make_whole_sums, w, RANK_RANGE_SUMS);
}

bool app_range_busy(const struct app *a)
{
	return a->range.whole_sums && !atomic_load(&a->range.whole_sums->work.finished);
}

void app_range_free_sums(struct whole_sums *w)
{
	if (!w)
		return;
	background_stop(&w->work); /* not begun: not made at all */
	background_wait(&w->work);
	if (w->made)
		model_free(&w->view);
	free(w);
}

void app_range_free(struct app *a)
{
	app_range_free_sums(a->range.whole_sums);
	a->range.whole_sums = NULL;
}

struct whole_sums *app_range_take_sums(struct app *a)
{
	struct whole_sums *w = a->range.whole_sums;
	if (!w || w->src != a->loaded)
		return NULL;
	a->range.whole_sums = NULL;
	return w;
}

void app_range_adopt_sums(struct app *a, struct whole_sums *w)
{
	if (!w || w->src != a->loaded || a->range.whole_sums) {
		app_range_free_sums(w);
		return;
	}
	a->range.whole_sums = w;
}

/* A view of `loaded` whose sums the next range can move: the range shown,
 * or the whole profile's once its thread is done. */
static const struct model *near_view(struct app *a)
{
	if (owns_samples(a)) /* live: its model's values change in place */
		return NULL;
	if (a->range.cut)
		return a->range.cut;
	struct whole_sums *w = a->range.whole_sums;
	if (w && w->src == a->loaded && background_done(&w->work, 0) && w->made)
		return &w->view;
	return NULL;
}

/* The range's view of the loaded profile (range_view_make: no copy, a
 * pass over the range's samples or over those between its ends and
 * near_view's), or NULL for the whole profile or when the profile cannot
 * be cut (*why_not says why).  All of a live window is a range when
 * samples have left it: the whole is more. */
static struct model *make_cut(struct app *a, struct model *src,
			      struct sample_range r, const char **why_not)
{
	if (r.first == 0 && r.end == src->nsamples && !src->live.samples_before)
		return NULL; /* the whole profile: the loaded model itself */
	model_add_sample_counts(src); /* once: every view counts samples */
	struct model *cut = xmalloc(sizeof(*cut));
	const struct model *near = src == a->loaded ? near_view(a) : NULL;
	if (range_view_make(src, r, near, cut, why_not)) {
		if (owns_samples(a))
			own_samples(cut);
		return cut;
	}
	free(cut);
	return NULL;
}

void app_free_range_cut(struct model *cut, bool owns_samples)
{
	if (!cut)
		return;
	if (owns_samples) {
		free(cut->sample_node);
		free(cut->sample_duration);
	}
	model_free(cut);
	free(cut);
}

/* Puts `cut` (NULL: the whole loaded profile) in front of every pane. */
static void show_cut(struct app *a, struct model *cut, bool owns)
{
	struct model *old = a->range.cut;
	bool old_owns = a->range.owns_samples;
	a->range.cut = cut;
	a->range.owns_samples = owns;
	a->range.base = a->loaded->live.samples_before;
	a->range.gone[0] = 0;
	app_show_model(a, cut ? cut : a->loaded);
	app_free_range_cut(old, old_owns);
}

void app_set_range(struct app *a, size_t first, size_t end)
{
	if (!app_has_timeline(a)) {
		app_message(a, "this profile has no sample times to choose a range in");
		return;
	}
	size_t n = a->loaded->nsamples;
	end = end > n ? n : end;
	if (first >= end) {
		app_message(a, "a range holds one sample at least");
		return;
	}
	bool shown = a->range.cut || !a->loaded->live.samples_before; /* else the whole */
	if (first == a->range.samples.first && end == a->range.samples.end && shown) {
		say_range(a);
		return;
	}
	struct sample_range before = a->range.samples;
	a->range.samples = (struct sample_range){ first, end };
	/* Counting samples into the loaded model (make_cut) must not race
	 * a filter's thread reading it. */
	filters_finish(a);
	const char *why_not = NULL;
	struct model *cut = make_cut(a, a->loaded, a->range.samples, &why_not);
	if (!cut && why_not) {
		a->range.samples = before;
		app_message(a, "%s", why_not);
		return;
	}
	show_cut(a, cut, cut && owns_samples(a));
	say_range(a);
}

/* A pinned range's first samples have left the live window: rather than
 * change its numbers or follow it off the strip, it becomes a model of
 * its own, cut from its view while that is still valid (its samples are
 * its own copy; its nodes are the loaded model's, refreshed in place,
 * or the one being replaced, which the caller frees only afterwards).
 * Its numbers then stay as they were for good; the strip no longer
 * shows it (its samples are not there), and the header says what it
 * was.  0 or a new range goes back to the window. */
static void detach_range(struct app *a)
{
	struct model *own = xmalloc(sizeof(*own));
	const char *why_not = NULL;
	struct model *view = a->range.cut;
	if (!model_cut_range(view, (struct sample_range){ 0, view->nsamples }, true,
			     own, &why_not)) {
		free(own); /* cannot happen: the view was cut from a timeline */
		a->range.samples = (struct sample_range){ 0, a->loaded->nsamples };
		show_cut(a, NULL, false);
		return;
	}
	char text[sizeof(a->range.gone)];
	double from = view->start_time - a->loaded->start_time; /* the session's */
	snprintf(text, sizeof(text), "range %.2fs-%.2fs (kept: its samples have "
		 "left the strip)", from / 1e6, (from + view->duration) / 1e6);
	a->range.samples = (struct sample_range){ 0, 0 };
	show_cut(a, own, false);
	memcpy(a->range.gone, text, sizeof(text));
}

void app_replace_model(struct app *a, struct model *next)
{
	app_range_free(a); /* made from the model going away */
	a->loaded = next;
	filters_finish(a);
	if (a->range.gone[0])
		return; /* a model of its own: nothing of `next` changes it */
	bool pinned = a->range.cut != NULL;
	if (pinned && next->live.samples_before >= a->range.base) {
		/* The same session: its window slid by `gone` samples. */
		size_t gone = next->live.samples_before - a->range.base;
		if (gone > a->range.samples.first) {
			detach_range(a);
			return;
		}
		a->range.samples.first -= gone;
		a->range.samples.end -= gone;
	}
	pinned = pinned && a->range.samples.end <= next->nsamples;
	const char *why_not;
	struct model *cut = pinned ? make_cut(a, next, a->range.samples, &why_not) : NULL;
	if (!cut)
		a->range.samples = (struct sample_range){ 0, next->nsamples };
	show_cut(a, cut, cut && owns_samples(a));
}

/* A range end on the strip: the bin a start falls in, or the first bin
 * boundary at or after an end. */
static size_t end_cell(const struct timeline *t, size_t end)
{
	size_t bin = timeline_bin_of(t, end);
	return bin < t->nbins && t->first_sample[bin] < end ? bin + 1 : bin;
}

static size_t clamp_cell(long cell, const struct timeline *t)
{
	return cell < 0 ? 0 : (size_t)cell > t->nbins ? t->nbins : (size_t)cell;
}

/* The sample at the cell boundary `cells` steps from `cell`, going on
 * over empty cells so that a step always moves the range's end. */
static size_t step_boundary(const struct timeline *t, size_t cell, long cells,
			    size_t from)
{
	long c = (long)cell + cells, dir = cells < 0 ? -1 : 1;
	size_t sample = t->first_sample[clamp_cell(c, t)];
	while (sample == from && c > 0 && c < (long)t->nbins)
		sample = t->first_sample[clamp_cell(c += dir, t)];
	return sample;
}

void app_range_move_start(struct app *a, long cells)
{
	if (!app_has_timeline(a)) {
		app_set_range(a, 0, 0); /* says why not */
		return;
	}
	const struct timeline *t = app_timeline(a, a->strip.cells);
	size_t first = step_boundary(t, timeline_bin_of(t, a->range.samples.first), cells,
				     a->range.samples.first);
	if (first >= a->range.samples.end) {
		app_message(a, "the range's start cannot pass its end ([ and ] "
			    "narrow it, 0 shows the whole profile)");
		return;
	}
	app_set_range(a, first, a->range.samples.end);
}

void app_range_move_end(struct app *a, long cells)
{
	if (!app_has_timeline(a)) {
		app_set_range(a, 0, 0);
		return;
	}
	const struct timeline *t = app_timeline(a, a->strip.cells);
	size_t end = step_boundary(t, end_cell(t, a->range.samples.end), cells,
				   a->range.samples.end);
	if (end <= a->range.samples.first) {
		app_message(a, "the range's end cannot pass its start ([ and ] "
			    "narrow it, 0 shows the whole profile)");
		return;
	}
	app_set_range(a, a->range.samples.first, end);
}

/* Not app_set_range(0, nsamples): that is all of a live window, which
 * is less than the whole once samples have left it. */
void app_range_whole(struct app *a)
{
	if (!app_has_timeline(a)) {
		app_set_range(a, 0, 0); /* says why not */
		return;
	}
	if (a->range.cut) {
		filters_finish(a);
		a->range.samples = (struct sample_range){ 0, a->loaded->nsamples };
		show_cut(a, NULL, false);
	}
	say_range(a);
}

void app_toggle_timeline(struct app *a)
{
	if (!app_has_timeline(a)) {
		app_message(a, "this profile has no sample times: no timeline");
		return;
	}
	a->strip.hidden = !a->strip.hidden;
}
