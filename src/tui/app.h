/* The explorer's state and every action a key can take, without curses:
 * the terminal loop (tui.c) and the key benchmark (bench.c) drive the
 * same functions.  Numbers all come from views/; this file only decides
 * which view, rule, unit and filter are in force. */
#ifndef WPROF_TUI_APP_H
#define WPROF_TUI_APP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../../views/view.h"
#include "../filter.h"

enum unit_mode { UNITS_TIME, UNITS_PERCENT, UNITS_SAMPLES, UNITS_COUNT };

/* What has changed under a pane since its rows were made.  Only the pane
 * on screen is brought up to date at once; the others when shown, so
 * that one key never pays for four panes. */
enum pane_change { PANE_UP_TO_DATE, PANE_NEW_VALUES, PANE_NEW_ROWS };

struct pane {
	struct view view;
	bool open;
	enum pane_change pending;
	size_t selected, top;
};

struct live_view;
struct compare;
struct filtered;
struct filter_job;
struct lines_pane;
struct source_options;

struct app {
	const char *file;
	struct live_view *live; /* live mode's engines (live_view.c), or NULL */
	struct compare *compare; /* the split screen this is a side of, or NULL */
	struct model *original; /* gains a sample count type on first `u` */
	/* Per frame of the original: its name, file and line hashed, to name
	 * rows by their path across rebuilds (filtered copies keep the
	 * original's frame numbers). */
	uint64_t *frame_keys;
	struct filtered *filtered; /* in use while a focus or hide is */
	struct filter_job *filter_job; /* the next one, being made */
	bool background; /* slow rules are computed off the UI's thread */
	/* Kept apart from the filtered model's, so that clearing a filter
	 * finds the original's totals already computed. */
	struct rules original_rules;
	struct view_context ctx;
	struct pane panes[VIEW_COUNT];
	enum view_kind current;
	bool rule_chosen; /* with r; else the rule follows the data */
	enum unit_mode units;
	unsigned value_type; /* the sample type values show: --sample-type or t */
	uint32_t focus;   /* f: only stacks through this frame, NO_ID: all */
	uint8_t *hidden;  /* i: per frame of the original */
	size_t nhidden;
	char search[256];
	bool searching;      /* the / prompt is open */
	size_t search_origin; /* the row the search started from */
	char message[256];
	size_t page_rows; /* rows a page holds, set by whoever draws */
	bool show_help;
	/* The source pane (`l`) over the panes, or NULL; where it looks for
	 * source files (--source-path, --trim-path), or NULL. */
	struct lines_pane *lines;
	const struct source_options *source_options;
	bool next_thread; /* T: the explorer loads the trace's next thread */
	/* L: the next granularity (enum granularity: functions, files,
	 * lines), which tui_run makes as a new model. */
	bool next_granularity;
	unsigned granularity;
	bool quit;
};

void app_init(struct app *a, const char *file, struct model *m,
	      enum view_kind first);
void app_free(struct app *a);
/* From now on divided is computed on a thread of its own, starting at
 * once; the panes show it when app_poll finds it done. */
void app_compute_in_background(struct app *a);
/* True when finished background work changed what the panes show. */
bool app_poll(struct app *a);
bool app_busy(const struct app *a);
/* Shows values of another sample type (pprof files have several). */
void app_set_value_type(struct app *a, unsigned type);
void app_cycle_sample_type(struct app *a);
/* Traces: asks for the next thread's profile (tui_run loads it). */
void app_next_thread(struct app *a);
void app_next_granularity(struct app *a);

struct pane *app_pane(struct app *a);
const struct row *app_selected_row(struct app *a);
void app_message(struct app *a, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* The escaped name of a frame, safe for the terminal. */
const char *app_frame_name(const struct app *a, uint32_t frame, char *buf,
			   size_t cap);
bool app_row_matches(const struct app *a, const struct row *r);

/* After a change of the context: brings the pane on screen up to date,
 * keeping what was open and selected, and the others when next shown.
 * PANE_NEW_VALUES: same model, other rule or sample type. */
void app_rebuild(struct app *a, enum pane_change what);
void app_show_pane(struct app *a, enum view_kind kind);
void app_next_pane(struct app *a);
void app_prev_pane(struct app *a);
void app_move(struct app *a, long delta);
void app_move_to(struct app *a, size_t index);
void app_page(struct app *a, int direction);
void app_home(struct app *a);
void app_end(struct app *a);
void app_expand(struct app *a);
void app_collapse(struct app *a);
void app_toggle(struct app *a);
void app_expand_subtree(struct app *a);
void app_cycle_sort(struct app *a);
void app_reverse_sort(struct app *a);
void app_cycle_rule(struct app *a);
void app_cycle_units(struct app *a);
void app_search_set(struct app *a, const char *text);
void app_search_start(struct app *a);
/* Incremental: the first match from where the search started. */
void app_search_update(struct app *a);
void app_search_next(struct app *a, int direction, bool include_current);
void app_focus(struct app *a);
void app_hide(struct app *a);
void app_clear_filters(struct app *a);
void app_open_in(struct app *a, enum view_kind kind);
void app_enter(struct app *a);
/* Live mode: puts `next`, a newer snapshot of the same profile, in place
 * of the model in use, keeping each pane's sort, open rows and selected
 * function.  The caller frees the model it replaces afterwards. */
void app_replace_model(struct app *a, struct model *next);
/* Live mode: the model in use got new values in place, for the same
 * stacks (xsbug_follower_model); every number is computed again, what is
 * open, selected and sorted stays. */
void app_values_changed(struct app *a);

#endif
