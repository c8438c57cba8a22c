/* The source pane's rows: a function's lines with their numbers, beside
 * the source text when the file is found (pprof's -list window), else
 * the lines with numbers alone.  No curses: the TUI and --report lines
 * print the same rows. */
#ifndef WPROF_VIEWS_LINES_H
#define WPROF_VIEWS_LINES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "rules/lines.h"
#include "input/source.h"

struct source_row {
	int32_t line;
	double self, total; /* 0 on lines without samples; total NAN: n/a */
	const char *text;   /* into the source file, NULL without one */
	size_t text_len;
	bool has_value;
	bool in_function;   /* from the function's first line on */
};

struct lines_view {
	const struct model *model;
	unsigned type;
	uint32_t frame;   /* the frame asked for (its name and file) */
	struct line_profile prof;
	struct source_file source; /* source.path NULL: not found */
	struct source_row *rows;
	size_t nrows, rows_cap;
	/* As pprof's ROUTINE line adds them; where the lines have no total
	 * (V8), total_sum is the function's own (exact) total, else NAN. */
	double self_sum, total_sum;
	bool heat_by_self;
	double heat_max;
};


/* `function_totals`: per frame, the exact rule's totals, or NULL. */
void lines_view_open(struct lines_view *v, const struct model *m, uint32_t frame,
		     unsigned type, const struct source_options *src,
		     const double *function_totals);
void lines_view_close(struct lines_view *v);

/* 0 (nothing) .. 3 (the hottest): how strongly a row is shaded. */
int lines_view_heat(const struct lines_view *v, size_t row);
/* The next (dir 1) or previous (dir -1) hot row from `from`, wrapping;
 * `from` when there is none. */
size_t lines_view_next_hot(const struct lines_view *v, size_t from, int dir);
/* The first hot row (the hottest line), 0 when none. */
size_t lines_view_hottest(const struct lines_view *v);

#endif
