#include "live_pin.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/background.h"
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
	struct model *run = xmalloc(sizeof(*run));
	const char *why;
	if (!model_cut_range(m, r, false, run, &why)) {
		free(run);
		return false;
	}
	if (!p->n[side])
		p->first_window[side] = k;
	GROW(p->runs[side], p->cap[side], p->n[side] + 1);
	p->runs[side][p->n[side]++] = run;
	return true;
}

/* ---- the comparison, built on a thread ----------------------------------- */

struct live_pin_build {
	struct background work;
	/* Copies of the runs' model structs, side by side as compare_init
	 * wants them; their data is the runs', which only ever get read. */
	struct model *models[DIFF_SIDES];
	size_t n[DIFF_SIDES];
	char labels[DIFF_SIDES][96];
	struct compare_settings settings;
	bool keep_rule; /* false: the rule compare_init chose */
	struct compare compare;
};

static void run_build(void *arg)
{
	struct live_pin_build *b = arg;
	const char *const files[DIFF_SIDES] = { b->labels[DIFF_BASE], b->labels[DIFF_NEW] };
	compare_init(&b->compare, files, b->models, b->n, false);
	if (!b->keep_rule)
		b->settings.rule = b->compare.diff.rule;
	compare_apply_settings(&b->compare, &b->settings);
	compare_paths(&b->compare); /* here rather than when pane 5 shows */
}

static void free_build(struct live_pin_build *b)
{
	if (!b)
		return;
	background_wait(&b->work);
	compare_free(&b->compare);
	for (int s = 0; s < DIFF_SIDES; s++)
		free(b->models[s]);
	free(b);
}

/* "windows 1-5 (5 runs)": the session's windows, counted from 1. */
static void label(const struct live_pin *p, enum diff_side side, char *out, size_t cap)
{
	size_t first = p->first_window[side] + 1, n = p->n[side];
	if (n == 1)
		snprintf(out, cap, "window %zu (1 run)", first);
	else
		snprintf(out, cap, "windows %zu-%zu (%zu runs)", first, first + n - 1, n);
}

/* A build of every run so far, with the settings of the one shown. */
static void start_build(struct live_pin *p)
{
	struct live_pin_build *b = xcalloc(1, sizeof(*b));
	for (int s = 0; s < DIFF_SIDES; s++) {
		b->n[s] = p->n[s];
		b->models[s] = xmalloc(p->n[s] * sizeof(struct model));
		for (size_t i = 0; i < p->n[s]; i++)
			b->models[s][i] = *p->runs[s][i];
		label(p, (enum diff_side)s, b->labels[s], sizeof(b->labels[s]));
	}
	b->settings = (struct compare_settings){ .delta_layout = true,
						 .selected = { NO_ID, NO_ID } };
	b->keep_rule = p->compare != NULL;
	if (p->compare)
		compare_save_settings(p->compare, &b->settings);
	p->building = b;
	background_start(&b->work, run_build, b);
}

static bool runs_not_built(const struct live_pin *p)
{
	const struct live_pin_build *last = p->building ? p->building : p->shown;
	return p->n[DIFF_NEW] && (!last || last->n[DIFF_NEW] != p->n[DIFF_NEW]);
}

bool live_pin_poll(struct live_pin *p, bool wait)
{
	struct live_pin_build *b = p->building;
	bool changed = false;
	if (b && background_over(&b->work, wait)) {
		/* Keys may have changed the one shown while this was built. */
		if (p->compare) {
			struct compare_settings now;
			compare_save_settings(p->compare, &now);
			compare_apply_settings(&b->compare, &now);
		}
		free_build(p->shown);
		p->shown = b;
		p->compare = &b->compare;
		p->building = NULL;
		changed = true;
	}
	if (!p->building && runs_not_built(p))
		start_build(p);
	return changed;
}

void live_pin_free(struct live_pin *p)
{
	free_build(p->building);
	free_build(p->shown);
	for (int s = 0; s < DIFF_SIDES; s++) {
		for (size_t i = 0; i < p->n[s]; i++) {
			model_free(p->runs[s][i]);
			free(p->runs[s][i]);
		}
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

bool live_pin_update(struct live_pin *p, const struct model *session)
{
	if (!p->pinned)
		return false;
	size_t done = complete_windows(session), added = 0;
	for (; p->next_window < done; p->next_window++)
		added += add_run(p, DIFF_NEW, session, p->next_window);
	if (added)
		live_pin_poll(p, false);
	return added > 0;
}
