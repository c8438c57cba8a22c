/* Sorting a tree's nodes by their chains of callers is sorting the
 * suffixes of a tree: prefix doubling, as for a suffix array.  Each round
 * ranks the nodes by their first 2s frames from the ranks of their first
 * s frames and those of their ancestor s levels up, with two counting
 * sorts; log2(depth) rounds, each linear in the nodes.  A shorter chain
 * sorts before the longer ones it begins (rank 0 is "no frame"). */
#include <stdlib.h>
#include <string.h>

#include "base/background.h"
#include "base/util.h"
#include "caller_chains.h"

/* Each depth's nodes in the order of a depth-first walk, for finding
 * ancestors by binary search. */
static void index_levels(struct caller_chains *c, const uint32_t *walked, uint32_t n)
{
	c->level_start = xcalloc(c->nlevels + 2, sizeof(uint32_t));
	c->level_nodes = xmalloc((n + 1) * sizeof(uint32_t));
	for (uint32_t v = 0; v < n; v++)
		c->level_start[c->depth[v] + 2]++;
	for (uint32_t d = 0; d < c->nlevels; d++)
		c->level_start[d + 2] += c->level_start[d + 1];
	for (uint32_t i = 0; i < n; i++) {
		uint32_t v = walked[i];
		c->level_nodes[c->level_start[c->depth[v] + 1]++] = v;
	}
}

/* Depths and a depth-first walk from the roots; false unless it reaches
 * every node once (a tree). */
static bool walk_tree(struct caller_chains *c, const struct model *m)
{
	uint32_t n = (uint32_t)m->nnodes, nwalked = 0, nstack = 0, pushed = 0;
	uint32_t *walked = xmalloc((n + 1) * sizeof(uint32_t));
	uint32_t *stack = xmalloc((n + 1) * sizeof(uint32_t));
	c->depth = xmalloc((n + 1) * sizeof(uint32_t));
	c->walk_index = xmalloc((n + 1) * sizeof(uint32_t));
	c->nlevels = 0;
	for (uint32_t root = 0; root < n && pushed <= n; root++) {
		if (m->nodes[root].parent != NO_ID)
			continue;
		c->depth[root] = 0;
		stack[nstack++] = root;
		pushed++;
		while (nstack) {
			uint32_t v = stack[--nstack];
			c->walk_index[v] = nwalked;
			walked[nwalked++] = v;
			if (c->depth[v] + 1 > c->nlevels)
				c->nlevels = c->depth[v] + 1;
			for (uint32_t k = m->nodes[v].child_end; k-- > m->nodes[v].child_start;) {
				if (++pushed > n)
					break;
				uint32_t child = m->child_ids[k];
				c->depth[child] = c->depth[v] + 1;
				stack[nstack++] = child;
			}
		}
	}
	bool tree = pushed == n && nwalked == n;
	if (tree)
		index_levels(c, walked, n);
	free(stack);
	free(walked);
	return tree;
}

/* Stable counting sort of `in` by key[v] (0..max) into `out`. */
static void counting_sort(const uint32_t *in, uint32_t *out, uint32_t n,
			  const uint32_t *key, uint32_t max, uint32_t *count)
{
	memset(count, 0, ((size_t)max + 2) * sizeof(uint32_t));
	for (uint32_t i = 0; i < n; i++) {
		if (i + 16 < n) /* keys of nodes far apart */
			__builtin_prefetch(&key[in[i + 16]]);
		count[key[in[i]] + 1]++;
	}
	for (uint32_t r = 0; r <= max; r++)
		count[r + 1] += count[r];
	for (uint32_t i = 0; i < n; i++) {
		if (i + 16 < n)
			__builtin_prefetch(&key[in[i + 16]]);
		out[count[key[in[i]]]++] = in[i];
	}
}

struct chain_doubling {
	uint32_t n;
	uint32_t *rank, *up_rank; /* by the first s frames; the ancestor's */
	uint32_t *up;             /* each node's ancestor s levels up */
	uint32_t *scratch, *count;
	uint32_t max_rank;
};

/* One round: sorts by (rank, up_rank) and renumbers; false when the
 * chains are then wholly sorted. */
static bool doubling_round(struct chain_doubling *d, uint32_t *order)
{
	uint32_t n = d->n;
	bool longer = false;
	for (uint32_t v = 0; v < n; v++) {
		if (v + 16 < n && d->up[v + 16] != NO_ID)
			__builtin_prefetch(&d->rank[d->up[v + 16]]);
		d->up_rank[v] = d->up[v] == NO_ID ? 0 : d->rank[d->up[v]];
		longer |= d->up[v] != NO_ID;
	}
	counting_sort(order, d->scratch, n, d->up_rank, d->max_rank, d->count);
	counting_sort(d->scratch, order, n, d->rank, d->max_rank, d->count);
	uint32_t next = 0;
	for (uint32_t i = 0; i < n; i++) {
		if (i + 16 < n) {
			__builtin_prefetch(&d->rank[order[i + 16]]);
			__builtin_prefetch(&d->up_rank[order[i + 16]]);
		}
		uint32_t v = order[i], prev = i ? order[i - 1] : NO_ID;
		if (!i || d->rank[v] != d->rank[prev] || d->up_rank[v] != d->up_rank[prev])
			next++;
		d->scratch[v] = next;
	}
	memcpy(d->rank, d->scratch, n * sizeof(uint32_t));
	d->max_rank = next;
	if (!longer || next == n)
		return false;
	for (uint32_t v = 0; v < n; v++) { /* twice as far up */
		if (v + 16 < n && d->up[v + 16] != NO_ID)
			__builtin_prefetch(&d->up[d->up[v + 16]]);
		d->scratch[v] = d->up[v] == NO_ID ? NO_ID : d->up[d->up[v]];
	}
	memcpy(d->up, d->scratch, n * sizeof(uint32_t));
	return true;
}

static void doubling_free(struct chain_doubling *d)
{
	if (!d)
		return;
	free(d->rank);
	free(d->up_rank);
	free(d->up);
	free(d->scratch);
	free(d->count);
	free(d);
}

/* Ranked by frame alone, in node order: sorted on no place yet. */
static void start_sort(struct caller_chains *c, const struct model *m)
{
	uint32_t n = (uint32_t)m->nnodes;
	struct chain_doubling *d = xcalloc(1, sizeof(*d));
	d->n = n;
	d->rank = xmalloc((n + 1) * sizeof(uint32_t));
	d->up_rank = xmalloc((n + 1) * sizeof(uint32_t));
	d->up = xmalloc((n + 1) * sizeof(uint32_t));
	d->scratch = xmalloc((n + 1) * sizeof(uint32_t));
	d->max_rank = (uint32_t)m->nframes;
	d->count = xmalloc(((size_t)(n > m->nframes ? n : m->nframes) + 2) * sizeof(uint32_t));
	c->sorted = xmalloc((n + 1) * sizeof(uint32_t));
	for (uint32_t v = 0; v < n; v++) {
		c->sorted[v] = v;
		d->rank[v] = m->nodes[v].frame + 1;
		d->up[v] = m->nodes[v].parent;
	}
	c->next = d;
	c->places = 1; /* the ranks'; `sorted` follows after a round */
}

void caller_chains_sort_to(struct caller_chains *c, uint32_t places)
{
	while (c->next && c->places < places) {
		/* A round at a time, made ahead; no more once not needed. */
		if (!background_pause_point())
			return;
		if (doubling_round(c->next, c->sorted)) {
			c->places *= 2;
		} else {
			doubling_free(c->next);
			c->next = NULL;
			c->places = CHAINS_WHOLE;
		}
	}
}

bool caller_chains_build(struct caller_chains *c, const struct model *m)
{
	memset(c, 0, sizeof(*c));
	if (!(m->caps & HAS_NODES) || (m->caps & HAS_NODE_GRAPH))
		return false;
	if (!walk_tree(c, m)) { /* not one tree: no order to trust */
		caller_chains_free(c);
		return false;
	}
	background_pause_point();
	start_sort(c, m);
	caller_chains_sort_to(c, 2);
	return true;
}

void caller_chains_free(struct caller_chains *c)
{
	doubling_free(c->next);
	FREE_ALL(c->sorted, c->depth, c->walk_index, c->level_start, c->level_nodes);
	memset(c, 0, sizeof(*c));
}

bool chain_order_update(struct chain_order *o, const struct caller_chains *c,
			const struct model *m)
{
	if (o->order && o->places == c->places)
		return false;
	uint32_t kept = 0;
	if (!o->order)
		o->order = xmalloc((m->nnodes + 1) * sizeof(uint32_t));
	for (uint32_t i = 0; i < (uint32_t)m->nnodes; i++)
		if (!node_hidden(m, c->sorted[i]))
			o->order[kept++] = c->sorted[i];
	o->count = kept;
	o->places = c->places;
	return true;
}

void chain_order_free(struct chain_order *o)
{
	free(o->order);
	memset(o, 0, sizeof(*o));
}

/* The ancestor of v k levels up: of the nodes at its depth, the last one
 * the walk reached before v. */
static uint32_t ancestor(const struct caller_chains *c, uint32_t v, uint32_t k)
{
	if (k == 0) /* the first rows ask for every node's own frame */
		return v;
	if (k > c->depth[v])
		return NO_ID;
	uint32_t level = c->depth[v] - k;
	uint32_t lo = c->level_start[level], hi = c->level_start[level + 1];
	while (hi - lo > 1) { /* level_nodes[lo] is walked before v */
		uint32_t mid = lo + (hi - lo) / 2;
		if (c->walk_index[c->level_nodes[mid]] <= c->walk_index[v])
			lo = mid;
		else
			hi = mid;
	}
	return c->level_nodes[lo];
}

uint32_t caller_chains_frame_at(const struct caller_chains *c,
				const struct model *m,
				const struct chain_order *o, uint32_t i, uint32_t k)
{
	uint32_t a = ancestor(c, o->order[i], k);
	return a == NO_ID ? NO_ID : m->nodes[a].frame;
}

uint32_t caller_chains_longer(const struct caller_chains *c,
			      const struct chain_order *o, uint32_t lo,
			      uint32_t hi, uint32_t k)
{
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;
		if (c->depth[o->order[mid]] > k)
			hi = mid;
		else
			lo = mid + 1;
	}
	return lo;
}

uint32_t caller_chains_run_end(const struct caller_chains *c,
			       const struct model *m,
			       const struct chain_order *o, uint32_t i,
			       uint32_t hi, uint32_t k)
{
	uint32_t frame = caller_chains_frame_at(c, m, o, i, k), lo = i + 1;
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;
		if (caller_chains_frame_at(c, m, o, mid, k) != frame)
			hi = mid;
		else
			lo = mid + 1;
	}
	return lo;
}
