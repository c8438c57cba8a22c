/* The `divided` rule (xsbug's ProfilePane), computed fast.
 *
 * The definition (time-rules.md) first removes the cycles of the function
 * graph as the XS file profiler does before it saves a .cpuprofile
 * (xsProfile.c, fxRemoveProfilerCycle): a depth-first walk from the root
 * over each function's callees, in the order the data first shows them,
 * drops every arc to a function still on the walk's stack.  Then every
 * function's self time is divided evenly among its callers, recursively,
 * until a share falls below the cutoff.
 *
 * What is left is a DAG, and a share's future depends only on the
 * function it has reached and its size in whole cutoffs, s = floor(share
 * / cutoff): it leaves f for its k callers when s >= k, and arrives at
 * each with floor(s / k) whole cutoffs, as floor(floor(x) / k) =
 * floor(x / k).  So the shares of one size at a function travel summed,
 * as one bucket: functions are settled callees first (the walk's
 * post-order), each gathering the buckets of its callees, and the work is
 * a step per bucket and caller instead of per share (on the 190 MB bench
 * profile, 2.3 M buckets for more than 200 M shares).  Shares of N(f)
 * whole cutoffs or more pass every cutoff above f and go on as one sum;
 * shares too small to leave f are counted there and go no further.
 *
 * The sizes are worked out in whole numbers from each self time, where
 * the definition divides the share itself at each step: the two agree
 * exactly for self times in whole units of the cutoff (whole microseconds
 * under time), else they could differ for a share within rounding of a
 * cutoff.  The sums are the same up to the order of their additions.
 */
#include <math.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "rules.h"
#include "base/background.h"
#include "base/util.h"

/* The shares at a function that leave it with one size: the part of
 * them each caller gets, summed. */
struct bucket {
	uint64_t size; /* each share's part in whole cutoffs, never 0 */
	double part;
};

/* What one function's shares have come to. */
struct waiting {
	double linear_at; /* N(f): shares this many cutoffs big stay whole */
	double linear;    /* summed shares that big, once f is settled */
	/* Once f is settled: the other shares that leave f, by the size of
	 * the part each caller gets; freed when the last caller has taken
	 * them. */
	struct bucket *buckets;
	uint32_t nbuckets;
	uint32_t callers_to_come;
};

/* The shares arriving at the function being settled, by the size of
 * the part each of its callers will get (open addressing, size 0 is
 * a free slot). */
struct gathering {
	struct bucket *slots;
	size_t cap;    /* a power of two */
	size_t mask;   /* slots in use for this function, less one */
	unsigned shift;
	uint32_t *taken; /* the slots filled, in the order they were */
	uint32_t ntaken;
};

struct divided {
	const struct model *m;
	const atomic_bool *stop; /* asked to give up, or NULL */
	double cutoff;
	double *total, *arc_total;
	/* The callers left once the cycles are gone: arc indexes (into
	 * m->arcs) caller_arcs[callers_start[f]..callers_start[f+1]). */
	uint32_t *callers_start;
	uint32_t *caller_arcs;
	uint8_t *kept;   /* per arc: still in the graph */
	uint32_t *order; /* every frame, each after all of its callees */
	struct waiting *at;
	struct gathering gathering;
};

static bool stop_asked(const struct divided *d)
{
	return d->stop && atomic_load_explicit(d->stop, memory_order_relaxed);
}

/* ---- the graph without its cycles ------------------------------------- */

struct ranking {
	uint32_t *rank; /* per arc: when the data first shows it, NO_ID yet */
	uint32_t next;
};

static void see(struct ranking *r, uint32_t arc)
{
	if (arc != NO_ID && r->rank[arc] == NO_ID)
		r->rank[arc] = r->next++;
}

static void see_arc(const struct model *m, struct ranking *r, uint32_t caller,
		    uint32_t callee)
{
	see(r, model_find_arc(m, caller, callee));
}

/* Streams: sample order, and within a sample from the leaf up. */
static void rank_from_stacks(const struct model *m, struct ranking *r)
{
	for (size_t i = 0; i < m->nfirst_leaves; i++)
		for (uint32_t v = m->first_leaves[i]; m->nodes[v].parent != NO_ID;
		     v = m->nodes[v].parent)
			see_arc(m, r, m->nodes[m->nodes[v].parent].frame,
				m->nodes[v].frame);
}

/* Files: node order, each node's children as listed. */
static void rank_from_nodes(const struct model *m, struct ranking *r)
{
	for (uint32_t v = 0; v < m->nnodes; v++) {
		const struct node *p = &m->nodes[v];
		for (uint32_t i = p->child_start; i < p->child_end; i++)
			if (!node_hidden(m, m->child_ids[i]))
				see(r, m->link_arcs[i]);
	}
}

/* Each function's callees (arc indexes, grouped as m->callees_start
 * says) in the order the data first shows them; arcs no node or sample
 * shows (call-arc data) come after, by callee. */
static uint32_t *callees_in_order(const struct model *m)
{
	struct ranking r = { xmalloc((m->narcs + 1) * sizeof(uint32_t)), 0 };
	memset(r.rank, 0xff, (m->narcs + 1) * sizeof(uint32_t));
	if (m->first_leaves)
		rank_from_stacks(m, &r);
	rank_from_nodes(m, &r);
	uint32_t *by_rank = xmalloc((m->narcs + 1) * sizeof(uint32_t));
	for (uint32_t a = 0; a < m->narcs; a++) {
		if (r.rank[a] == NO_ID)
			r.rank[a] = r.next++;
		by_rank[r.rank[a]] = a;
	}
	uint32_t *next = xmalloc((m->nframes + 1) * sizeof(uint32_t));
	memcpy(next, m->callees_start, (m->nframes + 1) * sizeof(uint32_t));
	uint32_t *callees = xmalloc((m->narcs + 1) * sizeof(uint32_t));
	for (uint32_t i = 0; i < m->narcs; i++)
		callees[next[m->arcs[by_rank[i]].caller]++] = by_rank[i];
	free(next);
	free(by_rank);
	free(r.rank);
	return callees;
}

enum walk_state { UNSEEN, ON_STACK, DONE };

struct walk {
	const struct model *m;
	uint32_t *callees; /* callees_in_order */
	uint8_t *state;   /* per frame, enum walk_state */
	uint8_t *kept;    /* per arc */
	uint32_t *stack;  /* frames on the walk */
	uint32_t *cursor; /* per frame on the walk: its next callee */
	uint32_t *order;
	uint32_t norder;
};

/* Depth first from `root`, without recursion (a stack can be as deep as
 * the graph); frames are put in `order` once their callees are done. */
static void walk_from(struct walk *w, uint32_t root)
{
	const struct model *m = w->m;
	if (w->state[root] != UNSEEN)
		return;
	size_t sp = 0;
	w->stack[sp++] = root;
	w->state[root] = ON_STACK;
	w->cursor[root] = m->callees_start[root];
	while (sp) {
		uint32_t f = w->stack[sp - 1];
		if (w->cursor[f] == m->callees_start[f + 1]) {
			w->state[f] = DONE;
			w->order[w->norder++] = f;
			sp--;
			continue;
		}
		uint32_t a = w->callees[w->cursor[f]++];
		if (arc_hidden(m, a)) /* outside a range: not in the graph */
			continue;
		uint32_t c = m->arcs[a].callee;
		w->kept[a] = w->state[c] != ON_STACK;
		if (w->state[c] == UNSEEN) {
			w->stack[sp++] = c;
			w->state[c] = ON_STACK;
			w->cursor[c] = m->callees_start[c];
		}
	}
}

/* The root first (the first parentless node's frame), then every
 * function in order of first appearance, then any the nodes do not show
 * (call-arc data), by id. */
static void remove_cycles(struct divided *d, uint8_t *kept)
{
	const struct model *m = d->m;
	size_t nf = m->nframes;
	struct walk w = {
		.m = m,
		.callees = callees_in_order(m),
		.state = xcalloc(nf + 1, 1),
		.kept = kept,
		.stack = xmalloc((nf + 1) * sizeof(uint32_t)),
		.cursor = xmalloc((nf + 1) * sizeof(uint32_t)),
		.order = d->order,
	};
	for (uint32_t v = 0; v < m->nnodes; v++)
		if (m->nodes[v].parent == NO_ID && !node_hidden(m, v)) {
			walk_from(&w, m->nodes[v].frame);
			break;
		}
	for (uint32_t v = 0; v < m->nnodes; v++)
		if (!node_hidden(m, v))
			walk_from(&w, m->nodes[v].frame);
	for (uint32_t f = 0; f < nf; f++)
		walk_from(&w, f);
	free(w.callees);
	free(w.state);
	free(w.stack);
	free(w.cursor);
}

static void keep_callers(struct divided *d)
{
	const struct model *m = d->m;
	size_t nf = m->nframes;
	uint8_t *kept = d->kept = xcalloc(m->narcs + 1, 1);
	remove_cycles(d, kept);
	d->callers_start = xcalloc(nf + 2, sizeof(uint32_t));
	d->caller_arcs = xmalloc((m->narcs + 1) * sizeof(uint32_t));
	uint32_t n = 0;
	for (uint32_t f = 0; f < nf; f++) {
		d->callers_start[f] = n;
		for (uint32_t a = m->callers_start[f]; a < m->callers_start[f + 1]; a++)
			if (kept[a])
				d->caller_arcs[n++] = a;
	}
	d->callers_start[nf] = n;
}

static uint32_t ncallers(const struct divided *d, uint32_t f)
{
	return d->callers_start[f + 1] - d->callers_start[f];
}

static uint32_t caller_at(const struct divided *d, uint32_t i)
{
	return d->m->arcs[d->caller_arcs[i]].caller;
}

/* ---- shares ----------------------------------------------------------- */

/* N(f) = k(f) * max(1, N(caller)) in whole cutoffs: a share that large
 * passes every cutoff above f.  Callers first: the walk's order backwards. */
static void find_linear_thresholds(struct divided *d)
{
	for (size_t i = d->m->nframes; i-- > 0;) {
		uint32_t f = d->order[i];
		uint32_t k = ncallers(d, f);
		double need = 1;
		for (uint32_t j = d->callers_start[f]; j < d->callers_start[f + 1]; j++)
			if (d->at[caller_at(d, j)].linear_at > need)
				need = d->at[caller_at(d, j)].linear_at;
		d->at[f].linear_at = k ? k * need : 0;
		d->at[f].callers_to_come = k;
	}
}

/* A share's size in whole cutoffs, exact below 2^53 (285 years of
 * microseconds); larger ones are held at 2^62. */
static uint64_t whole_cutoffs(const struct divided *d, double share)
{
	double n = floor(share / d->cutoff);
	return n < 0x1p62 ? (uint64_t)n : (uint64_t)1 << 62;
}

/* Room for `most` more sizes at the next function, every slot free. */
static void start_gathering(struct gathering *g, size_t most)
{
	size_t want = 16;
	unsigned bits = 4;
	while (want < 2 * most) {
		want *= 2;
		bits++;
	}
	if (want > g->cap) {
		free(g->slots);
		free(g->taken);
		g->slots = xcalloc(want, sizeof(*g->slots));
		g->taken = xmalloc(want * sizeof(*g->taken));
		g->cap = want;
	}
	g->mask = want - 1;
	g->shift = 64 - bits;
	g->ntaken = 0;
}

/* Shares whose parts will be `size` cutoffs big, summed with the others
 * of that size. */
static void gather(struct gathering *g, uint64_t size, double part)
{
	size_t i = (size_t)((size * 0x9e3779b97f4a7c15u) >> g->shift);
	while (g->slots[i].size != size) {
		if (!g->slots[i].size) {
			g->slots[i].size = size;
			g->taken[g->ntaken++] = (uint32_t)i;
			break;
		}
		i = (i + 1) & g->mask;
	}
	g->slots[i].part += part;
}

/* The function being settled, as each arriving share needs it. */
struct arrivals {
	double linear_at; /* N(f) */
	uint64_t k;       /* callers */
	double per_k;     /* 1 / k, to divide without a division */
	double linear;    /* summed shares of N(f) cutoffs or more */
	double ends_here; /* summed shares too small to leave f */
};

/* floor(n / k): below 2^52 through per_k, whose estimate is off by one
 * at most and mended. */
static uint64_t divide(const struct arrivals *at, uint64_t n)
{
	if (n >= (uint64_t)1 << 52)
		return n / at->k;
	uint64_t q = (uint64_t)((double)n * at->per_k);
	if (q * at->k > n)
		return q - 1;
	return n - q * at->k >= at->k ? q + 1 : q;
}

/* One more share of `size` whole cutoffs, or several summed, arrives. */
static void arrive(struct divided *d, struct arrivals *at, uint64_t size, double sum)
{
	if ((double)size >= at->linear_at)
		at->linear += sum;
	else if (size < at->k)
		at->ends_here += sum;
	else
		gather(&d->gathering, divide(at, size), sum);
}

/* f's callee g has passed on: every share g kept goes on to f. */
static void take_from(struct divided *d, struct arrivals *at, uint32_t g)
{
	struct waiting *from = &d->at[g];
	at->linear += from->linear / ncallers(d, g);
	for (uint32_t i = 0; i < from->nbuckets; i++)
		arrive(d, at, from->buckets[i].size, from->buckets[i].part);
	if (--from->callers_to_come == 0) {
		free(from->buckets);
		from->buckets = NULL;
		from->nbuckets = 0;
	}
}

/* The shares gathered at f that go on, one bucket per size, each
 * caller's part; all of them count at f. */
static void keep_buckets(struct divided *d, uint32_t f, const struct arrivals *at)
{
	struct waiting *w = &d->at[f];
	struct gathering *g = &d->gathering;
	uint32_t k = ncallers(d, f);
	double passed = at->linear;
	w->buckets = g->ntaken ? xmalloc(g->ntaken * sizeof(*w->buckets)) : NULL;
	w->nbuckets = g->ntaken;
	for (uint32_t i = 0; i < g->ntaken; i++) {
		struct bucket *s = &g->slots[g->taken[i]];
		passed += s->part;
		w->buckets[i] = (struct bucket){ s->size, s->part / k };
		*s = (struct bucket){ 0, 0 };
	}
	w->linear = at->linear;
	d->total[f] += passed + at->ends_here;
	/* Every caller gets the same parts. */
	for (uint32_t j = d->callers_start[f]; j < d->callers_start[f + 1]; j++)
		d->arc_total[d->caller_arcs[j]] = passed / k;
}

/* Every share that can reach f has arrived once its callees are done. */
static void settle(struct divided *d, uint32_t f, double self)
{
	const struct model *m = d->m;
	struct waiting *w = &d->at[f];
	uint32_t k = ncallers(d, f);
	struct arrivals at = { w->linear_at, k, k ? 1.0 / k : 0, 0, 0 };
	size_t most = 1;
	for (uint32_t i = m->callees_start[f]; i < m->callees_start[f + 1]; i++) {
		uint32_t a = m->callees_arcs[i];
		if (d->kept[a])
			most += d->at[m->arcs[a].callee].nbuckets;
	}
	start_gathering(&d->gathering, most);
	if (self > 0)
		arrive(d, &at, whole_cutoffs(d, self), self);
	for (uint32_t i = m->callees_start[f];
	     i < m->callees_start[f + 1] && !stop_asked(d); i++) {
		uint32_t a = m->callees_arcs[i];
		if (d->kept[a])
			take_from(d, &at, m->arcs[a].callee);
	}
	keep_buckets(d, f, &at);
}

bool divided_compute(const struct model *m, const double *self, double cutoff,
		     double *total, double *arc_total, double *arc_self,
		     const atomic_bool *stop)
{
	size_t nf = m->nframes;
	struct divided d = {
		.m = m,
		.stop = stop,
		.cutoff = cutoff,
		.total = total,
		.arc_total = arc_total,
		.order = xmalloc((nf + 1) * sizeof(uint32_t)),
		.at = xcalloc(nf + 1, sizeof(struct waiting)),
	};
	memset(total, 0, nf * sizeof(double));
	memset(arc_total, 0, m->narcs * sizeof(double));
	memset(arc_self, 0, m->narcs * sizeof(double));
	keep_callers(&d);
	find_linear_thresholds(&d);
	for (uint32_t f = 0; f < nf; f++) {
		uint32_t k = ncallers(&d, f);
		if (!(self[f] > 0) || !k || self[f] / k < cutoff)
			continue;
		for (uint32_t j = d.callers_start[f]; j < d.callers_start[f + 1]; j++)
			arc_self[d.caller_arcs[j]] = self[f] / k;
	}
	size_t i = 0;
	for (; i < nf && !stop_asked(&d); i++) {
		/* Made ahead (rules.c), a few milliseconds at most before
		 * the work a key waits for, or ranked before, has the core. */
		if (i % 256 == 0 && !background_pause_point())
			break;
		settle(&d, d.order[i], self[d.order[i]]);
	}
	bool stopped = i < nf;
	for (uint32_t f = 0; f < nf; f++)
		free(d.at[f].buckets);
	FREE_ALL(d.order, d.at, d.callers_start, d.caller_arcs, d.kept,
		 d.gathering.slots, d.gathering.taken);
	return !stopped;
}
