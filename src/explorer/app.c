#include "app.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "filters.h"
#include "flame_job.h"
#include "base/escape.h"
#include "base/id_table.h"
#include "base/util.h"
#include "lines_pane.h"

/* ---- state ------------------------------------------------------------ */

static uint64_t *hash_frames(const struct model *m);

void app_init(struct app *a, const char *file, struct model *m,
	      enum view_kind first)
{
	app_init_kept(a, file, m, first, NULL);
}

void app_init_kept(struct app *a, const char *file, struct model *m,
		   enum view_kind first, struct rules *kept)
{
	memset(a, 0, sizeof(*a));
	a->file = file;
	a->original = m;
	a->loaded = m;
	a->range.samples = (struct sample_range){ 0, m->nsamples };
	a->strip.cells = 100;
	a->frame_keys = hash_frames(m);
	a->nframe_keys = m->nframes;
	a->page_rows = 20;
	a->value_type = m->default_type;
	if (kept)
		a->original_rules = *kept;
	else
		rules_init(&a->original_rules, m);
	a->ctx = (struct view_context){
		.model = m,
		.rules = &a->original_rules,
		.rule = rule_default(m),
		.type = m->default_type,
		.sort = SORT_TOTAL,
		.focus_frame = NO_ID,
	};
	app_show_pane(a, first);
}

void app_free(struct app *a)
{
	flame_job_finish(a);
	app_range_free(a);
	app_close_lines(a);
	for (int k = 0; k < VIEW_COUNT; k++)
		if (a->panes[k].open)
			view_close(&a->panes[k].view);
	filters_free(a);
	rules_free(&a->original_rules);
	free(a->frame_keys);
	app_free_range_cut(a->range.cut, a->range.owns_samples);
	timeline_free(&a->strip.timeline);
	free(a->flame.matched);
	flame_layout_free(&a->flame.layout);
}

void app_start_early(struct app *a)
{
	rules_start_chains(a->ctx.rules);
}

void app_compute_in_background(struct app *a)
{
	a->background = true;
	a->original_rules.background = true;
	filters_background(a);
	/* Counted now, after the first screen and before any thread but the
	 * caller chains' (app_start_early: the tree's shape alone, which
	 * counting leaves as it is) reads the model, so that `u` does not
	 * count millions of samples. */
	if (!filters_in_force(a) && !a->filters.job)
		model_add_sample_counts(a->original);
	rules_start_chains(a->ctx.rules); /* if app_start_early did not */
	rules_start_divided(a->ctx.rules, a->ctx.type); /* after the chains */
	app_range_prepare(a);
	/* additive takes tens of milliseconds on a large tree: better now,
	 * while the user reads the first screen, than on the first `r`. */
	rules_totals(a->ctx.rules, RULE_ADDITIVE, a->ctx.type);
}

bool app_poll(struct app *a)
{
	if (filters_poll(a) || flame_job_poll(a))
		return true;
	if (filters_in_force(a)) /* keeps the original's work going */
		rules_poll(&a->original_rules);
	if (!rules_poll(a->ctx.rules) || a->ctx.rule != RULE_DIVIDED)
		return false;
	app_rebuild(a, PANE_NEW_VALUES);
	app_message(a, "rule: divided, computed");
	return true;
}

bool app_busy(const struct app *a)
{
	return filters_busy(a) || rules_busy(&a->original_rules) ||
	       flame_job_busy(a) || app_range_busy(a);
}

struct pane *app_pane(struct app *a)
{
	return &a->panes[a->current];
}

const struct row *app_selected_row(struct app *a)
{
	struct pane *p = app_pane(a);
	return p->selected < p->view.nrows ? &p->view.rows[p->selected] : NULL;
}

void app_message(struct app *a, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(a->message, sizeof(a->message), fmt, ap);
	va_end(ap);
}

const char *app_frame_name(const struct app *a, uint32_t frame, char *buf,
			   size_t cap)
{
	const struct model *m = a->ctx.model;
	escape_text(model_str(m, m->frames[frame].name), buf, cap);
	return buf;
}

/* Names and files, as the filters match them. */
static bool frame_matches(const struct model *m, uint32_t frame, const char *text)
{
	const struct frame *f = &m->frames[frame];
	return strcasestr(model_str(m, f->name), text) || strcasestr(model_str(m, f->url), text);
}

bool app_row_matches(const struct app *a, const struct row *r)
{
	return a->prompts.search[0] && frame_matches(a->ctx.model, r->frame, a->prompts.search);
}

/* Enough rows under closed ones to look through, bounded so that one
 * key never hangs the UI on a profile with millions of nodes. */
#define LOOK_MAX_ROWS 200000

/* ---- keeping expansion and selection across a rebuild ---------------- */

/* A row is named by the frames on its way down from the top level, so a
 * view rebuilt under another rule or filter opens up where it was.
 * Frames are named by their name and place rather than their number: a
 * live view's next snapshot numbers its frames afresh. */
static uint64_t *hash_frames(const struct model *m)
{
	uint64_t *keys = xmalloc((m->nframes + 1) * sizeof(uint64_t));
	for (size_t id = 0; id < m->nframes; id++) {
		const struct frame *f = &m->frames[id];
		const char *name = model_str(m, f->name), *url = model_str(m, f->url);
		uint64_t h = hash_bytes(name, strlen(name), 1);
		h = hash_bytes(url, strlen(url), h);
		keys[id] = hash_mix(h + (uint32_t)f->line);
	}
	return keys;
}

/* Rows come in the order they are shown, so a stack of path hashes by
 * depth names each row from its parent's name. */
struct path_walk {
	const uint64_t *frame_keys;
	uint64_t *by_depth;
	size_t cap;
};

static uint64_t path_of(struct path_walk *w, const struct row *row)
{
	uint32_t d = row->depth;
	GROW(w->by_depth, w->cap, (size_t)d + 1);
	uint64_t parent = d ? w->by_depth[d - 1] : 0;
	w->by_depth[d] = hash_mix(parent * 0x9e3779b97f4a7c15ULL + w->frame_keys[row->frame]);
	return w->by_depth[d];
}

/* The open rows' paths, each once, and the selected row's, and its
 * frame's key to find the function again where its path is gone. */
struct row_paths {
	uint64_t *expanded;
	size_t n, cap;
	struct id_table index; /* over expanded; a path is a mixed hash */
	uint64_t selected;
	uint64_t selected_key;
	bool has_selected;
};

/* The probe ends where `path` is, or where it would go. */
static bool paths_find(const struct row_paths *p, uint64_t path, struct id_probe *probe)
{
	*probe = id_table_probe(&p->index, path);
	for (uint32_t i; (i = id_probe_next(&p->index, probe)) != NO_ID;)
		if (p->expanded[i] == path)
			return true;
	return false;
}

static void paths_add(struct row_paths *p, uint64_t path)
{
	struct id_probe probe;
	if (paths_find(p, path, &probe))
		return;
	GROW(p->expanded, p->cap, p->n + 1);
	p->expanded[p->n] = path;
	id_table_add(&p->index, &probe, (uint32_t)p->n++);
}

static bool paths_has(const struct row_paths *p, uint64_t path)
{
	struct id_probe probe;
	return paths_find(p, path, &probe);
}

static void paths_free(struct row_paths *p)
{
	free(p->expanded);
	id_table_free(&p->index);
}

static void remember_paths(struct pane *p, const uint64_t *frame_keys,
			   struct row_paths *out)
{
	*out = (struct row_paths){ .selected = 0 };
	id_table_init(&out->index, 0);
	struct path_walk w = { .frame_keys = frame_keys };
	/* Rows no key opens (pane 5's 450 000 on the bench): none past the
	 * selected one names anything to remember. */
	size_t end = p->view.ops->children || p->selected >= p->view.nrows
		? p->view.nrows : p->selected + 1;
	for (size_t i = 0; i < end; i++) {
		const struct row *row = &p->view.rows[i];
		uint64_t path = path_of(&w, row);
		if (row->flags & ROW_EXPANDED)
			paths_add(out, path);
		if (i == p->selected) {
			out->selected = path;
			out->selected_key = frame_keys[row->frame];
			out->has_selected = true;
		}
	}
	free(w.by_depth);
}

struct restore {
	const struct row_paths *paths;
	struct path_walk walk;
	size_t *selected;
	bool found;
};

static bool reopen_row(void *data, const struct row *row, size_t index)
{
	struct restore *r = data;
	uint64_t path = path_of(&r->walk, row);
	if (path == r->paths->selected) {
		*r->selected = index;
		r->found = true;
	}
	return paths_has(r->paths, path);
}

static bool has_selected_key(void *data, const struct row *row)
{
	const struct restore *r = data;
	return r->walk.frame_keys[row->frame] == r->paths->selected_key;
}

/* Whether a function named as the selected row's is on a node still
 * shown.  Where it is gone (hidden, merged, collapsed away), looking for
 * it row by row would walk the whole tree for nothing. */
static bool function_on_nodes(const struct model *m, const uint64_t *frame_keys, uint64_t key)
{
	if (!(m->caps & HAS_NODES) || m->frame_self)
		return true; /* rows of functions without nodes too */
	uint8_t *named = xcalloc(m->nframes + 1, 1);
	bool any = false;
	for (size_t f = 0; f < m->nframes; f++)
		any |= named[f] = frame_keys[f] == key;
	bool found = false;
	for (uint32_t v = 0; any && !found && v < m->nnodes; v++)
		found = named[m->nodes[v].frame] && !node_hidden(m, v);
	free(named);
	return found;
}

/* Rebuilds the pane and frees the paths.  A selected row whose path is
 * gone (a `=` undone: its function was at the top) is its function's
 * first row in tree order, opened. */
static void restore_paths(struct pane *p, const uint64_t *frame_keys,
			  struct row_paths *paths)
{
	p->selected = 0;
	struct restore r = { .paths = paths, .walk = { .frame_keys = frame_keys },
			     .selected = &p->selected };
	view_rebuild_opening(&p->view, reopen_row, &r);
	if (!r.found && paths->has_selected &&
	    function_on_nodes(p->view.ctx->model, frame_keys, paths->selected_key)) {
		bool cut_short;
		size_t opened_at;
		size_t at = view_find(&p->view, 0, 1, true, has_selected_key, &r,
				      LOOK_MAX_ROWS, &cut_short, &opened_at);
		if (at != SIZE_MAX)
			p->selected = at;
	}
	free(r.walk.by_depth);
	paths_free(paths);
}

/* Same rows, new numbers: the selection follows its row through the
 * new order.  A row's item names it within one view. */
static bool revalue_pane(struct pane *p)
{
	const struct row *sel = p->selected < p->view.nrows
		? &p->view.rows[p->selected] : NULL;
	uint32_t item = sel ? sel->item : NO_ID, depth = sel ? sel->depth : 0;
	if (!view_revalue(&p->view))
		return false;
	for (size_t i = 0; i < p->view.nrows; i++)
		if (p->view.rows[i].item == item && p->view.rows[i].depth == depth) {
			p->selected = i;
			break;
		}
	return true;
}

static size_t primary_row(const struct view *v);

static void bring_up_to_date(struct app *a, struct pane *p)
{
	if (p == &a->panes[VIEW_FLAME])
		flame_job_finish(a); /* its graph, if still for this context */
	if (p->pending != PANE_UP_TO_DATE &&
	    (p->pending == PANE_NEW_ROWS || !revalue_pane(p))) {
		struct row_paths paths;
		remember_paths(p, a->frame_keys, &paths);
		restore_paths(p, a->frame_keys, &paths);
	}
	p->pending = PANE_UP_TO_DATE;
	if (p->from_top) {
		p->from_top = false;
		p->selected = primary_row(&p->view);
		p->top = 0;
	}
}

void app_rebuild(struct app *a, enum pane_change what)
{
	for (int k = 0; k < VIEW_COUNT; k++)
		if (a->panes[k].open && a->panes[k].pending < what)
			a->panes[k].pending = what;
	bring_up_to_date(a, app_pane(a));
}

/* ---- panes and moving ------------------------------------------------- */

/* Where a pane starts: the call graph at its centre, others at the top. */
static size_t primary_row(const struct view *v)
{
	for (size_t i = 0; i < v->nrows; i++)
		if (v->rows[i].flags & ROW_PRIMARY)
			return i;
	return 0;
}

/* The panes that show one function: the call graph and the sandwich. */
static bool centred(enum view_kind kind)
{
	return kind == VIEW_CALLGRAPH || kind == VIEW_SANDWICH;
}

void app_rebuild_centred(struct app *a)
{
	if (a->panes[VIEW_CALLGRAPH].open)
		view_rebuild(&a->panes[VIEW_CALLGRAPH].view);
	if (a->panes[VIEW_SANDWICH].open)
		view_rebuild(&a->panes[VIEW_SANDWICH].view);
}

void app_show_pane(struct app *a, enum view_kind kind)
{
	struct pane *p = &a->panes[kind];
	if (centred(kind) && a->ctx.focus_frame == NO_ID) {
		const struct row *r = a->panes[a->current].open ? app_selected_row(a) : NULL;
		if (r)
			a->ctx.focus_frame = r->frame;
	}
	a->current = kind;
	bring_up_to_date(a, p);
	if (!p->open) {
		view_open(&p->view, kind, &a->ctx);
		p->open = true;
		p->selected = centred(kind) ? primary_row(&p->view) : 0;
	}
}

void app_next_pane(struct app *a)
{
	app_show_pane(a, (enum view_kind)((a->current + 1) % VIEW_COUNT));
}

void app_prev_pane(struct app *a)
{
	app_show_pane(a, (enum view_kind)((a->current + VIEW_COUNT - 1) % VIEW_COUNT));
}

void app_move_to(struct app *a, size_t index)
{
	struct pane *p = app_pane(a);
	if (!p->view.nrows)
		index = 0;
	else if (index >= p->view.nrows)
		index = p->view.nrows - 1;
	p->selected = index;
}

void app_move(struct app *a, long delta)
{
	size_t at = app_pane(a)->selected;
	if (delta < 0 && (size_t)-delta > at)
		app_move_to(a, 0);
	else
		app_move_to(a, at + (size_t)delta);
}

void app_page(struct app *a, int direction)
{
	size_t page = a->page_rows > 1 ? a->page_rows - 1 : 1;
	app_move(a, direction * (long)page);
}

void app_home(struct app *a)
{
	app_move_to(a, 0);
}

void app_end(struct app *a)
{
	app_move_to(a, SIZE_MAX);
}

/* ---- expanding -------------------------------------------------------- */

void app_expand(struct app *a)
{
	struct pane *p = app_pane(a);
	const struct row *r = app_selected_row(a);
	if (!r)
		return;
	if (r->flags & ROW_EXPANDED)
		app_move(a, 1); /* as in file managers: Right again steps in */
	else if (!view_expand(&p->view, p->selected) && !(r->flags & ROW_EXPANDABLE))
		app_message(a, "nothing below this row");
}

void app_collapse(struct app *a)
{
	struct pane *p = app_pane(a);
	const struct row *r = app_selected_row(a);
	if (!r)
		return;
	if (r->flags & ROW_EXPANDED) {
		view_collapse(&p->view, p->selected);
		return;
	}
	/* On a collapsed row, Left goes to its parent. */
	for (size_t i = p->selected; i-- > 0;)
		if (p->view.rows[i].depth < r->depth) {
			p->selected = i;
			return;
		}
}

static void app_toggle(struct app *a)
{
	const struct row *r = app_selected_row(a);
	if (r && (r->flags & ROW_EXPANDED))
		app_collapse(a);
	else if (r)
		app_expand(a);
}

void app_expand_subtree(struct app *a)
{
	struct pane *p = app_pane(a);
	if (!app_selected_row(a))
		return;
	size_t before = p->view.nrows;
	view_expand_all(&p->view, p->selected, UINT32_MAX, before + LOOK_MAX_ROWS);
	if (p->view.nrows >= before + LOOK_MAX_ROWS)
		app_message(a, "expanded the first %d rows of this subtree",
			    LOOK_MAX_ROWS);
}

static bool is_tree(struct app *a)
{
	if (app_pane(a)->view.ops->children)
		return true;
	app_message(a, "this pane is not a tree (1 top-down, 2 bottom-up are)");
	return false;
}

void app_open_heaviest(struct app *a)
{
	struct pane *p = app_pane(a);
	if (!app_selected_row(a) || !is_tree(a))
		return;
	size_t from = p->selected;
	p->selected = view_open_heaviest(&p->view, from);
	if (p->selected == from)
		app_message(a, "nothing below this row");
	else
		app_message(a, "heaviest path: %u levels down",
			    p->view.rows[p->selected].depth - p->view.rows[from].depth);
}

void app_collapse_all(struct app *a)
{
	struct pane *p = app_pane(a);
	if (!app_selected_row(a) || !is_tree(a))
		return;
	p->selected = view_collapse_all(&p->view, p->selected);
}

/* ---- sorting, rules, units -------------------------------------------- */

/* Every pane then shows the top of the new order, as a table sorted
 * again by its column does (a cursor following its row would leave the
 * window where it was and hide the new order); the flame graph keeps
 * its own order, and its cursor. */
static void resort_all(struct app *a)
{
	for (int k = 0; k < VIEW_COUNT; k++) {
		struct pane *p = &a->panes[k];
		if (!p->open)
			continue;
		p->from_top = k != VIEW_FLAME;
		if (p->view.ops->sort) /* such views rebuild their rows to sort */
			p->pending = PANE_NEW_ROWS;
		else if (p->pending == PANE_UP_TO_DATE)
			view_sort(&p->view);
	}
	bring_up_to_date(a, app_pane(a));
}

void app_cycle_sort(struct app *a)
{
	a->ctx.sort = (enum sort_key)((a->ctx.sort + 1) % SORT_COUNT);
	if (a->ctx.sort == SORT_CALLS && !(a->ctx.model->caps & HAS_CALL_COUNTS))
		a->ctx.sort = (enum sort_key)(a->ctx.sort + 1);
	resort_all(a);
	app_message(a, "sorted by %s", sort_key_name(a->ctx.sort));
}

void app_reverse_sort(struct app *a)
{
	a->ctx.reversed = !a->ctx.reversed;
	resort_all(a);
	app_message(a, "sorted by %s, %s", sort_key_name(a->ctx.sort),
		    a->ctx.reversed ? "reversed" : "largest first");
}

void app_set_relative(struct app *a, bool relative)
{
	a->relative = relative;
	rules_set_relative(&a->original_rules, relative);
	filters_set_relative(a);
	app_rebuild(a, PANE_NEW_VALUES);
}

void app_toggle_relative(struct app *a)
{
	app_set_relative(a, !a->relative);
	app_message(a, "%%: of %s", a->relative ? "what the filters leave" : "the whole profile");
}

void app_set_min_share(struct app *a, double percent)
{
	a->ctx.min_share = percent;
	app_rebuild(a, PANE_NEW_ROWS);
}

/* The shares pprof users try first with -nodefraction, then none. */
void app_cycle_min_share(struct app *a)
{
	static const double steps[] = { 0, 0.5, 1, 5 };
	size_t n = sizeof(steps) / sizeof(steps[0]), next = 0;
	for (size_t i = 0; i < n; i++)
		if (a->ctx.min_share >= steps[i])
			next = (i + 1) % n;
	app_set_min_share(a, steps[next]);
	if (steps[next] > 0)
		app_message(a, "rows under %g%% of the profile hidden (> again: %s)",
			    steps[next], next + 1 < n ? "more" : "none");
	else
		app_message(a, "every row shown");
}

/* gprof's rule is offered only where the data supports it; the others are
 * always offered, and say why when they give no totals. */
void app_cycle_rule(struct app *a)
{
	enum rule next = a->ctx.rule;
	do {
		next = (enum rule)((next + 1) % RULE_COUNT);
	} while (next == RULE_GPROF &&
		 !rules_totals(a->ctx.rules, RULE_GPROF, a->ctx.type)->total);
	a->ctx.rule = next;
	a->rule_chosen = true;
	app_rebuild(a, PANE_NEW_VALUES);
	const struct totals *t = rules_totals(a->ctx.rules, next, a->ctx.type);
	if (t->total)
		app_message(a, "rule: %s", rule_name(next));
	else if (t->computing)
		app_message(a, "rule: %s is being computed; its numbers follow",
			    rule_name(next));
	else
		app_message(a, "rule: %s gives no totals here: %s", rule_name(next),
			    t->why_not);
}

void app_set_value_type(struct app *a, unsigned type)
{
	if (type >= a->ctx.model->ntypes || type == a->value_type)
		return;
	a->value_type = type;
	if (a->units != UNITS_SAMPLES) {
		a->ctx.type = type;
		app_rebuild(a, PANE_NEW_VALUES);
	}
}

/* The sample types the file has, in order; the counts `u` adds are not
 * one of them. */
void app_next_thread(struct app *a)
{
	if (!a->original->nother_threads)
		app_message(a, "T: no other thread has a profile in this file");
	else
		a->next_thread = true;
}

void app_next_granularity(struct app *a)
{
	a->next_granularity = true;
}

void app_cycle_sample_type(struct app *a)
{
	const struct model *m = a->ctx.model;
	uint32_t counts = model_count_type(m);
	unsigned next = a->value_type;
	do
		next = (next + 1) % m->ntypes;
	while (next == counts && next != a->value_type);
	if (next == a->value_type) {
		/* A Go CPU profile's other type is its sample counts: u's. */
		if (counts != NO_ID && m->ntypes == 2)
			app_message(a, "samples (count), this profile's other sample type, "
				    "shows with u (units: samples)");
		else
			app_message(a, "this profile has one sample type");
		return;
	}
	app_set_value_type(a, next);
	char name[128], unit[64];
	escape_text(model_str(m, m->types[next].name), name, sizeof(name));
	escape_text(model_str(m, m->types[next].unit), unit, sizeof(unit));
	app_message(a, "sample type: %s (%s)", name, unit);
}

void app_cycle_units(struct app *a)
{
	enum unit_mode next = (enum unit_mode)((a->units + 1) % UNITS_COUNT);
	/* Counted when first asked for (or after the first screen), to keep
	 * them off it. */
	if (next == UNITS_SAMPLES && model_count_type(a->ctx.model) == NO_ID) {
		filters_finish(a); /* it reads the original */
		bool filtered = filters_in_force(a);
		if (filtered)
			filters_drop(a); /* the count type may move what they borrow */
		model_add_sample_counts(a->original);
		if (filtered)
			filters_remake(a);
	}
	if (next == UNITS_SAMPLES && model_count_type(a->ctx.model) == NO_ID) {
		app_message(a, "this profile has no sample counts");
		next = UNITS_TIME;
	}
	unsigned type = next == UNITS_SAMPLES ? model_count_type(a->ctx.model)
					      : a->value_type;
	a->units = next;
	if (type != a->ctx.type) {
		a->ctx.type = type;
		app_rebuild(a, PANE_NEW_VALUES);
	}
	static const char *const names[UNITS_COUNT] = { "time", "% of total", "samples" };
	if (next != UNITS_TIME || !a->message[0])
		app_message(a, "units: %s", names[next]);
}

/* ---- search ------------------------------------------------------------ */

void app_search_set(struct app *a, const char *text)
{
	snprintf(a->prompts.search, sizeof(a->prompts.search), "%s", text);
}

void app_search_start(struct app *a)
{
	a->prompts.searching = true;
	a->prompts.search[0] = 0;
	a->prompts.search_origin = app_pane(a)->selected;
}

void app_search_update(struct app *a)
{
	app_pane(a)->selected = a->prompts.search_origin;
	a->message[0] = 0;
	app_search_next(a, 1, true);
}

bool *app_search_hits(const struct app *a, bool *any)
{
	const struct model *m = a->ctx.model;
	bool *hits = xcalloc(m->nframes + 1, sizeof(bool)), found = false;
	for (uint32_t f = 0; a->prompts.search[0] && f < m->nframes; f++) {
		hits[f] = frame_matches(m, f, a->prompts.search);
		found |= hits[f];
	}
	if (any)
		*any = found;
	return hits;
}

static bool search_hit(void *data, const struct row *r)
{
	const bool *hits = data;
	return hits[r->frame];
}

void app_search_next(struct app *a, int direction, bool include_current)
{
	struct pane *p = app_pane(a);
	size_t before = p->view.nrows, at = SIZE_MAX, opened_at = SIZE_MAX;
	bool cut_short = false;
	if (!a->prompts.search[0] || !before)
		return;
	bool any;
	bool *hits = app_search_hits(a, &any);
	if (any)
		at = view_find(&p->view, p->selected, direction, include_current, search_hit, hits,
			       LOOK_MAX_ROWS, &cut_short, &opened_at);
	free(hits);
	/* Rows opened above where an incremental search started move it. */
	if (opened_at < a->prompts.search_origin)
		a->prompts.search_origin += p->view.nrows - before;
	if (at != SIZE_MAX) {
		p->selected = at;
		return;
	}
	char safe[256];
	escape_text(a->prompts.search, safe, sizeof(safe));
	if (cut_short)
		app_message(a, "no row matches '%s' in the first %d rows looked at", safe,
			    LOOK_MAX_ROWS);
	else
		app_message(a, "no row matches '%s' (names and files)", safe);
}

/* ---- between panes -------------------------------------------------------- */

static void remember_centre(struct app *a, uint32_t next)
{
	struct graph_history *h = &a->graph_back;
	uint32_t now = a->ctx.focus_frame;
	if (now == NO_ID || now == next)
		return;
	if (h->n == GRAPH_HISTORY) /* the oldest goes */
		memmove(h->centres, h->centres + 1, (GRAPH_HISTORY - 1) * sizeof(h->centres[0]));
	else
		h->n++;
	h->centres[h->n - 1] = now;
}

bool app_graph_back(struct app *a)
{
	struct graph_history *h = &a->graph_back;
	if (a->current != VIEW_CALLGRAPH || !h->n)
		return false;
	a->ctx.focus_frame = h->centres[--h->n];
	struct pane *p = app_pane(a);
	view_rebuild(&p->view);
	p->selected = primary_row(&p->view);
	p->top = 0;
	char name[256];
	app_message(a, "back to %s (%u more back)",
		    app_frame_name(a, a->ctx.focus_frame, name, sizeof(name)), h->n);
	return true;
}

void app_open_in(struct app *a, enum view_kind kind)
{
	const struct row *r = app_selected_row(a);
	if (!r)
		return;
	uint32_t frame = r->frame;
	if (centred(kind)) {
		if (kind == VIEW_CALLGRAPH)
			remember_centre(a, frame);
		a->ctx.focus_frame = frame;
		app_rebuild_centred(a);
		app_show_pane(a, kind);
		a->panes[kind].selected = primary_row(&a->panes[kind].view);
		return;
	}
	app_show_pane(a, kind);
	struct pane *p = app_pane(a);
	for (size_t i = 0; i < p->view.nrows; i++)
		if (p->view.rows[i].depth == 0 && p->view.rows[i].frame == frame) {
			p->selected = i;
			return;
		}
}

/* Enter: a function in the flat pane opens in the call graph, a caller or
 * callee in the call graph becomes its centre, tree rows open and close. */
void app_enter(struct app *a)
{
	const struct row *r = app_selected_row(a);
	if (!r)
		return;
	if (a->current == VIEW_FLAT ||
	    (a->current == VIEW_CALLGRAPH && !(r->flags & ROW_PRIMARY)))
		app_open_in(a, VIEW_CALLGRAPH);
	else
		app_toggle(a);
}

/* ---- live mode: the same profile, grown ----------------------------------- */

/* The frame of `next` that is frame `id` of `old`, or NO_ID.  Snapshots of
 * one engine append new frames, so the same number is the one to try. */
static uint32_t same_frame(const struct model *old, const struct model *next,
			   uint32_t id)
{
	if (id == NO_ID || id >= next->nframes)
		return NO_ID;
	const struct frame *f = &old->frames[id], *g = &next->frames[id];
	bool same = !strcmp(model_str(old, f->name), model_str(next, g->name)) &&
		    !strcmp(model_str(old, f->url), model_str(next, g->url)) &&
		    f->line == g->line;
	return same ? id : NO_ID;
}

/* The call graph's history in the frames of `next`, those it lacks left
 * out. */
static void carry_centres(struct app *a, const struct model *next)
{
	struct graph_history *h = &a->graph_back;
	unsigned kept = 0;
	for (unsigned i = 0; i < h->n; i++) {
		uint32_t f = same_frame(a->original, next, h->centres[i]);
		if (f != NO_ID)
			h->centres[kept++] = f;
	}
	h->n = kept;
}

void app_values_changed(struct app *a)
{
	if (a->range.cut) { /* the range's view counts the new values */
		app_replace_model(a, a->loaded);
		return;
	}
	/* The whole profile, samples appended in place included. */
	a->range.samples = (struct sample_range){ 0, a->loaded->nsamples };
	rules_values_changed(&a->original_rules);
	bool filtered = a->filters.applied.n > 0;
	if (filtered)
		filters_remake(a); /* the levels take the new values */
	app_rebuild(a, filtered ? PANE_NEW_ROWS : PANE_NEW_VALUES);
}

/* A time range's view and the model it views, or two views of one
 * model: the rules keep what the shape alone decides (rules.h), the
 * costly part of a range key. */
static bool same_shape(const struct model *a, const struct model *b)
{
	return a->nodes == b->nodes && a->nnodes == b->nnodes &&
	       a->child_ids == b->child_ids && a->arcs == b->arcs &&
	       a->narcs == b->narcs;
}

void app_show_model(struct app *a, struct model *next)
{
	filters_finish(a); /* made from the model going away */
	/* Another range of the same profile has the same frames: a pane
	 * not on screen can remember its open rows when it is shown. */
	bool same_frames = same_shape(a->original, next);
	struct row_paths paths[VIEW_COUNT];
	for (int k = 0; k < VIEW_COUNT; k++)
		if (a->panes[k].open && (k == (int)a->current || !same_frames))
			remember_paths(&a->panes[k], a->frame_keys, &paths[k]);
	filters_carry(a, next, same_frame);
	a->ctx.focus_frame = same_frame(a->original, next, a->ctx.focus_frame);
	carry_centres(a, next);
	free(a->frame_keys);
	a->frame_keys = hash_frames(next);
	a->nframe_keys = next->nframes;
	if (a->units == UNITS_SAMPLES && model_count_type(next) == NO_ID)
		model_add_sample_counts(next);
	if (same_frames) {
		rules_values_changed(&a->original_rules);
		a->original_rules.model = next;
	} else {
		rules_free(&a->original_rules);
		rules_init(&a->original_rules, next);
		rules_set_relative(&a->original_rules, a->relative);
		a->original_rules.background = a->background;
	}
	a->original = next;
	/* A first snapshot without samples has no stacks, so its default
	 * rule would be divided, slow on a big graph and not what stacks
	 * call for. */
	if (!a->rule_chosen)
		a->ctx.rule = rule_default(next);
	filters_remake(a);
	for (int k = 0; k < VIEW_COUNT; k++)
		if (a->panes[k].open && (k == (int)a->current || !same_frames)) {
			/* Pane 5 keeps its graph until the thread's is ready. */
			if (k == VIEW_FLAME && same_frames && flame_job_start(a))
				paths_free(&paths[k]);
			else
				restore_paths(&a->panes[k], a->frame_keys, &paths[k]);
			a->panes[k].pending = PANE_UP_TO_DATE;
		} else if (a->panes[k].open) {
			a->panes[k].pending = PANE_NEW_ROWS;
		}
}
