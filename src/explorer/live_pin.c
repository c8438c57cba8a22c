#include "live_pin.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "transform/range.h"

/* Go's windows, as the session marks them. */
static bool has_own_windows(const struct model *m)
{
	return m->live.nwindows > 0;
}

/* The session's complete windows.  A timed one's last span is still
 * filling: it counts once the samples pass its end. */
static size_t complete_windows(const struct model *m)
{
	if (has_own_windows(m))
		return m->live.nwindows;
	if (!(m->caps & HAS_TIMELINE) || !m->nsamples)
		return 0;
	double end = m->live.time_before + range_timeline_span(m);
	return (size_t)floor(end / LIVE_PIN_WINDOW_US);
}

/* The first sample that starts at or after `offset` (µs after the first
 * sample held). */
static size_t sample_at(const struct model *m, double offset)
{
	size_t low = 0, high = m->nsamples;
	while (low < high) {
		size_t mid = low + (high - low) / 2;
		if (range_sample_offset(m, mid) < offset)
			low = mid + 1;
		else
			high = mid;
	}
	return low;
}

/* The samples of window k; false when the live timeline no longer holds
 * all of it. */
static bool window_samples(const struct model *m, size_t k, struct sample_range *r)
{
	if (has_own_windows(m)) {
		const size_t *first = m->live.window_first;
		r->first = first[k];
		r->end = k + 1 < m->live.nwindows ? first[k + 1] : m->nsamples;
		return true;
	}
	double start = (double)k * LIVE_PIN_WINDOW_US - m->live.time_before;
	if (start < 0)
		return false;
	r->first = sample_at(m, start);
	r->end = sample_at(m, start + LIVE_PIN_WINDOW_US);
	return true;
}

/* Window k of the session as the next run of `side`. */
static bool add_run(struct live_pin *p, enum diff_side side, const struct model *m, size_t k)
{
	struct sample_range r;
	if (!window_samples(m, k, &r))
		return false;
	struct model run;
	const char *why;
	if (!model_cut_range(m, r, false, &run, &why))
		return false;
	if (!p->n[side])
		p->first_window[side] = k;
	GROW(p->runs[side], p->cap[side], p->n[side] + 1);
	p->runs[side][p->n[side]++] = run;
	return true;
}

static void free_compare(struct live_pin *p)
{
	if (!p->compare)
		return;
	compare_free(p->compare);
	free(p->compare);
	p->compare = NULL;
}

void live_pin_free(struct live_pin *p)
{
	free_compare(p);
	for (int s = 0; s < DIFF_SIDES; s++) {
		for (size_t i = 0; i < p->n[s]; i++)
			model_free(&p->runs[s][i]);
		free(p->runs[s]);
	}
	*p = (struct live_pin){ 0 };
}

bool live_pin_start(struct live_pin *p, const struct model *session, char *why,
		    size_t cap)
{
	live_pin_free(p);
	size_t done = complete_windows(session);
	for (size_t k = 0; k < done; k++)
		add_run(p, DIFF_BASE, session, k); /* those still held */
	if (!p->n[DIFF_BASE]) {
		snprintf(why, cap, "%s", done ? "nothing to pin: the session no longer holds its windows"
					      : LIVE_PIN_TOO_EARLY);
		live_pin_free(p);
		return false;
	}
	p->pinned = true;
	p->next_window = done;
	return true;
}

/* "windows 1-5 (5 runs)": the session's windows, counted from 1. */
static void label(struct live_pin *p, enum diff_side side)
{
	size_t first = p->first_window[side] + 1, n = p->n[side];
	if (n == 1)
		snprintf(p->labels[side], sizeof(p->labels[side]), "window %zu (1 run)", first);
	else
		snprintf(p->labels[side], sizeof(p->labels[side]), "windows %zu-%zu (%zu runs)",
			 first, first + n - 1, n);
}

bool live_pin_update(struct live_pin *p, const struct model *session)
{
	if (!p->pinned)
		return false;
	size_t done = complete_windows(session), added = 0;
	for (; p->next_window < done; p->next_window++)
		added += add_run(p, DIFF_NEW, session, p->next_window);
	if (!added)
		return false;
	struct compare_settings settings = { .delta_layout = true,
					     .selected = { NO_ID, NO_ID } };
	bool had = p->compare != NULL;
	if (had)
		compare_save_settings(p->compare, &settings);
	free_compare(p);
	for (int s = 0; s < DIFF_SIDES; s++)
		label(p, (enum diff_side)s);
	const char *const files[DIFF_SIDES] = { p->labels[DIFF_BASE], p->labels[DIFF_NEW] };
	p->compare = xmalloc(sizeof(*p->compare));
	compare_init(p->compare, files, p->runs, p->n, false);
	if (!had)
		settings.rule = p->compare->diff.rule;
	compare_apply_settings(p->compare, &settings);
	return true;
}
