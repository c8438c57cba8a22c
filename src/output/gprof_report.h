/* --report flat and callgraph in gprof's text layout, for the gprof rule
 * (the view's totals carry the gprof computation). */
#ifndef WPROF_GPROF_REPORT_H
#define WPROF_GPROF_REPORT_H

#include <stdio.h>

#include "views/view.h"

void gprof_print_flat(FILE *out, const struct view *v);
void gprof_print_callgraph(FILE *out, const struct view *v);

#endif
