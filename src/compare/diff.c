/* Two profiles compared: the pairing of their functions (see diff.h for
 * the rule), the delta rows, and keeping two panes on the same function. */
#include "diff.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"

static const char *const match_names[MATCH_COUNT] = {
	[MATCH_NONE] = "none",
	[MATCH_SAME] = "same",
	[MATCH_NAME_URL_LINE] = "name+url+line",
	[MATCH_NAME_URL] = "name+url",
	[MATCH_URL_LINE] = "url+line",
	[MATCH_TAIL_PLACE] = "tail+place",
	[MATCH_NAME] = "name",
	[MATCH_KIND] = "kind",
};

static const char *const sort_names[DIFF_SORT_COUNT] = {
	[DIFF_SORT_DELTA] = "delta",
	[DIFF_SORT_REGRESSION] = "regression",
	[DIFF_SORT_TOTAL] = "total",
	[DIFF_SORT_SELF] = "self",
	[DIFF_SORT_NAME] = "name",
};

ENUM_NAME_FN(diff_match_name, enum diff_match, match_names)
ENUM_NAME_FN(diff_sort_name, enum diff_sort, sort_names)
ENUM_PARSE_FN(diff_sort_parse, enum diff_sort, sort_names)

/* ---- pairing ------------------------------------------------------------ */

/* The engine's own entries, paired by kind when their names differ. */
static bool engine_entry(const struct frame *f)
{
	return f->kind == KIND_ROOT || f->kind == KIND_PROGRAM ||
	       f->kind == KIND_IDLE || f->kind == KIND_GC;
}

static int compare_ints(long a, long b)
{
	return (a > b) - (a < b);
}


/* A name after its last `.`: `@fxStringAccessorGetter` of
 * `String.prototype.@fxStringAccessorGetter`; the name itself without. */
static const char *name_tail(const struct model *m, const struct frame *f)
{
	const char *name = model_str(m, f->name), *dot = strrchr(name, '.');
	return dot && dot[1] ? dot + 1 : name;
}

static int compare_places(const struct model *ma, const struct frame *a,
			  const struct model *mb, const struct frame *b)
{
	int order = strcmp(model_str(ma, a->url), model_str(mb, b->url));
	return order ? order : compare_ints(model_shown_place(ma, a->line),
					    model_shown_place(mb, b->line));
}

/* Orders frames of two models by the key of a pairing step. */
static int compare_keys(const struct model *ma, uint32_t fa,
			const struct model *mb, uint32_t fb, enum diff_match step)
{
	const struct frame *a = &ma->frames[fa], *b = &mb->frames[fb];
	if (step == MATCH_KIND)
		return compare_ints(a->kind, b->kind);
	if (step == MATCH_URL_LINE)
		return compare_places(ma, a, mb, b);
	if (step == MATCH_TAIL_PLACE) {
		int order = strcmp(name_tail(ma, a), name_tail(mb, b));
		return order ? order : compare_places(ma, a, mb, b);
	}
	int order = strcmp(model_str(ma, a->name), model_str(mb, b->name));
	if (order || step == MATCH_NAME)
		return order;
	order = strcmp(model_str(ma, a->url), model_str(mb, b->url));
	if (order || step == MATCH_NAME_URL)
		return order;
	order = compare_ints(model_shown_place(ma, a->line), model_shown_place(mb, b->line));
	if (order || step == MATCH_NAME_URL_LINE)
		return order;
	return compare_ints(model_shown_place(ma, a->column), model_shown_place(mb, b->column));
}

/* qsort_r's context for compare_frame_keys. */
struct key_order {
	const struct model *m;
	enum diff_match step;
};

static int compare_frame_keys(const void *a, const void *b, void *order)
{
	const struct key_order *o = order;
	return compare_keys(o->m, *(const uint32_t *)a, o->m, *(const uint32_t *)b, o->step);
}

/* Does frame f take part in `step`?  Pairing by place needs one. */
static bool takes_part(const struct model *m, uint32_t f, enum diff_match step)
{
	const struct frame *fr = &m->frames[f];
	if (step == MATCH_KIND)
		return engine_entry(fr);
	if (step == MATCH_URL_LINE)
		return fr->line >= 0 && *model_str(m, fr->url);
	return true;
}

/* The frames of a side still unpaired that take part in `step`, sorted
 * by its key. */
static size_t unpaired_frames(const struct diff *d, enum diff_side s,
			      enum diff_match step, uint32_t *out)
{
	const struct model *m = d->model[s];
	size_t n = 0;
	for (uint32_t f = 0; f < m->nframes; f++)
		if (d->match[s][f] == NO_ID && takes_part(m, f, step))
			out[n++] = f;
	struct key_order order = { m, step };
	qsort_r(out, n, sizeof(*out), compare_frame_keys, &order);
	return n;
}

/* End of the run of frames sharing the key of ids[start]. */
static size_t key_run_end(const struct model *m, const uint32_t *ids,
			  size_t start, size_t n, enum diff_match step)
{
	size_t end = start + 1;
	while (end < n && !compare_keys(m, ids[start], m, ids[end], step))
		end++;
	return end;
}

static void pair(struct diff *d, uint32_t base, uint32_t new_frame,
		 enum diff_match step)
{
	d->match[DIFF_BASE][base] = new_frame;
	d->match[DIFF_NEW][new_frame] = base;
	d->how[DIFF_BASE][base] = (uint8_t)step;
	d->how[DIFF_NEW][new_frame] = (uint8_t)step;
}

/* Two functions of one key that the step still keeps apart: by their
 * tails, `Array.prototype.push` is not `String.prototype.push`; one of
 * the two names must be the bare tail. */
static bool step_allows(const struct diff *d, uint32_t base, uint32_t new_frame,
			enum diff_match step)
{
	if (step != MATCH_TAIL_PLACE)
		return true;
	const struct model *mb = d->model[DIFF_BASE], *mn = d->model[DIFF_NEW];
	const struct frame *b = &mb->frames[base], *n = &mn->frames[new_frame];
	return name_tail(mb, b) == model_str(mb, b->name) ||
	       name_tail(mn, n) == model_str(mn, n->name);
}

/* One step: both sides sorted by its key, walked together; a key held by
 * exactly one unpaired frame on each side pairs them. */
static void pair_step(struct diff *d, enum diff_match step, uint32_t *base_ids,
		      uint32_t *new_ids)
{
	const struct model *mb = d->model[DIFF_BASE], *mn = d->model[DIFF_NEW];
	size_t nb = unpaired_frames(d, DIFF_BASE, step, base_ids);
	size_t nn = unpaired_frames(d, DIFF_NEW, step, new_ids);
	size_t i = 0, j = 0;
	while (i < nb && j < nn) {
		int order = compare_keys(mb, base_ids[i], mn, new_ids[j], step);
		size_t end_i = key_run_end(mb, base_ids, i, nb, step);
		size_t end_j = key_run_end(mn, new_ids, j, nn, step);
		if (!order && end_i == i + 1 && end_j == j + 1 &&
		    step_allows(d, base_ids[i], new_ids[j], step))
			pair(d, base_ids[i], new_ids[j], step);
		if (order <= 0)
			i = end_i;
		if (order >= 0)
			j = end_j;
	}
}

/* What the data supports, as the rules say (rules.c): decided from the
 * capabilities alone, so that a rule computed on a thread counts too. */
static bool rule_applies(const struct model *m, enum rule rule)
{
	switch (rule) {
	case RULE_EXACT:
		return m->caps & HAS_STACKS;
	case RULE_GPROF:
		return m->caps & HAS_CALL_COUNTS;
	case RULE_ADDITIVE:
		return m->caps & HAS_NODES;
	default:
		return true;
	}
}

/* The rule both sides support best: exact where both have stacks (a live
 * capture and a file alike), gprof between two sets of call arcs.  With
 * an XS node graph on a side, divided: the one rule under which a stream
 * and the file the engine saves for the same run agree (time-rules.md),
 * where additive counts a shared callee under each parent. */
static enum rule default_rule(struct diff *d)
{
	const struct model *mb = d->model[DIFF_BASE], *mn = d->model[DIFF_NEW];
	bool graph = (mb->caps | mn->caps) & HAS_NODE_GRAPH;
	const enum rule candidates[] = {
		RULE_EXACT,
		RULE_GPROF,
		graph ? RULE_DIVIDED : RULE_ADDITIVE,
		RULE_DIVIDED,
	};
	for (size_t i = 0; i < ARRAY_LEN(candidates); i++)
		if (rule_applies(mb, candidates[i]) && rule_applies(mn, candidates[i]))
			return candidates[i];
	return RULE_DIVIDED;
}

void diff_init(struct diff *d, struct rules *base, struct rules *new_side)
{
	memset(d, 0, sizeof(*d));
	d->rules[DIFF_BASE] = base;
	d->rules[DIFF_NEW] = new_side;
	for (int s = 0; s < DIFF_SIDES; s++) {
		const struct model *m = d->rules[s]->model;
		d->model[s] = m;
		d->type[s] = m->default_type;
		d->match[s] = xmalloc((m->nframes + 1) * sizeof(uint32_t));
		memset(d->match[s], 0xff, (m->nframes + 1) * sizeof(uint32_t));
		d->how[s] = xcalloc(m->nframes + 1, 1);
	}
	uint32_t *base_ids = xmalloc((d->model[DIFF_BASE]->nframes + 1) * sizeof(uint32_t));
	uint32_t *new_ids = xmalloc((d->model[DIFF_NEW]->nframes + 1) * sizeof(uint32_t));
	for (enum diff_match step = MATCH_SAME; step < MATCH_COUNT; step++)
		pair_step(d, step, base_ids, new_ids);
	free(base_ids);
	free(new_ids);
	d->rule = default_rule(d);
	d->sort = DIFF_SORT_DELTA;
}

void diff_free(struct diff *d)
{
	for (int s = 0; s < DIFF_SIDES; s++) {
		free(d->match[s]);
		free(d->how[s]);
	}
	free(d->rows);
	memset(d, 0, sizeof(*d));
}

uint32_t diff_match(const struct diff *d, enum diff_side side, uint32_t frame)
{
	return frame < d->model[side]->nframes ? d->match[side][frame] : NO_ID;
}

enum diff_match diff_match_how(const struct diff *d, enum diff_side side,
			       uint32_t frame)
{
	return frame < d->model[side]->nframes ? (enum diff_match)d->how[side][frame]
					       : MATCH_NONE;
}

/* ---- rule and units ---------------------------------------------------- */

bool diff_comparable(const struct diff *d)
{
	const struct model *mb = d->model[DIFF_BASE], *mn = d->model[DIFF_NEW];
	return d->normalize ||
	       !strcmp(model_str(mb, mb->types[d->type[DIFF_BASE]].unit),
		       model_str(mn, mn->types[d->type[DIFF_NEW]].unit));
}

/* ---- rows -------------------------------------------------------------- */

/* Whether the flat view of that side lists the function. */
static bool listed(const struct totals *t, uint32_t f)
{
	double total = view_total_or_nan(t, f);
	return t->self[f] != 0 || (!isnan(total) && total != 0);
}

/* A rule other than the one shown that gives this side totals, to tell a
 * function with a total of n/a from one that is not there. */
static const struct totals *presence_totals(const struct diff *d, enum diff_side s)
{
	if (d->totals[s]->total)
		return NULL;
	const struct model *m = d->model[s];
	enum rule rule = m->caps & HAS_NODES ? RULE_ADDITIVE : RULE_GPROF;
	if (!rule_applies(m, rule) || rule == d->rule)
		return NULL;
	return rules_totals(d->rules[s], rule, d->type[s]);
}

static bool present_on(const struct diff *d, enum diff_side s, uint32_t f)
{
	if (listed(d->totals[s], f))
		return true;
	return d->presence[s] && listed(d->presence[s], f);
}

void diff_frame_values(const struct diff *d, enum diff_side s, uint32_t f,
		       double *self, double *total)
{
	const struct totals *t = d->totals[s];
	*self = *total = NAN;
	if (f == NO_ID || !present_on(d, s, f))
		return;
	double scale = 1;
	if (d->normalize)
		scale = t->profile_total != 0 ? 100 / t->profile_total : NAN;
	*self = t->self[f] * scale;
	*total = view_total_or_nan(t, f) * scale;
}

static void fill_side(const struct diff *d, struct diff_row *r, enum diff_side s)
{
	diff_frame_values(d, s, r->frame[s], &r->self[s], &r->total[s]);
}

/* A side's part of the delta: 0 where the function is absent. */
static double counted_total(const struct diff_row *r, enum diff_side s)
{
	return diff_present(r, s) ? r->total[s] : 0;
}

static void add_row(struct diff *d, uint32_t base, uint32_t new_frame)
{
	struct diff_row r = { .frame = { base, new_frame } };
	fill_side(d, &r, DIFF_BASE);
	fill_side(d, &r, DIFF_NEW);
	if (!diff_present(&r, DIFF_BASE) && !diff_present(&r, DIFF_NEW))
		return;
	r.match = base != NO_ID ? diff_match_how(d, DIFF_BASE, base) : MATCH_NONE;
	r.delta = counted_total(&r, DIFF_NEW) - counted_total(&r, DIFF_BASE);
	double was = counted_total(&r, DIFF_BASE);
	r.delta_pct = was != 0 && !isnan(was) ? 100 * r.delta / was : NAN;
	GROW(d->rows, d->rows_cap, d->nrows + 1);
	d->rows[d->nrows++] = r;
}

void diff_build(struct diff *d)
{
	d->nrows = 0;
	for (int s = 0; s < DIFF_SIDES; s++) {
		d->totals[s] = rules_totals(d->rules[s], d->rule, d->type[s]);
		d->presence[s] = presence_totals(d, s);
	}
	for (uint32_t f = 0; f < d->model[DIFF_BASE]->nframes; f++)
		add_row(d, f, d->match[DIFF_BASE][f]);
	for (uint32_t f = 0; f < d->model[DIFF_NEW]->nframes; f++)
		if (d->match[DIFF_NEW][f] == NO_ID)
			add_row(d, NO_ID, f);
	diff_sort(d);
}

enum diff_side diff_row_side(const struct diff_row *r)
{
	return r->frame[DIFF_BASE] != NO_ID ? DIFF_BASE : DIFF_NEW;
}

static const char *row_name(const struct diff *d, const struct diff_row *r)
{
	enum diff_side s = diff_row_side(r);
	const struct model *m = d->model[s];
	return model_str(m, m->frames[r->frame[s]].name);
}

/* The larger of two sides' values, NAN only when both are. */
static double larger(const double *values)
{
	return fmax(values[DIFF_BASE], values[DIFF_NEW]);
}

static double sort_value(const struct diff_row *r, enum diff_sort key)
{
	double x = key == DIFF_SORT_DELTA ? fabs(r->delta)
		 : key == DIFF_SORT_REGRESSION ? r->delta
		 : key == DIFF_SORT_SELF ? larger(r->self)
		 : larger(r->total);
	return isnan(x) ? -INFINITY : x;
}

static int compare_diff_rows(const void *pa, const void *pb, void *diff)
{
	const struct diff_row *a = pa, *b = pb;
	const struct diff *d = diff;
	int order = 0;
	if (d->sort != DIFF_SORT_NAME) {
		double x = sort_value(a, d->sort), y = sort_value(b, d->sort);
		order = (x < y) - (x > y); /* largest first */
	}
	if (!order)
		order = strcmp(row_name(d, a), row_name(d, b));
	if (d->reversed)
		order = -order;
	for (int s = 0; !order && s < DIFF_SIDES; s++)
		order = (a->frame[s] > b->frame[s]) - (a->frame[s] < b->frame[s]);
	return order;
}

void diff_sort(struct diff *d)
{
	if (d->nrows < 2) /* rows may still be NULL */
		return;
	qsort_r(d->rows, d->nrows, sizeof(*d->rows), compare_diff_rows, d);
}

size_t diff_find_row(const struct diff *d, enum diff_side side, uint32_t frame)
{
	for (size_t i = 0; i < d->nrows; i++)
		if (d->rows[i].frame[side] == frame)
			return i;
	return SIZE_MAX;
}

/* ---- split screen: the same row on the other side ------------------------ */

static size_t subtree_end(const struct view *v, size_t index)
{
	size_t i = index + 1;
	while (i < v->nrows && v->rows[i].depth > v->rows[index].depth)
		i++;
	return i;
}

#define ROW_ROLES (ROW_CALLER | ROW_PRIMARY | ROW_CALLEE)

/* Call graph rows are blocks, not a tree: a row is its block's function
 * (row.item) and its own function in a role. */
static size_t mirror_graph_row(const struct diff *d, enum diff_side side,
			       const struct row *r, const struct view *to,
			       bool *whole)
{
	uint32_t primary = diff_match(d, side, r->item);
	uint32_t frame = diff_match(d, side, r->frame);
	uint32_t role = r->flags & ROW_ROLES;
	size_t block = SIZE_MAX;
	for (size_t j = 0; primary != NO_ID && j < to->nrows; j++) {
		const struct row *t = &to->rows[j];
		if (t->item != primary)
			continue;
		if ((t->flags & ROW_ROLES) == role && t->frame == frame) {
			*whole = true;
			return j;
		}
		if (t->flags & ROW_PRIMARY)
			block = j;
	}
	return block;
}

/* The frames from the top of the tree down to row `index`. */
static uint32_t *row_path(const struct view *v, size_t index)
{
	uint32_t depth = v->rows[index].depth;
	uint32_t *path = xmalloc(((size_t)depth + 1) * sizeof(uint32_t));
	path[depth] = v->rows[index].frame;
	for (size_t i = index; depth > 0 && i-- > 0;)
		if (v->rows[i].depth < depth) {
			depth = v->rows[i].depth;
			path[depth] = v->rows[i].frame;
		}
	return path;
}

static size_t mirror_tree_row(const struct diff *d, enum diff_side side,
			      const struct view *from, size_t index,
			      struct view *to, bool *whole)
{
	uint32_t depth = from->rows[index].depth;
	uint32_t *path = row_path(from, index);
	size_t found = SIZE_MAX, start = 0, end = to->nrows;
	for (uint32_t level = 0; level <= depth; level++) {
		uint32_t want = diff_match(d, side, path[level]);
		size_t hit = SIZE_MAX;
		for (size_t j = start; want != NO_ID && j < end; j = subtree_end(to, j))
			if (to->rows[j].frame == want) {
				hit = j;
				break;
			}
		if (hit == SIZE_MAX)
			break;
		found = hit;
		if (level == depth) {
			*whole = true;
			break;
		}
		view_expand(to, hit);
		start = hit + 1;
		end = subtree_end(to, hit);
	}
	free(path);
	return found;
}

size_t diff_mirror_row(const struct diff *d, enum diff_side side,
		       const struct view *from, size_t index, struct view *to,
		       bool *whole)
{
	*whole = false;
	if (index >= from->nrows)
		return SIZE_MAX;
	if (from->ops == &callgraph_ops)
		return mirror_graph_row(d, side, &from->rows[index], to, whole);
	return mirror_tree_row(d, side, from, index, to, whole);
}

size_t diff_mirror_expansion(const struct diff *d, enum diff_side side,
			     const struct view *from, size_t index,
			     struct view *to)
{
	bool whole;
	size_t j = diff_mirror_row(d, side, from, index, to, &whole);
	if (!whole)
		return SIZE_MAX;
	if (from->rows[index].flags & ROW_EXPANDED)
		view_expand(to, j);
	else if (to->rows[j].flags & ROW_EXPANDED)
		view_collapse(to, j);
	return j;
}
