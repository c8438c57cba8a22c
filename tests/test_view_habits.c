/* Views users of other profilers reach for, on testdata/sandwich.cpuprofile
 * (numbers worked by hand in testdata/README.md: 1 ms a sample; main calls
 * a, b and leaf; a and b call work; work calls leaf and, under b, itself):
 * the sandwich (views/sandwich.c) and min_share (pprof's -nodefraction). */
#include <math.h>
#include <string.h>

#include "tests/check.h"
#include "loaders/loaders.h"
#include "views/view.h"

#define MS 1000.0

static uint32_t function(const struct model *m, const char *name)
{
	for (uint32_t f = 0; f < m->nframes; f++)
		if (!strcmp(model_str(m, m->frames[f].name), name))
			return f;
	CHECK_MSG(0, "no function %s", name);
	return NO_ID;
}

/* The first row of `name` at `depth` with `flag`, from row `from` on. */
static const struct row *find(const struct view *v, size_t from, uint32_t flag,
			      const char *name, uint32_t depth)
{
	const struct model *m = v->ctx->model;
	for (size_t i = from; i < v->nrows; i++) {
		const struct row *r = &v->rows[i];
		if ((r->flags & flag) && r->depth == depth &&
		    !strcmp(model_str(m, m->frames[r->frame].name), name))
			return r;
	}
	CHECK_MSG(0, "no row %s at depth %u", name, depth);
	return NULL;
}

static void check_row(const struct row *r, double self, double total, const char *what)
{
	if (!r)
		return;
	CHECK_CLOSE(r->self, self, what);
	CHECK_CLOSE(r->total, total, what);
}

static void check_sandwich(struct model *m)
{
	struct rules rules;
	rules_init(&rules, m);
	struct view_context ctx = { .model = m, .rules = &rules, .rule = RULE_EXACT,
				    .sort = SORT_TOTAL, .focus_frame = function(m, "work") };
	struct view v;
	view_open(&v, VIEW_SANDWICH, &ctx);
	/* Callers first, rooted at work: 5 ms self, 10 ms in all, 5 ms of it
	 * under a and 5 under b (b's inner call counted in its outer one). */
	CHECK(v.nrows > 0 && (v.rows[0].flags & ROW_PRIMARY) && (v.rows[0].flags & ROW_CALLER));
	check_row(find(&v, 0, ROW_CALLER, "work", 0), 5 * MS, 10 * MS, "callers' root");
	check_row(find(&v, 0, ROW_CALLER, "a", 1), 2 * MS, 5 * MS, "a");
	check_row(find(&v, 0, ROW_CALLER, "b", 1), 1 * MS, 5 * MS, "b");
	/* Callees below, merged over the outer calls under a and b: 2 + 1 ms
	 * of their own, leaf 3 + 1, work's call to itself 2 + 1 (leaf). */
	const struct row *root = find(&v, 0, ROW_CALLEE, "work", 0);
	CHECK(root && (root->flags & ROW_PRIMARY));
	check_row(root, 3 * MS, 10 * MS, "callees' root");
	check_row(find(&v, 0, ROW_CALLEE, "leaf", 1), 4 * MS, 4 * MS, "leaf");
	const struct row *inner = find(&v, 0, ROW_CALLEE, "work", 1);
	check_row(inner, 2 * MS, 3 * MS, "work in work");
	CHECK(inner && (inner->flags & ROW_EXPANDABLE));
	size_t at = inner ? (size_t)(inner - v.rows) : 0;
	size_t before = v.nrows;
	CHECK(view_expand(&v, at));
	CHECK(v.nrows == before + 1);
	check_row(find(&v, at, ROW_CALLEE, "leaf", 2), 1 * MS, 1 * MS, "leaf in work in work");
	/* Sorting keeps the callers above the callees. */
	ctx.sort = SORT_NAME;
	view_sort(&v);
	CHECK(v.nrows && (v.rows[0].flags & ROW_CALLER));
	CHECK((v.rows[v.nrows - 1].flags & ROW_CALLEE));
	view_close(&v);
	rules_free(&rules);
}

static bool shows(const struct view *v, const char *name, uint32_t depth)
{
	const struct model *m = v->ctx->model;
	for (size_t i = 0; i < v->nrows; i++)
		if (v->rows[i].depth == depth &&
		    !strcmp(model_str(m, m->frames[v->rows[i].frame].name), name))
			return true;
	return false;
}

/* min_share: totals main 16, work 10, leaf 9, b 6, a 5 ms; under main
 * a 5, b 6, leaf 4 ms. */
static void check_min_share(struct model *m)
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
	/* The sandwich of a (31.25 %) keeps its two roots; the rest, 5 ms or
	 * less, goes. */
	ctx.focus_frame = function(m, "a");
	view_open(&v, VIEW_SANDWICH, &ctx);
	CHECK(v.nrows == 2 && shows(&v, "a", 0));
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
		check_sandwich(&m);
		check_min_share(&m);
		model_free(&m);
	}
	return check_done();
}
