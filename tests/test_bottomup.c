/* Bottom-up rows against their definition, on random deep recursive
 * call trees: a row f <- c1 <- ... <- ck sums over the nodes v of f whose
 * ancestors carry c1 ... ck, self(v) always and sub(v) as total (every
 * such v under additive, only those with no ancestor of their own frame
 * under exact).  The rows come from the caller chains sorted only as deep
 * as the rows opened need and shared by both rules (src/caller_chains.h),
 * so the second view reads a sort the first one deepened; a time range
 * hides part of the tree in the last rounds. */
#include <stdlib.h>
#include <string.h>

#include "tests/check.h"
#include "tests/random_model.h"
#include "rules/rules.h"
#include "base/util.h"
#include "views/view.h"

#define MAX_DEPTH 48

/* Stacks of few frames and long repeats, so that chains agree on many
 * places and the sort needs several rounds to tell them apart. */
static void random_model(struct model *m)
{
	model_init(m, "folded");
	model_add_sample_type(m, "samples", "count");
	uint32_t nf = 2 + next_random(3);
	add_frames(m, nf);
	uint32_t nsamples = 1 + next_random(40);
	for (uint32_t s = 0; s < nsamples; s++) {
		uint32_t stack[MAX_DEPTH], depth = 1 + next_random(MAX_DEPTH);
		for (uint32_t i = 0; i < depth; i++)
			stack[i] = next_random(4) ? 0 : next_random(nf);
		uint32_t leaf = model_add_stack(m, stack, depth);
		model_add_node_value(m, leaf, 0, 1 + next_random(9));
	}
	uint32_t cycle_node;
	model_finish(m, &cycle_node);
}

/* sub(v): v's self and its descendants'. */
static double *subtree_sums(const struct model *m)
{
	double *sub = xcalloc(m->nnodes + 1, sizeof(double));
	for (uint32_t v = (uint32_t)m->nnodes; v-- > 0;) /* children after parents */
		sub[v] += node_value(m, v, 0);
	for (uint32_t v = (uint32_t)m->nnodes; v-- > 0;)
		if (m->nodes[v].parent != NO_ID)
			sub[m->nodes[v].parent] += sub[v];
	return sub;
}

static bool has_ancestor_frame(const struct model *m, uint32_t v)
{
	for (uint32_t a = m->nodes[v].parent; a != NO_ID; a = m->nodes[a].parent)
		if (m->nodes[a].frame == m->nodes[v].frame)
			return true;
	return false;
}

/* The node's chain begins with path[0..len). */
static bool chain_begins(const struct model *m, uint32_t v, const uint32_t *path,
			 uint32_t len)
{
	for (uint32_t k = 0; k < len; k++, v = m->nodes[v].parent)
		if (v == NO_ID || m->nodes[v].frame != path[k])
			return false;
	return true;
}

static void check_row(const struct model *m, const double *sub, enum rule rule,
		      const uint32_t *path, uint32_t len, const struct row *r)
{
	double self = 0, total = 0;
	for (uint32_t v = 0; v < m->nnodes; v++) {
		if (node_hidden(m, v) || !chain_begins(m, v, path, len))
			continue;
		self += node_value(m, v, 0);
		if (rule == RULE_ADDITIVE || !has_ancestor_frame(m, v))
			total += sub[v];
	}
	CHECK_MSG(close_enough(r->self, self) && close_enough(r->total, total),
		  "%s row at depth %u: self %g total %g, want %g and %g",
		  rule == RULE_EXACT ? "exact" : "additive", len - 1, r->self,
		  r->total, self, total);
}

static char *copy_of(const char *s, size_t len)
{
	char *c = xmalloc(len + 1);
	memcpy(c, s, len);
	c[len] = 0;
	return c;
}

static int by_string(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Every path f <- c1 ... (frames as digits) that visible nodes give, at
 * most MAX_DEPTH callers long, once each and sorted. */
static char **expected_paths(const struct model *m, size_t *n)
{
	char **paths = NULL;
	size_t cap = 0;
	*n = 0;
	for (uint32_t v = 0; v < m->nnodes; v++) {
		if (node_hidden(m, v))
			continue;
		char path[MAX_DEPTH + 2];
		uint32_t len = 0;
		for (uint32_t a = v; a != NO_ID && len <= MAX_DEPTH; a = m->nodes[a].parent) {
			path[len++] = (char)('0' + m->nodes[a].frame);
			GROW(paths, cap, *n + 1);
			paths[(*n)++] = copy_of(path, len);
		}
	}
	if (*n > 1)
		qsort(paths, *n, sizeof(*paths), by_string);
	size_t kept = 0;
	for (size_t i = 0; i < *n; i++) {
		if (kept && !strcmp(paths[kept - 1], paths[i]))
			free(paths[i]);
		else
			paths[kept++] = paths[i];
	}
	*n = kept;
	return paths;
}

/* The view has one row per expected path, and no other. */
static void check_paths(const struct model *m, char **rows, size_t nrows)
{
	size_t n;
	char **want = expected_paths(m, &n);
	qsort(rows, nrows, sizeof(*rows), by_string);
	bool same = n == nrows;
	for (size_t i = 0; same && i < n; i++)
		same = !strcmp(want[i], rows[i]);
	CHECK_MSG(same, "bottom-up rows: %zu paths, want %zu", nrows, n);
	for (size_t i = 0; i < n; i++)
		free(want[i]);
	free(want);
}

static void check_view(const struct model *m, struct rules *rules, enum rule rule)
{
	struct view_context ctx = { .model = m, .rules = rules, .rule = rule,
				    .focus_frame = NO_ID };
	struct view v;
	view_open(&v, VIEW_BOTTOMUP, &ctx);
	view_expand_all(&v, SIZE_MAX, MAX_DEPTH + 1, 1000000);
	double *sub = subtree_sums(m);
	uint32_t path[MAX_DEPTH + 2];
	char text[MAX_DEPTH + 2];
	char **rows = xcalloc(v.nrows + 1, sizeof(char *));
	size_t nrows = 0;
	for (size_t i = 0; i < v.nrows; i++) {
		const struct row *r = &v.rows[i];
		if (r->depth > MAX_DEPTH)
			continue;
		path[r->depth] = r->frame;
		text[r->depth] = (char)('0' + r->frame);
		rows[nrows++] = copy_of(text, r->depth + 1);
		check_row(m, sub, rule, path, r->depth + 1, r);
	}
	check_paths(m, rows, nrows);
	for (size_t i = 0; i < nrows; i++)
		free(rows[i]);
	free(rows);
	free(sub);
	view_close(&v);
}

/* Drops the samples of a few nodes and hides every node left without
 * one below it, as a time range does (src/range.c). */
static void hide_some(struct model *m)
{
	for (uint32_t v = 0; v < m->nnodes; v++)
		if (!next_random(3))
			model_set_node_value(m, v, 0, 0);
	double *sub = subtree_sums(m);
	m->range.hidden_nodes = xcalloc(m->nnodes + 1, 1);
	for (uint32_t v = 0; v < m->nnodes; v++)
		m->range.hidden_nodes[v] = sub[v] == 0;
	free(sub);
}

int main(void)
{
	for (int round = 0; round < 60; round++) {
		struct model m;
		random_model(&m);
		if (round % 3 == 2)
			hide_some(&m);
		struct rules rules;
		rules_init(&rules, &m);
		if (round % 2) { /* the sort made ahead on a thread (explorer) */
			rules.background = true;
			rules_start_chains(&rules);
			CHECK(rules_busy(&rules) || rules.chains_tried);
		}
		check_view(&m, &rules, RULE_EXACT);
		check_view(&m, &rules, RULE_ADDITIVE);
		rules_free(&rules);
		free(m.range.hidden_nodes); /* the test's own: m is not a range's */
		m.range.hidden_nodes = NULL;
		model_free(&m);
	}
	return check_done();
}
