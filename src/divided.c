/* The `divided` rule (xsbug's ProfilePane), computed fast.
 *
 * The definition (time-rules.md) walks every simple path up the caller
 * graph from every function with self time, halving shares at each
 * function with two callers, and dropping a share once it falls below the
 * cutoff.  Walking paths one by one explodes on real graphs, so:
 *
 *  - Callers form a graph whose strongly connected components (SCCs) are
 *    the only places where the path matters (a caller already on the path
 *    lies in the same SCC).  Outside them a share's future depends only on
 *    the function it reached and its amount, so shares wait at a function
 *    until all of its callees are done and then move on together.
 *  - Past a threshold M(f) a share can never be cut anywhere above f, and
 *    all such shares add up linearly into one bucket per function.
 *  - A share too small to pass f's own cutoff is counted at f at once and
 *    never stored: most shares end that way.
 *  - Inside an SCC with several functions, shares are walked path by path
 *    as the definition says.
 *
 * Components are visited callees first, so a function is finished once
 * every share that can reach it has arrived.
 */
#include <math.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "rules.h"
#include "util.h"

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

/* Walking an SCC path by path is exponential in the worst case; past this
 * many steps the rule gives up and says so rather than hang. */
#define MAX_WALK_STEPS 400000000ULL

struct divided {
	const struct model *m;
	const atomic_bool *stop; /* asked to give up, or NULL */
	unsigned long long steps;
	double cutoff;
	double *total, *arc_total;
	uint32_t *comp;      /* per frame: its SCC, numbered callers first */
	uint32_t *members;   /* frames grouped by SCC */
	uint32_t *comp_start;
	uint32_t ncomps;
	struct waiting *at;  /* per function */
	uint8_t *on_path;
};

static bool stop_asked(const struct divided *d)
{
	return d->stop && atomic_load_explicit(d->stop, memory_order_relaxed);
}

/* One more step of a walk; false once the walk must end (the step
 * budget is spent, or the caller no longer wants the result). */
static bool take_step(struct divided *d)
{
	if ((++d->steps & 0xffff) == 0 && stop_asked(d))
		d->steps = MAX_WALK_STEPS + 1;
	return d->steps <= MAX_WALK_STEPS;
}

static uint32_t ncallers(const struct model *m, uint32_t f)
{
	return m->callers_start[f + 1] - m->callers_start[f];
}

static uint32_t caller_at(const struct model *m, uint32_t arc)
{
	return m->arcs[arc].caller;
}

/* Tarjan's algorithm without recursion, on edges f -> caller(f).  An SCC
 * is numbered after every SCC it reaches, so callers get lower numbers. */
static void find_components(struct divided *d)
{
	const struct model *m = d->m;
	uint32_t nf = (uint32_t)m->nframes;
	uint32_t *index = xmalloc((nf + 1) * sizeof(uint32_t));
	uint32_t *low = xmalloc((nf + 1) * sizeof(uint32_t));
	uint32_t *stack = xmalloc((nf + 1) * sizeof(uint32_t));
	uint32_t *walk = xmalloc((nf + 1) * sizeof(uint32_t));
	uint32_t *cursor = xmalloc((nf + 1) * sizeof(uint32_t));
	uint8_t *stacked = xcalloc(nf + 1, 1);
	memset(index, 0xff, (nf + 1) * sizeof(uint32_t));
	uint32_t next_index = 0, sp = 0, nmembers = 0;
	d->ncomps = 0;

	for (uint32_t root = 0; root < nf; root++) {
		if (index[root] != NO_ID)
			continue;
		uint32_t wp = 0;
		walk[wp++] = root;
		index[root] = low[root] = next_index++;
		cursor[root] = m->callers_start[root];
		stack[sp++] = root;
		stacked[root] = 1;
		while (wp) {
			uint32_t v = walk[wp - 1];
			if (cursor[v] < m->callers_start[v + 1]) {
				uint32_t c = caller_at(m, cursor[v]++);
				if (index[c] == NO_ID) {
					index[c] = low[c] = next_index++;
					cursor[c] = m->callers_start[c];
					stack[sp++] = c;
					stacked[c] = 1;
					walk[wp++] = c;
				} else if (stacked[c] && index[c] < low[v]) {
					low[v] = index[c];
				}
				continue;
			}
			wp--;
			if (wp && low[v] < low[walk[wp - 1]])
				low[walk[wp - 1]] = low[v];
			if (low[v] != index[v])
				continue;
			d->comp_start[d->ncomps] = nmembers;
			uint32_t x;
			do {
				x = stack[--sp];
				stacked[x] = 0;
				d->comp[x] = d->ncomps;
				d->members[nmembers++] = x;
			} while (x != v);
			d->ncomps++;
		}
	}
	d->comp_start[d->ncomps] = nmembers;
	free(index);
	free(low);
	free(stack);
	free(walk);
	free(cursor);
	free(stacked);
}

static bool comp_is_single(const struct divided *d, uint32_t comp)
{
	return d->comp_start[comp + 1] - d->comp_start[comp] == 1;
}

/* M(f) = k(f) * max(cutoff, M(caller)) over callers other than f itself:
 * a share that large passes every cutoff above f.  Infinite where an SCC
 * of several functions lies above, since paths matter there. */
static void find_linear_thresholds(struct divided *d)
{
	const struct model *m = d->m;
	for (uint32_t comp = 0; comp < d->ncomps; comp++) {
		uint32_t start = d->comp_start[comp];
		if (!comp_is_single(d, comp)) {
			for (uint32_t i = start; i < d->comp_start[comp + 1]; i++)
				d->at[d->members[i]].linear_at = INFINITY;
			continue;
		}
		uint32_t f = d->members[start];
		uint32_t k = ncallers(m, f);
		double need = d->cutoff;
		for (uint32_t a = m->callers_start[f]; a < m->callers_start[f + 1]; a++) {
			uint32_t c = caller_at(m, a);
			if (c != f && d->at[c].linear_at > need)
				need = d->at[c].linear_at;
		}
		d->at[f].linear_at = k ? k * need : 0;
	}
}

/* Shares that end one level up, summed: they count at f, and each caller
 * but f itself gets its part, which goes no further. */
static void settle_ended(struct divided *d, uint32_t f)
{
	const struct model *m = d->m;
	struct waiting *w = &d->at[f];
	uint32_t k = ncallers(m, f);
	d->total[f] += w->ends_here + w->ends_above;
	if (!k || !(w->ends_above > 0))
		return;
	double part = w->ends_above / k;
	for (uint32_t a = m->callers_start[f]; a < m->callers_start[f + 1]; a++) {
		uint32_t c = caller_at(m, a);
		if (c == f)
			continue;
		d->total[c] += part;
		d->arc_total[a] += part;
	}
}

static void add_share(struct divided *d, uint32_t f, double amount)
{
	if (amount >= d->at[f].linear_at) {
		d->at[f].linear += amount;
		return;
	}
	/* Most shares are small and end within two steps: they are only
	 * summed, never stored. */
	struct waiting *w = &d->at[f];
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

/* A share at f below k(f) * cutoff stops at f; one below k(f) * cutoff *
 * k(c) for every caller c stops at the callers. */
static void find_death_thresholds(struct divided *d)
{
	const struct model *m = d->m;
	for (uint32_t f = 0; f < m->nframes; f++) {
		double least = INFINITY;
		for (uint32_t a = m->callers_start[f]; a < m->callers_start[f + 1]; a++) {
			uint32_t c = caller_at(m, a);
			uint32_t kc = ncallers(m, c);
			if (c != f && kc && kc < least)
				least = kc;
		}
		d->at[f].leaves_at = ncallers(m, f) * d->cutoff;
		d->at[f].dies_below = d->at[f].leaves_at * least;
	}
}

static void release_pending(struct shares *s)
{
	free(s->amounts);
	memset(s, 0, sizeof(*s));
}

/* A function alone in its SCC: no path can come back to it, so every
 * share it holds goes on to each caller (but itself) divided by k. */
static void pass_single(struct divided *d, uint32_t f)
{
	const struct model *m = d->m;
	struct shares *s = &d->at[f].pending;
	settle_ended(d, f);
	d->total[f] += d->at[f].linear;
	for (size_t i = 0; i < s->n; i++)
		d->total[f] += s->amounts[i];
	uint32_t k = ncallers(m, f);
	if (!k) {
		release_pending(s);
		return;
	}
	/* Stored shares all pass the cutoff (add_share settled the rest). */
	for (size_t i = 0; i < s->n; i++)
		s->amounts[i] /= k;
	double whole = d->at[f].linear / k;
	for (uint32_t a = m->callers_start[f]; a < m->callers_start[f + 1]; a++) {
		uint32_t c = caller_at(m, a);
		if (c == f)
			continue; /* f is on its own path: the share is dropped */
		d->at[c].linear += whole;
		d->arc_total[a] += whole;
		for (size_t i = 0; i < s->n; i++) {
			d->arc_total[a] += s->amounts[i];
			add_share(d, c, s->amounts[i]);
		}
	}
	release_pending(s);
}

struct step {
	uint32_t f;
	uint32_t next_arc;
	double amount; /* what each caller of f receives */
};

/* Inside an SCC of several functions: the definition, path by path, with
 * an explicit stack (an SCC can be as deep as the whole graph). */
static void walk_component(struct divided *d, uint32_t start_f, double amount,
			   struct step **stack, size_t *cap)
{
	const struct model *m = d->m;
	size_t sp = 0;
	uint32_t f = start_f;
	for (;;) {
		if (!take_step(d))
			return;
		d->total[f] += amount;
		uint32_t k = ncallers(m, f);
		if (k && amount / k >= d->cutoff) {
			GROW(*stack, *cap, sp + 1);
			(*stack)[sp++] = (struct step){ f, m->callers_start[f],
							amount / k };
			d->on_path[f] = 1;
		}
		f = NO_ID;
		while (sp && f == NO_ID) {
			struct step *top = &(*stack)[sp - 1];
			if (top->next_arc == m->callers_start[top->f + 1]) {
				d->on_path[top->f] = 0;
				sp--;
				continue;
			}
			uint32_t a = top->next_arc++;
			uint32_t c = caller_at(m, a);
			if (d->on_path[c])
				continue;
			d->arc_total[a] += top->amount;
			if (d->comp[c] == d->comp[top->f]) {
				f = c;
				amount = top->amount;
			} else {
				add_share(d, c, top->amount);
			}
		}
		if (f == NO_ID)
			return;
	}
}

static void pass_component(struct divided *d, uint32_t comp)
{
	struct step *stack = NULL;
	size_t cap = 0;
	for (uint32_t i = d->comp_start[comp]; i < d->comp_start[comp + 1]; i++) {
		uint32_t f = d->members[i];
		struct shares *s = &d->at[f].pending;
		settle_ended(d, f);
		for (size_t j = 0; j < s->n; j++)
			walk_component(d, f, s->amounts[j], &stack, &cap);
		release_pending(s);
	}
	free(stack);
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
		.comp = xmalloc((nf + 1) * sizeof(uint32_t)),
		.members = xmalloc((nf + 1) * sizeof(uint32_t)),
		.comp_start = xmalloc((nf + 2) * sizeof(uint32_t)),
		.at = xcalloc(nf + 1, sizeof(struct waiting)),
		.on_path = xcalloc(nf + 1, 1),
	};
	memset(total, 0, nf * sizeof(double));
	memset(arc_total, 0, m->narcs * sizeof(double));
	memset(arc_self, 0, m->narcs * sizeof(double));
	find_components(&d);
	find_linear_thresholds(&d);
	find_death_thresholds(&d);

	for (uint32_t f = 0; f < nf; f++) {
		if (!(self[f] > 0))
			continue;
		add_share(&d, f, self[f]);
		uint32_t k = ncallers(m, f);
		if (!k || self[f] / k < cutoff)
			continue;
		for (uint32_t a = m->callers_start[f]; a < m->callers_start[f + 1]; a++)
			if (caller_at(m, a) != f)
				arc_self[a] = self[f] / k;
	}
	for (uint32_t comp = d.ncomps;
	     comp-- > 0 && d.steps <= MAX_WALK_STEPS && !stop_asked(&d);) {
		if (comp_is_single(&d, comp))
			pass_single(&d, d.members[d.comp_start[comp]]);
		else
			pass_component(&d, comp);
	}
	/* A walk cut short (out of steps, or stopped) leaves shares waiting. */
	for (uint32_t f = 0; f < nf; f++)
		release_pending(&d.at[f].pending);
	free(d.comp);
	free(d.members);
	free(d.comp_start);
	free(d.at);
	free(d.on_path);
	return d.steps <= MAX_WALK_STEPS && !stop_asked(&d);
}
