/* Bottom-up: every function, expandable into the chains of callers that
 * led to it (DevTools' "Bottom-Up", pprof's -peek upwards).
 *
 * A row stands for a path f <- c1 <- ... <- cm.  Under `exact` and
 * `additive` it is backed by the call tree: the nodes v of f whose
 * ancestors carry those frames, so its numbers are sums over those v
 * (exact counts only the outermost v of each stack).  For a tree those
 * nodes are one range of the nodes sorted by their chains of callers
 * (caller_chains.h), so that a row costs the same at any depth of a deep
 * recursion; a node graph (XS) keeps, per row, its nodes and how far up
 * the path has reached.  Under `divided` the
 * rule itself says how f's time spreads over callers: each function hands
 * an equal share to each of its callers, and a caller already on the path
 * gets nothing, so a row's numbers are f's divided by the product of the
 * caller counts along the path.  Call-arc data has no tree either: there
 * the same walk up the graph serves every rule, and under `gprof` the
 * shares follow the calls, as gprof's own estimate does. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "rules/caller_chains.h"
#include "view.h"

struct match {
	uint32_t origin; /* a node of the row's function */
	uint32_t at;     /* its ancestor at the end of the path */
};

struct path {
	uint32_t parent; /* NO_ID at the top level */
	uint32_t frame;
	uint32_t first, count; /* matches or chains.order [first .. first+count) */
	double share;          /* divided: part of f's numbers on this path */
	bool back;             /* gprof: a caller inside the cycle, no time */
	uint32_t level;        /* frames on the path after f */
	uint32_t function;     /* f, the function the path starts from */
	uint64_t frames_seen;  /* a bit per frame on the path, hashed */
};

struct bottomup {
	struct path *paths;
	size_t npaths, paths_cap;
	bool by_chains; /* rows are ranges of chain_order.order */
	const struct caller_chains *chains; /* the rules', shared */
	struct chain_order chain_order;
	/* Sums over chain_order.order[0, i): self, and total under the rule. */
	long double *self_before, *total_before;
	struct match *matches;
	size_t nmatches, matches_cap;
	uint32_t *nodes_start; /* nodes of frame f: frame_nodes[start[f]..] */
	uint32_t *frame_nodes;
};

static struct bottomup *state(struct view *v)
{
	return v->state;
}

static uint64_t frame_bit(uint32_t frame)
{
	return UINT64_C(1) << ((frame * UINT64_C(0x9E3779B97F4A7C15)) >> 58);
}

static uint32_t add_path(struct bottomup *b, struct path p)
{
	if (p.parent != NO_ID) {
		const struct path *parent = &b->paths[p.parent];
		p.level = parent->level + 1;
		p.function = parent->function;
		p.frames_seen = parent->frames_seen | frame_bit(p.frame);
	} else {
		p.level = 0;
		p.function = p.frame;
		p.frames_seen = frame_bit(p.frame);
	}
	GROW(b->paths, b->paths_cap, b->npaths + 1);
	b->paths[b->npaths] = p;
	return (uint32_t)b->npaths++;
}

static void add_match(struct bottomup *b, uint32_t origin, uint32_t at)
{
	GROW(b->matches, b->matches_cap, b->nmatches + 1);
	b->matches[b->nmatches++] = (struct match){ origin, at };
}

static bool uses_nodes(const struct view *v)
{
	return v->ctx->rule != RULE_DIVIDED && (v->ctx->model->caps & HAS_NODES);
}

/* Sums over the path's nodes: self of each origin, and its subtree under
 * the rule (exact: only origins with no ancestor of the same function). */
static void sum_matches(struct view *v, const struct path *p, struct row *r)
{
	struct bottomup *b = state(v);
	const struct model *m = v->ctx->model;
	const double *sub = rules_node_totals(v->ctx->rules, v->ctx->type);
	const uint8_t *outer = v->ctx->rule == RULE_EXACT
		? rules_outermost(v->ctx->rules) : NULL;
	r->self = 0;
	r->total = v->totals->total ? 0 : NAN;
	for (uint32_t i = p->first; i < p->first + p->count; i++) {
		uint32_t origin = b->matches[i].origin;
		r->self += node_value(m, origin, v->ctx->type);
		if (v->totals->total && (!outer || outer[origin]))
			r->total += sub[origin];
	}
}

/* The running sums that make a range's numbers two subtractions. */
static void sum_chains(struct view *v)
{
	struct bottomup *b = state(v);
	const struct model *m = v->ctx->model;
	const double *sub = rules_node_totals(v->ctx->rules, v->ctx->type);
	const uint8_t *outer = v->ctx->rule == RULE_EXACT
		? rules_outermost(v->ctx->rules) : NULL;
	long double self = 0, total = 0;
	uint32_t n = b->chain_order.count; /* the same each time: made once */
	if (!b->self_before) {
		b->self_before = xmalloc(((size_t)n + 1) * sizeof(long double));
		b->total_before = xmalloc(((size_t)n + 1) * sizeof(long double));
	}
	const uint32_t *order = b->chain_order.order;
	for (size_t i = 0; i < n; i++) {
		uint32_t node = order[i];
		if (i + 16 < n) { /* nodes in chain order: far apart */
			__builtin_prefetch(&m->node_self[(size_t)order[i + 16] * m->ntypes]);
			__builtin_prefetch(&sub[order[i + 16]]);
		}
		b->self_before[i] = self;
		b->total_before[i] = total;
		self += node_value(m, node, v->ctx->type);
		if (v->totals->total && (!outer || outer[node]))
			total += sub[node];
	}
	b->self_before[n] = self;
	b->total_before[n] = total;
}

static void sum_range(struct view *v, const struct path *p, struct row *r)
{
	struct bottomup *b = state(v);
	uint32_t end = p->first + p->count;
	r->self = (double)(b->self_before[end] - b->self_before[p->first]);
	r->total = v->totals->total
		? (double)(b->total_before[end] - b->total_before[p->first]) : NAN;
	if (b->chains->depth[b->chain_order.order[end - 1]] > p->level)
		r->flags |= ROW_EXPANDABLE; /* the longest chains sort last */
}

/* Callers of f, not counting arcs hidden outside a time range. */
static uint32_t count_callers(const struct model *m, uint32_t f)
{
	uint32_t k = 0;
	for (uint32_t a = m->callers_start[f]; a < m->callers_start[f + 1]; a++)
		k += !arc_hidden(m, a);
	return k;
}

static bool has_callers(const struct model *m, uint32_t f)
{
	return count_callers(m, f) > 0;
}

static bool match_has_parent(const struct model *m, const struct match *mt)
{
	return m->parents_start[mt->at + 1] > m->parents_start[mt->at];
}

static bool on_path(const struct bottomup *b, uint32_t id, uint32_t frame)
{
	if (!(b->paths[id].frames_seen & frame_bit(frame)))
		return false; /* the walk only where the frame may be on it */
	for (uint32_t q = id; q != NO_ID; q = b->paths[q].parent)
		if (b->paths[q].frame == frame)
			return true;
	return false;
}

static struct row path_row(struct view *v, uint32_t id)
{
	struct bottomup *b = state(v);
	const struct path *p = &b->paths[id];
	const struct model *m = v->ctx->model;
	struct row r = { .frame = p->frame, .item = id, .calls = NAN };
	uint32_t f = p->function;
	if (b->by_chains) {
		sum_range(v, p, &r);
	} else if (uses_nodes(v)) {
		sum_matches(v, p, &r);
		for (uint32_t i = p->first; i < p->first + p->count; i++)
			if (match_has_parent(m, &b->matches[i])) {
				r.flags |= ROW_EXPANDABLE;
				break;
			}
	} else if (p->back) {
		r.flags |= ROW_CYCLE;
	} else {
		r.self = v->totals->self[f] * p->share;
		r.total = view_total_or_nan(v->totals, f) * p->share;
		if (has_callers(m, p->frame))
			r.flags |= ROW_EXPANDABLE;
	}
	if (p->parent != NO_ID && on_path(b, p->parent, p->frame))
		r.flags |= ROW_CYCLE;
	return r;
}

/* Records path p and appends its row to `rows`. */
static void append_path(struct view *v, struct path p, struct row **rows, size_t *n,
			size_t *cap)
{
	struct row r = path_row(v, add_path(state(v), p));
	view_append(rows, n, cap, &r);
}

static void index_nodes_by_frame(struct bottomup *b, const struct model *m)
{
	b->nodes_start = xcalloc(m->nframes + 2, sizeof(uint32_t));
	b->frame_nodes = xmalloc((m->nnodes + 1) * sizeof(uint32_t));
	for (size_t n = 0; n < m->nnodes; n++)
		b->nodes_start[m->nodes[n].frame + 2] += !node_hidden(m, (uint32_t)n);
	for (size_t f = 0; f < m->nframes; f++)
		b->nodes_start[f + 2] += b->nodes_start[f + 1];
	for (uint32_t n = 0; n < m->nnodes; n++)
		if (!node_hidden(m, n)) /* outside a time range */
			b->frame_nodes[b->nodes_start[m->nodes[n].frame + 1]++] = n;
}

static bool has_numbers(const struct view *v, uint32_t f)
{
	double total = view_total_or_nan(v->totals, f);
	return v->totals->self[f] != 0 || !(isnan(total) || total == 0);
}

/* Rows down to level L need the chains sorted on L + 2 places (the
 * chains that end at L before those that go on).  Sorting further moves
 * nodes within the rows made so far: the running sums are made again, so
 * the sort goes four times deeper at once, not twice, to make them half
 * as often. */
static bool sort_chains_to(struct view *v, uint32_t places)
{
	struct bottomup *b = state(v);
	uint32_t had = b->chain_order.places;
	if (places > had && had && had <= UINT32_MAX / 4 && places < 4 * had)
		places = 4 * had;
	b->chains = rules_caller_chains(v->ctx->rules, places);
	if (!b->chains)
		return false;
	if (chain_order_update(&b->chain_order, b->chains, v->ctx->model))
		sum_chains(v);
	return true;
}

/* A row per function: its run of chain_order.order. */
static void build_from_chains(struct view *v)
{
	struct bottomup *b = state(v);
	const struct model *m = v->ctx->model;
	const struct chain_order *o = &b->chain_order;
	for (uint32_t i = 0; i < o->count;) {
		uint32_t f = m->nodes[o->order[i]].frame;
		uint32_t end = caller_chains_run_end(b->chains, m, o, i, o->count, 0);
		if (has_numbers(v, f)) {
			struct path p = { .parent = NO_ID, .frame = f, .first = i,
					  .count = end - i, .share = 1.0 };
			append_path(v, p, &v->rows, &v->nrows, &v->rows_cap);
		}
		i = end;
	}
}

static void bottomup_build(struct view *v)
{
	const struct model *m = v->ctx->model;
	struct bottomup *b = xcalloc(1, sizeof(*b));
	v->state = b;
	if (uses_nodes(v) && sort_chains_to(v, 2)) {
		b->by_chains = true;
		build_from_chains(v);
		return;
	}
	index_nodes_by_frame(b, m);
	for (uint32_t f = 0; f < m->nframes; f++) {
		if (!has_numbers(v, f))
			continue;
		struct path p = { .parent = NO_ID, .frame = f, .first = (uint32_t)b->nmatches, .share = 1.0 };
		for (uint32_t i = b->nodes_start[f]; i < b->nodes_start[f + 1]; i++)
			add_match(b, b->frame_nodes[i], b->frame_nodes[i]);
		p.count = (uint32_t)(b->nmatches - p.first);
		append_path(v, p, &v->rows, &v->nrows, &v->rows_cap);
	}
}

struct step_up {
	uint32_t frame, origin, at;
};

static int by_frame(const void *a, const void *b)
{
	const struct step_up *x = a, *y = b;
	if (x->frame != y->frame)
		return x->frame < y->frame ? -1 : 1;
	return (x->origin > y->origin) - (x->origin < y->origin);
}

/* Moves every match one parent up and groups the results by frame. */
static void node_children(struct view *v, uint32_t id, struct row **out,
			  size_t *n, size_t *cap)
{
	struct bottomup *b = state(v);
	const struct model *m = v->ctx->model;
	struct step_up *steps = NULL;
	size_t nsteps = 0, steps_cap = 0;
	const struct path parent = b->paths[id];
	for (uint32_t i = parent.first; i < parent.first + parent.count; i++) {
		struct match mt = b->matches[i];
		for (uint32_t k = m->parents_start[mt.at]; k < m->parents_start[mt.at + 1]; k++) {
			uint32_t up = m->parent_ids[k];
			GROW(steps, steps_cap, nsteps + 1);
			steps[nsteps++] = (struct step_up){ m->nodes[up].frame, mt.origin, up };
		}
	}
	if (nsteps > 1)
		qsort(steps, nsteps, sizeof(*steps), by_frame);
	for (size_t i = 0; i < nsteps;) {
		struct path p = { .parent = id, .frame = steps[i].frame,
				  .first = (uint32_t)b->nmatches, .share = 1.0 };
		size_t j = i;
		for (; j < nsteps && steps[j].frame == steps[i].frame; j++)
			add_match(b, steps[j].origin, steps[j].at);
		p.count = (uint32_t)(j - i);
		append_path(v, p, out, n, cap);
		i = j;
	}
	free(steps);
}

/* The callers one place further up: the range split by the frame there. */
static void chain_children(struct view *v, uint32_t id, struct row **out,
			   size_t *n, size_t *cap)
{
	struct bottomup *b = state(v);
	const struct model *m = v->ctx->model;
	const struct path parent = b->paths[id];
	uint32_t hi = parent.first + parent.count, place = parent.level + 1;
	sort_chains_to(v, place + 2);
	const struct chain_order *o = &b->chain_order;
	uint32_t i = caller_chains_longer(b->chains, o, parent.first, hi, parent.level);
	while (i < hi) {
		uint32_t end = caller_chains_run_end(b->chains, m, o, i, hi, place);
		uint32_t caller = caller_chains_frame_at(b->chains, m, o, i, place);
		struct path p = { .parent = id, .frame = caller, .first = i, .count = end - i, .share = 1.0 };
		append_path(v, p, out, n, cap);
		i = end;
	}
}


struct caller_part {
	uint32_t caller;
	double part;
};

static int by_caller(const void *a, const void *b)
{
	const struct caller_part *x = a, *y = b;
	return (x->caller > y->caller) - (x->caller < y->caller);
}

/* gprof gives a cycle's time, each member's included, to the cycle's
 * callers from outside, by their calls into it: those are a member's
 * callers here (one row per caller, whichever member it calls).  Its
 * callers inside the cycle are shown, marked, without time, as gprof's
 * call graph lists them. */
static void cycle_callers(struct view *v, uint32_t id, struct row **out,
			  size_t *n, size_t *cap)
{
	struct bottomup *b = state(v);
	const struct model *m = v->ctx->model;
	const struct gprof_graph *g = v->totals->gprof;
	uint32_t f = b->paths[id].frame, cyc = g->cycle[f];
	const struct gprof_cycle *c = &g->cycles[cyc];
	for (uint32_t a = m->callers_start[f]; a < m->callers_start[f + 1]; a++) {
		uint32_t caller = m->arcs[a].caller;
		if (g->cycle[caller] != cyc || caller == f)
			continue;
		struct path p = { .parent = id, .frame = caller, .back = true };
		append_path(v, p, out, n, cap);
	}
	struct caller_part *parts = NULL;
	size_t nparts = 0, parts_cap = 0;
	for (uint32_t i = c->members_start; i < c->members_end; i++) {
		uint32_t member = g->members[i];
		for (uint32_t a = m->callers_start[member]; a < m->callers_start[member + 1]; a++) {
			uint32_t caller = m->arcs[a].caller;
			if (g->cycle[caller] == cyc || on_path(b, id, caller))
				continue;
			GROW(parts, parts_cap, nparts + 1);
			parts[nparts++] = (struct caller_part){
				caller, c->calls > 0 ? m->arcs[a].count / c->calls : 0 };
		}
	}
	if (nparts > 1)
		qsort(parts, nparts, sizeof(*parts), by_caller);
	for (size_t i = 0; i < nparts;) {
		double part = 0;
		size_t j = i;
		for (; j < nparts && parts[j].caller == parts[i].caller; j++)
			part += parts[j].part; /* a caller of two members: one row */
		struct path p = { .parent = id, .frame = parts[i].caller,
				  .share = b->paths[id].share * part };
		append_path(v, p, out, n, cap);
		i = j;
	}
	free(parts);
}

/* The divided rule's own spreading: equal shares to each caller. */
static void divided_children(struct view *v, uint32_t id, struct row **out,
			     size_t *n, size_t *cap)
{
	struct bottomup *b = state(v);
	const struct model *m = v->ctx->model;
	uint32_t f = b->paths[id].frame;
	uint32_t k = count_callers(m, f);
	/* gprof shares a function among its callers by their calls to it. */
	const double *calls = v->ctx->rule == RULE_GPROF ? v->totals->calls : NULL;
	const struct gprof_graph *g = v->totals->gprof;
	if (g && g->cycle[f]) {
		cycle_callers(v, id, out, n, cap);
		return;
	}
	for (uint32_t a = m->callers_start[f]; a < m->callers_start[f + 1]; a++) {
		uint32_t c = m->arcs[a].caller;
		if (arc_hidden(m, a))
			continue;
		if (on_path(b, id, c))
			continue; /* that share is dropped by the rule */
		double part = !calls ? 1.0 / k
			: calls[f] > 0 ? m->arcs[a].count / calls[f] : 0;
		struct path p = { .parent = id, .frame = c, .share = b->paths[id].share * part };
		append_path(v, p, out, n, cap);
	}
}

static void bottomup_children(struct view *v, size_t index, struct row **out,
			      size_t *n, size_t *cap)
{
	uint32_t id = v->rows[index].item;
	if (state(v)->by_chains)
		chain_children(v, id, out, n, cap);
	else if (uses_nodes(v))
		node_children(v, id, out, n, cap);
	else
		divided_children(v, id, out, n, cap);
}

static void bottomup_free(struct view *v)
{
	struct bottomup *b = state(v);
	if (!b)
		return;
	free(b->paths);
	free(b->matches);
	free(b->nodes_start);
	free(b->frame_nodes);
	chain_order_free(&b->chain_order);
	free(b->self_before);
	free(b->total_before);
	free(b);
	v->state = NULL;
}

const struct view_ops bottomup_ops = {
	.name = "bottom-up",
	.build = bottomup_build,
	.children = bottomup_children,
	.free_state = bottomup_free,
};
