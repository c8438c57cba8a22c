/* `--report flame`: the flame graph as text, one line a level, at a given
 * width (for a code review or a terminal log), and `--export svg`: the
 * same graph as a self-contained interactive SVG (click to zoom, search),
 * as flamegraph.pl draws it. */
#ifndef WPROF_REPORT_FLAME_H
#define WPROF_REPORT_FLAME_H

#include <stdbool.h>
#include <stdio.h>

#include "views/flame.h"

struct flame_report {
	const char *file;
	const struct view_context *ctx;
	const struct flame *flame;
	unsigned width;  /* columns */
	bool root_below; /* --flame-up */
	bool utf8;       /* the ellipsis; else '~' */
};

void flame_report_print(FILE *out, const struct flame_report *rep);
/* False, with errno set, when the file cannot be written. */
bool flame_export_svg(const char *path, const struct flame_report *rep);

#endif
