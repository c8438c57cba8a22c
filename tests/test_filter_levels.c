/* Filter views freed in every order (issue 29): a view frees only what it
 * recorded as its own when it was made (model.h, enum view_owns), so no
 * order of dropping levels, not even the model below going first or
 * growing a sample type under its views, frees anything twice or leaks
 * (the suite runs under AddressSanitizer).
 *
 * filter-levels.cpuprofile, by hand: main (app.js) calls a (lib.js) and
 * b (app.js), each calls leaf (lib.js); samples leaf@a 3 ms, leaf@b 1 ms,
 * a 2 ms (each lasts until the next, the last until endTime 6000 us).
 *   focus ^leaf$          main 4 ms, a 3, b 1, leaf 4 (self)
 *   collapse lib\.js      a > leaf and leaf become one frame "lib.js":
 *                         main > lib.js 3 ms, main > b > lib.js 1 ms
 *   merge ^b$             main > lib.js 4 ms
 *   hide ^main$           lib.js 4 ms at the root */
#include <stdio.h>
#include <string.h>

#include "tests/check.h"
#include "base/util.h"
#include "explorer/app.h"
#include "explorer/granularity_cache.h"
#include "loaders/loaders.h"
#include "model/sample_counts.h"
#include "rules/rules.h"
#include "transform/filter_view.h"
#include "transform/range.h"

#define NLEVELS 4

static const char *const level_filters[NLEVELS] = {
	"focus ^leaf$", "collapse lib\\.js", "merge ^b$", "hide ^main$",
};
static const enum transform_kind level_kinds[NLEVELS] = {
	TF_FOCUS, TF_COLLAPSE_FILE, TF_MERGE, TF_HIDE,
};

static const char *testdata;

static bool load(struct model *m)
{
	char path[4096];
	struct load_error err;
	struct load_options opt = { .session = -1 };
	snprintf(path, sizeof(path), "%s/filter-levels.cpuprofile", testdata);
	if (load_file(path, &opt, m, &err, NULL))
		return true;
	fprintf(stderr, "%s: %s\n", path, err.message);
	return false;
}

/* Self and exact total of the function named `name` (NAN when none). */
static void numbers(const struct model *m, const char *name, double *self, double *total)
{
	struct rules r;
	rules_init(&r, m);
	const struct totals *t = rules_totals(&r, RULE_EXACT, 0);
	*self = *total = NAN;
	for (uint32_t f = 0; f < m->nframes; f++)
		if (!strcmp(model_str(m, m->frames[f].name), name) &&
		    (t->self[f] != 0 || t->total[f] != 0)) {
			*self = t->self[f];
			*total = t->total[f];
		}
	rules_free(&r);
}

static void check_numbers(const struct model *m, const char *name, double self, double total,
			  const char *where)
{
	double got_self, got_total;
	numbers(m, name, &got_self, &got_total);
	CHECK_CLOSE(got_self, self, where);
	CHECK_CLOSE(got_total, total, where);
}

/* Each level by hand, as the top of the views made so far. */
static void check_level(const struct model *m, int level)
{
	static const char *const where[NLEVELS] = { "focus", "collapse", "merge", "hide" };
	switch (level) {
	case 0:
		check_numbers(m, "main", 0, 4000, where[level]);
		check_numbers(m, "a", 0, 3000, where[level]);
		check_numbers(m, "leaf", 4000, 4000, where[level]);
		break;
	case 1:
		check_numbers(m, "lib.js", 4000, 4000, where[level]);
		check_numbers(m, "b", 0, 1000, where[level]);
		break;
	case 2:
		check_numbers(m, "main", 0, 4000, where[level]);
		check_numbers(m, "b", NAN, NAN, where[level]);
		break;
	default:
		check_numbers(m, "main", NAN, NAN, where[level]);
		check_numbers(m, "lib.js", 4000, 4000, where[level]);
		break;
	}
}

/* Frees the loaded model (item 0) and each level (1..NLEVELS) in the
 * order of permutation number `perm` of NLEVELS + 1 items. */
static void free_in_order(struct model *base, struct model *levels, unsigned perm)
{
	int items[NLEVELS + 1];
	for (int i = 0; i <= NLEVELS; i++)
		items[i] = i;
	for (int i = 0; i <= NLEVELS; i++) { /* the factorial number system */
		int left = NLEVELS + 1 - i;
		int pick = i + (int)(perm % (unsigned)left);
		perm /= (unsigned)left;
		int chosen = items[pick];
		memmove(items + i + 1, items + i, (size_t)(pick - i) * sizeof(int));
		items[i] = chosen;
	}
	for (int i = 0; i <= NLEVELS; i++)
		model_free(items[i] ? &levels[items[i] - 1] : base);
}

/* A stack of views over `below` (the loaded model or a range's view of
 * it), each level checked by hand; false if one could not be made. */
static bool make_levels(const struct model *below, struct transform_stack *filters,
			struct model *levels)
{
	for (int k = 0; k < NLEVELS; k++) {
		const char *why = NULL;
		const char *text = strchr(level_filters[k], ' ') + 1;
		char err[256];
		if (!transform_push(filters, level_kinds[k], NO_ID, text, err, sizeof(err)) ||
		    !filter_view_make(k ? &levels[k - 1] : below, &filters->items[k], &levels[k],
				      &why)) {
			CHECK_MSG(false, "level %d: %s", k, why ? why : err);
			for (int i = k; i-- > 0;)
				model_free(&levels[i]);
			return false;
		}
		check_level(&levels[k], k);
	}
	return true;
}

enum grown { AS_LOADED, COUNTED_AFTER, OVER_A_RANGE };

/* Every order of freeing the five models, the loaded one included, with
 * the loaded one as it was, given its sample counts after the views were
 * made (its values and strings move, as the explorer's `u` does to the
 * original), or viewed through a range's view (a view of a view). */
static void every_order(enum grown how)
{
	unsigned orders = 1;
	for (unsigned i = 2; i <= NLEVELS + 1; i++)
		orders *= i;
	for (unsigned perm = 0; perm < orders; perm++) {
		struct model base, range, levels[NLEVELS];
		struct transform_stack filters = { 0 };
		if (!load(&base)) {
			CHECK(false);
			return;
		}
		const struct model *below = &base;
		if (how == OVER_A_RANGE) {
			const char *why;
			model_add_sample_counts(&base);
			CHECK(range_view_make(&base, (struct sample_range){ 0, 3 }, NULL, &range,
					      &why));
			below = &range;
		}
		if (!make_levels(below, &filters, levels)) {
			transform_stack_free(&filters);
			if (how == OVER_A_RANGE)
				model_free(&range);
			model_free(&base);
			return;
		}
		if (how == COUNTED_AFTER)
			CHECK(model_add_sample_counts(&base) != NO_ID);
		if (how == OVER_A_RANGE) {
			/* The range goes first or last: a level and the loaded model
			 * in every order around it. */
			if (perm % 2)
				model_free(&range);
			free_in_order(&base, levels, perm);
			if (!(perm % 2))
				model_free(&range);
		} else {
			free_in_order(&base, levels, perm);
		}
		transform_stack_free(&filters);
	}
}

/* ---- the same in the explorer: Backspace, F, u and the granularity key */

static const struct row *row_named(struct app *a, const char *name)
{
	const struct model *m = a->ctx.model;
	const struct view *v = &app_pane(a)->view;
	for (size_t i = 0; i < v->nrows; i++)
		if (!strcmp(model_str(m, m->frames[v->rows[i].frame].name), name))
			return &v->rows[i];
	return NULL;
}

static void push_levels(struct app *a, int n)
{
	for (int k = 0; k < n; k++)
		CHECK(app_command_run(a, level_filters[k]));
	CHECK(a->filters.nlevels == (size_t)n);
}

/* The flat pane's numbers at each level, in the unit shown: time, or
 * samples (leaf@a, leaf@b, a: one each). */
static void check_app_level(struct app *a, int level, bool samples)
{
	const struct row *r;
	switch (level) {
	case 0:
		r = row_named(a, "main");
		CHECK(r && close_enough(r->total, samples ? 3 : 6000));
		break;
	case 1:
		r = row_named(a, "leaf");
		CHECK(r && close_enough(r->self, samples ? 2 : 4000));
		break;
	case 2:
	case 3:
		r = row_named(a, "lib.js");
		CHECK(r && close_enough(r->self, samples ? 2 : 4000));
		CHECK(!row_named(a, "leaf"));
		break;
	default:
		CHECK(!row_named(a, "main") && !row_named(a, "b"));
		r = row_named(a, "lib.js");
		CHECK(r && close_enough(r->total, samples ? 2 : 4000));
		break;
	}
}

static void undo_all(struct app *a, bool samples)
{
	for (int k = (int)a->filters.nlevels; k > 0; k--) {
		app_undo_filter(a);
		check_app_level(a, k - 1, samples);
	}
}

static void in_the_explorer(void)
{
	struct model m;
	if (!load(&m)) {
		CHECK(false);
		return;
	}
	struct granularity_cache models;
	granularity_cache_init(&models, &m);
	struct app a;
	app_init(&a, "filter-levels", &m, VIEW_FLAT);
	check_app_level(&a, 0, false);
	push_levels(&a, NLEVELS);
	check_app_level(&a, NLEVELS, false);
	undo_all(&a, false);
	/* u to samples: the levels are dropped, the original counted, the
	 * levels made again; then undone, and cleared from the middle. */
	push_levels(&a, NLEVELS);
	while (a.units != UNITS_SAMPLES)
		app_cycle_units(&a);
	check_app_level(&a, NLEVELS, true);
	app_undo_filter(&a);
	check_app_level(&a, NLEVELS - 1, true);
	app_clear_filters(&a);
	check_app_level(&a, 0, true);
	push_levels(&a, 2);
	undo_all(&a, true);
	/* The granularity key with levels in force, by files and back: the
	 * levels go with the model below them (by files, focus ^leaf$
	 * leaves nothing to filter further: the stack is emptied). */
	push_levels(&a, NLEVELS);
	app_switch_granularity(&a, &models, NULL, GRANULARITY_FILES);
	CHECK(a.granularity == GRANULARITY_FILES && a.units == UNITS_SAMPLES);
	app_clear_filters(&a);
	CHECK(app_command_run(&a, "hide ^main$"));
	app_switch_granularity(&a, &models, NULL, GRANULARITY_FUNCTIONS);
	CHECK(a.granularity == GRANULARITY_FUNCTIONS && a.units == UNITS_SAMPLES);
	app_clear_filters(&a);
	push_levels(&a, NLEVELS);
	check_app_level(&a, NLEVELS, true);
	undo_all(&a, true);
	push_levels(&a, 3);
	app_free(&a);
	granularity_cache_free(&models);
	model_free(&m);
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: %s TESTDATA\n", argv[0]);
		return 2;
	}
	testdata = argv[1];
	every_order(AS_LOADED);
	every_order(COUNTED_AFTER);
	every_order(OVER_A_RANGE);
	in_the_explorer();
	return check_done();
}
