#ifndef WPROF_REPORT_H
#define WPROF_REPORT_H

#include <stdbool.h>
#include <stdio.h>

#include "../views/view.h"

enum report_format { REPORT_TEXT, REPORT_CSV, REPORT_JSON, REPORT_FORMAT_COUNT };

struct report {
	const char *file;
	enum view_kind kind;
	enum report_format format;
	const struct view *view; /* already expanded as far as wanted */
	/* The filters in force, described ("focus=main"), as pprof lists
	 * its Active filters; none when nfilters is 0. */
	char *const *filters;
	size_t nfilters;
};

bool report_format_parse(const char *name, enum report_format *out);
void report_print(FILE *out, const struct report *rep);

/* For other printers (the diff report): RFC 4180 fields, JSON strings,
 * and numbers that read back exactly (NAN: empty in CSV, null in JSON). */
void csv_field(FILE *out, const char *s);
void csv_number(FILE *out, double v);
void json_string(FILE *out, const char *s);
void json_number(FILE *out, double v);
/* ,"sample_type":…,"unit":…,"duration":…,"samples":…,"profile_total":…
 * and "total_unavailable" when the rule gives no totals. */
void json_profile_fields(FILE *out, const struct model *m, unsigned type,
			 const struct totals *t);

#endif
