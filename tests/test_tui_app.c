/* The explorer's actions on view rows, without a terminal: expand and
 * collapse, sorting, focus and hide, search, rules and units.
 *
 * worked-example.cpuprofile, by hand: main -> a -> leaf and main -> b ->
 * leaf; samples leaf@a 3 ms, leaf@b 1 ms, a 2 ms (6 ms in all).  So main
 * totals 6 ms, a 5 ms (self 2), leaf 4 ms (self 4, 2 samples), b 1 ms. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/check.h"
#include "loaders/loaders.h"
#include "explorer/app.h"
#include "explorer/flame_nav.h"
#include "base/util.h"
#include "loaders/xsbug.h"

static const char *row_name(struct app *a, size_t i)
{
	const struct model *m = a->ctx.model;
	return model_str(m, m->frames[app_pane(a)->view.rows[i].frame].name);
}

static size_t nrows(struct app *a)
{
	return app_pane(a)->view.nrows;
}

/* The names of the current pane's rows, joined by spaces. */
static const char *names(struct app *a)
{
	static char buf[512];
	buf[0] = 0;
	for (size_t i = 0; i < nrows(a); i++)
		snprintf(buf + strlen(buf), sizeof(buf) - strlen(buf), "%s%s",
			 i ? " " : "", row_name(a, i));
	return buf;
}

static const struct row *row_named(struct app *a, const char *name)
{
	for (size_t i = 0; i < nrows(a); i++)
		if (!strcmp(row_name(a, i), name))
			return &app_pane(a)->view.rows[i];
	return NULL;
}

#define CHECK_NAMES(a, want) \
	CHECK_MSG(!strcmp(names(a), want), "rows '%s', want '%s'", names(a), want)

static void expand_and_collapse(struct app *a)
{
	app_show_pane(a, VIEW_TOPDOWN);
	CHECK_NAMES(a, "main");
	app_expand(a);
	CHECK_NAMES(a, "main a b");
	CHECK_CLOSE(row_named(a, "a")->total, 5000, "a's total");
	CHECK_CLOSE(row_named(a, "a")->self, 2000, "a's self");
	CHECK_CLOSE(row_named(a, "b")->total, 1000, "b's total");
	app_collapse(a);
	CHECK_NAMES(a, "main");
	app_expand_subtree(a);
	CHECK_NAMES(a, "main a leaf b leaf");
	app_move_to(a, 2);
	app_collapse(a); /* a leaf goes to its parent */
	CHECK(app_pane(a)->selected == 1);
	app_collapse(a);
	CHECK_NAMES(a, "main a b leaf");
	/* A new rule rebuilds the view; what was open stays open. */
	app_cycle_rule(a);
	CHECK(a->ctx.rule == RULE_ADDITIVE);
	CHECK_NAMES(a, "main a b leaf");
	CHECK(app_pane(a)->selected == 1);
	app_cycle_rule(a);
	CHECK(a->ctx.rule == RULE_DIVIDED);
	app_cycle_rule(a); /* gprof gives nothing on a .cpuprofile: skipped */
	CHECK(a->ctx.rule == RULE_EXACT);
}

static void sorting(struct app *a)
{
	app_show_pane(a, VIEW_FLAT);
	CHECK_NAMES(a, "main a leaf b");
	app_cycle_sort(a); /* self; calls are skipped: nothing counts calls */
	CHECK(a->ctx.sort == SORT_SELF);
	CHECK_NAMES(a, "leaf a b main");
	app_reverse_sort(a);
	CHECK_NAMES(a, "main b a leaf");
	app_reverse_sort(a);
	app_cycle_sort(a);
	CHECK(a->ctx.sort == SORT_NAME);
	CHECK_NAMES(a, "a b leaf main");
	app_cycle_sort(a);
	CHECK(a->ctx.sort == SORT_TOTAL);
	CHECK_NAMES(a, "main a leaf b");
}

static void focus_and_hide(struct app *a)
{
	app_show_pane(a, VIEW_FLAT);
	app_move_to(a, 3); /* b */
	app_focus(a);
	CHECK_NAMES(a, "b leaf main"); /* 1 ms each: by name */
	CHECK_CLOSE(row_named(a, "main")->total, 1000, "main through b");
	CHECK_CLOSE(row_named(a, "leaf")->self, 1000, "leaf through b");
	CHECK(!strcmp(app_selected_row(a) ? row_name(a, app_pane(a)->selected) : "", "b"));
	app_cycle_units(a);
	app_cycle_units(a); /* samples, counted while a focus is in force */
	CHECK(a->units == UNITS_SAMPLES);
	CHECK_CLOSE(row_named(a, "leaf")->self, 1, "leaf's one sample through b");
	app_cycle_units(a);
	CHECK(a->units == UNITS_TIME);
	app_clear_filters(a);
	CHECK_NAMES(a, "main a leaf b");

	app_move_to(a, 1); /* a */
	app_hide(a);
	CHECK_NAMES(a, "main leaf b");
	CHECK_CLOSE(row_named(a, "main")->self, 2000, "a's self moves to main");
	CHECK_CLOSE(row_named(a, "leaf")->total, 4000, "leaf keeps its time");
	app_show_pane(a, VIEW_TOPDOWN);
	CHECK(!row_named(a, "a"));
	app_clear_filters(a);
	app_show_pane(a, VIEW_FLAT);
	CHECK_NAMES(a, "main a leaf b");
}

static void search(struct app *a)
{
	app_show_pane(a, VIEW_FLAT);
	app_move_to(a, 0);
	app_search_start(a);
	app_search_set(a, "LE");
	app_search_update(a);
	CHECK(app_pane(a)->selected == 2); /* leaf, case aside */
	app_search_set(a, "a");            /* main, a, leaf */
	app_search_next(a, 1, false);
	CHECK(app_pane(a)->selected == 0); /* wraps past b */
	app_search_next(a, -1, false);
	CHECK(app_pane(a)->selected == 2);
	CHECK(app_row_matches(a, &app_pane(a)->view.rows[1]));
	CHECK(!app_row_matches(a, &app_pane(a)->view.rows[3]));
	app_search_set(a, "nowhere");
	app_search_next(a, 1, false);
	CHECK(app_pane(a)->selected == 2);
	CHECK(strstr(a->message, "nowhere") != NULL);
	a->prompts.searching = false;
	a->prompts.search[0] = 0;
}

static bool is_leaf(void *data, const struct row *r)
{
	const struct model *m = ((struct app *)data)->ctx.model;
	return !strcmp(model_str(m, m->frames[r->frame].name), "leaf");
}

/* Search in the tree panes looks under closed rows and opens the way:
 * leaf is under main>a and main>b, both closed at first. */
static void search_opens(struct app *a)
{
	app_show_pane(a, VIEW_TOPDOWN);
	app_move_to(a, 0);
	app_collapse(a);
	CHECK_NAMES(a, "main");
	app_search_start(a);
	app_search_set(a, "leaf");
	app_search_update(a);
	CHECK_NAMES(a, "main a leaf b");
	CHECK(app_pane(a)->selected == 2);
	app_search_next(a, 1, false); /* the next in tree order: under b */
	CHECK_NAMES(a, "main a leaf b leaf");
	CHECK(app_pane(a)->selected == 4);
	app_search_next(a, 1, false); /* wraps round to the first */
	CHECK(app_pane(a)->selected == 2);
	app_search_next(a, -1, false);
	CHECK(app_pane(a)->selected == 4);
	app_move_to(a, 0);
	app_collapse(a);
	app_search_next(a, -1, false); /* back from main: the last, opened */
	CHECK_NAMES(a, "main a b leaf");
	CHECK(app_pane(a)->selected == 3);
	app_search_set(a, "nowhere");
	app_search_next(a, 1, false);
	CHECK(strstr(a->message, "no row matches 'nowhere'") != NULL);
	a->prompts.searching = false;
	a->prompts.search[0] = 0;
	app_move_to(a, 0);
	app_collapse(a);
	/* A budget of one row looks at a (main's first child) and stops. */
	bool cut_short;
	size_t opened_at;
	CHECK(view_find(&app_pane(a)->view, 0, 1, false, is_leaf, a, 1, &cut_short,
			&opened_at) == SIZE_MAX);
	CHECK(cut_short && opened_at == SIZE_MAX);
	CHECK_NAMES(a, "main");
	CHECK(view_find(&app_pane(a)->view, 0, 1, false, is_leaf, a, 2, &cut_short,
			&opened_at) == 2);
	CHECK(!cut_short && opened_at == 0);
	app_collapse(a);
}

/* H opens the path of the largest totals, - closes everything. */
static void heaviest_and_collapse_all(struct app *a)
{
	app_show_pane(a, VIEW_TOPDOWN);
	app_move_to(a, 0);
	app_open_heaviest(a); /* main 6 > a 5 > leaf 3 (b is 1) */
	CHECK_NAMES(a, "main a leaf b");
	CHECK(app_pane(a)->selected == 2);
	app_open_heaviest(a);
	CHECK(strstr(a->message, "nothing below") != NULL);
	app_collapse_all(a);
	CHECK_NAMES(a, "main");
	CHECK(app_pane(a)->selected == 0);
	app_show_pane(a, VIEW_FLAT);
	app_collapse_all(a);
	CHECK(strstr(a->message, "not a tree") != NULL);
	CHECK_NAMES(a, "main a leaf b");
}

/* s and S show the first row of the new order, in every pane. */
static void sort_goes_to_top(struct app *a)
{
	app_show_pane(a, VIEW_FLAT);
	app_move_to(a, 3);
	app_cycle_sort(a);
	CHECK(app_pane(a)->selected == 0);
	CHECK_NAMES(a, "leaf a b main");
	app_move_to(a, 2);
	app_reverse_sort(a);
	CHECK(app_pane(a)->selected == 0);
	app_reverse_sort(a);
	app_show_pane(a, VIEW_TOPDOWN);
	CHECK(app_pane(a)->selected == 0);
	for (int k = 0; k < SORT_COUNT - 2; k++) /* calls skipped: back to total */
		app_cycle_sort(a);
	CHECK(a->ctx.sort == SORT_TOTAL);
}

/* Undoing `=` finds its function again (its path is gone: under the
 * filter it was at the top), opening the tree down to it. */
static void undo_show(struct app *a)
{
	app_show_pane(a, VIEW_TOPDOWN);
	app_move_to(a, 0);
	app_search_set(a, "b");
	app_search_next(a, 1, true);
	CHECK_NAMES(a, "main a b");
	app_show_only(a);
	CHECK_NAMES(a, "b");
	app_undo_filter(a);
	CHECK_NAMES(a, "main a b");
	CHECK(!strcmp(row_name(a, app_pane(a)->selected), "b"));
	app_prune_from(a); /* from b, not from main */
	char crumb[128];
	app_breadcrumb(a, crumb, sizeof(crumb));
	CHECK_MSG(!strcmp(crumb, "prune_from=b"), "crumb %s", crumb);
	app_clear_filters(a);
	a->prompts.search[0] = 0;
	app_move_to(a, 0);
	app_collapse_all(a);
}

/* Backspace in the call graph: the centres before, as a browser's Back;
 * a filter pushed after them is what Backspace undoes next. */
static void graph_history(struct app *a)
{
	app_show_pane(a, VIEW_FLAT);
	app_move_to(a, 0); /* main */
	app_open_in(a, VIEW_CALLGRAPH);
	CHECK_NAMES(a, "main a b");
	app_move_to(a, 1);
	app_enter(a); /* centre a */
	CHECK_NAMES(a, "main a leaf");
	app_move_to(a, 2);
	app_enter(a); /* centre leaf */
	CHECK_NAMES(a, "a b leaf");
	CHECK(app_graph_back(a));
	CHECK_NAMES(a, "main a leaf");
	CHECK(app_selected_row(a)->flags & ROW_PRIMARY);
	CHECK(strstr(a->message, "back to a (1 more back)") != NULL);
	CHECK(app_graph_back(a));
	CHECK_NAMES(a, "main a b");
	CHECK(!app_graph_back(a));
	app_move_to(a, 1);
	app_enter(a);
	app_hide(a); /* the filter clears the way back */
	CHECK(!app_graph_back(a));
	app_clear_filters(a);
	app_show_pane(a, VIEW_FLAT);
	CHECK(!app_graph_back(a)); /* only in the call graph */
}

static void units_and_panes(struct app *a)
{
	app_show_pane(a, VIEW_FLAT);
	app_cycle_units(a);
	CHECK(a->units == UNITS_PERCENT);
	app_cycle_units(a);
	CHECK(a->units == UNITS_SAMPLES);
	CHECK_CLOSE(row_named(a, "leaf")->self, 2, "leaf's samples");
	CHECK_CLOSE(row_named(a, "a")->self, 1, "a's samples");
	app_cycle_units(a);
	CHECK(a->units == UNITS_TIME);
	CHECK_CLOSE(row_named(a, "leaf")->self, 4000, "leaf's time again");

	app_move_to(a, 0); /* main */
	app_enter(a);      /* flat: opens in the call graph */
	CHECK(a->current == VIEW_CALLGRAPH);
	const struct row *r = app_selected_row(a);
	CHECK(r && (r->flags & ROW_PRIMARY));
	CHECK_NAMES(a, "main a b");
	app_move_to(a, 1);
	app_enter(a); /* follows the arc to a */
	CHECK_NAMES(a, "main a leaf");
	app_open_in(a, VIEW_BOTTOMUP);
	CHECK(a->current == VIEW_BOTTOMUP);
	CHECK(!strcmp(row_name(a, app_pane(a)->selected), "a"));
}

/* A new rule or unit renumbers the pane on screen in place (its rows and
 * the cursor stay); a pane off screen catches up when it is shown. */
static void panes_catch_up(struct app *a)
{
	app_show_pane(a, VIEW_FLAT);
	app_show_pane(a, VIEW_TOPDOWN);
	app_move_to(a, 0);
	app_expand_subtree(a);
	CHECK_NAMES(a, "main a leaf b leaf");
	app_move_to(a, 4); /* leaf under b */
	app_cycle_units(a);
	app_cycle_units(a);
	CHECK(a->units == UNITS_SAMPLES);
	CHECK_NAMES(a, "main a leaf b leaf");
	CHECK(app_pane(a)->selected == 4);
	CHECK_CLOSE(app_selected_row(a)->total, 1, "one sample of leaf under b");
	CHECK_CLOSE(row_named(a, "a")->total, 2, "a: one sample, one of leaf");
	app_cycle_units(a);
	CHECK(a->units == UNITS_TIME);
	app_cycle_rule(a);
	app_cycle_rule(a);
	CHECK(a->ctx.rule == RULE_DIVIDED);
	CHECK(a->panes[VIEW_FLAT].pending == PANE_NEW_VALUES);
	app_show_pane(a, VIEW_FLAT);
	CHECK(a->panes[VIEW_FLAT].pending == PANE_UP_TO_DATE);
	/* divided by hand: leaf's 4 ms half to a, half to b. */
	CHECK_CLOSE(row_named(a, "a")->total, 4000, "a under divided");
	CHECK_CLOSE(row_named(a, "b")->total, 2000, "b under divided");
	app_cycle_rule(a);
	CHECK(a->ctx.rule == RULE_EXACT);
	app_show_pane(a, VIEW_TOPDOWN);
	CHECK_NAMES(a, "main a leaf b leaf");
	app_move_to(a, 0);
	app_collapse(a);
}

/* Every row's name and numbers under every rule, to see that an undo
 * gives back exactly what was shown before. */
struct snapshot {
	char text[4096];
};

static void take_snapshot(struct app *a, struct snapshot *s)
{
	size_t len = 0;
	enum rule rule = a->ctx.rule;
	for (int k = 0; k < 3; k++) {
		a->ctx.rule = (enum rule)k;
		app_rebuild(a, PANE_NEW_VALUES);
		for (size_t i = 0; i < nrows(a) && len + 200 < sizeof(s->text); i++) {
			const struct row *r = &app_pane(a)->view.rows[i];
			len += (size_t)snprintf(s->text + len, sizeof(s->text) - len, "%s %.17g %.17g;",
						row_name(a, i), r->self, r->total);
		}
	}
	a->ctx.rule = rule;
	app_rebuild(a, PANE_NEW_VALUES);
}

/* A stack of three filters undone one by one: each undo shows exactly the
 * numbers the level below showed (worked example: main>a>leaf 3 ms,
 * main>b>leaf 1, main>a 2). */
static void undo_steps(struct app *a)
{
	app_show_pane(a, VIEW_FLAT);
	struct snapshot level[4], again;
	take_snapshot(a, &level[0]);
	CHECK(app_push_filter(a, TF_FOCUS, NO_ID, "leaf"));
	take_snapshot(a, &level[1]);
	CHECK_CLOSE(row_named(a, "main")->total, 4000, "main through leaf");
	CHECK(app_push_filter(a, TF_MERGE, NO_ID, "^b$"));
	take_snapshot(a, &level[2]);
	CHECK(!row_named(a, "b")); /* main>leaf 1 ms where main>b>leaf was */
	CHECK_CLOSE(row_named(a, "leaf")->total, 4000, "leaf keeps its time");
	CHECK_CLOSE(row_named(a, "main")->self, 0, "main still no self time");
	CHECK(app_command_run(a, "hide ^leaf$"));
	take_snapshot(a, &level[3]);
	CHECK_CLOSE(row_named(a, "a")->self, 3000, "leaf's time to a");
	CHECK_CLOSE(row_named(a, "main")->self, 1000, "leaf under b, b merged: to main");
	char crumb[256];
	app_breadcrumb(a, crumb, sizeof(crumb));
	CHECK(!strcmp(crumb, "focus=leaf > merge=^b$ > hide=^leaf$"));
	for (int k = 3; k > 0; k--) {
		app_undo_filter(a);
		take_snapshot(a, &again);
		CHECK_MSG(!strcmp(again.text, level[k - 1].text), "undo to level %d: %s != %s",
			  k - 1, again.text, level[k - 1].text);
	}
	CHECK(a->filters.applied.n == 0 && a->filters.nlevels == 0 && a->ctx.model == a->original);
	CHECK(!app_command_run(a, "frobnicate x"));
	CHECK(!app_command_run(a, "focus ("));
	CHECK(a->filters.applied.n == 0);
}

/* With work in the background (as in the terminal), focus and hide
 * give the same rows once the copy is made, and divided arrives. */
static void in_background(struct model *m)
{
	struct app a;
	app_init(&a, "background", m, VIEW_FLAT);
	app_compute_in_background(&a);
	while (app_busy(&a))
		app_poll(&a);
	app_move_to(&a, 3); /* b */
	app_focus(&a);
	while (app_busy(&a))
		app_poll(&a);
	CHECK_NAMES(&a, "b leaf main");
	CHECK_CLOSE(row_named(&a, "main")->total, 1000, "main through b");
	app_clear_filters(&a);
	CHECK_NAMES(&a, "main a leaf b");
	app_cycle_rule(&a);
	app_cycle_rule(&a);
	while (app_busy(&a))
		app_poll(&a);
	CHECK(a.ctx.rule == RULE_DIVIDED);
	CHECK_CLOSE(row_named(&a, "a")->total, 4000, "a under divided");
	app_move_to(&a, 1);
	app_hide(&a); /* and at once F: the copy being made is not shown */
	app_clear_filters(&a);
	while (app_busy(&a))
		app_poll(&a);
	CHECK(!a.filters.nlevels && !a.filters.applied.n);
	CHECK_NAMES(&a, "main a leaf b");
	app_free(&a);
}

/* Live mode's refresh: worked-example-new.cpuprofile as the next snapshot
 * of worked-example (by hand: main 7 ms; a self 1.5 ms, total 2.5 ms over
 * leaf; b 2.5 ms, moved to another line, so another function; a new
 * function c, self 2 ms; leaf's self 1 + 2.5 ms).  The open rows, the
 * selected function and the sort (self, in every pane) stay. */
static void replace_model(struct model *first, struct model *next)
{
	struct app a;
	app_init(&a, "live", first, VIEW_TOPDOWN);
	app_cycle_sort(&a); /* total -> self */
	CHECK(a.ctx.sort == SORT_SELF);
	app_expand(&a);
	app_move_to(&a, 1);
	app_expand(&a);
	CHECK_NAMES(&a, "main a leaf b");
	app_replace_model(&a, next);
	CHECK(a.original == next && a.ctx.model == next);
	CHECK_NAMES(&a, "main c a leaf b");
	CHECK_MSG(app_selected_row(&a) && !strcmp(row_name(&a, app_pane(&a)->selected), "a"),
		  "the cursor stays on a: row %zu", app_pane(&a)->selected);
	CHECK_CLOSE(row_named(&a, "a")->total, 2500, "a's new total");
	CHECK_CLOSE(row_named(&a, "c")->self, 2000, "the new function c");
	app_show_pane(&a, VIEW_FLAT);
	CHECK(a.ctx.sort == SORT_SELF);
	CHECK_MSG(!strcmp(row_name(&a, 0), "leaf"), "flat by self: '%s'", names(&a));
	CHECK_CLOSE(app_pane(&a)->view.rows[0].self, 3500, "leaf's new self");
	app_free(&a);
}

/* A live view's first snapshot may come before any sample: no stacks, so
 * its default rule is divided; the next one, with stacks, brings exact,
 * unless the rule was chosen with r. */
static void rule_follows_data(struct model *full)
{
	struct model empty;
	model_init(&empty, "xsbug");
	model_add_sample_type(&empty, "time", "us");
	uint32_t cycle;
	model_finish(&empty, &cycle);
	struct app a;
	app_init(&a, "live", &empty, VIEW_TOPDOWN);
	CHECK(a.ctx.rule == RULE_DIVIDED);
	app_replace_model(&a, full);
	CHECK(a.ctx.rule == RULE_EXACT);
	app_free(&a);

	app_init(&a, "live", &empty, VIEW_TOPDOWN);
	app_cycle_rule(&a); /* divided -> gprof is skipped -> exact */
	app_cycle_rule(&a); /* additive, chosen */
	CHECK(a.ctx.rule == RULE_ADDITIVE);
	app_replace_model(&a, full);
	CHECK(a.ctx.rule == RULE_ADDITIVE);
	app_free(&a);
	model_free(&empty);
}

static void feed(struct xsbug_parser *p, const char *text)
{
	struct load_error err;
	CHECK(xsbug_parser_feed(p, (const uint8_t *)text, strlen(text), &err));
}

#define MSG(body) "\r\n<xsbug>" body "</xsbug>\r\n"

/* A live snapshot (the totals an xsbug follower makes and its timeline), a
 * sample lasting its delta: leaf under a 5 µs, leaf under b 3, a's own 1,
 * running; so leaf 8 µs in 2 samples, a 6, b 3.  `u` shows the sample
 * counts.  Leaf under a again for 2 gives a 8 and main 11 in place, and the
 * open rows and the cursor stay; then, focused on a, leaf under a for 4
 * more: a and main 12 in the filtered copy. */
static void live_snapshot(void)
{
	struct xsbug_parser *p = xsbug_parser_new(NULL);
	feed(p, MSG("<pt name=\"start\" value=\"@0000000000000000\"/>")
		MSG("<pr name=\"(host)\" value=\"0\"/>")
		MSG("<pr name=\"main\" value=\"2\" path=\"t.js\" line=\"1\"/>")
		MSG("<pr name=\"a\" value=\"3\" path=\"t.js\" line=\"2\"/>")
		MSG("<pr name=\"b\" value=\"4\" path=\"t.js\" line=\"3\"/>")
		MSG("<pr name=\"leaf\" value=\"5\" path=\"t.js\" line=\"4\"/>")
		MSG("<ps>5,5,3,2,0.3,5,4,2,0.1,3,2,0</ps>"));
	struct xsbug_follower *f = xsbug_follower_new();
	struct model m, unused;
	CHECK(xsbug_follow(f, p));
	CHECK(xsbug_follower_model(f, NULL, &m));
	struct app a;
	app_init(&a, "live", &m, VIEW_FLAT);
	app_cycle_units(&a);
	app_cycle_units(&a);
	CHECK(a.units == UNITS_SAMPLES);
	CHECK_CLOSE(row_named(&a, "leaf")->self, 2, "leaf's samples");
	CHECK_CLOSE(row_named(&a, "a")->self, 1, "a's sample");
	app_cycle_units(&a);
	CHECK_CLOSE(row_named(&a, "leaf")->self, 8, "leaf's time (µs)");

	app_show_pane(&a, VIEW_TOPDOWN);
	app_expand(&a);
	app_move_to(&a, 1);
	app_expand(&a);
	app_move_to(&a, 2);
	app_expand(&a);
	CHECK_NAMES(&a, "(host) main a leaf b");
	CHECK_CLOSE(row_named(&a, "a")->total, 6, "a while running");
	feed(p, MSG("<ps>2,5,3,2,0</ps>"));
	CHECK(xsbug_follow(f, p));
	CHECK(!xsbug_follower_model(f, &m, &unused));
	app_values_changed(&a);
	CHECK_NAMES(&a, "(host) main a leaf b");
	CHECK_CLOSE(row_named(&a, "a")->total, 8, "a after a new sample");
	CHECK_CLOSE(row_named(&a, "main")->total, 11, "main after a new sample");
	/* The sample is appended to the timeline, and the whole range with it. */
	CHECK(m.nsamples == 4 && a.range.samples.first == 0 && a.range.samples.end == 4);
	CHECK(!strcmp(row_name(&a, app_pane(&a)->selected), "a"));

	app_focus(&a);
	CHECK_NAMES(&a, "(host) main a leaf");
	feed(p, MSG("<ps>4,5,3,2,0</ps>"));
	CHECK(xsbug_follow(f, p));
	CHECK(!xsbug_follower_model(f, &m, &unused));
	app_values_changed(&a);
	CHECK(a.filters.nlevels == 1);
	CHECK_NAMES(&a, "(host) main a leaf");
	CHECK_CLOSE(row_named(&a, "a")->total, 12, "a focused");
	CHECK_CLOSE(row_named(&a, "main")->total, 12, "main focused");
	app_free(&a);
	model_free(&m);
	xsbug_follower_free(f);
	xsbug_parser_free(p);
}

/* The name of the flame graph's frame i. */
static const char *flame_name(struct app *a, uint32_t i)
{
	const struct model *m = a->ctx.model;
	return model_str(m, m->frames[flame_pane_graph(a)->frames[i].frame].name);
}

/* Pane 5's moves and zoom, as its keys make them. */
static void flame_moves(struct app *a)
{
	app_show_pane(a, VIEW_FLAME);
	CHECK(flame_nav_active(a));
	const struct flame *f = flame_pane_graph(a);
	struct pane *p = app_pane(a);
	CHECK(f && f->nframes == 5 && p->selected == 0);
	CHECK(!strcmp(flame_name(a, 0), "main"));
	flame_move(a, FLAME_TO_CALLEE);
	CHECK(!strcmp(flame_name(a, (uint32_t)p->selected), "a"));
	flame_move(a, FLAME_TO_CALLEE);
	CHECK(!strcmp(flame_name(a, (uint32_t)p->selected), "leaf"));
	uint32_t leaf = (uint32_t)p->selected;
	flame_move(a, FLAME_TO_CALLER);
	flame_zoom_in(a); /* on a */
	CHECK(flame_zoom_of(&a->flame, f).first == p->selected);
	flame_move(a, FLAME_TO_RIGHT); /* b is outside the zoom */
	CHECK(!strcmp(flame_name(a, (uint32_t)p->selected), "a"));
	flame_move(a, FLAME_TO_CALLER); /* main, above it, is shown */
	CHECK(p->selected == 0);
	flame_move(a, FLAME_TO_TOP);
	CHECK(!strcmp(flame_name(a, (uint32_t)p->selected), "a"));
	a->flame.root_below = true; /* up goes to the callee */
	flame_move(a, FLAME_TO_CALLER);
	CHECK(p->selected == leaf);
	a->flame.root_below = false;
	a->message[0] = 0; /* as key_dispatch does */
	flame_zoom_out(a);
	CHECK(flame_zoom_of(&a->flame, f).first == NO_ID && !a->message[0]);
	flame_zoom_out(a);
	CHECK(!strcmp(a->message, "the whole graph is shown"));
	a->show_help = true;
	CHECK(!flame_nav_active(a));
	a->show_help = false;
	app_show_pane(a, VIEW_TOPDOWN);
	CHECK(!flame_nav_active(a));
}

/* dir/name into m, its path in `path`; false (said on stderr) when it
 * cannot be read. */
static bool load_testdata(const char *dir, const char *name, struct model *m, char *path,
			  size_t cap)
{
	struct load_error err;
	struct load_options opt = { .session = -1 };
	snprintf(path, cap, "%s/%s", dir, name);
	if (load_file(path, &opt, m, &err, NULL))
		return true;
	fprintf(stderr, "%s: %s\n", path, err.message);
	return false;
}

/* validate.cpuprofile: (root) > (anonymous) run_main_module >
 * executeUserEntryPoint > Module._load > Module.load >
 * Module._extensions..js > Module._compile > (anonymous) of
 * file:///home/dev/demo/validate.js, the first row of that file in tree
 * order; `/validate.js` finds it by its file, at the eighth row. */
static void search_files(struct model *m, const char *path)
{
	struct app a;
	app_init(&a, path, m, VIEW_TOPDOWN);
	app_search_start(&a);
	app_search_set(&a, "validate.js");
	app_search_update(&a);
	CHECK(app_pane(&a)->selected == 7);
	const struct row *r = app_selected_row(&a);
	CHECK(r && r->depth == 7 && !strcmp(row_name(&a, 7), "(anonymous)"));
	app_free(&a);
}

static size_t count_hits(struct app *a, const char *text, bool *any)
{
	app_search_set(a, text);
	bool *hits = app_search_hits(a, any);
	size_t n = 0;
	for (uint32_t f = 0; f < a->ctx.model->nframes; f++)
		n += hits[f];
	free(hits);
	return n;
}

/* The frames a search marks at once, as its rows match: validate.js
 * holds ten functions (the file's callFrames: (anonymous), add, f_half,
 * f_half_2, f_main_1 to f_main_4, f_quarter, main), four of them named
 * f_main_*, case aside. */
static void search_hits(struct model *m, const char *path)
{
	struct app a;
	bool any;
	app_init(&a, path, m, VIEW_TOPDOWN);
	CHECK(count_hits(&a, "VALIDATE.JS", &any) == 10 && any);
	CHECK(count_hits(&a, "f_MAIN_", &any) == 4 && any);
	CHECK(count_hits(&a, "nowhere", &any) == 0 && !any);
	CHECK(count_hits(&a, "", &any) == 0 && !any);
	CHECK(count_hits(&a, "f_quarter", NULL) == 1);
	app_free(&a);
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: %s TESTDATA\n", argv[0]);
		return 2;
	}
	char path[4096];
	struct model m;
	if (!load_testdata(argv[1], "worked-example.cpuprofile", &m, path, sizeof(path)))
		return 1;
	struct app a;
	app_init(&a, path, &m, VIEW_TOPDOWN);
	expand_and_collapse(&a);
	sorting(&a);
	focus_and_hide(&a);
	undo_steps(&a);
	search(&a);
	search_opens(&a);
	heaviest_and_collapse_all(&a);
	sort_goes_to_top(&a);
	undo_show(&a);
	graph_history(&a);
	units_and_panes(&a);
	panes_catch_up(&a);
	flame_moves(&a);
	app_free(&a);
	in_background(&m);
	model_free(&m);
	if (!load_testdata(argv[1], "validate.cpuprofile", &m, path, sizeof(path)))
		return 1;
	search_files(&m, path);
	search_hits(&m, path);
	model_free(&m);

	struct model first, next;
	if (!load_testdata(argv[1], "worked-example.cpuprofile", &first, path, sizeof(path)))
		return 1;
	if (!load_testdata(argv[1], "worked-example-new.cpuprofile", &next, path, sizeof(path)))
		return 1;
	replace_model(&first, &next);
	rule_follows_data(&next);
	live_snapshot();
	model_free(&first);
	model_free(&next);
	return check_done();
}
