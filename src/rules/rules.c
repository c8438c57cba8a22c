#include "rules.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/background.h"
#include "base/util.h"

static const char *const rule_names[RULE_COUNT] = {
	[RULE_EXACT] = "exact",
	[RULE_ADDITIVE] = "additive",
	[RULE_DIVIDED] = "divided",
	[RULE_GPROF] = "gprof",
};

ENUM_NAME_FN(rule_name, enum rule, rule_names)
ENUM_PARSE_FN(rule_parse, enum rule, rule_names)

/* An XS node graph opens under divided, as xsbug shows it: additive
 * counts a shared callee under each of its parents (the engine's (host)
 * at 195 % of the profile). */
enum rule rule_default(const struct model *m)
{
	if (m->caps & HAS_STACKS)
		return RULE_EXACT;
	if (m->caps & HAS_CALL_COUNTS)
		return RULE_GPROF;
	if (m->caps & HAS_NODE_GRAPH)
		return RULE_DIVIDED;
	return m->caps & HAS_NODES ? RULE_ADDITIVE : RULE_DIVIDED;
}

void rules_init(struct rules *r, const struct model *m)
{
	memset(r, 0, sizeof(*r));
	r->model = m;
}

static void free_totals(struct totals *t)
{
	free(t->total);
	free(t->arc_total);
	free(t->arc_self);
	if (t->gprof) {
		gprof_free(t->gprof);
		free(t->gprof);
	}
	free(t);
}

static void stop_job(struct rules *r);

static void end_chains_job(struct rules *r, bool wait);

static void stop_chains_job(struct rules *r);

static void start_job(struct rules *r);

/* Frees what the values decide; the shape's arrays stay.  Work on a
 * thread was for the old values: it stops. */
void rules_values_changed(struct rules *r)
{
	end_chains_job(r, true); /* the model it reads may go next */
	stop_job(r); /* after the chains, whose end may start it */
	for (int rule = 0; rule < RULE_COUNT; rule++)
		for (unsigned t = 0; t < MAX_SAMPLE_TYPES; t++) {
			if (r->cache[rule][t])
				free_totals(r->cache[rule][t]);
			r->cache[rule][t] = NULL;
		}
	for (unsigned t = 0; t < MAX_SAMPLE_TYPES; t++) {
		free(r->node_total[t]);
		free(r->frame_self[t]);
		r->node_total[t] = r->frame_self[t] = NULL;
	}
	/* Their self arrays are gone: divided is asked for anew. */
	memset(r->waiting, 0, sizeof(r->waiting));
}

void rules_free(struct rules *r)
{
	/* Nobody reads them now: divided is not started after the chains,
	 * and the chains stop at their next round. */
	rules_stop_divided(r);
	stop_chains_job(r);
	rules_values_changed(r);
	node_shape_release(r->shape);
	caller_chains_free(&r->chains);
	memset(r, 0, sizeof(*r));
}

/* self(f): the value of the samples whose leaf is f. */
static const double *frame_self(struct rules *r, unsigned type)
{
	if (r->frame_self[type])
		return r->frame_self[type];
	const struct model *m = r->model;
	double *self = xcalloc(m->nframes + 1, sizeof(double));
	for (size_t v = 0; v < m->nnodes; v++)
		self[m->nodes[v].frame] += node_value(m, (uint32_t)v, type);
	if (m->frame_self)
		for (size_t f = 0; f < m->nframes; f++)
			self[f] += m->frame_self[f * m->ntypes + type];
	r->frame_self[type] = self;
	return self;
}

/* sub(v) = self(v) + sum of sub(child): parents come before children in
 * node_parents_first's order, so walking it backwards finishes children
 * first.  On the XS node graph a shared child counts under every parent,
 * as written. */
const double *rules_node_totals(struct rules *r, unsigned type)
{
	if (r->node_total[type])
		return r->node_total[type];
	const struct model *m = r->model;
	double *sub = xcalloc(m->nnodes + 1, sizeof(double));
	for (size_t i = m->nnodes; i-- > 0;) {
		uint32_t v = node_parents_first(m, i);
		const struct node *n = &m->nodes[v];
		double sum = node_value(m, v, type);
		for (uint32_t c = n->child_start; c < n->child_end; c++)
			sum += sub[m->child_ids[c]];
		sub[v] = sum;
	}
	r->node_total[type] = sub;
	return sub;
}

void rules_share_shape(struct rules *r, const struct rules *from)
{
	const struct model *m = r->model, *f = from->model;
	if (r->shape || !from->shape || m->nodes != f->nodes ||
	    m->child_ids != f->child_ids || m->link_arcs != f->link_arcs)
		return;
	r->shape = node_shape_hold(from->shape);
}

struct node_shape *rules_hold_shape(const struct rules *r)
{
	return node_shape_hold(r->shape);
}

void rules_extend_shape(struct rules *r, const struct model *src, const struct node_shape *from)
{
	if (!r->shape && (r->model->caps & HAS_STACKS))
		r->shape = node_shape_extend(r->model, src, from);
}

const uint8_t *rules_outermost(struct rules *r)
{
	if (!r->shape && (r->model->caps & HAS_STACKS))
		r->shape = node_shape_walk(r->model);
	return r->shape ? r->shape->outermost : NULL;
}

/* ---- the caller chains ahead, on a thread ------------------------------- */

/* Places the first sort goes to: the bottom-up pane's rows need two, the
 * first two levels opened under them four.  Deeper ones sort further
 * when opened (a round, a dozen milliseconds on 450 000 nodes): the
 * first `2` waits for this job, not for rounds that few rows need. */
#define CHAINS_AHEAD_PLACES 4

struct chains_job {
	struct background work;
	const struct model *model;
	struct caller_chains chains;
	bool built;
};

static void run_chains(void *arg)
{
	struct chains_job *j = arg;
	j->built = caller_chains_build(&j->chains, j->model);
	if (j->built)
		caller_chains_sort_to(&j->chains, CHAINS_AHEAD_PLACES);
}

void rules_start_chains(struct rules *r)
{
	if (r->chains_tried || r->chains_job || !(r->model->caps & HAS_STACKS))
		return;
	struct chains_job *j = xcalloc(1, sizeof(*j));
	j->model = r->model;
	r->chains_job = j;
	background_start(&j->work, run_chains, j);
}

static void stop_chains_job(struct rules *r)
{
	if (r->chains_job)
		background_stop(&r->chains_job->work);
}

/* Installs the thread's chains once it is done (`wait`: waiting). */
static void end_chains_job(struct rules *r, bool wait)
{
	struct chains_job *j = r->chains_job;
	if (!j)
		return;
	if (!background_over(&j->work, wait))
		return;
	if (j->built)
		r->chains = j->chains;
	else
		caller_chains_free(&j->chains);
	r->chains_tried = true;
	r->chains_job = NULL;
	free(j);
	if (!r->job)
		start_job(r); /* divided, if it waited for the chains */
}

const struct caller_chains *rules_caller_chains(struct rules *r, uint32_t places)
{
	end_chains_job(r, true);
	if (!r->chains_tried) {
		r->chains_tried = true;
		caller_chains_build(&r->chains, r->model);
	}
	if (!r->chains.sorted)
		return NULL;
	caller_chains_sort_to(&r->chains, places);
	return &r->chains;
}

/* Per arc, the self of the callee's nodes under that caller, and the
 * callee's sub(v) under every parent node of that caller (exact: only
 * where the arc is outermost, `counted`). */
static void arc_sums_from_nodes(struct rules *r, unsigned type,
				const uint8_t *counted, double *arc_total,
				double *arc_self)
{
	const struct model *m = r->model;
	const double *sub = rules_node_totals(r, type);
	const uint32_t *link_arc = m->link_arcs;
	for (size_t p = 0; p < m->nnodes; p++) {
		const struct node *pn = &m->nodes[p];
		for (uint32_t i = pn->child_start; i < pn->child_end; i++) {
			uint32_t v = m->child_ids[i], a = link_arc[i];
			if (!counted || counted[v])
				arc_total[a] += sub[v];
			arc_self[a] += node_value(m, v, type);
		}
	}
}

static void compute_exact(struct rules *r, struct totals *t)
{
	const struct model *m = r->model;
	if (!(m->caps & HAS_STACKS)) {
		t->why_not = m->caps & HAS_NODES
			? "exact needs whole stacks; this file has only a function graph"
			: "exact needs whole stacks; call arcs cannot give them";
		return;
	}
	const double *sub = rules_node_totals(r, t->type);
	const uint8_t *outermost = rules_outermost(r);
	background_pause_point(); /* a model's rules made ahead */
	t->total = xcalloc(m->nframes + 1, sizeof(double));
	for (size_t v = 0; v < m->nnodes; v++)
		if (outermost[v])
			t->total[m->nodes[v].frame] += sub[v];
	t->arcs_later = true;
}

static void compute_additive(struct rules *r, struct totals *t)
{
	const struct model *m = r->model;
	if (!(m->caps & HAS_NODES)) {
		t->why_not = "additive needs a call tree; call arcs cannot give one";
		return;
	}
	const double *sub = rules_node_totals(r, t->type);
	t->total = xcalloc(m->nframes + 1, sizeof(double));
	for (size_t v = 0; v < m->nnodes; v++)
		t->total[m->nodes[v].frame] += sub[v];
	t->arcs_later = true;
}

const struct totals *rules_arc_totals(struct rules *r, const struct totals *t)
{
	if (!t || !t->arcs_later)
		return t;
	struct totals *own = r->cache[t->rule][t->type]; /* t itself */
	const struct model *m = r->model;
	own->arc_total = xcalloc(m->narcs + 1, sizeof(double));
	own->arc_self = xcalloc(m->narcs + 1, sizeof(double));
	/* exact: a sample counts once in an arc, where it is outermost */
	arc_sums_from_nodes(r, t->type, t->rule == RULE_EXACT ? r->shape->arc_outermost : NULL,
			    own->arc_total, own->arc_self);
	own->arcs_later = false;
	return own;
}

/* Shares below 1 µs stop; for metrics that are not time, below a
 * millionth of the metric's total. */
static double divided_cutoff(const struct model *m, unsigned type,
			     double profile_total)
{
	return unit_is_time(m, type) ? 1.0 : profile_total * 1e-6;
}

static void divided_arrays(const struct model *m, struct totals *t)
{
	t->total = xcalloc(m->nframes + 1, sizeof(double));
	t->arc_total = xcalloc(m->narcs + 1, sizeof(double));
	t->arc_self = xcalloc(m->narcs + 1, sizeof(double));
}

static void compute_divided(struct rules *r, struct totals *t)
{
	const struct model *m = r->model;
	divided_arrays(m, t);
	divided_compute(m, t->self, divided_cutoff(m, t->type, t->profile_total),
			t->total, t->arc_total, t->arc_self, NULL);
}

static void compute_gprof(struct rules *r, struct totals *t)
{
	const struct model *m = r->model;
	if (!(m->caps & HAS_CALL_COUNTS)) {
		t->why_not = "gprof totals need call-arc data (gmon.out, WasmProf arcs)";
		return;
	}
	struct gprof_graph *g = xmalloc(sizeof(*g));
	gprof_compute(m, t->self, g);
	t->gprof = g;
	t->calls = g->calls;
	t->total = xcalloc(m->nframes + 1, sizeof(double));
	t->arc_total = xcalloc(m->narcs + 1, sizeof(double));
	t->arc_self = xcalloc(m->narcs + 1, sizeof(double));
	for (size_t f = 0; f < m->nframes; f++)
		t->total[f] = t->self[f] + g->child[f];
	for (size_t a = 0; a < m->narcs; a++) {
		t->arc_self[a] = g->arc_self[a];
		t->arc_total[a] = g->arc_self[a] + g->arc_child[a];
	}
}

static double percent_base(struct rules *r, const double *self, unsigned type)
{
	const struct model *m = r->model;
	if (m->has_type_totals && !r->relative)
		return m->type_total[type];
	double sum = 0;
	for (size_t f = 0; f < m->nframes; f++)
		sum += self[f];
	return sum;
}

static void init_totals(struct rules *r, struct totals *t, enum rule rule,
			unsigned type)
{
	*t = (struct totals){ .rule = rule, .type = type };
	t->self = (double *)frame_self(r, type);
	t->profile_total = percent_base(r, t->self, type);
}

void rules_set_relative(struct rules *r, bool relative)
{
	r->relative = relative;
	for (unsigned type = 0; type < r->model->ntypes; type++) {
		for (int rule = 0; rule < RULE_COUNT; rule++)
			if (r->cache[rule][type])
				r->cache[rule][type]->profile_total =
					percent_base(r, r->cache[rule][type]->self, type);
		if (r->waiting[type].computing)
			r->waiting[type].profile_total =
				percent_base(r, r->waiting[type].self, type);
	}
}

static struct totals *new_totals(struct rules *r, enum rule rule, unsigned type)
{
	struct totals *t = xmalloc(sizeof(*t));
	init_totals(r, t, rule, type);
	return t;
}

/* ---- divided on a thread of its own ------------------------------------ */

struct divided_job {
	struct background work;
	const struct model *model;
	struct totals *t; /* the thread fills its arrays, nothing else */
	double cutoff;
	atomic_bool stop;
};

/* Long enough that a small profile's divided looks instant, short enough
 * that no key waits for a large one. */
#define GRACE_MS 20

static void run_divided(void *arg)
{
	struct divided_job *j = arg;
	divided_compute(j->model, j->t->self, j->cutoff, j->t->total,
					j->t->arc_total, j->t->arc_self, &j->stop);
}

static void start_job(struct rules *r)
{
	unsigned type = 0;
	while (type < r->model->ntypes &&
	       !(r->waiting[type].computing && !r->cache[RULE_DIVIDED][type]))
		type++;
	if (type == r->model->ntypes)
		return;
	struct divided_job *j = xcalloc(1, sizeof(*j));
	j->model = r->model;
	j->t = new_totals(r, RULE_DIVIDED, type);
	j->cutoff = divided_cutoff(r->model, type, j->t->profile_total);
	divided_arrays(r->model, j->t);
	atomic_init(&j->stop, false);
	r->job = j;
	/* Made ahead; the screen that asks for it wants it, and then it
	 * comes first (divided_in_background). */
	background_start_behind(&j->work, run_divided, j, RANK_DIVIDED);
}

/* After the thread is gone: its totals go in the cache, unless they were
 * no longer wanted. */
static void end_job(struct rules *r)
{
	struct divided_job *j = r->job;
	r->job = NULL;
	if (atomic_load(&j->stop)) {
		free_totals(j->t);
	} else {
		/* The base may have been switched while the thread worked. */
		j->t->profile_total = percent_base(r, j->t->self, j->t->type);
		r->cache[RULE_DIVIDED][j->t->type] = j->t;
		r->news = true;
	}
	free(j);
}

static void stop_job(struct rules *r)
{
	if (!r->job)
		return;
	atomic_store(&r->job->stop, true);
	background_wait(&r->job->work);
	end_job(r);
}

static void poll_job(struct rules *r, int grace_ms)
{
	if (r->job && background_done(&r->job->work, grace_ms)) {
		end_job(r);
		start_job(r);
	}
}

bool rules_poll(struct rules *r)
{
	poll_job(r, 0);
	end_chains_job(r, false);
	bool news = r->news;
	r->news = false;
	return news;
}

bool rules_busy(const struct rules *r)
{
	return r->job != NULL || r->chains_job != NULL;
}

void rules_start_divided(struct rules *r, unsigned type)
{
	if (!r->background || type >= r->model->ntypes || r->cache[RULE_DIVIDED][type])
		return;
	struct totals *w = &r->waiting[type];
	if (!w->computing) {
		init_totals(r, w, RULE_DIVIDED, type);
		w->computing = true;
		w->why_not = "divided is being computed; its numbers follow";
	}
	/* The chains go first: the bottom-up pane waits for them, while
	 * divided shows its placeholder until it is done anyway.  Chains
	 * already made are taken now, so that divided is at the gate from
	 * the first screen on, ready for the first free core, not only from
	 * the next poll, a key later. */
	end_chains_job(r, false);
	if (!r->job && !r->chains_job)
		start_job(r);
}

void rules_stop_divided(struct rules *r)
{
	if (r->job)
		atomic_store(&r->job->stop, true);
	memset(r->waiting, 0, sizeof(r->waiting));
}

static const struct totals *divided_in_background(struct rules *r, unsigned type)
{
	/* A job started earlier (when the file opened) had its chance. */
	bool starting = !r->job;
	rules_start_divided(r, type);
	if (r->job)
		background_want(&r->job->work);
	poll_job(r, starting ? GRACE_MS : 0);
	const struct totals *w = &r->waiting[type];
	return r->cache[RULE_DIVIDED][type] ? r->cache[RULE_DIVIDED][type] : w;
}

const struct totals *rules_totals(struct rules *r, enum rule rule, unsigned type)
{
	if (rule >= RULE_COUNT || type >= r->model->ntypes)
		return NULL;
	if (r->cache[rule][type])
		return r->cache[rule][type];
	if (rule == RULE_DIVIDED && r->background)
		return divided_in_background(r, type);
	struct totals *t = new_totals(r, rule, type);
	switch (rule) {
	case RULE_EXACT:
		compute_exact(r, t);
		break;
	case RULE_ADDITIVE:
		compute_additive(r, t);
		break;
	case RULE_DIVIDED:
		compute_divided(r, t);
		break;
	default:
		compute_gprof(r, t);
		break;
	}
	r->cache[rule][type] = t;
	return t;
}
