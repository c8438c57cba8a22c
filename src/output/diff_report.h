/* --report flat --diff BASE NEW (or --base A1 --base A2 B1 B2): the
 * delta rows, with their noise over several runs a side (runs.h), as
 * text, CSV or JSON. */
#ifndef WPROF_DIFF_REPORT_H
#define WPROF_DIFF_REPORT_H

#include <stdio.h>

#include "compare/runs.h"
#include "report.h"

struct diff_report {
	const char *const *files[DIFF_SIDES]; /* runs->nruns[s] names a side */
	enum report_format format;
	const struct runs_diff *runs; /* built and sorted */
};

void diff_report_print(FILE *out, const struct diff_report *rep);

#endif
