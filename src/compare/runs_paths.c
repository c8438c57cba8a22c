/* Each call path's test over several runs a side (runs_paths.h). */
#include "runs_paths.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "rules/rules.h"

/* Which frame of run `run` of side `s` each frame of the first new run
 * is: as runs.c finds a function's values. */
static const uint32_t *match_of_run(const struct runs_diff *rd, enum diff_side s, size_t run)
{
	if (!run)
		return rd->first->match[DIFF_NEW]; /* the first base run */
	const struct diff *d = s == DIFF_BASE ? &rd->cross[s][run - 1] : &rd->pairing[s][run - 1];
	return d->match[DIFF_BASE]; /* the first new run is that diff's base */
}

/* Every path's value in one run: the width of the same path in the run's
 * own graph, 0 where it has none. */
static void run_values(const struct runs_paths *p, const struct runs_diff *rd,
		       enum diff_side s, size_t run, double *out)
{
	const struct flame *now = &p->graph;
	struct flame own = { 0 };
	const struct flame *f = now;
	if (s == DIFF_BASE || run) {
		struct rules *rules = !run ? rd->first->rules[s] : rd->pairing[s][run - 1].rules[DIFF_NEW];
		struct view_context ctx = { .model = rules->model, .rules = rules,
					    .rule = rd->first->rule,
					    .type = rules->model->default_type,
					    .focus_frame = NO_ID };
		flame_build(&own, &ctx, FLAME_LEFT_HEAVY);
		f = &own;
		flame_base_widths(now, f, match_of_run(rd, s, run), out);
	} else {
		for (size_t i = 0; i < now->nframes; i++)
			out[i] = now->frames[i].width;
	}
	double scale = !rd->first->normalize ? 1
		     : f->profile_total != 0 ? 100 / f->profile_total : NAN;
	for (size_t i = 0; i < now->nframes; i++)
		out[i] = isnan(out[i]) ? 0 : out[i] * scale;
	flame_free(&own);
}

void runs_paths_build(struct runs_paths *p, const struct runs_diff *rd)
{
	memset(p, 0, sizeof(*p));
	if (!runs_testable(rd))
		return;
	struct rules *rules = rd->first->rules[DIFF_NEW];
	struct view_context ctx = { .model = rules->model, .rules = rules,
				    .rule = rd->first->rule, .type = rules->model->default_type,
				    .focus_frame = NO_ID };
	flame_build(&p->graph, &ctx, FLAME_LEFT_HEAVY);
	size_t n = p->graph.nframes, runs = rd->nruns[DIFF_BASE] + rd->nruns[DIFF_NEW];
	/* values[run][frame], the base runs first */
	double *values = xmalloc((runs * n + 1) * sizeof(double));
	for (int s = 0, k = 0; s < DIFF_SIDES; s++)
		for (size_t i = 0; i < rd->nruns[s]; i++, k++)
			run_values(p, rd, (enum diff_side)s, i, values + (size_t)k * n);
	p->verdicts = xmalloc((n + 1) * sizeof(*p->verdicts));
	double *column = xmalloc((runs + 1) * sizeof(double));
	for (size_t f = 0; f < n; f++) {
		for (size_t k = 0; k < runs; k++)
			column[k] = values[k * n + f];
		size_t nbase = rd->nruns[DIFF_BASE];
		struct welch w = welch_test(summarize(column, nbase),
					    summarize(column + nbase, runs - nbase));
		p->verdicts[f] = (struct path_verdict){ runs_significance(&w), w.delta };
	}
	FREE_ALL(values, column);
}

void runs_paths_free(struct runs_paths *p)
{
	flame_free(&p->graph);
	free(p->verdicts);
	memset(p, 0, sizeof(*p));
}

void runs_paths_of(const struct runs_paths *p, const struct flame *now,
		   struct path_verdict *out)
{
	size_t frames = 0;
	for (size_t i = 0; i < now->nframes; i++)
		frames = now->frames[i].frame >= frames ? now->frames[i].frame + 1 : frames;
	uint32_t *same = xmalloc((frames + 1) * sizeof(uint32_t));
	for (size_t f = 0; f < frames; f++)
		same[f] = (uint32_t)f;
	uint32_t *in_graph = flame_base_counterparts(now, &p->graph, same);
	for (size_t i = 0; i < now->nframes; i++)
		out[i] = in_graph[i] == NO_ID || !p->verdicts
			? (struct path_verdict){ -1, NAN } : p->verdicts[in_graph[i]];
	FREE_ALL(same, in_graph);
}
