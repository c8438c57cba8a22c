/* The explorer's state and every action a key can take, without curses:
 * the terminal loop (tui.c) and the key benchmark (bench.c) drive the
 * same functions.  Numbers all come from views/; this file only decides
 * which view, rule, unit and filter are in force. */
#ifndef WPROF_TUI_APP_H
#define WPROF_TUI_APP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "views/flame.h"
#include "views/view.h"
#include "explorer/line_edit.h"
#include "model/sample_counts.h"
#include "transform/range.h"
#include "transform/timeline.h"
#include "transform/transform.h"

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
	bool from_top; /* re-sorted: shown from its first row when next drawn */
};

/* Pane 5's own state (explorer/flame_nav.c): zoom path, orientation,
 * colours, the last search's marks; kept across rebuilds of its view
 * only while the graph is the same one (`serial`). */
#define FLAME_ZOOM_DEPTH 64
struct flame_ui {
	unsigned long serial; /* of the graph zoom and marks belong to */
	struct flame_zoom zoom[FLAME_ZOOM_DEPTH]; /* Enter pushes, Backspace pops */
	unsigned nzoom;
	/* The graph as last drawn (flame_nav_lay_out), so that keys act on
	 * what is seen: a merged block as one. */
	struct flame_layout layout;
	unsigned long layout_serial;
	bool root_below;  /* --flame-up, v */
	bool by_file;     /* C: colours by file or package, else by kind */
	uint8_t *matched; /* per frame of the graph */
	size_t matched_cap;
	double matched_share;
	char matched_for[256];
	unsigned long matched_serial;
};

/* Filters in the order applied; levels[i] is the original after
 * filters 0..i, made so far (nlevels <= applied.n); the panes show the
 * last level made. */
struct filter_levels {
	struct transform_stack applied;
	struct filtered **levels;
	size_t nlevels, levels_cap;
	struct filter_job *job; /* making levels[nlevels] */
};

/* Pane 4's earlier centres, the latest last: Backspace goes back to
 * them as a browser's Back does; the oldest go when it is full. */
#define GRAPH_HISTORY 64
struct graph_history {
	uint32_t centres[GRAPH_HISTORY];
	unsigned n;
};

/* The / and : prompts. */
struct prompts {
	char search[256];
	bool searching;       /* the / prompt is open */
	size_t search_origin; /* the row the search started from */
	struct line_edit command; /* the : prompt's line and history */
	bool commanding;      /* the : prompt (a filter by pattern) is open */
	struct line_edit save; /* w's prompt: the file to write (save_view.h) */
	bool saving;
};

/* Time range (range.h): the app's `loaded` is the whole profile, its
 * `original` the part of it in `samples` (a cut this app owns, or
 * `loaded`).
 * Live mode: the range's view holds its own copy of its samples (freed
 * with it), and loaded->live.samples_before when it was made, so that a
 * pinned range follows its samples as the window of a long session
 * slides under it (app_replace_model).  Once its first sample leaves the
 * window, `cut` becomes a model of its own (model_cut_range of the view)
 * whose numbers never change; `samples` is then empty and `gone` says
 * what it was. */
struct app_range {
	struct model *cut;
	struct whole_sums *whole_sums; /* the first range key's start */
	struct sample_range samples;
	bool owns_samples;
	size_t base;
	char gone[96];
};

/* The timeline strip over the panes, shown where there are times. */
struct timeline_strip {
	bool hidden;
	struct timeline timeline; /* of the app's `loaded`, as wide as the strip */
	/* The strip scrolls as in live mode (a->live) for a profile that
	 * grows by other means, and in tests. */
	bool scrolls;
	const struct model *model; /* the model it was made for */
	size_t before; /* its samples_before then (a live window slides) */
	size_t cells;  /* the strip's width, set by whoever draws */
};

struct live_view;
struct compare;
struct filtered;
struct filter_job;
struct flame_job;
struct lines_pane;
struct source_options;
struct load_options;

struct app {
	const char *file;
	struct live_view *live; /* live mode's source (live_view.c), or NULL */
	struct compare *compare; /* the split screen this is a side of, or NULL */
	struct model *original; /* gains a sample count type on first `u` */
	/* Per frame: its name, file and line hashed, to name rows by their
	 * path across rebuilds (derived models keep the original's frame
	 * numbers; frames they add come after, and are covered as shown). */
	uint64_t *frame_keys;
	size_t nframe_keys;
	struct filter_levels filters;
	bool background; /* slow rules are computed off the UI's thread */
	/* Kept apart from the filtered model's, so that clearing a filter
	 * finds the original's totals already computed. */
	struct rules original_rules;
	struct view_context ctx;
	struct pane panes[VIEW_COUNT];
	enum view_kind current;
	bool rule_chosen; /* with r; else the rule follows the data */
	enum unit_mode units;
	bool relative; /* % of what the filters leave, not of the whole */
	unsigned value_type; /* the sample type values show: --sample-type or t */
	struct prompts prompts;
	char message[256];
	size_t page_rows; /* rows a page holds, set by whoever draws */
	bool show_help;
	size_t help_top; /* the help's first line shown, as it scrolls */
	struct flame_ui flame;
	struct graph_history graph_back;
	struct flame_job *flame_job; /* pane 5's next graph (flame_job.h) */
	struct flame_job *flame_dropped; /* one no longer wanted, still running */
	/* The source pane (`l`) over the panes, or NULL; where it looks for
	 * source files (--source-path, --trim-path), or NULL. */
	struct lines_pane *lines;
	const struct source_options *source_options;
	/* What a model the explorer loads again (T) goes through, or NULL. */
	const struct symbolize_options *symbolize;
	bool next_thread; /* T: the explorer loads the trace's next thread */
	/* The granularity key: the next granularity (enum granularity:
	 * functions, files, lines), which tui_run makes as a new model;
	 * `granularity_waits` while a thread is still making it. */
	bool next_granularity;
	bool granularity_waits;
	unsigned granularity;
	bool quit;
	struct model *loaded; /* the whole profile (struct app_range) */
	struct app_range range;
	struct timeline_strip strip;
};

void app_init(struct app *a, const char *file, struct model *m,
	      enum view_kind first);
/* app_init with rules for m made before (the explorer's other
 * granularities: their totals, caller chains), moved into the app;
 * `kept` may be NULL. */
void app_init_kept(struct app *a, const char *file, struct model *m,
		   enum view_kind first, struct rules *kept);
void app_free(struct app *a);
/* A range's cut (NULL: none), with the copy of its samples it owns. */
void app_free_range_cut(struct model *cut, bool owns_samples);
/* Before the first screen is drawn: the work that reads only the tree's
 * shape starts on a thread (the bottom-up pane's caller chains), so
 * that it is done by the time a key asks for it. */
void app_start_early(struct app *a);
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
/* Asks for the next granularity (tui_run switches). */
void app_next_granularity(struct app *a);
/* The same profile by functions, files or lines (enum granularity g),
 * on the same pane, with the filters by pattern: the model for g is
 * taken from `models` (made and kept there if it is not yet), whose
 * models the caller frees (granularity_cache_free) after the app; the
 * next granularity's is then made on a thread.  `load`: how the file was
 * read, to read a pprof file again by line. */
struct granularity_cache;
void app_switch_granularity(struct app *a, struct granularity_cache *models,
			    const struct load_options *load, unsigned g);
/* The granularity key's answer, from the explorer's loop: the switch to
 * the next granularity once its model is at hand; while the thread is
 * still making it, the panes stay as they are, the status line says so
 * and the key stays pending (call again soon).  True when what is on
 * screen changed. */
bool app_granularity_poll(struct app *a, struct granularity_cache *models,
			  const struct load_options *load);
/* Live mode: a new snapshot `base` (`in_place`: the one shown, given new
 * values; else a new model, whose predecessor the caller frees after) in
 * the app, by the granularity shown: a model by files or lines is made
 * again from it (its own durations: `base` changes under it), and
 * `models` (c->when_asked) start again from it, their old models and
 * what was put aside gone. */
void app_granularity_refresh(struct app *a, struct granularity_cache *models,
			     struct model *base, bool in_place);
void app_drop_model(struct model **m);

struct pane *app_pane(struct app *a);
const struct row *app_selected_row(struct app *a);
void app_message(struct app *a, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* The escaped name of a frame, safe for the terminal. */
const char *app_frame_name(const struct app *a, uint32_t frame, char *buf,
			   size_t cap);
bool app_row_matches(const struct app *a, const struct row *r);
/* The same test for every frame of the model at once, each tested once
 * rather than once a row: a table of nframes + 1 entries (the caller
 * frees it); *any (unless NULL) says whether one matches. */
bool *app_search_hits(const struct app *a, bool *any);

/* After a change of the context: brings the pane on screen up to date,
 * keeping what was open and selected, and the others when next shown.
 * PANE_NEW_VALUES: same model, other rule or sample type. */
void app_rebuild(struct app *a, enum pane_change what);
void app_show_pane(struct app *a, enum view_kind kind);
/* The panes centred on ctx.focus_frame (call graph, sandwich), built
 * again for a new centre. */
void app_rebuild_centred(struct app *a);
void app_next_pane(struct app *a);
void app_prev_pane(struct app *a);
void app_move(struct app *a, long delta);
void app_move_to(struct app *a, size_t index);
void app_page(struct app *a, int direction);
void app_home(struct app *a);
void app_end(struct app *a);
void app_expand(struct app *a);
void app_collapse(struct app *a);
void app_expand_subtree(struct app *a);
/* DevTools' heaviest stack: opens the path of the largest totals from
 * the selected row down and selects its last row. */
void app_open_heaviest(struct app *a);
/* Closes every row of a tree pane, selecting the top-level row that
 * held the selected one. */
void app_collapse_all(struct app *a);
void app_cycle_sort(struct app *a);
void app_reverse_sort(struct app *a);
void app_cycle_rule(struct app *a);
void app_cycle_units(struct app *a);
/* Percentages of what the filters leave (pprof's -relative_percentages)
 * or of the whole profile: --relative, the % key. */
void app_set_relative(struct app *a, bool relative);
void app_toggle_relative(struct app *a);
void app_search_set(struct app *a, const char *text);
void app_search_start(struct app *a);
/* Incremental: the first match from where the search started. */
void app_search_update(struct app *a);
/* The next (direction 1) or previous (-1) row in tree order whose name
 * or file holds the search text, case aside, opening the rows above it
 * in the tree panes as DevTools' call tree search does. */
void app_search_next(struct app *a, int direction, bool include_current);
/* Filters on the selected function (f i x = P m R C), "my code" (M),
 * undo (Backspace), clear (F). */
void app_focus(struct app *a);
void app_ignore(struct app *a);
void app_hide(struct app *a);
void app_show_only(struct app *a);
void app_prune_from(struct app *a);
void app_merge(struct app *a);
void app_collapse_recursion(struct app *a);
void app_collapse_file(struct app *a);
void app_mine(struct app *a);
void app_undo_filter(struct app *a);
void app_clear_filters(struct app *a);
/* Pushes a filter; frame NO_ID with text, or a function with NULL. */
bool app_push_filter(struct app *a, enum transform_kind kind, uint32_t frame,
		     const char *text);
/* The command line's filters (--focus RE, ...), each undoable. */
void app_push_filters(struct app *a, const struct transform_stack *s);
/* The : prompt: "KIND PATTERN" ("hide runtime\\.", "tagfocus k=v",
 * "mine", "collapse node_modules/react"). */
void app_command_start(struct app *a);
bool app_command_run(struct app *a, const char *line);
/* The breadcrumb: "focus=main.run > hide=fmt\." ("(computing)" after
 * a level still being made), "" when no filter is in force. */
void app_breadcrumb(const struct app *a, char *buf, size_t cap);
/* #: the labels (pprof tags) of the profile in use, in the message line. */
void app_list_tags(struct app *a);
/* Shows the selected row's function in `kind`: the row of it, or, in
 * the call graph and the sandwich, centred on it. */
void app_open_in(struct app *a, enum view_kind kind);
/* In the call graph, back to the centre before this one: false (and
 * nothing done) in another pane or with none. */
bool app_graph_back(struct app *a);

/* --min-share: rows under `percent` % of the profile left out of every
 * pane but the flame graph (0: none); >: the next of 0.5, 1, 5, none. */
void app_set_min_share(struct app *a, double percent);
void app_cycle_min_share(struct app *a);
void app_enter(struct app *a);
/* Live mode: puts `next`, a newer snapshot of the same profile, in place
 * of the model in use, keeping each pane's sort, open rows and selected
 * function, and a range chosen in it (its samples stay: a stream only
 * appends).  The caller frees the model it replaces afterwards. */
void app_replace_model(struct app *a, struct model *next);
/* The same for a model of the same frames (a range's cut or the whole
 * loaded profile): what every pane reads from now on. */
void app_show_model(struct app *a, struct model *next);
/* Live mode: the model in use got new values in place, for the same
 * stacks (xsbug_follower_model); every number is computed again, what is
 * open, selected and sorted stays. */
void app_values_changed(struct app *a);

/* Every number is for the samples [first, end) of the loaded profile. */
void app_set_range(struct app *a, size_t first, size_t end);
/* After the first screen: the whole profile's sums made as a range's are,
 * on a thread, so that no range key sums all the samples (app_range.c). */
void app_range_prepare(struct app *a);
bool app_range_busy(const struct app *a);
void app_range_free(struct app *a);
/* The whole profile's sums (made or being made) for a->loaded, taken from
 * `a` to be put aside while another granularity is shown, NULL when
 * there are none; app_range_adopt_sums gives them to an app whose
 * loaded model is theirs (else frees them), app_range_free_sums frees
 * them, waiting for their thread. */
struct whole_sums *app_range_take_sums(struct app *a);
void app_range_adopt_sums(struct app *a, struct whole_sums *w);
void app_range_free_sums(struct whole_sums *w);
/* The keys: one cell of the strip (or `cells`) at a time. */
void app_range_move_start(struct app *a, long cells);
void app_range_move_end(struct app *a, long cells);
void app_range_whole(struct app *a);
/* "range 1.20s–3.40s of 10.0s", or what a range whose samples have left
 * a live window was. */
void app_describe_range(const struct app *a, bool ascii, char *buf, size_t cap);
void app_toggle_timeline(struct app *a);
/* The strip's bins for `cells` cells, made again when the width or the
 * loaded model changed. */
const struct timeline *app_timeline(struct app *a, size_t cells);
/* The strip made for a->loaded, taken from `a` when `next` would have
 * the very same one (the same profile at another granularity: the same
 * sample durations, each sample's leaf of the same kind), so that
 * app_timeline_adopt gives it to the app made for `next` instead of
 * making it again; else an empty one. */
struct timeline app_timeline_take(struct app *a, const struct model *next);
void app_timeline_adopt(struct app *a, struct timeline strip);
bool app_has_timeline(const struct app *a);
/* Live mode: the strip shows the last moments at a fixed time a cell. */
bool app_timeline_scrolls(const struct app *a);

#endif
