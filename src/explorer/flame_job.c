#include "flame_job.h"

#include <stdlib.h>

#include "views/flame.h"
#include "base/background.h"
#include "base/util.h"
#include "filters.h"

struct flame_job {
	struct background work;
	struct view_context ctx; /* as it was when the job began */
	struct view view;
};

/* A small graph is waited for, so that it shows with the key as before. */
#define FLAME_GRACE_MS 20
#define FLAME_GRACE_NODES 100000

static void run_flame_job(void *arg)
{
	struct flame_job *j = arg;
	view_open(&j->view, VIEW_FLAME, &j->ctx);
}

/* The call tree and time order read only the model and the totals made
 * here; a node graph or a function graph goes through the top-down
 * view, whose rules work is made lazily (and so written) as it goes. */
static bool reads_only(struct app *a)
{
	const struct model *m = a->ctx.model;
	bool tree = (m->caps & HAS_NODES) && !(m->caps & HAS_NODE_GRAPH);
	if (!tree && !(a->ctx.time_order && flame_has_time_order(m, a->ctx.type)))
		return false;
	const struct totals *t = rules_totals(a->ctx.rules, a->ctx.rule, a->ctx.type);
	if (!t || t->computing)
		return false;
	rules_node_totals(a->ctx.rules, a->ctx.type);
	return true;
}

static void reap_dropped(struct app *a, bool wait);

/* `same_data`: only the order changed (x), nothing a dropped job reads,
 * so it is not waited for. */
static bool start_job(struct app *a, bool same_data)
{
	struct pane *p = &a->panes[VIEW_FLAME];
	/* Live snapshots change values in place, filters and the split
	 * screen swap models under the pane: those build at once. */
	if (!a->background || a->live || a->compare || filters_in_force(a) ||
	    a->filters.job || a->current != VIEW_FLAME || !p->open || !reads_only(a))
		return false;
	if (same_data && !a->flame_job)
		reap_dropped(a, false);
	else
		flame_job_finish(a);
	struct flame_job *j = xcalloc(1, sizeof(*j));
	j->ctx = a->ctx;
	/* The graph still shown keeps its own numbers; its totals pointer
	 * must not outlive the rules' values it was made from. */
	p->view.totals = rules_totals(a->ctx.rules, a->ctx.rule, a->ctx.type);
	a->flame_job = j;
	background_start(&j->work, run_flame_job, j);
	if (a->ctx.model->nnodes < FLAME_GRACE_NODES &&
	    background_done(&j->work, FLAME_GRACE_MS))
		flame_job_poll(a);
	return true;
}

bool flame_job_start(struct app *a)
{
	return start_job(a, false);
}

static bool same_context(const struct view_context *x, const struct view_context *y)
{
	return x->model == y->model && x->rules == y->rules && x->rule == y->rule &&
	       x->type == y->type && x->time_order == y->time_order;
}

/* The frame the cursor was on, found again in the new graph by its
 * frames from the top down (a range's graph has the same frames). */
static size_t same_place(const struct flame *old, size_t at, const struct flame *new)
{
	if (!old || at >= old->nframes || !new->nframes)
		return 0;
	uint32_t path[FLAME_ZOOM_DEPTH];
	size_t depth = 0;
	uint32_t i = (uint32_t)at;
	for (; i != NO_ID && depth < FLAME_ZOOM_DEPTH; i = old->frames[i].parent)
		path[depth++] = old->frames[i].frame;
	if (i != NO_ID)
		return 0; /* deeper than the path kept */
	uint32_t found = 0, first = 0;
	while (depth--) {
		i = first;
		while (i != NO_ID && new->frames[i].frame != path[depth])
			i = new->frames[i].next_sibling;
		if (i == NO_ID)
			break;
		found = i;
		first = i + 1 < new->frames[i].end ? i + 1 : NO_ID;
	}
	return found;
}

static void install(struct app *a, struct flame_job *j)
{
	struct pane *p = &a->panes[VIEW_FLAME];
	size_t at = same_place(flame_of_view(&p->view), p->selected,
			       flame_of_view(&j->view));
	view_close(&p->view);
	p->view = j->view;
	p->view.ctx = &a->ctx;
	p->selected = at;
	p->pending = PANE_UP_TO_DATE;
}

static bool end_job(struct app *a)
{
	struct flame_job *j = a->flame_job;
	a->flame_job = NULL;
	bool current = same_context(&j->ctx, &a->ctx) && a->panes[VIEW_FLAME].open;
	if (current)
		install(a, j);
	else
		view_close(&j->view);
	free(j);
	return current;
}

/* The dropped job, once its thread is gone (`wait`: waiting for it). */
static void reap_dropped(struct app *a, bool wait)
{
	struct flame_job *j = a->flame_dropped;
	if (!j)
		return;
	if (!background_over(&j->work, wait))
		return;
	view_close(&j->view);
	free(j);
	a->flame_dropped = NULL;
}

/* A graph no longer wanted (x again before it came) is not waited for:
 * its thread runs to its end and the graph goes then.  Only one is kept
 * so; an older one is waited for first. */
static void drop_job(struct app *a)
{
	if (!a->flame_job)
		return;
	reap_dropped(a, true);
	a->flame_dropped = a->flame_job;
	a->flame_job = NULL;
}

bool flame_job_poll(struct app *a)
{
	reap_dropped(a, false);
	if (!a->flame_job || !background_done(&a->flame_job->work, 0))
		return false;
	return end_job(a);
}

void flame_job_finish(struct app *a)
{
	reap_dropped(a, true); /* it reads what the caller may change */
	if (!a->flame_job)
		return;
	background_wait(&a->flame_job->work);
	end_job(a);
}

bool app_flame_computing(const struct app *a)
{
	return a->flame_job != NULL;
}

bool flame_job_busy(const struct app *a)
{
	return a->flame_job || a->flame_dropped;
}

void flame_toggle_order(struct app *a)
{
	if (a->ctx.model->live.samples_before) {
		app_message(a, "time order needs every sample, and this live session "
			    "keeps only its newest: pin a range on the strip");
		return;
	}
	if (!flame_has_time_order(a->ctx.model, a->ctx.type)) {
		app_message(a, "time order needs samples with times (this %s has none%s)",
			    a->ctx.model->format,
			    a->ctx.type ? " for this sample type" : "");
		return;
	}
	drop_job(a);
	a->ctx.time_order = !a->ctx.time_order;
	/* Time order walks every sample's stack: seconds for millions of
	 * them, so on screen it is made on a thread as a range's graph is. */
	struct pane *p = &a->panes[VIEW_FLAME];
	if (a->current != VIEW_FLAME || !start_job(a, true)) {
		if (p->open) {
			view_rebuild(&p->view);
			p->selected = 0;
		}
		app_show_pane(a, VIEW_FLAME);
	}
	app_message(a, "flame graph: %s", a->ctx.time_order
		    ? "time order (samples as they came, equal neighbours merged)"
		    : "left-heavy (merged, largest first)");
}
