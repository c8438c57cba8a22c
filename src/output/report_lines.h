/* --report lines --function REGEX: each matching function's lines, as
 * `go tool pprof -list` prints them, in text, CSV or JSON. */
#ifndef WPROF_REPORT_LINES_H
#define WPROF_REPORT_LINES_H

#include <stdio.h>

#include "model/model.h"
#include "report.h"
#include "input/source.h"

struct lines_report {
	const char *file;
	enum report_format format;
	const char *function_regex; /* POSIX extended, unanchored as pprof */
	unsigned type;
	const struct source_options *source;
};

/* False (with the message in err) for a regex that does not compile. */
bool report_lines(FILE *out, const struct model *m, const struct lines_report *rep,
		  char *err, size_t cap);

#endif
