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
 * What is left is a DAG, so a share's future depends only on the
 * function it reached and its amount: shares wait at a function until all
 * of its callees are done (the walk's post-order gives that order) and
 * then move on together.  Past a threshold M(f) a share can never be cut
 * anywhere above f, and all such shares add up linearly into one bucket
 * per function; a share too small to pass f's own cutoff is counted at f
 * at once and never stored: most shares end that way.
 */
#include <math.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "rules.h"
#include "base/util.h"

/* The shares waiting at one function, one per path that brought them. */
struct shares {
	double *amounts;
	size_t n, cap;
};

/* What add_share reads for a function, kept together: it runs for almost
 * every share and one cache line beats four. */
struct waiting {
	double linear_at;  /* M(f): shares at least this big stay whole */
	double leaves_at;  /* k(f) * cutoff: smaller shares stay at f */
	double dies_below; /* shares under this end at f or its callers */
	double linear;     /* summed shares already past M(f) */
	double ends_here;  /* summed shares too small to leave f */
	double ends_above; /* summed shares that end at f's callers */
	struct shares pending;
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
	uint32_t *order; /* every frame, each after all of its callees */
	struct waiting *at;
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

static void see_arc(const struct model *m, struct ranking *r, uint32_t caller,
		    uint32_t callee)
{
	uint32_t a = model_find_arc(m, caller, callee);
	if (a != NO_ID && r->rank[a] == NO_ID)
		r->rank[a] = r->next++;
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
				see_arc(m, r, p->frame, m->nodes[m->child_ids[i]].frame);
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
	uint8_t *kept = xcalloc(m->narcs + 1, 1);
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
	free(kept);
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

/* M(f) = k(f) * max(cutoff, M(caller)): a share that large passes every
 * cutoff above f.  Callers first: the walk's order backwards. */
static void find_linear_thresholds(struct divided *d)
{
	for (size_t i = d->m->nframes; i-- > 0;) {
		uint32_t f = d->order[i];
		uint32_t k = ncallers(d, f);
		double need = d->cutoff;
		for (uint32_t j = d->callers_start[f]; j < d->callers_start[f + 1]; j++)
			if (d->at[caller_at(d, j)].linear_at > need)
				need = d->at[caller_at(d, j)].linear_at;
		d->at[f].linear_at = k ? k * need : 0;
	}
}

/* A share at f below k(f) * cutoff stops at f; one below k(f) * cutoff *
 * k(c) for every caller c stops at the callers. */
static void find_death_thresholds(struct divided *d)
{
	for (uint32_t f = 0; f < d->m->nframes; f++) {
		double least = INFINITY;
		for (uint32_t j = d->callers_start[f]; j < d->callers_start[f + 1]; j++) {
			uint32_t kc = ncallers(d, caller_at(d, j));
			if (kc && kc < least)
				least = kc;
		}
		d->at[f].leaves_at = ncallers(d, f) * d->cutoff;
		d->at[f].dies_below = d->at[f].leaves_at * least;
	}
}

/* Shares that end one level up, summed: they count at f, and each caller
 * gets its part, which goes no further. */
static void settle_ended(struct divided *d, uint32_t f)
{
	struct waiting *w = &d->at[f];
	uint32_t k = ncallers(d, f);
	d->total[f] += w->ends_here + w->ends_above;
	if (!k || !(w->ends_above > 0))
		return;
	double part = w->ends_above / k;
	for (uint32_t j = d->callers_start[f]; j < d->callers_start[f + 1]; j++) {
		d->total[caller_at(d, j)] += part;
		d->arc_total[d->caller_arcs[j]] += part;
	}
}

static void add_share(struct divided *d, uint32_t f, double amount)
{
	struct waiting *w = &d->at[f];
	if (amount >= w->linear_at) {
		w->linear += amount;
		return;
	}
	/* Most shares are small and end within two steps: they are only
	 * summed, never stored. */
	if (amount < w->dies_below) {
		if (amount < w->leaves_at)
			w->ends_here += amount;
		else
			w->ends_above += amount;
		return;
	}
	struct shares *s = &w->pending;
	GROW(s->amounts, s->cap, s->n + 1);
	s->amounts[s->n++] = amount;
}

static void release_pending(struct shares *s)
{
	free(s->amounts);
	memset(s, 0, sizeof(*s));
}

/* Every share that can reach f has arrived: each goes on to every
 * caller, divided by k. */
static void pass_on(struct divided *d, uint32_t f)
{
	struct shares *s = &d->at[f].pending;
	settle_ended(d, f);
	d->total[f] += d->at[f].linear;
	for (size_t i = 0; i < s->n; i++)
		d->total[f] += s->amounts[i];
	uint32_t k = ncallers(d, f);
	if (!k) {
		release_pending(s);
		return;
	}
	/* Stored shares all pass the cutoff (add_share settled the rest). */
	for (size_t i = 0; i < s->n; i++)
		s->amounts[i] /= k;
	double whole = d->at[f].linear / k;
	for (uint32_t j = d->callers_start[f];
	     j < d->callers_start[f + 1] && !stop_asked(d); j++) {
		uint32_t c = caller_at(d, j), a = d->caller_arcs[j];
		d->at[c].linear += whole;
		d->arc_total[a] += whole;
		for (size_t i = 0; i < s->n; i++) {
			d->arc_total[a] += s->amounts[i];
			add_share(d, c, s->amounts[i]);
		}
	}
	release_pending(s);
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
	find_death_thresholds(&d);

	for (uint32_t f = 0; f < nf; f++) {
		if (!(self[f] > 0))
			continue;
		add_share(&d, f, self[f]);
		uint32_t k = ncallers(&d, f);
		if (!k || self[f] / k < cutoff)
			continue;
		for (uint32_t j = d.callers_start[f]; j < d.callers_start[f + 1]; j++)
			arc_self[d.caller_arcs[j]] = self[f] / k;
	}
	for (size_t i = 0; i < nf && !stop_asked(&d); i++)
		pass_on(&d, d.order[i]);
	bool stopped = stop_asked(&d);
	/* A pass cut short leaves shares waiting. */
	for (uint32_t f = 0; f < nf; f++)
		release_pending(&d.at[f].pending);
	free(d.order);
	free(d.at);
	free(d.callers_start);
	free(d.caller_arcs);
	return !stopped;
}
