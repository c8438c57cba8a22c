/* --report tags: the labels (pprof tags) of a profile, each value with the
 * share of the sample type it carries, as `go tool pprof -tags` lists them. */
#ifndef WPROF_TAGS_REPORT_H
#define WPROF_TAGS_REPORT_H

#include <stdio.h>

#include "model/model.h"
#include "report.h"

void tags_report_print(FILE *out, const char *file, const struct model *m,
		       unsigned type, enum report_format format);

#endif
