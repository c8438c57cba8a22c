/* Comparing two profiles: which function of one is which of the other,
 * and the rows of the delta layout (base, new, delta).  Like the views it
 * knows nothing of curses; the TUI's split screen and `--report flat
 * --diff` share it.
 *
 * Matching, computed once per pair of models (it does not depend on the
 * rule).  Each step pairs the functions not yet paired whose key is
 * unique among the unpaired functions of each side:
 *   1. name, url, line and column: the same function of the same source
 *      (lines and columns as a person reads them, so that a .cpuprofile's
 *      0-based places meet pprof's 1-based ones);
 *   2. name, url and line: the same, from a format without columns;
 *   3. name and url: the function moved within its file;
 *   4. url and line, the name aside: one function the engines name
 *      differently (XS calls a constructor `Vec` in its file profiler and
 *      `Vec.prototype.Vec` in its stream);
 *   5. the name after its last `.` and the place (url and line, or
 *      neither: native), where one side's name is that bare tail: XS
 *      names a native `String.prototype.@fxStringAccessorGetter` in its
 *      stream and `@fxStringAccessorGetter` in its file profiler;
 *   6. name alone: another file or another engine (V8 vs XS urls);
 *   7. the engine's own entries by kind: the root ((root) in V8, (host)
 *      in XS), (program), (idle), the garbage collector.
 * A key held by several unpaired functions on a side is ambiguous and
 * pairs nothing in that step; what is left unpaired is one-sided.
 *
 * A function is present on a side when that side's flat view lists it:
 * some self or total under the rule.  Where the rule gives that side no
 * totals (exact on an XS function graph), a function is present when
 * its calls hold time under the rule that does apply there (additive, or
 * gprof between call arcs): present with a total of n/a, which is not
 * absence.  A pair whose function spent no time on one side is shown as
 * absent there, but keeps its frame so that the cursor can still follow
 * it. */
#ifndef WPROF_DIFF_H
#define WPROF_DIFF_H

#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "views/view.h"

enum diff_side { DIFF_BASE, DIFF_NEW, DIFF_SIDES };

/* How a function was paired with its counterpart (the steps above). */
enum diff_match {
	MATCH_NONE,
	MATCH_SAME,
	MATCH_NAME_URL_LINE,
	MATCH_NAME_URL,
	MATCH_URL_LINE,
	MATCH_TAIL_PLACE,
	MATCH_NAME,
	MATCH_KIND,
	MATCH_COUNT
};

/* The delta layout's order.  DIFF_SORT_DELTA is the default. */
enum diff_sort {
	DIFF_SORT_DELTA,      /* |delta|, largest change first */
	DIFF_SORT_REGRESSION, /* signed delta: largest regression first */
	DIFF_SORT_TOTAL,      /* the larger of the two totals */
	DIFF_SORT_SELF,       /* the larger of the two selfs */
	DIFF_SORT_NAME,
	DIFF_SORT_COUNT
};

struct diff_row {
	uint32_t frame[DIFF_SIDES]; /* NO_ID where the function is unknown */
	enum diff_match match;
	/* NAN where the function is absent; total is NAN too where the rule
	 * gives no total on that side (present, n/a).  Percent of that
	 * side's profile when normalized. */
	double self[DIFF_SIDES];
	double total[DIFF_SIDES];
	/* new total - base total, an absent side counting as 0; NAN when a
	 * present side has no total under the rule. */
	double delta;
	double delta_pct; /* of the base total; NAN when that is absent or 0 */
};

struct diff {
	const struct model *model[DIFF_SIDES];
	struct rules *rules[DIFF_SIDES];
	unsigned type[DIFF_SIDES]; /* each side's sample type */
	/* match[s][frame]: the paired frame of the other side, or NO_ID. */
	uint32_t *match[DIFF_SIDES];
	uint8_t *how[DIFF_SIDES]; /* enum diff_match per frame */

	/* What the rows are built under; set, then call diff_build. */
	enum rule rule; /* the same rule on both sides */
	bool normalize; /* each side as percent of its own profile_total */
	enum diff_sort sort;
	bool reversed;

	const struct totals *totals[DIFF_SIDES]; /* of the last build */
	/* Where totals[s] has none: the totals saying whether a function is
	 * present on that side (see above), else NULL. */
	const struct totals *presence[DIFF_SIDES];
	struct diff_row *rows;
	size_t nrows, rows_cap;
};

/* Pairs the functions of the two sides' models; the rules (one per side,
 * owned by the caller) outlive the diff.  Starts with the rule both
 * sides support best (exact where both have stacks, gprof between call
 * arcs, divided against an XS function graph, else additive), each
 * side's default sample type, absolute values and DIFF_SORT_DELTA;
 * builds no rows yet. */
void diff_init(struct diff *d, struct rules *base, struct rules *new_side);
void diff_free(struct diff *d);

/* Values of different units (time against bytes) only compare as shares
 * of their profiles. */
bool diff_comparable(const struct diff *d);

/* (Re)builds the rows under d->rule, d->normalize, then sorts them. */
void diff_build(struct diff *d);
void diff_sort(struct diff *d);

/* After diff_build: what a row of `frame` (NO_ID: none) would hold on
 * side `s`, as struct diff_row's self and total say (NAN: absent). */
void diff_frame_values(const struct diff *d, enum diff_side s, uint32_t frame,
		       double *self, double *total);

/* Whether the function has time on that side (else it is one-sided). */
static inline bool diff_present(const struct diff_row *r, enum diff_side s)
{
	return !isnan(r->self[s]);
}

/* Present on that side, but the rule gives it no total there. */
static inline bool diff_not_applicable(const struct diff_row *r, enum diff_side s)
{
	return diff_present(r, s) && isnan(r->total[s]);
}

/* The side whose frame names a row: base where the function is known
 * there, else new. */
enum diff_side diff_row_side(const struct diff_row *r);

/* The frame of the other side paired with `frame` of `side`, or NO_ID. */
uint32_t diff_match(const struct diff *d, enum diff_side side, uint32_t frame);
enum diff_match diff_match_how(const struct diff *d, enum diff_side side,
			       uint32_t frame);
/* The delta row showing `frame` of `side`, or SIZE_MAX. */
size_t diff_find_row(const struct diff *d, enum diff_side side, uint32_t frame);

/* Split screen: the row of `to` (a view of the other side, same kind)
 * that stands for row `index` of `from` (a view of `side`): the same call
 * path with every frame replaced by its match; for the call graph, the
 * same role of the matched function in the matched block.  Rows of `to`
 * along the path are expanded as needed.  Returns the deepest row reached
 * (*whole says whether it is the counterpart itself), or SIZE_MAX when
 * not even the top of the path has a counterpart. */
size_t diff_mirror_row(const struct diff *d, enum diff_side side,
		       const struct view *from, size_t index, struct view *to,
		       bool *whole);
/* After row `index` of `from` was expanded or collapsed: does the same
 * to its counterpart in `to`.  Returns the counterpart, or SIZE_MAX. */
size_t diff_mirror_expansion(const struct diff *d, enum diff_side side,
			     const struct view *from, size_t index,
			     struct view *to);

const char *diff_match_name(enum diff_match how);
const char *diff_sort_name(enum diff_sort key);
bool diff_sort_parse(const char *name, enum diff_sort *out);

#endif
