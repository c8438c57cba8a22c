#include "view.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"

static const char *const kind_names[VIEW_COUNT] = {
	[VIEW_TOPDOWN] = "top-down",
	[VIEW_BOTTOMUP] = "bottom-up",
	[VIEW_FLAT] = "flat",
	[VIEW_CALLGRAPH] = "callgraph",
	[VIEW_FLAME] = "flame",
	[VIEW_SANDWICH] = "sandwich",
};

static const char *const sort_names[SORT_COUNT] = {
	[SORT_TOTAL] = "total",
	[SORT_SELF] = "self",
	[SORT_CALLS] = "calls",
	[SORT_NAME] = "name",
};

static const struct view_ops *view_ops_for(enum view_kind kind)
{
	static const struct view_ops *const ops[VIEW_COUNT] = {
		[VIEW_TOPDOWN] = &topdown_ops,
		[VIEW_BOTTOMUP] = &bottomup_ops,
		[VIEW_FLAT] = &flat_ops,
		[VIEW_CALLGRAPH] = &callgraph_ops,
		[VIEW_FLAME] = &flame_ops,
		[VIEW_SANDWICH] = &sandwich_ops,
	};
	return kind < VIEW_COUNT ? ops[kind] : NULL;
}

ENUM_NAME_FN(view_kind_name, enum view_kind, kind_names)
ENUM_PARSE_FN(view_kind_parse, enum view_kind, kind_names)
ENUM_NAME_FN(sort_key_name, enum sort_key, sort_names)

double view_total_or_nan(const struct totals *t, uint32_t frame)
{
	return t->total ? t->total[frame] : NAN;
}

bool view_row_too_small(const struct view *v, const struct row *r)
{
	double share = v->ctx->min_share, whole = v->totals->profile_total;
	if (share <= 0 || !(whole > 0) || (r->flags & ROW_PRIMARY) ||
	    v->ops->keeps_every_row)
		return false;
	double x = isnan(r->total) ? r->self : r->total;
	return !(fabs(x) >= share / 100 * whole);
}

/* Leaves out the rows too small to show, each with the rows under it. */
static size_t drop_small(const struct view *v, struct row *rows, size_t n)
{
	if (v->ctx->min_share <= 0 || v->ops->keeps_every_row)
		return n; /* none is: not a pass over pane 5's 450 000 rows */
	size_t kept = 0;
	for (size_t i = 0; i < n;) {
		if (!view_row_too_small(v, &rows[i])) {
			rows[kept++] = rows[i++];
			continue;
		}
		uint32_t depth = rows[i].depth;
		for (i++; i < n && rows[i].depth > depth; i++)
			;
	}
	return kept;
}

void view_append(struct row **rows, size_t *n, size_t *cap, const struct row *r)
{
	GROW(*rows, *cap, *n + 1);
	(*rows)[(*n)++] = *r;
}

void view_open(struct view *v, enum view_kind kind, struct view_context *ctx)
{
	memset(v, 0, sizeof(*v));
	v->ops = view_ops_for(kind);
	v->ctx = ctx;
	view_rebuild(v);
}

void view_close(struct view *v)
{
	if (v->ops && v->ops->free_state)
		v->ops->free_state(v);
	free(v->rows);
	memset(v, 0, sizeof(*v));
}

void view_rebuild(struct view *v)
{
	if (v->ops->free_state)
		v->ops->free_state(v);
	v->state = NULL;
	v->nrows = 0;
	v->totals = rules_totals(v->ctx->rules, v->ctx->rule, v->ctx->type);
	v->ops->build(v);
	if (v->ops->sort) /* such views build their rows in order */
		v->nrows = drop_small(v, v->rows, v->nrows);
	else
		view_sort(v);
}

bool view_revalue(struct view *v)
{
	if (!v->ops->revalue)
		return false;
	v->totals = rules_totals(v->ctx->rules, v->ctx->rule, v->ctx->type);
	if (!v->ops->revalue(v))
		return false;
	view_sort(v);
	return true;
}

/* ---- sorting ---------------------------------------------------------- */

static double sort_value(const struct row *r, enum sort_key key)
{
	double x = key == SORT_SELF ? r->self : key == SORT_CALLS ? r->calls : r->total;
	return isnan(x) ? -INFINITY : x;
}

static int compare_rows(const struct view_context *ctx, const struct row *a,
			const struct row *b)
{
	const struct model *m = ctx->model;
	int order = 0;
	if (ctx->sort != SORT_NAME) {
		double x = sort_value(a, ctx->sort), y = sort_value(b, ctx->sort);
		order = (x < y) - (x > y); /* largest first */
	}
	if (!order)
		order = strcmp(model_str(m, m->frames[a->frame].name),
			       model_str(m, m->frames[b->frame].name));
	if (ctx->reversed)
		order = -order;
	if (!order)
		order = (a->frame > b->frame) - (a->frame < b->frame);
	if (!order)
		order = (a->item > b->item) - (a->item < b->item);
	return order;
}

static int compare_row_ptrs(const void *a, const void *b, void *ctx)
{
	return compare_rows(ctx, a, b);
}

void view_sort_rows(const struct view *v, struct row *rows, size_t n)
{
	if (n < 2) /* rows may be NULL then, which qsort must not see */
		return;
	qsort_r(rows, n, sizeof(*rows), compare_row_ptrs, (void *)v->ctx);
}

/* qsort_r's context for compare_row_indexes: indexes into `rows`. */
struct index_order {
	const struct view_context *ctx;
	const struct row *rows;
};

static int compare_row_indexes(const void *a, const void *b, void *order)
{
	const struct index_order *o = order;
	return compare_rows(o->ctx, &o->rows[*(const size_t *)a], &o->rows[*(const size_t *)b]);
}

/* Sorts each group of siblings, keeping every row's subtree under it.
 * Iterative: a tree can be as deep as the profile's stacks. */
static void sort_tree(struct view *v)
{
	size_t n = v->nrows;
	struct row *old = v->rows;
	struct row *out = xmalloc((n + 1) * sizeof(*out));
	size_t *end = xmalloc((n + 1) * sizeof(size_t)); /* subtree ends */
	size_t *open = xmalloc((n + 1) * sizeof(size_t));
	size_t nopen = 0;
	for (size_t i = 0; i <= n; i++) {
		while (nopen && (i == n || old[open[nopen - 1]].depth >= old[i].depth))
			end[open[--nopen]] = i;
		if (i < n)
			open[nopen++] = i;
	}
	/* Work items: a range of sibling subtrees to emit, or one row. */
	struct work {
		size_t start, stop; /* stop == SIZE_MAX: emit row `start` */
	} *work = NULL;
	size_t nwork = 0, work_cap = 0, nout = 0;
	size_t *sibs = xmalloc((n + 1) * sizeof(size_t));
	GROW(work, work_cap, 1);
	work[nwork++] = (struct work){ 0, n };
	struct index_order order = { v->ctx, old };
	while (nwork) {
		struct work w = work[--nwork];
		if (w.stop == SIZE_MAX) {
			out[nout++] = old[w.start];
			continue;
		}
		size_t nsibs = 0;
		for (size_t i = w.start; i < w.stop; i = end[i])
			sibs[nsibs++] = i;
		qsort_r(sibs, nsibs, sizeof(size_t), compare_row_indexes, &order);
		GROW(work, work_cap, nwork + 2 * nsibs);
		for (size_t k = nsibs; k-- > 0;) {
			work[nwork++] = (struct work){ sibs[k] + 1, end[sibs[k]] };
			work[nwork++] = (struct work){ sibs[k], SIZE_MAX };
		}
	}
	free(sibs);
	free(work);
	free(open);
	free(end);
	free(old);
	v->rows = out;
	v->rows_cap = n + 1;
}

void view_sort(struct view *v)
{
	if (v->ops->sort)
		v->ops->sort(v);
	else if (v->nrows)
		sort_tree(v);
	v->nrows = drop_small(v, v->rows, v->nrows);
}

/* ---- expanding and collapsing ----------------------------------------- */

static size_t subtree_end(const struct view *v, size_t index)
{
	size_t i = index + 1;
	while (i < v->nrows && v->rows[i].depth > v->rows[index].depth)
		i++;
	return i;
}

/* The children of row `index`, depth set and sorted, in *kids; marks the
 * row open (or, with none, as having nothing to open).  Returns how many. */
static size_t open_row(struct view *v, size_t index, struct row **kids)
{
	size_t nkids = 0, cap = 0;
	*kids = NULL;
	v->ops->children(v, index, kids, &nkids, &cap);
	nkids = drop_small(v, *kids, nkids);
	struct row *r = &v->rows[index];
	r->flags |= ROW_EXPANDED;
	if (!nkids) {
		r->flags &= ~(uint32_t)ROW_EXPANDABLE;
		return 0;
	}
	for (size_t i = 0; i < nkids; i++)
		(*kids)[i].depth = r->depth + 1;
	view_sort_rows(v, *kids, nkids);
	return nkids;
}

static bool can_open(const struct view *v, size_t index)
{
	const struct row *r = &v->rows[index];
	return v->ops->children && (r->flags & ROW_EXPANDABLE) &&
	       !(r->flags & ROW_EXPANDED);
}

bool view_expand(struct view *v, size_t index)
{
	if (index >= v->nrows || !can_open(v, index))
		return false;
	struct row *kids;
	size_t nkids = open_row(v, index, &kids);
	if (!nkids) {
		free(kids);
		return false;
	}
	GROW(v->rows, v->rows_cap, v->nrows + nkids);
	memmove(&v->rows[index + 1 + nkids], &v->rows[index + 1],
		(v->nrows - index - 1) * sizeof(struct row));
	memcpy(&v->rows[index + 1], kids, nkids * sizeof(struct row));
	v->nrows += nkids;
	free(kids);
	return true;
}

/* Places the rows of `todo` (the next one last) after the rows the view
 * has, opening those open_it chooses as it goes, while the view and what
 * is still to place (plus `after` rows to come) stay under max_rows.
 * Rows are only ever added at the end: none is moved.  Frees todo. */
static void place_in_order(struct view *v, struct row *todo, size_t ntodo,
			   size_t todo_cap, size_t after, size_t max_rows,
			   bool (*open_it)(void *data, const struct row *r, size_t index),
			   void *data)
{
	while (ntodo) {
		size_t at = v->nrows;
		view_append(&v->rows, &v->nrows, &v->rows_cap, &todo[--ntodo]);
		if (!open_it(data, &v->rows[at], at) || !can_open(v, at) ||
		    v->nrows + ntodo + after >= max_rows)
			continue;
		struct row *kids;
		size_t nkids = open_row(v, at, &kids);
		GROW(todo, todo_cap, ntodo + nkids);
		for (size_t k = nkids; k-- > 0;)
			todo[ntodo++] = kids[k];
		free(kids);
	}
	free(todo);
}

/* rows[from, to) as a to-do list for place_in_order. */
static struct row *reversed(const struct row *rows, size_t from, size_t to)
{
	struct row *out = xmalloc((to - from + 1) * sizeof(*out));
	for (size_t i = from; i < to; i++)
		out[to - 1 - i] = rows[i];
	return out;
}

void view_rebuild_opening(struct view *v,
			  bool (*open_it)(void *data, const struct row *r, size_t index),
			  void *data)
{
	view_rebuild(v);
	size_t n = v->nrows;
	struct row *todo = reversed(v->rows, 0, n);
	v->nrows = 0;
	place_in_order(v, todo, n, n + 1, 0, SIZE_MAX, open_it, data);
}

void view_collapse(struct view *v, size_t index)
{
	if (index >= v->nrows)
		return;
	size_t end = subtree_end(v, index);
	memmove(&v->rows[index + 1], &v->rows[end],
		(v->nrows - end) * sizeof(struct row));
	v->nrows -= end - index - 1;
	v->rows[index].flags &= ~(uint32_t)ROW_EXPANDED;
}

struct open_below {
	uint32_t base, max_depth;
};

static bool open_below(void *data, const struct row *r, size_t index)
{
	const struct open_below *o = data;
	(void)index;
	return r->depth - o->base < o->max_depth;
}

void view_expand_all(struct view *v, size_t index, uint32_t max_depth,
		     size_t max_rows)
{
	size_t start = index == SIZE_MAX ? 0 : index;
	if (start >= v->nrows)
		return;
	size_t end = index == SIZE_MAX ? v->nrows : subtree_end(v, start);
	struct open_below o = { v->rows[start].depth, max_depth };
	/* The subtree is placed again in one pass; rows open already keep
	 * their children, which follow them in the list. */
	size_t nafter = v->nrows - end;
	struct row *after = xmalloc((nafter + 1) * sizeof(*after));
	memcpy(after, &v->rows[end], nafter * sizeof(*after));
	struct row *todo = reversed(v->rows, start, end);
	v->nrows = start;
	place_in_order(v, todo, end - start, end - start + 1, nafter, max_rows,
		       open_below, &o);
	GROW(v->rows, v->rows_cap, v->nrows + nafter);
	memcpy(&v->rows[v->nrows], after, nafter * sizeof(*after));
	v->nrows += nafter;
	free(after);
}

/* ---- looking under closed rows ------------------------------------------ */

/* The children of `r`, which need not be shown, set and sorted as
 * view_expand would place them, into *kids (grown as needed: a search
 * reuses one array a depth).  The ops read the row at an index, so it
 * stands in the slot past the last row. */
static size_t children_of(struct view *v, const struct row *r, struct row **kids,
			  size_t *cap)
{
	size_t n = 0;
	if (!v->ops->children || !(r->flags & ROW_EXPANDABLE))
		return 0;
	GROW(v->rows, v->rows_cap, v->nrows + 1);
	v->rows[v->nrows] = *r;
	v->ops->children(v, v->nrows, kids, &n, cap);
	for (size_t i = 0; i < n; i++)
		(*kids)[i].depth = r->depth + 1;
	view_sort_rows(v, *kids, n);
	return n;
}

struct find {
	bool (*match)(void *data, const struct row *r);
	void *data;
	bool last;     /* the last match in tree order, else the first */
	size_t budget; /* rows still to look at */
	bool cut_short;
	/* The way to the match: a position among siblings per level. */
	size_t *path;
	size_t npath, path_cap;
};

/* One level of the walk: the children of a row, the next one to visit.
 * A level's array stays for the next row at that depth. */
struct find_level {
	struct row *kids;
	size_t n, cap, next;
};

/* Level `depth` of the walk, made when first reached, now holding the
 * children of `r`. */
static void enter_level(struct view *v, const struct row *r, struct find_level **levels,
			size_t *nlevels, size_t *cap, size_t depth)
{
	if (depth == *nlevels) {
		GROW(*levels, *cap, depth + 1);
		(*levels)[depth] = (struct find_level){ NULL, 0, 0, 0 };
		(*nlevels)++;
	}
	struct find_level *l = &(*levels)[depth];
	l->n = children_of(v, r, &l->kids, &l->cap);
	l->next = 0;
}

static void note_path(struct find *f, const struct find_level *levels, size_t depth)
{
	GROW(f->path, f->path_cap, depth);
	for (size_t i = 0; i < depth; i++)
		f->path[i] = levels[i].next - 1;
	f->npath = depth;
}

/* Walks the rows under the closed row `top` in tree order, depth first;
 * true when one matches (f->path leads to it). */
static bool find_below(struct view *v, const struct row *top, struct find *f)
{
	struct find_level *levels = NULL;
	size_t depth = 1, nlevels = 0, cap = 0;
	bool found = false;
	enter_level(v, top, &levels, &nlevels, &cap, 0);
	while (depth) {
		struct find_level *l = &levels[depth - 1];
		if (l->next == l->n) {
			depth--;
			continue;
		}
		if (!f->budget) {
			f->cut_short = true;
			break;
		}
		f->budget--;
		const struct row *r = &l->kids[l->next++];
		if (f->match(f->data, r)) {
			note_path(f, levels, depth);
			found = true;
			if (!f->last)
				break;
		}
		enter_level(v, r, &levels, &nlevels, &cap, depth);
		depth++;
	}
	while (nlevels)
		free(levels[--nlevels].kids);
	free(levels);
	return found;
}

/* Opens the rows from row `index` down along f->path; the row reached. */
static size_t open_path(struct view *v, size_t index, const struct find *f)
{
	for (size_t i = 0; i < f->npath; i++) {
		view_expand(v, index);
		index += 1 + f->path[i];
	}
	return index;
}

/* Row `i` of the view (with `row`) and then, when it is closed, the rows
 * under it (with `below`), the other way round going back: the index of
 * a match, or SIZE_MAX. */
static size_t find_at(struct view *v, size_t i, bool row, bool below, struct find *f,
		      size_t *opened_at)
{
	if (row && !f->last && f->match(f->data, &v->rows[i]))
		return i;
	if (below && can_open(v, i) && !f->budget) {
		f->cut_short = true;
	} else if (below && can_open(v, i)) {
		struct row top = v->rows[i]; /* the walk may move the rows */
		if (find_below(v, &top, f)) {
			*opened_at = i;
			return open_path(v, i, f);
		}
	}
	if (row && f->last && f->match(f->data, &v->rows[i]))
		return i;
	return SIZE_MAX;
}

size_t view_find(struct view *v, size_t from, int direction, bool include_from,
		 bool (*match)(void *data, const struct row *r), void *data,
		 size_t max_rows, bool *cut_short, size_t *opened_at)
{
	size_t n = v->nrows, found = SIZE_MAX;
	struct find f = { .match = match, .data = data, .last = direction < 0,
			  .budget = max_rows };
	*opened_at = SIZE_MAX;
	if (from >= n)
		from = 0;
	if (n && include_from && match(data, &v->rows[from]))
		found = from;
	/* Forward, the rows under row `from` come first and the row itself
	 * last, coming round again; backward, the rows before it, then round
	 * from the end to it. */
	for (size_t step = direction > 0 ? 0 : 1; found == SIZE_MAX && n && step <= n; step++) {
		size_t i = direction > 0 ? (from + step) % n : (from + n - step % n) % n;
		bool row = direction < 0 || step > 0, below = direction < 0 || step < n;
		found = find_at(v, i, row, below, &f, opened_at);
	}
	*cut_short = f.cut_short;
	free(f.path);
	return found;
}

static double heat(const struct row *r)
{
	return isnan(r->total) ? r->self : r->total;
}

size_t view_open_heaviest(struct view *v, size_t index)
{
	while (index < v->nrows) {
		if (!(v->rows[index].flags & ROW_EXPANDED) && !view_expand(v, index))
			return index;
		size_t end = subtree_end(v, index), hottest = SIZE_MAX;
		for (size_t i = index + 1; i < end; i = subtree_end(v, i))
			if (hottest == SIZE_MAX || heat(&v->rows[i]) > heat(&v->rows[hottest]))
				hottest = i;
		if (hottest == SIZE_MAX)
			return index;
		index = hottest;
	}
	return index;
}

size_t view_collapse_all(struct view *v, size_t index)
{
	size_t kept = 0, holder = 0;
	for (size_t i = 0; i < v->nrows; i++) {
		if (v->rows[i].depth)
			continue;
		if (i <= index)
			holder = kept;
		v->rows[kept] = v->rows[i];
		v->rows[kept++].flags &= ~(uint32_t)ROW_EXPANDED;
	}
	v->nrows = kept;
	return holder;
}
