#include "app.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../escape.h"
#include "../util.h"

/* ---- state ------------------------------------------------------------ */

void app_init(struct app *a, const char *file, struct model *m,
	      enum view_kind first)
{
	memset(a, 0, sizeof(*a));
	a->file = file;
	a->original = m;
	a->focus = NO_ID;
	a->hidden = xcalloc(m->nframes + 1, 1);
	a->page_rows = 20;
	a->value_type = m->default_type;
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
	for (int k = 0; k < VIEW_COUNT; k++)
		if (a->panes[k].open)
			view_close(&a->panes[k].view);
	rules_free(&a->original_rules);
	if (a->filtering) {
		rules_free(&a->filtered_rules);
		model_free(&a->filtered);
	}
	free(a->hidden);
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

bool app_row_matches(const struct app *a, const struct row *r)
{
	const struct model *m = a->ctx.model;
	return a->search[0] &&
	       strcasestr(model_str(m, m->frames[r->frame].name), a->search);
}

/* ---- keeping expansion and selection across a rebuild ---------------- */

/* A row is named by the frames on its way down from the top level, so a
 * view rebuilt under another rule or filter opens up where it was. */
struct row_paths {
	uint64_t *expanded;
	size_t nexpanded;
	uint64_t selected;
};

/* By the frame's name and place rather than its number: a live view's
 * next snapshot numbers its frames afresh. */
static uint64_t path_step(const struct model *m, uint64_t parent, uint32_t frame)
{
	const struct frame *f = &m->frames[frame];
	const char *name = model_str(m, f->name), *url = model_str(m, f->url);
	uint64_t h = hash_bytes(name, strlen(name), parent * 31 + 1);
	h = hash_bytes(url, strlen(url), h);
	return hash_mix(h + (uint32_t)f->line);
}

/* Calls back with each row's path hash; returns false to stop early. */
static void walk_paths(struct view *v, bool (*visit)(struct view *, size_t,
						    uint64_t, void *),
		       void *data)
{
	uint64_t *stack = NULL;
	size_t cap = 0;
	for (size_t i = 0; i < v->nrows; i++) {
		uint32_t d = v->rows[i].depth;
		GROW(stack, cap, (size_t)d + 1);
		stack[d] = path_step(v->ctx->model, d ? stack[d - 1] : 0, v->rows[i].frame);
		if (!visit(v, i, stack[d], data))
			break;
	}
	free(stack);
}

struct remember {
	struct row_paths *paths;
	size_t cap, selected_index;
};

static bool remember_row(struct view *v, size_t i, uint64_t path, void *data)
{
	struct remember *r = data;
	if (v->rows[i].flags & ROW_EXPANDED) {
		GROW(r->paths->expanded, r->cap, r->paths->nexpanded + 1);
		r->paths->expanded[r->paths->nexpanded++] = path;
	}
	if (i == r->selected_index)
		r->paths->selected = path;
	return true;
}

static int compare_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return (x > y) - (x < y);
}

static void remember_paths(struct pane *p, struct row_paths *out)
{
	*out = (struct row_paths){ .selected = 0 };
	struct remember r = { out, 0, p->selected };
	walk_paths(&p->view, remember_row, &r);
	if (out->nexpanded > 1)
		qsort(out->expanded, out->nexpanded, sizeof(uint64_t), compare_u64);
}

struct restore {
	const struct row_paths *paths;
	size_t *selected;
};

static bool restore_row(struct view *v, size_t i, uint64_t path, void *data)
{
	struct restore *r = data;
	if (path == r->paths->selected)
		*r->selected = i;
	if (r->paths->nexpanded && bsearch(&path, r->paths->expanded, r->paths->nexpanded,
		    sizeof(uint64_t), compare_u64))
		view_expand(v, i);
	return true;
}

/* Rebuilds the pane and frees the paths. */
static void restore_paths(struct pane *p, struct row_paths *paths)
{
	view_rebuild(&p->view);
	p->selected = 0;
	struct restore r = { paths, &p->selected };
	walk_paths(&p->view, restore_row, &r);
	free(paths->expanded);
}

static void rebuild_pane(struct pane *p)
{
	struct row_paths paths;
	remember_paths(p, &paths);
	restore_paths(p, &paths);
}

void app_rebuild(struct app *a)
{
	for (int k = 0; k < VIEW_COUNT; k++)
		if (a->panes[k].open)
			rebuild_pane(&a->panes[k]);
}

/* ---- panes and moving ------------------------------------------------- */

static size_t primary_row(const struct view *v)
{
	for (size_t i = 0; i < v->nrows; i++)
		if (v->rows[i].flags & ROW_PRIMARY)
			return i;
	return 0;
}

void app_show_pane(struct app *a, enum view_kind kind)
{
	struct pane *p = &a->panes[kind];
	if (kind == VIEW_CALLGRAPH && a->ctx.focus_frame == NO_ID) {
		const struct row *r = a->panes[a->current].open ? app_selected_row(a) : NULL;
		if (r)
			a->ctx.focus_frame = r->frame;
	}
	a->current = kind;
	if (!p->open) {
		view_open(&p->view, kind, &a->ctx);
		p->open = true;
		p->selected = kind == VIEW_CALLGRAPH ? primary_row(&p->view) : 0;
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

void app_toggle(struct app *a)
{
	const struct row *r = app_selected_row(a);
	if (r && (r->flags & ROW_EXPANDED))
		app_collapse(a);
	else if (r)
		app_expand(a);
}

/* Enough to look through, bounded so that one key never hangs the UI
 * on a profile with millions of nodes. */
#define SUBTREE_MAX_ROWS 200000

void app_expand_subtree(struct app *a)
{
	struct pane *p = app_pane(a);
	if (!app_selected_row(a))
		return;
	size_t before = p->view.nrows;
	view_expand_all(&p->view, p->selected, UINT32_MAX, before + SUBTREE_MAX_ROWS);
	if (p->view.nrows >= before + SUBTREE_MAX_ROWS)
		app_message(a, "expanded the first %d rows of this subtree",
			    SUBTREE_MAX_ROWS);
}

/* ---- sorting, rules, units -------------------------------------------- */

static void resort_all(struct app *a)
{
	for (int k = 0; k < VIEW_COUNT; k++) {
		struct pane *p = &a->panes[k];
		if (!p->open)
			continue;
		if (p->view.ops->sort)
			rebuild_pane(p); /* such views rebuild their rows to sort */
		else
			view_sort(&p->view);
	}
}

static void keep_selected_frame(struct app *a, uint32_t frame)
{
	struct pane *p = app_pane(a);
	for (size_t i = 0; i < p->view.nrows; i++)
		if (p->view.rows[i].frame == frame) {
			p->selected = i;
			return;
		}
}

void app_cycle_sort(struct app *a)
{
	const struct row *r = app_selected_row(a);
	uint32_t frame = r ? r->frame : NO_ID;
	a->ctx.sort = (enum sort_key)((a->ctx.sort + 1) % SORT_COUNT);
	if (a->ctx.sort == SORT_CALLS && !(a->ctx.model->caps & HAS_CALL_COUNTS))
		a->ctx.sort = (enum sort_key)(a->ctx.sort + 1);
	resort_all(a);
	keep_selected_frame(a, frame);
	app_message(a, "sorted by %s", sort_key_name(a->ctx.sort));
}

void app_reverse_sort(struct app *a)
{
	const struct row *r = app_selected_row(a);
	uint32_t frame = r ? r->frame : NO_ID;
	a->ctx.reversed = !a->ctx.reversed;
	resort_all(a);
	keep_selected_frame(a, frame);
	app_message(a, "sorted by %s, %s", sort_key_name(a->ctx.sort),
		    a->ctx.reversed ? "reversed" : "largest first");
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
	app_rebuild(a);
	const struct totals *t = rules_totals(a->ctx.rules, next, a->ctx.type);
	if (t->total)
		app_message(a, "rule: %s", rule_name(next));
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
		app_rebuild(a);
	}
}

/* The sample types the file has, in order; the counts `u` adds are not
 * one of them. */
void app_cycle_sample_type(struct app *a)
{
	const struct model *m = a->ctx.model;
	uint32_t counts = model_count_type(m);
	unsigned next = a->value_type;
	do
		next = (next + 1) % m->ntypes;
	while (next == counts && next != a->value_type);
	if (next == a->value_type) {
		app_message(a, "this profile has one sample type");
		return;
	}
	app_set_value_type(a, next);
	char name[128], unit[64];
	escape_text(model_str(m, m->types[next].name), name, sizeof(name));
	escape_text(model_str(m, m->types[next].unit), unit, sizeof(unit));
	app_message(a, "sample type: %s (%s)", name, unit);
}

static bool apply_filters(struct app *a);

void app_cycle_units(struct app *a)
{
	enum unit_mode next = (enum unit_mode)((a->units + 1) % UNITS_COUNT);
	/* Counted when first asked for, to keep them off the first screen. */
	if (next == UNITS_SAMPLES && model_count_type(a->ctx.model) == NO_ID &&
	    model_add_sample_counts(a->original) != NO_ID && a->filtering)
		apply_filters(a);
	if (next == UNITS_SAMPLES && model_count_type(a->ctx.model) == NO_ID) {
		app_message(a, "this profile has no sample counts");
		next = UNITS_TIME;
	}
	unsigned type = next == UNITS_SAMPLES ? model_count_type(a->ctx.model)
					      : a->value_type;
	a->units = next;
	if (type != a->ctx.type) {
		a->ctx.type = type;
		app_rebuild(a);
	}
	static const char *const names[UNITS_COUNT] = { "time", "% of total", "samples" };
	if (next != UNITS_TIME || !a->message[0])
		app_message(a, "units: %s", names[next]);
}

/* ---- search ------------------------------------------------------------ */

void app_search_set(struct app *a, const char *text)
{
	snprintf(a->search, sizeof(a->search), "%s", text);
}

void app_search_start(struct app *a)
{
	a->searching = true;
	a->search[0] = 0;
	a->search_origin = app_pane(a)->selected;
}

void app_search_update(struct app *a)
{
	app_pane(a)->selected = a->search_origin;
	a->message[0] = 0;
	app_search_next(a, 1, true);
}

void app_search_next(struct app *a, int direction, bool include_current)
{
	struct pane *p = app_pane(a);
	size_t n = p->view.nrows;
	if (!a->search[0] || !n)
		return;
	size_t start = p->selected;
	for (size_t step = include_current ? 0 : 1; step <= n; step++) {
		size_t i = direction > 0 ? (start + step) % n : (start + n - step % n) % n;
		if (app_row_matches(a, &p->view.rows[i])) {
			p->selected = i;
			return;
		}
	}
	char safe[256];
	escape_text(a->search, safe, sizeof(safe));
	app_message(a, "no row shown here matches '%s'", safe);
}

/* ---- focus and hide ------------------------------------------------------ */

/* Puts the filtered (or the original) model in force, without rebuilding
 * the panes. */
static bool use_filters(struct app *a)
{
	bool wanted = a->focus != NO_ID || a->nhidden;
	struct model next;
	const char *why;
	struct stack_filter f = { a->focus, a->hidden };
	if (wanted && !model_filter_stacks(a->original, &f, &next, &why)) {
		app_message(a, "%s", why);
		return false;
	}
	if (a->filtering) {
		rules_free(&a->filtered_rules);
		model_free(&a->filtered);
	}
	a->filtering = wanted;
	if (wanted) {
		a->filtered = next;
		rules_init(&a->filtered_rules, &a->filtered);
	}
	a->ctx.model = wanted ? &a->filtered : a->original;
	a->ctx.rules = wanted ? &a->filtered_rules : &a->original_rules;
	uint32_t counts = model_count_type(a->ctx.model);
	a->ctx.type = a->units == UNITS_SAMPLES && counts != NO_ID
		? counts : a->value_type;
	return true;
}

static bool apply_filters(struct app *a)
{
	if (!use_filters(a))
		return false;
	app_rebuild(a);
	return true;
}

void app_focus(struct app *a)
{
	const struct row *r = app_selected_row(a);
	if (!r)
		return;
	uint32_t frame = r->frame, old = a->focus;
	char name[256];
	a->focus = frame;
	if (apply_filters(a))
		app_message(a, "focus: stacks through %s (F clears)",
			    app_frame_name(a, frame, name, sizeof(name)));
	else
		a->focus = old;
}

void app_hide(struct app *a)
{
	const struct row *r = app_selected_row(a);
	if (!r || a->hidden[r->frame])
		return;
	uint32_t frame = r->frame;
	char name[256];
	a->hidden[frame] = 1;
	a->nhidden++;
	if (apply_filters(a)) {
		app_message(a, "hidden: %s (F clears)",
			    app_frame_name(a, frame, name, sizeof(name)));
	} else {
		a->hidden[frame] = 0;
		a->nhidden--;
	}
}

void app_clear_filters(struct app *a)
{
	if (a->focus == NO_ID && !a->nhidden)
		return;
	a->focus = NO_ID;
	memset(a->hidden, 0, a->original->nframes);
	a->nhidden = 0;
	apply_filters(a);
	app_message(a, "focus and hide cleared");
}

/* ---- between panes -------------------------------------------------------- */

void app_open_in(struct app *a, enum view_kind kind)
{
	const struct row *r = app_selected_row(a);
	if (!r)
		return;
	uint32_t frame = r->frame;
	if (kind == VIEW_CALLGRAPH) {
		a->ctx.focus_frame = frame;
		if (a->panes[kind].open)
			view_rebuild(&a->panes[kind].view);
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

static void carry_filters(struct app *a, const struct model *next)
{
	const struct model *old = a->original;
	uint8_t *hidden = xcalloc(next->nframes + 1, 1);
	size_t nhidden = 0;
	for (uint32_t id = 0; id < old->nframes; id++) {
		uint32_t same = a->hidden[id] ? same_frame(old, next, id) : NO_ID;
		if (same != NO_ID) {
			hidden[same] = 1;
			nhidden++;
		}
	}
	free(a->hidden);
	a->hidden = hidden;
	a->nhidden = nhidden;
	a->focus = same_frame(old, next, a->focus);
	a->ctx.focus_frame = same_frame(old, next, a->ctx.focus_frame);
}

void app_values_changed(struct app *a)
{
	rules_values_changed(&a->original_rules);
	if (a->filtering)
		use_filters(a); /* the filtered copy takes the new values */
	app_rebuild(a);
}

void app_replace_model(struct app *a, struct model *next)
{
	struct row_paths paths[VIEW_COUNT];
	for (int k = 0; k < VIEW_COUNT; k++)
		if (a->panes[k].open)
			remember_paths(&a->panes[k], &paths[k]);
	carry_filters(a, next);
	if (a->units == UNITS_SAMPLES && model_count_type(next) == NO_ID)
		model_add_sample_counts(next);
	rules_free(&a->original_rules);
	rules_init(&a->original_rules, next);
	a->original = next;
	/* A first snapshot without samples has no stacks, so its default
	 * rule would be divided, slow on a big graph and not what stacks
	 * call for. */
	if (!a->rule_chosen)
		a->ctx.rule = rule_default(next);
	if (!use_filters(a)) { /* the focus left the new stacks: show them all */
		a->focus = NO_ID;
		memset(a->hidden, 0, next->nframes);
		a->nhidden = 0;
		use_filters(a);
	}
	for (int k = 0; k < VIEW_COUNT; k++)
		if (a->panes[k].open)
			restore_paths(&a->panes[k], &paths[k]);
}
