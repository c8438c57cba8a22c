#include "compare.h"

#include <stdlib.h>
#include <string.h>

#include "base/util.h"

/* The delta layout's rows: every row of the runs, or those not within
 * the noise. */
static void list_rows(struct compare *c)
{
	c->nrows = 0;
	for (size_t i = 0; i < c->runs.nrows; i++)
		if (!c->hide_noise || c->runs.rows[i].significant != 0)
			c->rows[c->nrows++] = &c->runs.rows[i];
}

/* Every run's rows, and its call paths' tests, again under the diff's
 * rule and normalize. */
static void build_rows(struct compare *c)
{
	runs_diff_build(&c->runs);
	free(c->rows);
	c->rows = xcalloc(c->runs.nrows + 1, sizeof(*c->rows));
	runs_paths_free(&c->paths);
	c->paths_built = false;
	list_rows(c);
}

static void sort_rows(struct compare *c)
{
	runs_diff_sort(&c->runs);
	list_rows(c);
}

/* The runs after the first have rules of their own; the first are the
 * sides'. */
static void init_runs(struct compare *c, struct model *models[DIFF_SIDES],
		      const size_t nruns[DIFF_SIDES])
{
	for (int s = 0; s < DIFF_SIDES; s++) {
		c->run_rules[s] = xcalloc(nruns[s], sizeof(struct rules));
		c->rules_of_run[s] = xcalloc(nruns[s], sizeof(struct rules *));
		c->rules_of_run[s][0] = &c->side[s].original_rules;
		for (size_t i = 1; i < nruns[s]; i++) {
			rules_init(&c->run_rules[s][i - 1], &models[s][i]);
			c->rules_of_run[s][i] = &c->run_rules[s][i - 1];
		}
	}
	runs_diff_init(&c->runs, &c->diff, c->rules_of_run, nruns);
}

void compare_init(struct compare *c, const char *const files[DIFF_SIDES],
		  struct model *models[DIFF_SIDES], const size_t nruns[DIFF_SIDES],
		  bool normalize)
{
	memset(c, 0, sizeof(*c));
	for (int s = 0; s < DIFF_SIDES; s++) {
		app_init(&c->side[s], files[s], &models[s][0], VIEW_TOPDOWN);
		c->side[s].compare = c;
	}
	diff_init(&c->diff, &c->side[DIFF_BASE].original_rules,
		  &c->side[DIFF_NEW].original_rules);
	init_runs(c, models, nruns);
	/* Both sides start on the rule both can give totals under. */
	for (int s = 0; s < DIFF_SIDES; s++)
		if (c->side[s].ctx.rule != c->diff.rule) {
			c->side[s].ctx.rule = c->diff.rule;
			app_rebuild(&c->side[s], PANE_NEW_VALUES);
		}
	c->diff.normalize = normalize || !diff_comparable(&c->diff);
	build_rows(c);
	c->page_rows = 20;
}

void compare_free(struct compare *c)
{
	for (int s = 0; s < DIFF_SIDES; s++)
		for (size_t i = 1; i < c->runs.nruns[s]; i++)
			rules_free(&c->run_rules[s][i - 1]);
	runs_paths_free(&c->paths);
	runs_diff_free(&c->runs);
	diff_free(&c->diff);
	for (int s = 0; s < DIFF_SIDES; s++) {
		FREE_ALL(c->run_rules[s], c->rules_of_run[s]);
		app_free(&c->side[s]);
	}
	free(c->rows);
}

struct app *compare_active(struct compare *c)
{
	return &c->side[c->active];
}

static struct app *other(struct compare *c)
{
	return &c->side[!c->active];
}

/* The delta row of the function the cursor was on once the rows were
 * rebuilt or reordered: the cursor follows its function, as DevTools'
 * tables keep the selection across a sort. */
static void reselect(struct compare *c, const uint32_t frame[DIFF_SIDES])
{
	enum diff_side side = frame[DIFF_BASE] != NO_ID ? DIFF_BASE : DIFF_NEW;
	size_t row = frame[side] == NO_ID ? SIZE_MAX
					  : compare_find_row(c, side, frame[side]);
	compare_move_to(c, row == SIZE_MAX ? 0 : row);
}

/* Runs `change` on the rows, keeping the cursor on its function. */
static void keeping_cursor(struct compare *c, void (*change)(struct compare *))
{
	uint32_t frame[DIFF_SIDES] = { NO_ID, NO_ID };
	if (c->selected < c->nrows)
		memcpy(frame, c->rows[c->selected]->row->frame, sizeof(frame));
	change(c);
	reselect(c, frame);
}

size_t compare_find_row(const struct compare *c, enum diff_side side, uint32_t frame)
{
	for (size_t i = 0; i < c->nrows; i++)
		if (c->rows[i]->row->frame[side] == frame)
			return i;
	return SIZE_MAX;
}

const struct runs_paths *compare_paths(struct compare *c)
{
	if (!c->paths_built)
		runs_paths_build(&c->paths, &c->runs);
	c->paths_built = true;
	return &c->paths;
}

void compare_remember(struct compare *c, struct compare_before *before)
{
	struct app *a = compare_active(c);
	struct pane *p = app_pane(a);
	*before = (struct compare_before){
		.active = c->active,
		.pane = a->current,
		.selected = p->selected,
		.nrows = p->view.nrows,
		.focus_frame = a->ctx.focus_frame,
	};
}

/* The call graph and sandwich of the other side centre on the matched
 * function. */
static void follow_focus(struct compare *c)
{
	struct app *a = compare_active(c), *o = other(c);
	uint32_t focus = a->ctx.focus_frame == NO_ID ? NO_ID
		: diff_match(&c->diff, c->active, a->ctx.focus_frame);
	if (focus == o->ctx.focus_frame)
		return;
	o->ctx.focus_frame = focus;
	app_rebuild_centred(o);
}

/* Rule, sort, units and the least share shown are one setting for both
 * sides. */
static void follow_settings(struct compare *c)
{
	struct app *a = compare_active(c), *o = other(c);
	for (int tries = 0; o->units != a->units && tries < UNITS_COUNT; tries++)
		app_cycle_units(o);
	if (o->ctx.min_share != a->ctx.min_share)
		app_set_min_share(o, a->ctx.min_share);
	if (o->ctx.rule == a->ctx.rule && o->ctx.sort == a->ctx.sort &&
	    o->ctx.reversed == a->ctx.reversed)
		return;
	o->ctx.rule = a->ctx.rule;
	o->ctx.sort = a->ctx.sort;
	o->ctx.reversed = a->ctx.reversed;
	app_rebuild(o, PANE_NEW_VALUES);
	if (c->diff.rule != a->ctx.rule) {
		c->diff.rule = a->ctx.rule;
		keeping_cursor(c, build_rows);
	}
}

static void follow_cursor(struct compare *c)
{
	struct app *a = compare_active(c), *o = other(c);
	struct pane *from = app_pane(a), *to = app_pane(o);
	if (!from->view.nrows)
		return;
	bool whole = false;
	size_t row = diff_mirror_row(&c->diff, c->active, &from->view,
				     from->selected, &to->view, &whole);
	if (row != SIZE_MAX)
		to->selected = row;
	if ((row == SIZE_MAX || !whole) && !a->message[0])
		app_message(a, "%s: not in the %s profile%s", "this row",
			    c->active == DIFF_BASE ? "new" : "base",
			    row == SIZE_MAX ? "" : " (its nearest caller is)");
}

/* The row under the cursor was opened or closed; `*` also opened the rows
 * it added below it, each of which opens on the other side too. */
static void follow_expansion(struct compare *c, const struct compare_before *before)
{
	struct view *from = &app_pane(compare_active(c))->view;
	struct view *to = &app_pane(other(c))->view;
	if (from->nrows == before->nrows)
		return;
	diff_mirror_expansion(&c->diff, c->active, from, before->selected, to);
	size_t added = from->nrows > before->nrows ? from->nrows - before->nrows : 0;
	for (size_t i = before->selected + 1; i <= before->selected + added; i++)
		if (from->rows[i].flags & ROW_EXPANDED)
			diff_mirror_expansion(&c->diff, c->active, from, i, to);
}

void compare_follow(struct compare *c, const struct compare_before *before)
{
	if (c->delta_layout || before->active != c->active)
		return;
	struct app *a = compare_active(c), *o = other(c);
	follow_settings(c);
	if (a->ctx.focus_frame != before->focus_frame || a->current != o->current)
		follow_focus(c);
	if (a->current != o->current)
		app_show_pane(o, a->current);
	if (a->current == before->pane)
		follow_expansion(c, before);
	follow_cursor(c);
}

void compare_other_side(struct compare *c)
{
	c->active = !c->active;
	app_message(compare_active(c), "keys move the %s side",
		    c->active == DIFF_BASE ? "base" : "new");
}

/* Back from the delta layout: the cursor on the function chosen there,
 * where the pane shows it. */
static void select_delta_function(struct compare *c)
{
	struct app *a = compare_active(c);
	struct pane *p = app_pane(a);
	const struct diff_row *r = c->selected < c->nrows ? c->rows[c->selected]->row : NULL;
	uint32_t frame = r ? r->frame[c->active] : NO_ID;
	if (frame == NO_ID)
		return;
	for (size_t i = 0; i < p->view.nrows; i++)
		if (p->view.rows[i].frame == frame) {
			p->selected = i;
			follow_cursor(c);
			return;
		}
	app_message(a, "not shown in this pane (3: flat lists every function)");
}

/* Into the delta layout on the function under the cursor, and back. */
void compare_toggle_layout(struct compare *c)
{
	struct app *a = compare_active(c);
	c->delta_layout = !c->delta_layout;
	if (!c->delta_layout) {
		select_delta_function(c);
		return;
	}
	const struct row *r = app_selected_row(a);
	size_t row = r ? compare_find_row(c, c->active, r->frame) : SIZE_MAX;
	c->selected = row == SIZE_MAX ? 0 : row;
}

void compare_move_to(struct compare *c, size_t index)
{
	size_t n = c->nrows;
	c->selected = !n ? 0 : index >= n ? n - 1 : index;
}

void compare_move(struct compare *c, long delta)
{
	if (delta < 0 && (size_t)-delta > c->selected)
		compare_move_to(c, 0);
	else
		compare_move_to(c, c->selected + (size_t)delta);
}

void compare_page(struct compare *c, int direction)
{
	size_t page = c->page_rows > 1 ? c->page_rows - 1 : 1;
	compare_move(c, direction * (long)page);
}

static void resort(struct compare *c)
{
	keeping_cursor(c, sort_rows);
	app_message(compare_active(c), "sorted by %s%s", diff_sort_name(c->diff.sort),
		    c->diff.reversed ? ", reversed" : "");
}

void compare_cycle_sort(struct compare *c)
{
	c->diff.sort = (enum diff_sort)((c->diff.sort + 1) % DIFF_SORT_COUNT);
	resort(c);
}

void compare_reverse_sort(struct compare *c)
{
	c->diff.reversed = !c->diff.reversed;
	resort(c);
}

void compare_toggle_normalize(struct compare *c)
{
	struct app *a = compare_active(c);
	if (c->diff.normalize && !diff_comparable(&c->diff)) {
		app_message(a, "values of different units compare only as shares");
		return;
	}
	c->diff.normalize = !c->diff.normalize;
	keeping_cursor(c, build_rows);
	app_message(a, "%s", c->diff.normalize
		    ? "shares: % of each profile, deltas in points (n: absolute)"
		    : "absolute values (n: shares of each profile)");
}

void compare_cycle_rule(struct compare *c)
{
	app_cycle_rule(compare_active(c));
	follow_settings(c);
}

static size_t rows_within_noise(const struct compare *c)
{
	size_t n = 0;
	for (size_t i = 0; i < c->runs.nrows; i++)
		n += c->runs.rows[i].significant == 0;
	return n;
}

void compare_toggle_noise(struct compare *c)
{
	struct app *a = compare_active(c);
	if (!runs_testable(&c->runs)) {
		app_message(a, "%s", "a side has one run: no spread, so no noise to hide "
			    "(--base A1 --base A2 B1 B2)");
		return;
	}
	c->hide_noise = !c->hide_noise;
	keeping_cursor(c, list_rows);
	app_message(a, c->hide_noise ? "hiding %zu rows within the noise (!: show them)"
				     : "showing every row, %zu within the noise",
		    rows_within_noise(c));
}

void compare_save_settings(const struct compare *c, struct compare_settings *out)
{
	*out = (struct compare_settings){
		.delta_layout = c->delta_layout, .reversed = c->diff.reversed,
		.normalize = c->diff.normalize, .hide_noise = c->hide_noise,
		.sort = c->diff.sort, .rule = c->diff.rule,
		.selected = { NO_ID, NO_ID },
	};
	if (c->selected < c->nrows)
		memcpy(out->selected, c->rows[c->selected]->row->frame, sizeof(out->selected));
}

/* Only what the settings change is done again: the rows where the rule
 * or shares differ, their order where the sort does. */
void compare_apply_settings(struct compare *c, const struct compare_settings *st)
{
	bool normalize = st->normalize || !diff_comparable(&c->diff);
	bool rebuild = c->diff.rule != st->rule || c->diff.normalize != normalize;
	bool resort = c->diff.sort != st->sort || c->diff.reversed != st->reversed;
	c->delta_layout = st->delta_layout;
	c->diff.sort = st->sort;
	c->diff.reversed = st->reversed;
	c->diff.normalize = normalize;
	c->hide_noise = st->hide_noise && runs_testable(&c->runs);
	for (int s = 0; s < DIFF_SIDES; s++)
		if (c->side[s].ctx.rule != st->rule) {
			c->side[s].ctx.rule = st->rule;
			app_rebuild(&c->side[s], PANE_NEW_VALUES);
		}
	c->diff.rule = st->rule;
	if (rebuild)
		build_rows(c);
	else if (resort)
		sort_rows(c);
	else
		list_rows(c);
	reselect(c, st->selected);
}
