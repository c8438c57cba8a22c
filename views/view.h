/* Views turn the model and a rule's totals into rows: what a pane shows
 * and what --report prints.  One file per pane, each behind a small ops
 * table; nothing here knows about curses.
 *
 * Rows form a flattened tree: a row's children follow it with depth + 1
 * while it is expanded.  Every row carries the frame it shows, so that
 * search, focus and "open in another pane" work the same everywhere. */
#ifndef WPROF_VIEW_H
#define WPROF_VIEW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/model.h"
#include "rules/rules.h"

enum view_kind {
	VIEW_TOPDOWN, VIEW_BOTTOMUP, VIEW_FLAT, VIEW_CALLGRAPH, VIEW_FLAME, VIEW_SANDWICH,
	VIEW_COUNT
};

enum sort_key { SORT_TOTAL, SORT_SELF, SORT_CALLS, SORT_NAME, SORT_COUNT };

/* Row flags. */
#define ROW_EXPANDABLE 0x01
#define ROW_EXPANDED 0x02
#define ROW_CALLER 0x04  /* call graph, sandwich: a caller of the primary function */
#define ROW_PRIMARY 0x08 /* call graph: the function itself */
#define ROW_CALLEE 0x10  /* call graph, sandwich: a function it calls */
#define ROW_CYCLE 0x20   /* a path that comes back to a function on it */

struct row {
	uint32_t frame;
	uint32_t item;   /* the view's own handle: node, path, arc ... */
	uint32_t depth;
	uint32_t flags;
	double self;
	double total;    /* NAN when the rule gives no total */
	double calls;    /* NAN when the data does not count calls */
};

/* What every view is built under; the caller owns it. */
struct view_context {
	const struct model *model;
	struct rules *rules;
	enum rule rule;
	unsigned type;
	enum sort_key sort;
	bool reversed; /* against the natural order: largest first, A to Z */
	uint32_t focus_frame; /* call graph, sandwich: the function shown, NO_ID: all */
	bool time_order; /* flame graph: the samples as they came */
	/* pprof's -nodefraction: rows whose total is under this % of the
	 * profile are left out (with what is under them); 0: none. */
	double min_share;
};

struct view;

struct view_ops {
	const char *name;
	void (*build)(struct view *v);           /* the top-level rows */
	/* Appends the children of row `index` to `out` (unsorted). */
	void (*children)(struct view *v, size_t index, struct row **out,
			 size_t *n, size_t *cap);
	void (*free_state)(struct view *v);
	/* Views whose rows are not a plain tree order them themselves. */
	void (*sort)(struct view *v);
	/* Recomputes every row's numbers in place, for a new rule or sample
	 * type over the same model; false when the rows themselves would be
	 * different ones (the view is then rebuilt).  Optional: for panes
	 * that can hold hundreds of thousands of open rows. */
	bool (*revalue)(struct view *v);
	/* Rows that stand for the view's own drawing, one each: none is
	 * left out under min_share. */
	bool keeps_every_row;
};

struct view {
	const struct view_ops *ops;
	struct view_context *ctx;
	const struct totals *totals;
	struct row *rows;
	size_t nrows, rows_cap;
	void *state;
};

const char *view_kind_name(enum view_kind kind);
bool view_kind_parse(const char *name, enum view_kind *out);
const char *sort_key_name(enum sort_key key);

void view_open(struct view *v, enum view_kind kind, struct view_context *ctx);
void view_close(struct view *v);
/* Rebuilds from scratch (after a rule or sample type change). */
void view_rebuild(struct view *v);
/* New numbers for the same rows, sorted again: false when the view
 * cannot, and must be rebuilt. */
bool view_revalue(struct view *v);

bool view_expand(struct view *v, size_t index);
/* Rebuilds the view and opens, in the same pass, each row for which
 * open_it says so; rows are offered in the order they are shown. */
void view_rebuild_opening(struct view *v,
			  bool (*open_it)(void *data, const struct row *r, size_t index),
			  void *data);
void view_collapse(struct view *v, size_t index);
/* Expands every row below `index` (SIZE_MAX: the whole view) down to
 * max_depth levels; stops adding rows past max_rows. */
void view_expand_all(struct view *v, size_t index, uint32_t max_depth,
		     size_t max_rows);
void view_sort(struct view *v);

/* Tree order is the order the rows would have with every row open.
 * Looks for the next row in tree order after row `from` (direction 1,
 * wrapping past the end) or the previous one (-1) for which match says
 * so, among the rows shown and those under closed rows, which it opens
 * on the way; with include_from, row `from` itself first.  Returns the
 * row's index, or SIZE_MAX when none does: *cut_short then says the
 * search stopped after looking under closed rows at max_rows rows.
 * *opened_at is the first row opened (SIZE_MAX: none), the rows after
 * it moving down by as many as the view gained. */
size_t view_find(struct view *v, size_t from, int direction, bool include_from,
		 bool (*match)(void *data, const struct row *r), void *data,
		 size_t max_rows, bool *cut_short, size_t *opened_at);
/* Opens the path from row `index` down to the row whose children have
 * the largest total at each step, to a row with none; returns its
 * index (`index` when it has none). */
size_t view_open_heaviest(struct view *v, size_t index);
/* Closes every row; returns the index the top-level row that held row
 * `index` has then. */
size_t view_collapse_all(struct view *v, size_t index);

/* For view implementations. */
void view_append(struct row **rows, size_t *n, size_t *cap, const struct row *r);
void view_sort_rows(const struct view *v, struct row *rows, size_t n);
double view_total_or_nan(const struct totals *t, uint32_t frame);
/* Under ctx->min_share: a row too small to show (its total, or its self
 * where there is none).  The function a pane centres on always shows. */
bool view_row_too_small(const struct view *v, const struct row *r);

extern const struct view_ops topdown_ops, bottomup_ops, flat_ops, callgraph_ops,
	flame_ops, sandwich_ops;

#endif
