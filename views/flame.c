#include "flame.h"

#include <math.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"

/* A function graph expanded into paths can grow without end (every path
 * through a cycle is one); past this many frames the rest is left out. */
#define FLAME_MAX_FRAMES 4000000
/* No terminal shows a stack deeper than this, and a recursion a million
 * frames deep would make as many rows on every level's line: frames
 * below it are left out, their time in their ancestors' widths. */
#define FLAME_MAX_DEPTH 1024

void flame_free(struct flame *f)
{
	free(f->frames);
	memset(f, 0, sizeof(*f));
}

bool flame_has_time_order(const struct model *m, unsigned type)
{
	/* Sample durations are the first sample type's values (not when a
	 * live window has let older ones go); a node graph does not say which
	 * parent a sample went through. */
	return model_holds_every_sample(m) && (m->caps & HAS_NODES) &&
	       !(m->caps & HAS_NODE_GRAPH) && m->nsamples && type == 0;
}

static uint32_t add_frame(struct flame *f, size_t *cap, uint32_t frame,
			  uint32_t parent, uint32_t depth, double x, double width)
{
	GROW(f->frames, *cap, f->nframes + 1);
	f->frames[f->nframes] = (struct flame_frame){
		.frame = frame, .parent = parent, .next_sibling = NO_ID,
		.end = NO_ID, .depth = depth, .x = x, .width = width,
	};
	return (uint32_t)f->nframes++;
}

/* ---- left-heavy: the top-down tree ------------------------------------- */

/* Rows in pre-order become frames; each lies after its elder siblings.
 * Room for every frame is made at once: a graph is rebuilt on every range
 * key, and growing it by doubling copied it as often.  Only the open
 * frames, one a depth, get children: what a child needs of its parent is
 * kept by depth, not by frame (a few kilobytes, not megabytes to fault
 * in and reach at random). */
struct frame_builder {
	struct flame *f;
	size_t cap;
	uint32_t *open;       /* by depth: the open frame */
	uint32_t *last_child; /* by depth: the open frame's last child */
	double *cursor;       /* by depth: where the open frame's next child starts */
	uint32_t nopen, last_top;
	double top_cursor;
};

static void builder_start(struct frame_builder *b, struct flame *f, size_t n)
{
	*b = (struct frame_builder){ .f = f, .cap = n + 1, .last_top = NO_ID };
	f->frames = xmalloc(b->cap * sizeof(*f->frames));
	b->open = xmalloc((FLAME_MAX_DEPTH + 1) * sizeof(uint32_t));
	b->last_child = xmalloc((FLAME_MAX_DEPTH + 1) * sizeof(uint32_t));
	b->cursor = xmalloc((FLAME_MAX_DEPTH + 1) * sizeof(double));
}

/* Depth at most the frames open, and below FLAME_MAX_DEPTH. */
static void builder_add(struct frame_builder *b, uint32_t frame, uint32_t depth,
			double self, double total)
{
	struct flame *f = b->f;
	while (b->nopen > depth)
		f->frames[b->open[--b->nopen]].end = (uint32_t)f->nframes;
	uint32_t d = b->nopen, parent = d ? b->open[d - 1] : NO_ID;
	double x = d ? b->cursor[d - 1] : b->top_cursor;
	uint32_t at = add_frame(f, &b->cap, frame, parent, d, x, total);
	f->frames[at].self = self;
	uint32_t *elder = d ? &b->last_child[d - 1] : &b->last_top;
	if (*elder != NO_ID)
		f->frames[*elder].next_sibling = at;
	*elder = at;
	if (d)
		b->cursor[d - 1] += total;
	else
		b->top_cursor += total;
	b->open[d] = at;
	b->cursor[d] = x;
	b->last_child[d] = NO_ID;
	b->nopen++;
}

static void builder_finish(struct frame_builder *b)
{
	while (b->nopen)
		b->f->frames[b->open[--b->nopen]].end = (uint32_t)b->f->nframes;
	b->f->whole = b->top_cursor;
	free(b->open);
	free(b->last_child);
	free(b->cursor);
}

static void frames_from_rows(struct flame *f, const struct row *rows, size_t n)
{
	struct frame_builder b;
	builder_start(&b, f, n);
	for (size_t i = 0; i < n; i++)
		builder_add(&b, rows[i].frame, rows[i].depth, rows[i].self, rows[i].total);
	builder_finish(&b);
}

static const char *tree_note(const struct view_context *ctx)
{
	const struct model *m = ctx->model;
	if (!(m->caps & HAS_NODES))
		return "paths expanded from the function graph (each arc's share, as top-down)";
	if (m->caps & HAS_NODE_GRAPH)
		return "the node graph as a tree: a shared node under each of its callers (additive)";
	if (ctx->rule == RULE_DIVIDED)
		return "divided splits functions, not paths: the call tree is drawn";
	return NULL;
}

/* A call tree (not a node graph) is walked straight from the model, in
 * the order top-down sorts by total (largest first, then by name): the
 * same rows as opening every row of that pane, without its row list. */
struct tree_order {
	const struct model *m;
	const double *sub; /* each node's total */
};

static int larger_first(const void *a, const void *b, void *tree_order)
{
	const struct tree_order *o = tree_order;
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	double sx = o->sub[x], sy = o->sub[y];
	if (sx != sy)
		return sx > sy ? -1 : 1;
	const struct model *m = o->m;
	uint32_t fx = m->nodes[x].frame, fy = m->nodes[y].frame;
	int order = strcmp(model_str(m, m->frames[fx].name), model_str(m, m->frames[fy].name));
	if (!order)
		order = (fx > fy) - (fx < fy);
	return order ? order : (x > y) - (x < y);
}

/* The walk's nodes still to draw, each with its depth: its children's
 * depth goes with them, not in an array as wide as the tree. */
struct walk_stack {
	uint32_t *nodes, *depths;
	size_t n, cap, depths_cap;
};

static void push_sorted(const struct tree_order *o, struct walk_stack *s,
			const uint32_t *nodes, size_t count, uint32_t depth)
{
	GROW(s->nodes, s->cap, s->n + count);
	GROW(s->depths, s->depths_cap, s->n + count);
	uint32_t *at = s->nodes + s->n;
	size_t kept = 0;
	for (size_t i = 0; i < count; i++) /* hidden: outside a time range */
		if (!node_hidden(o->m, nodes[i]))
			at[kept++] = nodes[i];
	count = kept;
	/* What the walk reads of each when it comes to it, ahead: the graph
	 * is built on a thread whose core has none of it in its cache. */
	for (size_t i = 0; i < count; i++) {
		__builtin_prefetch(&o->m->nodes[at[i]]);
		__builtin_prefetch(&o->m->node_self[(size_t)at[i] * o->m->ntypes]);
		__builtin_prefetch(&o->sub[at[i]]);
	}
	if (count > 1)
		qsort_r(at, count, sizeof(uint32_t), larger_first, (void *)o);
	for (size_t i = 0; i < count / 2; i++) { /* the largest is popped first */
		uint32_t t = at[i];
		at[i] = at[count - 1 - i];
		at[count - 1 - i] = t;
	}
	for (size_t i = 0; i < count; i++)
		s->depths[s->n + i] = depth;
	s->n += count;
}

static void build_from_tree(struct flame *f, struct view_context *ctx)
{
	const struct model *m = ctx->model;
	struct tree_order order = { m, rules_node_totals(ctx->rules, ctx->type) };
	struct walk_stack stack = { 0 };
	uint32_t *roots = xmalloc((m->nnodes + 1) * sizeof(uint32_t));
	size_t nroots = 0;
	for (uint32_t v = 0; v < m->nnodes; v++)
		if (!m->nodes[v].nparents && !node_hidden(m, v))
			roots[nroots++] = v;
	push_sorted(&order, &stack, roots, nroots, 0);
	struct frame_builder b;
	builder_start(&b, f, m->nnodes);
	while (stack.n) {
		stack.n--;
		uint32_t v = stack.nodes[stack.n], depth = stack.depths[stack.n];
		const struct node *n = &m->nodes[v];
		builder_add(&b, n->frame, depth, node_value(m, v, ctx->type), order.sub[v]);
		if (depth + 1 < FLAME_MAX_DEPTH)
			push_sorted(&order, &stack, &m->child_ids[n->child_start],
				    n->child_end - n->child_start, depth + 1);
	}
	builder_finish(&b);
	FREE_ALL(stack.nodes, stack.depths, roots);
}

static void build_left_heavy(struct flame *f, struct view_context *ctx)
{
	if ((ctx->model->caps & HAS_NODES) && !(ctx->model->caps & HAS_NODE_GRAPH)) {
		f->profile_total = rules_totals(ctx->rules, ctx->rule, ctx->type)->profile_total;
		build_from_tree(f, ctx);
		f->note = tree_note(ctx);
		return;
	}
	struct view_context by_total = *ctx;
	by_total.sort = SORT_TOTAL;
	by_total.reversed = false;
	struct view v;
	view_open(&v, VIEW_TOPDOWN, &by_total);
	view_expand_all(&v, SIZE_MAX, FLAME_MAX_DEPTH - 1, FLAME_MAX_FRAMES);
	f->profile_total = v.totals->profile_total;
	for (size_t i = 0; i < v.nrows; i++)
		if (isnan(v.rows[i].total)) {
			f->why_not = v.totals->why_not ? v.totals->why_not
				: "this rule gives no totals for these data";
			view_close(&v);
			return;
		}
	frames_from_rows(f, v.rows, v.nrows);
	f->note = tree_note(ctx);
	view_close(&v);
}

/* ---- time order: the samples as they came ----------------------------- */

/* Blocks narrower than this share of the profile are left to their
 * parent (shown as its own time): below a cell at any zoom short of
 * this factor, and a profile of random stacks would otherwise make a
 * block per sample and level. */
#define TIME_ORDER_RESOLUTION 65536.0

/* An open block: a frame only once it is wide enough (its parent,
 * never narrower, is one by then), so that narrow blocks cost nothing. */
struct block {
	uint32_t node, at; /* at: its frame, NO_ID while it is too narrow */
	double x, width, self;
};

struct time_walk {
	uint32_t *path;      /* the sample's nodes, root first */
	struct block *open;  /* by depth */
	uint32_t *last_at;   /* by depth: the last frame under the open parent */
	size_t cap, nopen, frames_cap;
	size_t nmade; /* the open blocks that are frames: always a prefix */
	double min_width;
};

static void grow_walk(struct time_walk *w, size_t need)
{
	if (need <= w->cap)
		return;
	size_t old = w->cap;
	w->cap = 2 * need;
	w->path = xrealloc(w->path, w->cap * sizeof(uint32_t));
	w->open = xrealloc(w->open, w->cap * sizeof(struct block));
	w->last_at = xrealloc(w->last_at, w->cap * sizeof(uint32_t));
	for (size_t k = old; k < w->cap; k++)
		w->last_at[k] = NO_ID;
}

/* The sample's path below what it shares with the open blocks: a node
 * at the depth of an open block's node is that block's whole path (a
 * tree), so the walk up from the leaf stops there.  Returns the depth;
 * *same is how many open blocks the sample continues. */
static size_t sample_path(const struct model *m, const uint32_t *node_depth,
			  uint32_t leaf, struct time_walk *w, size_t *same)
{
	size_t depth = node_depth[leaf] + 1;
	grow_walk(w, depth + 1);
	size_t k = depth;
	*same = 0;
	for (uint32_t n = leaf; k > 0; n = m->nodes[n].parent) {
		k--;
		if (k < w->nopen && w->open[k].node == n) {
			*same = k + 1;
			break;
		}
		w->path[k] = n;
	}
	return depth;
}

static uint32_t *node_depths(const struct model *m)
{
	uint32_t *depth = xmalloc((m->nnodes + 1) * sizeof(uint32_t));
	for (size_t i = 0; i < m->nnodes; i++) { /* parents come first */
		uint32_t v = m->node_order[i], p = m->nodes[v].parent;
		depth[v] = p == NO_ID ? 0 : depth[p] + 1;
	}
	return depth;
}

/* Closes the blocks deeper than `keep`; one that never became a frame
 * is its parent's own time. */
static void close_blocks(struct flame *f, struct time_walk *w, size_t keep)
{
	if (w->nmade > keep)
		w->nmade = keep;
	while (w->nopen > keep) {
		size_t k = --w->nopen;
		struct block *b = &w->open[k];
		if (b->at != NO_ID) {
			struct flame_frame *fr = &f->frames[b->at];
			fr->width = b->width;
			fr->self = b->self;
			fr->end = (uint32_t)f->nframes;
		} else if (k) {
			w->open[k - 1].self += b->width;
		}
	}
}

static void make_frame(struct flame *f, struct time_walk *w,
		       const struct model *m, size_t k)
{
	struct block *b = &w->open[k];
	uint32_t parent = k ? w->open[k - 1].at : NO_ID;
	b->at = add_frame(f, &w->frames_cap, m->nodes[b->node].frame, parent,
			  (uint32_t)k, b->x, b->width);
	if (w->last_at[k] != NO_ID)
		f->frames[w->last_at[k]].next_sibling = b->at;
	w->last_at[k] = b->at;
	w->last_at[k + 1] = NO_ID;
}

static void build_time_order(struct flame *f, const struct model *m)
{
	struct time_walk w = { 0 };
	grow_walk(&w, 64);
	double all = 0;
	for (size_t s = 0; s < m->nsamples; s++)
		all += m->sample_duration[s] > 0 ? m->sample_duration[s] : 0;
	w.min_width = all / TIME_ORDER_RESOLUTION;
	uint32_t *node_depth = node_depths(m);
	double t = 0;
	for (size_t s = 0; s < m->nsamples; s++) {
		double d = m->sample_duration[s];
		if (!(d > 0))
			continue; /* no width, and no break between equal stacks */
		size_t same;
		size_t depth = sample_path(m, node_depth, m->sample_node[s], &w, &same);
		for (size_t k = 0; k < same; k++)
			w.open[k].width += d;
		close_blocks(f, &w, same);
		for (size_t k = same; k < depth; k++) {
			w.open[k] = (struct block){ w.path[k], NO_ID, t, d, 0 };
			w.last_at[k + 1] = NO_ID;
		}
		w.nopen = depth;
		if (depth)
			w.open[depth - 1].self += d;
		while (w.nmade < depth && w.open[w.nmade].width >= w.min_width)
			make_frame(f, &w, m, w.nmade++);
		t += d;
	}
	close_blocks(f, &w, 0);
	f->whole = t;
	free(node_depth);
	free(w.path);
	free(w.open);
	free(w.last_at);
}

void flame_build(struct flame *f, struct view_context *ctx,
		 enum flame_order order)
{
	static atomic_ulong graphs_built; /* graphs are built on threads too */
	memset(f, 0, sizeof(*f));
	f->order = order;
	f->serial = atomic_fetch_add(&graphs_built, 1) + 1;
	if (order == FLAME_TIME_ORDER) {
		if (!flame_has_time_order(ctx->model, ctx->type)) {
			f->why_not = ctx->model->live.samples_before
					      ? "a live session keeps only its newest samples: "
						"pin a range for their time order"
					      : "no samples in time order for this sample type";
			return;
		}
		f->profile_total = rules_totals(ctx->rules, ctx->rule, ctx->type)->profile_total;
		build_time_order(f, ctx->model);
		return;
	}
	build_left_heavy(f, ctx);
}

/* ---- layout ------------------------------------------------------------- */

static void add_span(struct flame_layout *l, struct flame_span s)
{
	GROW(l->spans, l->spans_cap, l->nspans + 1);
	l->spans[l->nspans++] = s;
	if (s.level + 1 > l->levels)
		l->levels = s.level + 1;
}

static int compare_spans(const void *a, const void *b)
{
	const struct flame_span *x = a, *y = b;
	if (x->level != y->level)
		return x->level < y->level ? -1 : 1;
	return (x->start > y->start) - (x->start < y->start);
}

struct grid {
	double x0, scale;
	uint32_t limit; /* eighths */
};

static uint32_t eighth(const struct grid *g, double x)
{
	double e = round((x - g->x0) * g->scale);
	return e < 0 ? 0 : e > g->limit ? g->limit : (uint32_t)e;
}

/* Narrow frames, and how wide a block of them may grow (flame_lay_out). */
struct merging {
	uint32_t narrow;    /* eighths: narrower frames are merged */
	uint32_t block_cap; /* eighths: a block closes once this wide */
};

static struct merging merging_of(const struct flame *f)
{
	if (f->order == FLAME_TIME_ORDER)
		return (struct merging){ 3 * 8, 8 * 8 };
	return (struct merging){ 8, UINT32_MAX };
}

static uint32_t width_eighths(const struct grid *g, const struct flame_frame *fr)
{
	return eighth(g, fr->x + fr->width) - eighth(g, fr->x);
}

/* The run of narrow siblings from `first` that makes one block: up to
 * its last frame, *merged of them; *gaps is the time between them (none
 * in left-heavy, where siblings touch), so that the block ends at the
 * last one's end less the gaps. */
static uint32_t narrow_run(const struct flame *f, uint32_t first, uint32_t to,
			   const struct grid *g, struct merging mg, double *gaps,
			   uint32_t *merged)
{
	uint32_t last = first;
	uint32_t start = eighth(g, f->frames[first].x);
	*gaps = 0;
	*merged = 1;
	for (uint32_t s = f->frames[first].next_sibling; s != NO_ID && s < to;
	     s = f->frames[s].next_sibling) {
		const struct flame_frame *prev = &f->frames[last], *next = &f->frames[s];
		double end = prev->x + prev->width;
		if (width_eighths(g, next) >= mg.narrow || eighth(g, next->x) - eighth(g, end) >= 8 ||
		    eighth(g, end - *gaps) - start >= mg.block_cap)
			break;
		last = s;
		(*merged)++;
		*gaps += next->x - end;
	}
	return last;
}

/* Lays out frames [from, to) of one zoom; returns nothing, adds spans. */
static void lay_out_range(const struct flame *f, uint32_t from, uint32_t to,
			  uint32_t base_depth, uint32_t base_level,
			  uint32_t max_levels, const struct grid *g,
			  struct flame_layout *out)
{
	struct merging mg = merging_of(f);
	uint32_t i = from;
	while (i < to) {
		const struct flame_frame *fr = &f->frames[i];
		uint32_t level = base_level + fr->depth - base_depth;
		if (level >= max_levels) {
			i = fr->end;
			continue;
		}
		uint32_t start = eighth(g, fr->x), stop = eighth(g, fr->x + fr->width);
		double gaps = 0;
		uint32_t merged = 1;
		uint32_t last = stop - start >= mg.narrow ? i
			: narrow_run(f, i, to, g, mg, &gaps, &merged);
		if (last == i && stop - start >= 8) { /* wide, or alone and named */
			add_span(out, (struct flame_span){ i, level, start, stop, 0, 1, i, NO_ID });
			i++;
			continue;
		}
		stop = eighth(g, f->frames[last].x + f->frames[last].width - gaps);
		if (stop == start && start < g->limit)
			stop = start + 1; /* a sliver, so that it is seen */
		uint32_t named = NO_ID;
		if (f->order == FLAME_TIME_ORDER && merged > 1 &&
		    flame_shares(f, i, last, &out->shares, &out->shares_cap))
			named = out->shares[0].frame;
		if (stop > start)
			add_span(out, (struct flame_span){ i, level, start, stop,
							   FLAME_SPAN_REMAINDER, merged, last, named });
		i = f->frames[last].end;
	}
}

void flame_lay_out(const struct flame *f, struct flame_zoom zoom, unsigned cols,
		   uint32_t max_levels, struct flame_layout *out)
{
	out->nspans = 0;
	out->levels = 0;
	if (!f->nframes || !cols || !max_levels)
		return;
	struct grid g = { .limit = cols * 8 };
	uint32_t from = 0, to = (uint32_t)f->nframes, level = 0, depth = 0;
	double width = f->whole;
	if (zoom.first != NO_ID) {
		const struct flame_frame *z = &f->frames[zoom.first], *zl = &f->frames[zoom.last];
		for (uint32_t a = z->parent; a != NO_ID; a = f->frames[a].parent)
			level++;
		uint32_t l = level;
		for (uint32_t a = z->parent; a != NO_ID; a = f->frames[a].parent)
			if (--l < max_levels)
				add_span(out, (struct flame_span){ a, l, 0, g.limit,
								   FLAME_SPAN_ANCESTOR, 1, a, NO_ID });
		from = zoom.first;
		to = zl->end;
		depth = z->depth;
		g.x0 = z->x;
		width = zl->x + zl->width - z->x;
	}
	g.scale = width > 0 ? g.limit / width : 0;
	if (width > 0)
		lay_out_range(f, from, to, depth, level, max_levels, &g, out);
	if (out->nspans > 1)
		qsort(out->spans, out->nspans, sizeof(*out->spans), compare_spans);
}

const struct flame_span *flame_span_of(const struct flame *f,
				       const struct flame_layout *l, uint32_t i)
{
	for (size_t k = 0; k < l->nspans; k++) {
		const struct flame_span *sp = &l->spans[k];
		if (sp->index == i ||
		    ((sp->flags & FLAME_SPAN_REMAINDER) && i > sp->index &&
		     i < f->frames[sp->last].end))
			return sp;
	}
	return NULL;
}

uint32_t flame_run_size(const struct flame *f, uint32_t first, uint32_t last,
			double *time)
{
	uint32_t n = 0;
	*time = 0;
	for (uint32_t s = first; s != NO_ID; s = f->frames[s].next_sibling) {
		n++;
		*time += f->frames[s].width;
		if (s == last)
			break;
	}
	return n;
}

static int by_frame(const void *a, const void *b)
{
	const struct flame_share *x = a, *y = b;
	return (x->frame > y->frame) - (x->frame < y->frame);
}

static int most_first(const void *a, const void *b)
{
	const struct flame_share *x = a, *y = b;
	if (x->width != y->width)
		return x->width < y->width ? 1 : -1;
	return by_frame(a, b);
}

size_t flame_shares(const struct flame *f, uint32_t first, uint32_t last,
		    struct flame_share **shares, size_t *cap)
{
	size_t n = 0;
	for (uint32_t s = first; s != NO_ID; s = f->frames[s].next_sibling) {
		GROW(*shares, *cap, n + 1);
		(*shares)[n++] = (struct flame_share){ f->frames[s].frame, f->frames[s].width };
		if (s == last)
			break;
	}
	qsort(*shares, n, sizeof(**shares), by_frame);
	size_t k = 0;
	for (size_t j = 0; j < n; j++) {
		if (k && (*shares)[k - 1].frame == (*shares)[j].frame)
			(*shares)[k - 1].width += (*shares)[j].width;
		else
			(*shares)[k++] = (*shares)[j];
	}
	qsort(*shares, k, sizeof(**shares), most_first);
	return k;
}

void flame_layout_free(struct flame_layout *l)
{
	free(l->spans);
	free(l->shares);
	memset(l, 0, sizeof(*l));
}

/* ---- search and moving --------------------------------------------------- */

double flame_match(const struct flame *f, const bool *frame_matches,
		   uint8_t *matched)
{
	double covered = 0;
	uint32_t inside_until = 0; /* the end of the outermost match open */
	for (uint32_t i = 0; i < f->nframes; i++) {
		const struct flame_frame *fr = &f->frames[i];
		matched[i] = frame_matches[fr->frame];
		if (matched[i] && i >= inside_until) {
			covered += fr->width;
			inside_until = fr->end;
		}
	}
	return f->profile_total > 0 ? covered / f->profile_total : 0;
}

uint32_t flame_parent(const struct flame *f, uint32_t from)
{
	uint32_t p = from < f->nframes ? f->frames[from].parent : NO_ID;
	return p == NO_ID ? from : p;
}

uint32_t flame_first_child(const struct flame *f, uint32_t from)
{
	if (from + 1 < f->nframes && f->frames[from].end > from + 1)
		return from + 1;
	return from;
}

uint32_t flame_neighbour(const struct flame *f, uint32_t from, int direction)
{
	if (from >= f->nframes)
		return from;
	uint32_t depth = f->frames[from].depth;
	if (direction > 0) {
		for (uint32_t j = f->frames[from].end; j < f->nframes; j++)
			if (f->frames[j].depth == depth)
				return j;
	} else {
		for (uint32_t j = from; j-- > 0;)
			if (f->frames[j].depth == depth)
				return j;
	}
	return from;
}

/* ---- differential ------------------------------------------------------ */

static uint32_t base_child(const struct flame *base, uint32_t parent,
			   uint32_t frame)
{
	uint32_t c = parent == NO_ID ? (base->nframes ? 0 : NO_ID)
		: parent + 1 < base->frames[parent].end ? parent + 1 : NO_ID;
	for (; c != NO_ID; c = base->frames[c].next_sibling)
		if (base->frames[c].frame == frame)
			return c;
	return NO_ID;
}

uint32_t *flame_base_counterparts(const struct flame *now, const struct flame *base,
				  const uint32_t *match)
{
	uint32_t *in_base = xmalloc((now->nframes + 1) * sizeof(uint32_t));
	for (uint32_t i = 0; i < now->nframes; i++) {
		const struct flame_frame *fr = &now->frames[i];
		uint32_t parent = fr->parent == NO_ID ? NO_ID : in_base[fr->parent];
		uint32_t want = match[fr->frame];
		in_base[i] = want == NO_ID || (fr->parent != NO_ID && parent == NO_ID)
			? NO_ID : base_child(base, parent, want);
	}
	return in_base;
}

void flame_base_widths(const struct flame *now, const struct flame *base,
		       const uint32_t *match, double *base_width)
{
	uint32_t *in_base = flame_base_counterparts(now, base, match);
	for (uint32_t i = 0; i < now->nframes; i++)
		base_width[i] = in_base[i] == NO_ID ? NAN : base->frames[in_base[i]].width;
	free(in_base);
}

size_t flame_base_only(const struct flame *now, const struct flame *base,
		       const uint32_t *in_base, uint8_t *base_only)
{
	uint8_t *reached = xcalloc(base->nframes + 1, 1);
	for (uint32_t i = 0; i < now->nframes; i++)
		if (in_base[i] != NO_ID)
			reached[in_base[i]] = 1;
	size_t n = 0;
	for (uint32_t j = 0; j < base->nframes; j++) {
		uint32_t p = base->frames[j].parent;
		base_only[j] = !reached[j] && (p == NO_ID || reached[p]);
		n += base_only[j];
	}
	free(reached);
	return n;
}
