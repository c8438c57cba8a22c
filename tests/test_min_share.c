/* view_context.min_share (pprof's -nodefraction) on
 * testdata/sandwich.cpuprofile, worked by hand in testdata/README.md:
 * 16 ms in all; totals main 16, work 10, leaf 9, b 6, a 5 ms; under main
 * a 5, b 6, leaf 4 ms. */
#include <string.h>

#include "tests/check.h"
#include "loaders/loaders.h"
#include "views/view.h"

static bool shows(const struct view *v, const char *name, uint32_t depth)
{
	const struct model *m = v->ctx->model;
	for (size_t i = 0; i < v->nrows; i++)
		if (v->rows[i].depth == depth &&
		    !strcmp(model_str(m, m->frames[v->rows[i].frame].name), name))
			return true;
	return false;
}

static void check_views(struct model *m)
{
	struct rules rules;
	rules_init(&rules, m);
	struct view_context ctx = { .model = m, .rules = &rules, .rule = RULE_EXACT,
				    .sort = SORT_TOTAL, .focus_frame = NO_ID,
				    .min_share = 35 };
	struct view v;
	/* Flat: a is 31.25 %, b 37.5 %. */
	view_open(&v, VIEW_FLAT, &ctx);
	CHECK(v.nrows == 5);
	CHECK(!shows(&v, "a", 0) && shows(&v, "b", 0));
	view_close(&v);
	/* Top-down: under main, a (31.25 %) and leaf (25 %) go with what is
	 * under them; b (37.5 %) stays, its work (5 ms, 31.25 %) goes. */
	view_open(&v, VIEW_TOPDOWN, &ctx);
	view_expand_all(&v, SIZE_MAX, 10, 1000);
	CHECK(shows(&v, "main", 1) && shows(&v, "b", 2));
	CHECK(!shows(&v, "a", 2) && !shows(&v, "leaf", 2) && !shows(&v, "work", 3));
	CHECK(v.nrows == 3); /* (root), main, b */
	view_close(&v);
	/* Every row again at 0. */
	ctx.min_share = 0;
	view_open(&v, VIEW_FLAT, &ctx);
	CHECK(v.nrows == 6);
	view_close(&v);
	rules_free(&rules);
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: %s TESTDATA\n", argv[0]);
		return 2;
	}
	char path[4096];
	snprintf(path, sizeof(path), "%s/sandwich.cpuprofile", argv[1]);
	struct load_options opt = { .session = -1 };
	struct load_error err;
	struct model m;
	bool ok = load_file(path, &opt, &m, &err, NULL);
	CHECK_MSG(ok, "%s: %s", path, err.message);
	if (ok) {
		check_views(&m);
		model_free(&m);
	}
	return check_done();
}
