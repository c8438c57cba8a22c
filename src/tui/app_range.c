/* The explorer's time range: every pane, rule and comparison reads the
 * loaded profile cut to the samples of the range (range.h), put in
 * place of the original as a live snapshot would be, so that filters,
 * open rows and the selection carry over. */
#include "app.h"

#include <stdlib.h>

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
	if (a->range_cut)
		range_describe(a->loaded, a->range, false, a->message, sizeof(a->message));
	else
		app_message(a, "range: the whole profile");
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
	struct model *cut = NULL;
	const char *why_not = NULL;
	if (first > 0 || end < n) {
		cut = xmalloc(sizeof(*cut));
		if (!model_cut_range(a->loaded, (struct sample_range){ first, end }, cut,
				     &why_not)) {
			free(cut);
			app_message(a, "%s", why_not);
			return;
		}
	}
	struct model *old = a->range_cut;
	a->range = (struct sample_range){ first, end };
	a->range_cut = cut;
	app_replace_model(a, cut ? cut : a->loaded);
	if (old) {
		model_free(old);
		free(old);
	}
	say_range(a);
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

void app_range_move_start(struct app *a, long cells)
{
	if (!app_has_timeline(a)) {
		app_set_range(a, 0, 0); /* says why not */
		return;
	}
	const struct timeline *t = app_timeline(a, a->timeline_cells);
	long cell = (long)timeline_bin_of(t, a->range.first) + cells;
	size_t first = t->first_sample[clamp_cell(cell, t)];
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
	long cell = (long)end_cell(t, a->range.end) + cells;
	size_t end = t->first_sample[clamp_cell(cell, t)];
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
