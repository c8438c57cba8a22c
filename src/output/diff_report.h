/* --report flat --diff BASE NEW: the delta rows as text, CSV or JSON. */
#ifndef WPROF_DIFF_REPORT_H
#define WPROF_DIFF_REPORT_H

#include <stdio.h>

#include "compare/diff.h"
#include "report.h"

struct diff_report {
	const char *file[DIFF_SIDES];
	enum report_format format;
	const struct diff *diff; /* built and sorted */
};

void diff_report_print(FILE *out, const struct diff_report *rep);

#endif
