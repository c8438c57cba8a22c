/* `wprof-tui BASE NEW`: two explorers side by side that follow each
 * other (the same pane, rule and sort; the cursor on the same function;
 * the same rows open), and the delta layout: one table of base, new and
 * delta from compare/diff.h.  No curses here, like app.c.
 *
 * With several runs a side (`--base A1 --base A2 B1 B2`) the sides show
 * the first run of each, and the delta layout every run's statistics
 * (compare/runs.h): the means, the delta of the means with its 95 %
 * interval, and which rows are within the noise. */
#ifndef WPROF_TUI_COMPARE_H
#define WPROF_TUI_COMPARE_H

#include "compare/diff.h"
#include "compare/runs.h"
#include "compare/runs_paths.h"
#include "app.h"

struct compare {
	struct app side[DIFF_SIDES];
	struct diff diff; /* the first base run against the first new run */
	/* Every run's rules, the first the side's original_rules; the runs
	 * after the first are the caller's models. */
	struct rules *run_rules[DIFF_SIDES];
	struct rules **rules_of_run[DIFF_SIDES];
	struct runs_diff runs;
	/* The delta layout's rows: every row of `runs`, or with hide_noise
	 * those not within the noise. */
	const struct runs_row **rows;
	size_t nrows;
	bool hide_noise;
	/* Each call path's test (pane 5's colours), made when first asked
	 * for (compare_paths): it builds every run's graph. */
	struct runs_paths paths;
	bool paths_built;
	enum diff_side active; /* the side the keys move */
	bool delta_layout;
	size_t selected, top, page_rows; /* the delta layout's cursor */
};

/* What the active side looked like before a key, to see what changed. */
struct compare_before {
	enum diff_side active;
	enum view_kind pane;
	size_t selected, nrows;
	uint32_t focus_frame;
};

/* models[s] holds nruns[s] runs (one: a plain comparison); the caller
 * keeps them until compare_free.  `normalize` starts with shares (as
 * --normalize), which values of different units always are. */
void compare_init(struct compare *c, const char *const files[DIFF_SIDES],
		  struct model *models[DIFF_SIDES], const size_t nruns[DIFF_SIDES],
		  bool normalize);
void compare_free(struct compare *c);
struct app *compare_active(struct compare *c);

void compare_remember(struct compare *c, struct compare_before *before);
/* After a key on the active side: the other side does the same. */
void compare_follow(struct compare *c, const struct compare_before *before);

void compare_other_side(struct compare *c);
void compare_toggle_layout(struct compare *c);

/* The delta layout's keys. */
void compare_move(struct compare *c, long delta);
void compare_move_to(struct compare *c, size_t index);
void compare_page(struct compare *c, int direction);
void compare_cycle_sort(struct compare *c);
void compare_reverse_sort(struct compare *c);
void compare_toggle_normalize(struct compare *c);
void compare_cycle_rule(struct compare *c);
/* Hides the rows within the noise, and shows them again. */
void compare_toggle_noise(struct compare *c);

/* What a comparison built again (a live pin's next window) keeps of the
 * one before: the layout, sort, rule, shares, hidden noise and the
 * function under the delta layout's cursor.  The frames stay valid where
 * both were built on the same first runs. */
struct compare_settings {
	bool delta_layout, reversed, normalize, hide_noise;
	enum diff_sort sort;
	enum rule rule;
	uint32_t selected[DIFF_SIDES];
};

void compare_save_settings(const struct compare *c, struct compare_settings *out);
/* Does again only what the settings change (nothing but the cursor when
 * they are the comparison's own): a comparison built on a thread takes
 * the settings keys gave the one shown meanwhile. */
void compare_apply_settings(struct compare *c, const struct compare_settings *st);

/* Each call path's test over the runs, for the differential flame graph
 * (runs_paths_of), under the rule and shares in force. */
const struct runs_paths *compare_paths(struct compare *c);

/* The delta layout's row of `frame` of `side`, or SIZE_MAX. */
size_t compare_find_row(const struct compare *c, enum diff_side side, uint32_t frame);

#endif
