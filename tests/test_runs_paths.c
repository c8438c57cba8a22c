/* Pane 5's colours over several runs a side: each call path's own test
 * (src/compare/runs_paths.h), worked out by hand.
 *
 * f is called from a and from b.  Three runs a side (folded samples):
 *   main;a;f  base {10, 12, 14}  new {20, 22, 24}
 *   main;b;f  base {10, 14, 12}  new {13,  9, 14}
 *   main;a    5 in every run
 * The path a;f: means 12 and 22, sample variances 4 and 4, se =
 * sqrt(4/3 + 4/3) = 1.632993, df = (8/3)^2 / (2 (4/3)^2 / 2) = 4, and
 * t_{0.975, 4} = 2.776445 (t table): 10 +- 4.5339 = [5.466, 14.534],
 * significant.  The path b;f: means 12 and 12, delta 0, t = 0: noise,
 * though its first runs went from 10 to 13.  The function f (both
 * paths): base {20, 26, 26}, new {33, 31, 38}: means 24 and 34,
 * variances 12 and 13, se = sqrt(4 + 13/3) = 2.886751, df =
 * (25/3)^2 / (4^2 / 2 + (13/3)^2 / 2) = 3.994, t_{0.975, 3.994} ~ 2.778:
 * 10 +- 8.02, significant; coloured by its function, b;f's +3 would
 * have been red. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "tests/check.h"
#include "loaders/loaders.h"
#include "explorer/compare.h"
#include "base/util.h"

static const int A_BASE[] = { 10, 12, 14 }, A_NEW[] = { 20, 22, 24 };
static const int B_BASE[] = { 10, 14, 12 }, B_NEW[] = { 13, 9, 14 };

static void load_run(int a, int b, struct model *out)
{
	char text[200];
	snprintf(text, sizeof(text), "main;a;f %d\nmain;b;f %d\nmain;a 5\n", a, b);
	struct load_error err;
	struct load_options opt = { .session = -1 };
	if (!load_memory(text, strlen(text), "run.folded", &opt, out, &err)) {
		fprintf(stderr, "run.folded: %s\n", err.message);
		CHECK(false);
	}
}

/* The frame of `now` on the path main;`caller`;f, or NO_ID. */
static uint32_t path_frame(const struct flame *g, const struct model *m, const char *caller)
{
	const char *want[] = { "main", caller, "f" };
	uint32_t at = NO_ID;
	for (size_t i = 0; i < g->nframes; i++) {
		const struct flame_frame *fr = &g->frames[i];
		if (fr->parent != at || fr->depth >= ARRAY_LEN(want) ||
		    strcmp(model_str(m, m->frames[fr->frame].name), want[fr->depth]))
			continue;
		at = (uint32_t)i;
		if (fr->depth == ARRAY_LEN(want) - 1)
			return at;
	}
	return NO_ID;
}

static void check_paths(size_t runs)
{
	struct model base[3], new_runs[3];
	for (size_t i = 0; i < runs; i++) {
		load_run(A_BASE[i], B_BASE[i], &base[i]);
		load_run(A_NEW[i], B_NEW[i], &new_runs[i]);
	}
	struct compare c;
	const char *const files[DIFF_SIDES] = { "base", "new" };
	struct model *models[DIFF_SIDES] = { base, new_runs };
	const size_t nruns[DIFF_SIDES] = { runs, runs };
	compare_init(&c, files, models, nruns, false);

	/* The graph the new side's pane 5 draws, built apart from the tests'. */
	struct app *a = &c.side[DIFF_NEW];
	struct flame now;
	flame_build(&now, &a->ctx, FLAME_LEFT_HEAVY);
	struct path_verdict *v = xmalloc((now.nframes + 1) * sizeof(*v));
	runs_paths_of(compare_paths(&c), &now, v);
	uint32_t af = path_frame(&now, a->ctx.model, "a"), bf = path_frame(&now, a->ctx.model, "b");
	CHECK(af != NO_ID && bf != NO_ID);
	if (af != NO_ID && bf != NO_ID && runs == 3) {
		CHECK_MSG(v[af].significant == 1 && fabs(v[af].delta - 10) < 1e-9,
			  "a;f: %d %g, want significant +10", v[af].significant, v[af].delta);
		CHECK_MSG(v[bf].significant == 0 && fabs(v[bf].delta) < 1e-9,
			  "b;f: %d %g, want noise 0", v[bf].significant, v[bf].delta);
		/* The first runs' changes, as pane 5 draws them: +10 on a;f
		 * coloured, b;f's +3 not (its function f is significant). */
		CHECK(runs_colours_change(v[af].significant, v[af].delta, 10));
		CHECK(!runs_colours_change(v[bf].significant, v[bf].delta, 3));
		bool f_significant = false;
		for (size_t i = 0; i < c.runs.nrows; i++)
			if (!strcmp(runs_row_name(&c.runs, &c.runs.rows[i]), "f"))
				f_significant = c.runs.rows[i].significant == 1;
		CHECK_MSG(f_significant, "%s", "the function f is significant over both paths");
	}
	if (af != NO_ID && bf != NO_ID && runs == 1) {
		/* One run a side: no test; every change coloured, as before. */
		CHECK(v[af].significant == -1 && v[bf].significant == -1);
		CHECK(runs_colours_change(v[bf].significant, v[bf].delta, 3));
	}
	free(v);
	flame_free(&now);
	compare_free(&c);
	for (size_t i = 0; i < runs; i++) {
		model_free(&base[i]);
		model_free(&new_runs[i]);
	}
}

int main(void)
{
	check_paths(3);
	check_paths(1);
	return check_done();
}
