/* Per-line numbers of a function, for the source pane and --report lines
 * (pprof's -list, DevTools' line costs in Sources).
 *
 * Where they come from:
 *   - model.node_lines (pprof Line entries, every sample type, inlined
 *     frames at their own lines): self and total per line, exact;
 *   - model.line_ticks (V8 positionTicks, trace-event `lines`): each
 *     node's self value split over its lines by their ticks.  V8 does not
 *     say at which line a node called its children, so there is no total
 *     per line;
 *   - otherwise (XS records, formats with one line per function) the
 *     function's self at its own line, when it has one. */
#ifndef WPROF_RULES_LINES_H
#define WPROF_RULES_LINES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/model.h"

struct line_row {
	int32_t line; /* 1-based */
	double self, total; /* total NAN when the data has none */
};

enum line_origin {
	LINES_NONE,      /* no line numbers at all */
	LINES_SAMPLED,   /* per line from the samples */
	LINES_FUNCTION,  /* only the function's own line */
};

struct line_profile {
	struct line_row *rows; /* ascending lines, rows with a value only */
	size_t nrows, rows_cap;
	enum line_origin origin;
	bool has_total;
	double self; /* the rows' sum (the function's total is the rules') */
	int32_t start_line; /* the function's first line, 1-based, or -1 */
	const char *why_no_total; /* when !has_total */
};

/* The lines of a set of frames (`member[frame]` true), which should share
 * a source file: pprof lists "f" and "f (inline)" as one function. */
void lines_of_frames(const struct model *m, const bool *member, unsigned type,
		     struct line_profile *out);
void lines_of_frame(const struct model *m, uint32_t frame, unsigned type,
		    struct line_profile *out);
void line_profile_free(struct line_profile *p);

/* The function's name without the " (inline)" mark pprof prints. */
size_t lines_plain_name_length(const char *name);

/* Whether frames f and g are listed as one function: the same name (the
 * " (inline)" mark aside, as pprof -list merges them), file, line and
 * column.  JavaScript's many "(anonymous)" functions of one file stay
 * apart, as DevTools keeps them. */
bool lines_same_function(const struct model *m, uint32_t f, uint32_t g);

/* pprof -list's window: from the function's start (or 5 lines before the
 * first line with data) to 5 lines after the last. */
void lines_window(const struct line_profile *p, int32_t *first, int32_t *last);

#endif
