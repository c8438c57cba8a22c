/* The explorer's time range: every pane, rule and comparison reads the
 * loaded profile cut to the samples of the range (range.h), put in
 * place of the original as a live snapshot would be, so that filters,
 * open rows and the selection carry over. */
#include "app.h"

#include <stdlib.h>

#include "../background.h"
#include "../util.h"

bool app_has_timeline(const struct app *a)
{
	return (a->loaded->caps & HAS_TIMELINE) && a->loaded->nsamples;
}

const struct timeline *app_timeline(struct app *a, size_t cells)
{
	if (!cells)
		cells = 1;
	struct timeline *t = &a->timeline;
	if (a->timeline_model != a->loaded || t->nbins != cells ||
	    t->first_sample[cells] != a->loaded->nsamples) {
		timeline_free(t);
		timeline_build(t, a->loaded, cells);
		a->timeline_model = a->loaded;
	}
	return t;
}

static void say_range(struct app *a)
{
	if (a->range_job)
		app_message(a, "range: computing the numbers for it...");
	else if (a->range_cut)
		range_describe(a->loaded, a->range, false, a->message, sizeof(a->message));
	else
		app_message(a, "range: the whole profile");
}

/* The cut of the loaded profile to a range: on a thread for a large
 * profile, as a filtered copy is (struct filter_job in app.c). */
struct range_job {
	struct background work;
	const struct model *src; /* the loaded model: nothing changes it meanwhile */
	struct sample_range range;
	struct model *made;
	const char *why_not;
};

/* Below this many samples a cut takes a few milliseconds: made at once. */
#define RANGE_THREAD_SAMPLES 1000000

static struct model *make_cut(const struct model *src, struct sample_range r,
			      const char **why_not)
{
	if (r.first == 0 && r.end == src->nsamples)
		return NULL; /* the whole profile: the loaded model itself */
	struct model *cut = xmalloc(sizeof(*cut));
	if (model_cut_range(src, r, false, cut, why_not))
		return cut;
	free(cut);
	return NULL;
}

static void run_range_job(void *arg)
{
	struct range_job *j = arg;
	j->made = make_cut(j->src, j->range, &j->why_not);
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

static void start_range_job(struct app *a)
{
	struct range_job *j = xcalloc(1, sizeof(*j));
	j->src = a->loaded;
	j->range = a->range;
	a->range_job = j;
	background_start(&j->work, run_range_job, j);
}

void app_forget_range_job(struct app *a)
{
	if (!a->range_job)
		return;
	background_wait(&a->range_job->work);
	free_cut(a->range_job->made);
	free(a->range_job);
	a->range_job = NULL;
}

bool app_poll_range(struct app *a)
{
	struct range_job *j = a->range_job;
	if (!j || !background_done(&j->work, 0))
		return false;
	a->range_job = NULL;
	bool current = j->range.first == a->range.first && j->range.end == a->range.end;
	if (!current) { /* the range moved on meanwhile: cut again */
		free_cut(j->made);
		start_range_job(a);
	} else if (j->made || !j->why_not) {
		show_cut(a, j->made);
	} else {
		app_message(a, "%s", j->why_not);
	}
	free(j);
	if (!a->range_job)
		say_range(a);
	return current;
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
	a->range = (struct sample_range){ first, end };
	bool whole = first == 0 && end == n;
	if (a->range_job) {
		/* app_poll_range cuts again when this one is done. */
	} else if (a->background && n >= RANGE_THREAD_SAMPLES && !whole) {
		start_range_job(a);
	} else {
		const char *why_not = NULL;
		struct model *cut = make_cut(a->loaded, a->range, &why_not);
		if (!cut && why_not) {
			app_message(a, "%s", why_not);
			return;
		}
		show_cut(a, cut);
	}
	say_range(a);
}

void app_replace_model(struct app *a, struct model *next)
{
	app_forget_range_job(a);
	a->loaded = next;
	bool pinned = a->range_cut && a->range.end <= next->nsamples;
	const char *why_not;
	struct model *cut = pinned ? make_cut(next, a->range, &why_not) : NULL;
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
