/* The explorer's filters as views (transform/filter_view.h) against the
 * copies they replace (model_transform, which --report and --export
 * still use): on random profiles (seeded, names repeated, recursion,
 * files, labels, line ticks), for every kind of filter and stacks of
 * them, every pane but the flame graph shows the same rows with the same
 * self and total to 1e-9 relative under every rule, and every function
 * has the same totals. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tests/check.h"
#include "tests/random_model.h"
#include "base/util.h"
#include "rules/rules.h"
#include "transform/filter_view.h"
#include "transform/transform.h"
#include "views/view.h"

#define MAX_DEPTH 8

static const char *const files[] = { "/app/main.js", "/app/util.js",
				      "node_modules/pkg/a.js", "node_modules/pkg/b.js", "" };
static const char *const workers[] = { "alpha", "beta", "gamma" };

static void random_frames(struct model *m, uint32_t nf)
{
	for (uint32_t f = 0; f < nf; f++) {
		char name[16];
		snprintf(name, sizeof(name), "f%u", f);
		const char *file = files[next_random(ARRAY_LEN(files))];
		struct frame fr = { .name = model_string(m, name, strlen(name)),
				    .url = model_string(m, file, strlen(file)),
				    .extra = STR_NONE, .line = (int32_t)next_random(50),
				    .column = -1, .kind = KIND_JS };
		model_intern_frame(m, &fr);
	}
}

static void add_sample_labels(struct model *m, uint32_t sample, uint32_t leaf,
			      const double *values)
{
	uint32_t row = model_add_label_row(m, values);
	const char *w = workers[next_random(ARRAY_LEN(workers))];
	struct sample_label l = { .sample = sample, .node = leaf,
				  .key = model_string(m, "worker", 6),
				  .str = model_string(m, w, strlen(w)),
				  .num_unit = STR_NONE, .row = row };
	model_add_label(m, &l);
	if (next_random(2)) {
		l.key = model_string(m, "bytes", 5);
		l.str = STR_NONE;
		l.num = 1 << next_random(12);
		l.num_unit = model_string(m, "bytes", 5);
		model_add_label(m, &l);
	}
}

/* Stacks of a few frames, often repeated (recursion, direct and not),
 * whole values so that any order of adding gives the same sums. */
static void random_model(struct model *m)
{
	model_init(m, "pprof");
	model_add_sample_type(m, "cpu", "us");
	model_add_sample_type(m, "samples", "count");
	uint32_t nf = 3 + next_random(10);
	random_frames(m, nf);
	uint32_t nsamples = 1 + next_random(60);
	for (uint32_t s = 0; s < nsamples; s++) {
		uint32_t stack[MAX_DEPTH], depth = 1 + next_random(MAX_DEPTH);
		for (uint32_t i = 0; i < depth; i++)
			stack[i] = next_random(3) ? next_random(nf) : next_random(3);
		stack[depth - 1] = 0; /* mostly one root */
		if (!next_random(5))
			stack[depth - 1] = 1 + next_random(nf - 1);
		uint32_t leaf = model_add_stack(m, stack, depth);
		double values[2] = { 1 + next_random(99), 1 };
		model_add_node_value(m, leaf, 0, values[0]);
		model_add_node_value(m, leaf, 1, values[1]);
		if (next_random(3))
			add_sample_labels(m, s, leaf, values);
		if (!next_random(4))
			model_add_line_ticks(m, leaf, 1 + (int32_t)next_random(5), 1 + next_random(3));
	}
	uint32_t cycle;
	model_finish(m, &cycle);
}

/* ---- rows -------------------------------------------------------------------- */

struct shown_row {
	unsigned depth, flags;
	char name[40];
	double self, total;
};

/* Every row of a pane with every row opened. */
static struct shown_row *pane_rows(const struct model *m, enum view_kind kind,
				   enum rule rule, unsigned type, size_t *n)
{
	struct rules rules;
	rules_init(&rules, m);
	struct view_context ctx = { .model = m, .rules = &rules, .rule = rule, .type = type,
				    .focus_frame = NO_ID };
	struct view v;
	view_open(&v, kind, &ctx);
	view_expand_all(&v, SIZE_MAX, 16, 20000);
	struct shown_row *rows = xcalloc(v.nrows + 1, sizeof(*rows));
	for (size_t i = 0; i < v.nrows; i++) {
		const struct row *r = &v.rows[i];
		rows[i] = (struct shown_row){ r->depth, r->flags & ~(unsigned)ROW_EXPANDED, "",
					      r->self, r->total };
		snprintf(rows[i].name, sizeof(rows[i].name), "%s",
			 model_str(m, m->frames[r->frame].name));
	}
	*n = v.nrows;
	view_close(&v);
	rules_free(&rules);
	return rows;
}

static bool near(double a, double b)
{
	if (isnan(a) || isnan(b))
		return isnan(a) && isnan(b);
	double scale = fmax(fabs(a), fabs(b));
	return fabs(a - b) <= 1e-9 * (scale > 1 ? scale : 1);
}

static void compare_pane(const struct model *view, const struct model *copy,
			 enum view_kind kind, enum rule rule, unsigned type, const char *what)
{
	size_t nv, nc;
	struct shown_row *rv = pane_rows(view, kind, rule, type, &nv);
	struct shown_row *rc = pane_rows(copy, kind, rule, type, &nc);
	CHECK_MSG(nv == nc, "%s %s %s: %zu rows in the view, %zu in the copy", what,
		  view_kind_name(kind), rule_name(rule), nv, nc);
	for (size_t i = 0; i < nv && i < nc; i++) {
		bool same = rv[i].depth == rc[i].depth && rv[i].flags == rc[i].flags &&
			    !strcmp(rv[i].name, rc[i].name) && near(rv[i].self, rc[i].self) &&
			    near(rv[i].total, rc[i].total);
		CHECK_MSG(same, "%s %s %s type %u row %zu: view %u %x %s %.17g %.17g, "
			  "copy %u %x %s %.17g %.17g", what, view_kind_name(kind),
			  rule_name(rule), type, i, rv[i].depth, rv[i].flags, rv[i].name,
			  rv[i].self, rv[i].total, rc[i].depth, rc[i].flags, rc[i].name,
			  rc[i].self, rc[i].total);
		if (!same)
			break;
	}
	free(rv);
	free(rc);
}

/* Frames are the same ids in both, but for those a filter adds. */
static uint32_t same_frame(const struct model *from, uint32_t f, const struct model *in)
{
	const char *name = model_str(from, from->frames[f].name);
	for (uint32_t g = 0; g < in->nframes; g++)
		if (!strcmp(model_str(in, in->frames[g].name), name) &&
		    in->frames[g].line == from->frames[f].line)
			return g;
	return NO_ID;
}

static void compare_totals(const struct model *view, const struct model *copy,
			   enum rule rule, unsigned type, const char *what)
{
	struct rules rv, rc;
	rules_init(&rv, view);
	rules_init(&rc, copy);
	const struct totals *tv = rules_totals(&rv, rule, type);
	const struct totals *tc = rules_totals(&rc, rule, type);
	CHECK_MSG(!tv->total == !tc->total, "%s %s: a rule for one only", what, rule_name(rule));
	CHECK_MSG(near(tv->profile_total, tc->profile_total), "%s %s: profile %g, copy %g", what,
		  rule_name(rule), tv->profile_total, tc->profile_total);
	for (uint32_t f = 0; f < copy->nframes; f++) {
		uint32_t g = same_frame(copy, f, view);
		double self = g == NO_ID ? 0 : tv->self[g];
		CHECK_MSG(near(self, tc->self[f]), "%s %s: self of %s %g, copy %g", what,
			  rule_name(rule), model_str(copy, copy->frames[f].name), self, tc->self[f]);
		if (tc->total && tv->total)
			CHECK_MSG(near(g == NO_ID ? 0 : tv->total[g], tc->total[f]),
				  "%s %s: total of %s %g, copy %g", what, rule_name(rule),
				  model_str(copy, copy->frames[f].name),
				  g == NO_ID ? 0 : tv->total[g], tc->total[f]);
	}
	rules_free(&rv);
	rules_free(&rc);
}

static void compare(const struct model *view, const struct model *copy, const char *what)
{
	static const enum rule rules[] = { RULE_EXACT, RULE_ADDITIVE, RULE_DIVIDED, RULE_GPROF };
	static const enum view_kind panes[] = { VIEW_TOPDOWN, VIEW_BOTTOMUP, VIEW_FLAT,
						VIEW_CALLGRAPH };
	CHECK_MSG(view->nlabels == copy->nlabels && view->nline_ticks == copy->nline_ticks,
		  "%s: %zu labels, %zu line ticks; copy %zu, %zu", what, view->nlabels,
		  view->nline_ticks, copy->nlabels, copy->nline_ticks);
	for (size_t r = 0; r < ARRAY_LEN(rules); r++)
		for (unsigned type = 0; type < copy->ntypes; type++) {
			compare_totals(view, copy, rules[r], type, what);
			for (size_t p = 0; p < ARRAY_LEN(panes); p++)
				compare_pane(view, copy, panes[p], rules[r], type, what);
		}
}

/* ---- filters ------------------------------------------------------------------ */

/* A random filter: on one function, or by a pattern. */
static void push_random(struct transform_stack *s, uint32_t nframes)
{
	static const char *const tags[] = { "worker=alpha", "worker=beta,gamma", "bytes=64:1kb",
					    "alpha" };
	static const char *const patterns[] = { "^f1$", "f[23]", "util", "node_modules/pkg" };
	char err[256];
	enum transform_kind kind = (enum transform_kind)next_random(TF_COUNT);
	uint32_t frame = next_random(nframes);
	const char *text = NULL;
	if (kind == TF_TAGFOCUS || kind == TF_TAGIGNORE)
		text = tags[next_random(ARRAY_LEN(tags))];
	else if (kind == TF_TAGROOT)
		text = "worker";
	else if (kind == TF_MINE)
		text = "/app";
	else if (kind == TF_COLLAPSE_FILE)
		text = next_random(2) ? "node_modules/[a-z]+" : NULL;
	else if (kind != TF_COLLAPSE_RECURSION && next_random(2))
		text = patterns[next_random(ARRAY_LEN(patterns))];
	if (text || kind == TF_COLLAPSE_RECURSION)
		frame = NO_ID;
	CHECK(transform_push(s, kind, frame, text, err, sizeof(err)));
}

/* Each level a view of the one below, as the explorer stacks them
 * (tagroot copied); the number of levels made: a level left without
 * nodes has no stacks to filter, as the explorer says. */
static size_t view_levels(const struct model *m, const struct transform_stack *s,
			  struct model *levels)
{
	const struct model *below = m;
	for (size_t i = 0; i < s->n; i++) {
		const char *why;
		bool ok = filter_view_applies(s->items[i].kind)
			? filter_view_make(below, &s->items[i], &levels[i], &why)
			: model_transform(below, &s->items[i], 1, &levels[i], &why);
		if (!ok) {
			CHECK_MSG(i > 0 && !(below->caps & HAS_STACKS), "level %zu: %s", i, why);
			return i;
		}
		below = &levels[i];
	}
	return s->n;
}

static void test_random_stacks(unsigned rounds, unsigned depth)
{
	for (unsigned round = 0; round < rounds; round++) {
		struct model m;
		random_model(&m);
		struct transform_stack s = { 0 };
		unsigned n = 1 + next_random(depth);
		for (unsigned i = 0; i < n; i++)
			push_random(&s, (uint32_t)m.nframes);
		struct model levels[8], copy;
		const char *why;
		size_t made = view_levels(&m, &s, levels);
		CHECK(model_transform(&m, s.items, made, &copy, &why) || !made);
		char what[512] = "";
		size_t len = (size_t)snprintf(what, sizeof(what), "round %u:", round);
		for (size_t i = 0; i < made && len < sizeof(what); i++) {
			char one[128];
			transform_describe(&m, &s.items[i], one, sizeof(one));
			len += (size_t)snprintf(what + len, sizeof(what) - len, " %s", one);
		}
		if (made)
			compare(&levels[made - 1], &copy, what);
		for (size_t i = made; i-- > 0;)
			model_free(&levels[i]);
		if (made)
			model_free(&copy);
		transform_stack_free(&s);
		model_free(&m);
	}
}

/* Every kind alone, on one function and by a pattern. */
static void test_each_kind(void)
{
	for (int kind = 0; kind < TF_COUNT; kind++)
		for (unsigned round = 0; round < 8; round++) {
			struct model m;
			random_model(&m);
			struct transform_stack s = { 0 };
			char err[256];
			const char *text = kind == TF_TAGFOCUS || kind == TF_TAGIGNORE ? "worker=beta"
					 : kind == TF_TAGROOT ? "worker" : kind == TF_MINE ? "/app"
					 : kind == TF_COLLAPSE_FILE && round % 2 ? "pkg/[ab]"
					 : round % 2 ? "f[12]$" : NULL;
			uint32_t frame = text || kind == TF_COLLAPSE_RECURSION ? NO_ID
				       : next_random((uint32_t)m.nframes);
			CHECK(transform_push(&s, (enum transform_kind)kind, frame, text, err,
					     sizeof(err)));
			struct model view, copy;
			const char *why;
			CHECK(model_transform(&m, s.items, 1, &copy, &why));
			CHECK(view_levels(&m, &s, &view) == 1);
			char what[128];
			snprintf(what, sizeof(what), "%s round %u", transform_name((enum transform_kind)kind),
				 round);
			compare(&view, &copy, what);
			model_free(&view);
			model_free(&copy);
			transform_stack_free(&s);
			model_free(&m);
		}
}

int main(void)
{
	test_each_kind();
	test_random_stacks(60, 4);
	return check_done();
}
