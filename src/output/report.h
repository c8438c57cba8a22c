#ifndef WPROF_REPORT_H
#define WPROF_REPORT_H

#include <stdbool.h>
#include <stdio.h>

#include "views/view.h"

enum report_format { REPORT_TEXT, REPORT_CSV, REPORT_JSON, REPORT_FORMAT_COUNT };

/* Tree reports are bounded: a profile one sample a million frames deep
 * must not print gigabytes.  Unless --depth / --max-rows say otherwise
 * they open REPORT_DEPTH levels (JSON readers nest about 500 levels deep,
 * and each level is two) and print REPORT_MAX_ROWS rows, and say so when
 * that cut anything.  Text indents REPORT_INDENT_LEVELS levels at most
 * and shows the depth of deeper rows as a number. */
#define REPORT_DEPTH 256
#define REPORT_MAX_ROWS 100000
#define REPORT_INDENT_LEVELS 32
#define REPORT_NO_LIMIT UINT32_MAX

/* What the limits left out. */
struct report_cut {
	uint32_t depth;        /* the depth limit (REPORT_NO_LIMIT: none) */
	size_t max_rows;       /* the row limit (SIZE_MAX: none) */
	size_t deeper;         /* rows whose children lie past the depth */
	size_t rows_past_max;  /* rows not printed: past max_rows */
	size_t left_closed;    /* rows printed but not opened, for max_rows */
};

struct report {
	const char *file;
	enum view_kind kind;
	enum report_format format;
	const struct view *view; /* already expanded as far as wanted */
	const struct report_cut *cut; /* NULL: nothing was limited */
	const char *range; /* --range: which part of the profile, or NULL */
	/* The filters in force, described ("focus=main"), as pprof lists
	 * its Active filters; none when nfilters is 0. */
	char *const *filters;
	size_t nfilters;
};

bool report_format_parse(const char *name, enum report_format *out);
/* Opens the view (tree views: down to `depth` levels and `max_rows` rows)
 * and keeps at most max_rows rows; *cut says what that left out. */
void report_expand(struct view *v, enum view_kind kind, uint32_t depth,
		   size_t max_rows, struct report_cut *cut);
void report_print(FILE *out, const struct report *rep);

/* For other printers (the diff report): RFC 4180 fields of any text
 * (control characters and backslashes escaped, escape.h's reversible
 * form), JSON strings, and numbers that read back exactly (NAN: empty in
 * CSV, null in JSON). */
void csv_field(FILE *out, const char *s);
void csv_number(FILE *out, double v);
void json_string(FILE *out, const char *s);
void json_number(FILE *out, double v);
/* ,"line":…,"column":… as the file gives them, or for a wasm frame
 * ,"offset":… (its body's byte offset in the module, model_wasm_offset). */
void json_place(FILE *out, const struct model *m, uint32_t frame);
/* A symbolized frame's ",generated":{url, line, column} (1-based, as
 * DevTools shows them), or ",unmapped":"why"; nothing for other frames. */
void json_frame_origin(FILE *out, const struct model *m, uint32_t frame);
/* ,"sample_type":…,"unit":…,"duration":…,"samples":…,"profile_total":…
 * and "total_unavailable" when the rule gives no totals. */
void json_profile_fields(FILE *out, const struct model *m, unsigned type,
			 const struct totals *t);

#endif
