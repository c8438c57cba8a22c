/* The explorer's time range: every pane, rule and comparison reads the
 * loaded profile's view of the samples of the range (range_view_make),
 * put in place of the original as a live snapshot would be, so that
 * filters, open rows and the selection carry over.  A view costs a pass
 * over the range's samples, so a range key is answered at once; only
 * divided, as ever, and pane 5's graph (flame_job.c) are computed on a
 * thread. */
#include "app.h"

#include <stdlib.h>

#include "../background.h"
#include "../filter.h"
#include "filters.h"
#include "../util.h"

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
	return (a->live || a->timeline_scrolls) &&
	       unit_is_time(a->loaded, 0);
}

const struct timeline *app_timeline(struct app *a, size_t cells)
{
	if (!cells)
		cells = 1;
	struct timeline *t = &a->timeline;
	if (a->timeline_model != a->loaded || t->nbins != cells ||
	    t->first_sample[cells] != a->loaded->nsamples) {
		timeline_free(t);
		if (a->loaded->nwindows)
			timeline_build_windows(t, a->loaded, cells);
		else if (app_timeline_scrolls(a))
			timeline_build_window(t, a->loaded, cells, LIVE_COLUMN_US);
		else
			timeline_build(t, a->loaded, cells);
		a->timeline_model = a->loaded;
	}
	return t;
}

static void say_range(struct app *a)
{
	if (a->range_cut)
		range_describe(a->loaded, a->range, false, a->message, sizeof(a->message));
	else
		app_message(a, "range: the whole profile");
}

/* The whole profile as a range's view: its sums made by the same pass as
 * a range's, so that a range key can move them (range_view_make's
 * `near`) rather than sum millions of samples, even the first key or
 * one after `0`.  Made on a thread once the first screen is up. */
struct whole_sums {
	struct background work;
	const struct model *src;
	struct model view;
	bool made;
};

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
	if (a->live || a->whole_sums || !app_has_timeline(a) ||
	    m->integral_samples < m->nsamples || model_count_type(m) == NO_ID)
		return;
	struct whole_sums *w = xcalloc(1, sizeof(*w));
	w->src = m;
	a->whole_sums = w;
	background_start(&w->work, make_whole_sums, w);
}

bool app_range_busy(const struct app *a)
{
	return a->whole_sums && !atomic_load(&a->whole_sums->work.finished);
}

void app_range_free(struct app *a)
{
	struct whole_sums *w = a->whole_sums;
	if (!w)
		return;
	background_wait(&w->work);
	if (w->made)
		model_free(&w->view);
	free(w);
	a->whole_sums = NULL;
}

/* A view of `loaded` whose sums the next range can move: the range shown,
 * or the whole profile's once its thread is done. */
static const struct model *near_view(struct app *a)
{
	if (a->live) /* its model's values change in place */
		return NULL;
	if (a->range_cut)
		return a->range_cut;
	struct whole_sums *w = a->whole_sums;
	if (w && w->src == a->loaded && background_done(&w->work, 0) && w->made)
		return &w->view;
	return NULL;
}

/* The range's view of the loaded profile (range_view_make: no copy, a
 * pass over the range's samples or over those between its ends and
 * near_view's), or NULL for the whole profile or when the profile cannot
 * be cut (*why_not says why). */
static struct model *make_cut(struct app *a, struct model *src, struct sample_range r,
			      const char **why_not)
{
	if (r.first == 0 && r.end == src->nsamples)
		return NULL; /* the whole profile: the loaded model itself */
	model_add_sample_counts(src); /* once: every view counts samples */
	struct model *cut = xmalloc(sizeof(*cut));
	if (range_view_make(src, r, src == a->loaded ? near_view(a) : NULL, cut, why_not))
		return cut;
	free(cut);
	return NULL;
}

static void free_cut(struct model *m)
{
	if (m) {
		model_free(m);
		free(m);
	}
}

/* Puts `cut` (NULL: the whole loaded profile) in front of every pane. */
static void show_cut(struct app *a, struct model *cut)
{
	struct model *old = a->range_cut;
	a->range_cut = cut;
	app_show_model(a, cut ? cut : a->loaded);
	free_cut(old);
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
	if (first == a->range.first && end == a->range.end) {
		say_range(a);
		return;
	}
	struct sample_range before = a->range;
	a->range = (struct sample_range){ first, end };
	/* Counting samples into the loaded model (make_cut) must not race
	 * a filter's thread reading it. */
	filters_finish(a);
	const char *why_not = NULL;
	struct model *cut = make_cut(a, a->loaded, a->range, &why_not);
	if (!cut && why_not) {
		a->range = before;
		app_message(a, "%s", why_not);
		return;
	}
	show_cut(a, cut);
	say_range(a);
}

void app_replace_model(struct app *a, struct model *next)
{
	app_range_free(a); /* made from the model going away */
	a->loaded = next;
	bool pinned = a->range_cut && a->range.end <= next->nsamples;
	const char *why_not;
	filters_finish(a);
	struct model *cut = pinned ? make_cut(a, next, a->range, &why_not) : NULL;
	if (!cut)
		a->range = (struct sample_range){ 0, next->nsamples };
	show_cut(a, cut);
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
	const struct timeline *t = app_timeline(a, a->timeline_cells);
	size_t first = step_boundary(t, timeline_bin_of(t, a->range.first), cells,
				     a->range.first);
	if (first >= a->range.end) {
		app_message(a, "the range's start cannot pass its end ([ and ] "
			    "narrow it, 0 shows the whole profile)");
		return;
	}
	app_set_range(a, first, a->range.end);
}

void app_range_move_end(struct app *a, long cells)
{
	if (!app_has_timeline(a)) {
		app_set_range(a, 0, 0);
		return;
	}
	const struct timeline *t = app_timeline(a, a->timeline_cells);
	size_t end = step_boundary(t, end_cell(t, a->range.end), cells, a->range.end);
	if (end <= a->range.first) {
		app_message(a, "the range's end cannot pass its start ([ and ] "
			    "narrow it, 0 shows the whole profile)");
		return;
	}
	app_set_range(a, a->range.first, end);
}

void app_range_whole(struct app *a)
{
	app_set_range(a, 0, a->loaded->nsamples);
}

void app_toggle_timeline(struct app *a)
{
	if (!app_has_timeline(a)) {
		app_message(a, "this profile has no sample times: no timeline");
		return;
	}
	a->hide_timeline = !a->hide_timeline;
}
