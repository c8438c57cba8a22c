/* `wprof-tui BASE NEW` without a terminal: the other side follows the
 * active one, and the delta layout's cursor, sorts and normalize.
 *
 * worked-example.cpuprofile against worked-example-new.cpuprofile, by hand
 * (tests/test_diff.c): totals base main 6, a 5, leaf 4, b 1 ms; new main 7,
 * leaf 3.5, a 2.5, b 2.5 and c 2 ms (c only in new); a is the largest
 * change (-2.5 ms), c the largest regression (+2 ms). */
#include <stdio.h>
#include <string.h>

#include "tests/check.h"
#include "loaders/loaders.h"
#include "explorer/compare.h"
#include "base/util.h"

static const char *selected_name(struct app *a)
{
	const struct row *r = app_selected_row(a);
	const struct model *m = a->ctx.model;
	return r ? model_str(m, m->frames[r->frame].name) : "(none)";
}

static const char *delta_name(const struct compare *c, size_t i)
{
	const struct diff_row *r = c->rows[i]->row;
	enum diff_side side = diff_row_side(r);
	const struct model *m = c->diff.model[side];
	return model_str(m, m->frames[r->frame[side]].name);
}

/* One key's action on the active side, then the other side follows, as
 * key_dispatch_compare does. */
static void on_active(struct compare *c, void (*action)(struct app *))
{
	struct compare_before before;
	compare_remember(c, &before);
	compare_active(c)->message[0] = 0;
	action(compare_active(c));
	compare_follow(c, &before);
}

static void flat(struct app *a) { app_show_pane(a, VIEW_FLAT); }
static void down(struct app *a) { app_move(a, 1); }
static void home(struct app *a) { app_home(a); }

#define CHECK_SELECTED(a, want) \
	CHECK_MSG(!strcmp(selected_name(a), want), "selected %s, want %s", \
		  selected_name(a), want)

static void cursor_follows(struct compare *c)
{
	struct app *base = &c->side[DIFF_BASE], *new_side = &c->side[DIFF_NEW];
	on_active(c, flat);
	CHECK(new_side->current == VIEW_FLAT);
	on_active(c, down);
	on_active(c, down);
	CHECK_SELECTED(base, "leaf");
	CHECK_SELECTED(new_side, "leaf");
	CHECK(app_pane(new_side)->selected == 1);

	compare_other_side(c);
	on_active(c, app_end); /* c: only in new */
	CHECK_SELECTED(new_side, "c");
	CHECK_SELECTED(base, "leaf"); /* no counterpart: the base stays */
	CHECK_MSG(strstr(new_side->message, "not in the base profile"), "message '%s'",
		  new_side->message);
	compare_other_side(c);
}

static void expansion_follows(struct compare *c)
{
	struct app *new_side = &c->side[DIFF_NEW];
	app_show_pane(compare_active(c), VIEW_TOPDOWN);
	on_active(c, home);
	CHECK(new_side->current == VIEW_TOPDOWN);
	on_active(c, app_expand);
	CHECK(app_pane(new_side)->view.nrows == 4); /* main a b c */
	on_active(c, app_collapse);
	CHECK(app_pane(new_side)->view.nrows == 1);
}

static void rule_follows(struct compare *c)
{
	CHECK(c->diff.rule == RULE_EXACT);
	on_active(c, app_cycle_rule);
	CHECK(c->side[DIFF_NEW].ctx.rule == RULE_ADDITIVE);
	CHECK(c->diff.rule == RULE_ADDITIVE);
}

static void delta_layout(struct compare *c)
{
	on_active(c, flat);
	on_active(c, home);
	on_active(c, down); /* a */
	compare_toggle_layout(c);
	CHECK(c->delta_layout);
	CHECK(c->selected == 0 && !strcmp(delta_name(c, 0), "a"));
	compare_cycle_sort(c);
	CHECK(c->diff.sort == DIFF_SORT_REGRESSION);
	CHECK(!strcmp(delta_name(c, 0), "c") && !strcmp(delta_name(c, 1), "b"));
	CHECK_CLOSE(c->rows[0]->test.delta, 2000, "c's delta");
	/* The cursor stays on a (-2.5 ms: last of the regressions). */
	CHECK(!strcmp(delta_name(c, c->selected), "a"));
	compare_toggle_normalize(c);
	/* c: 0 -> 2/7 of the new profile, in points. */
	CHECK_CLOSE(c->rows[0]->test.delta, 100.0 * 2 / 7, "c's normalized delta");
	CHECK(!strcmp(delta_name(c, c->selected), "a"));
	compare_move_to(c, 1); /* b */
	compare_toggle_layout(c);
	CHECK(!c->delta_layout);
	CHECK_SELECTED(&c->side[DIFF_BASE], "b");
	CHECK_SELECTED(&c->side[DIFF_NEW], "b");
}

static bool load(const char *dir, const char *name, struct model *m)
{
	char path[4096];
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	struct load_error err;
	struct load_options opt = { .session = -1 };
	if (load_file(path, &opt, m, &err, NULL))
		return true;
	fprintf(stderr, "%s: %s\n", path, err.message);
	return false;
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: %s TESTDATA\n", argv[0]);
		return 2;
	}
	struct model base, new_side;
	if (!load(argv[1], "worked-example.cpuprofile", &base) ||
	    !load(argv[1], "worked-example-new.cpuprofile", &new_side))
		return 1;
	const char *const files[DIFF_SIDES] = { "base", "new" };
	struct model *models[DIFF_SIDES] = { &base, &new_side };
	struct compare c;
	const size_t one_run[DIFF_SIDES] = { 1, 1 };
	compare_init(&c, files, models, one_run, false);
	cursor_follows(&c);
	expansion_follows(&c);
	rule_follows(&c);
	delta_layout(&c);
	compare_free(&c);
	model_free(&base);
	model_free(&new_side);
	return check_done();
}
