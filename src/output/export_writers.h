/* What the export writers share (export.c) and each writer's entry, one
 * file per format: export_folded.c, export_cpuprofile.c (also the trace
 * event form), export_pprof.c.  Private to src/output: export.h is the
 * interface.  An exporter is set up by export_model; a writer writes the
 * whole file to x->out and its notes to x->notes. */
#ifndef WPROF_EXPORT_WRITERS_H
#define WPROF_EXPORT_WRITERS_H

#include <stdbool.h>
#include <stdio.h>

#include "model/model.h"

struct exporter {
	const struct model *m;
	unsigned type;
	FILE *out;
	FILE *notes;
	const char *format;
	bool whole_stacks; /* else one-frame stacks of each function's self */
	double *frame_self; /* [frame * ntypes + type], without whole stacks */
};

/* The value of `item` (a node with whole stacks, else a frame) that ends
 * there, and how many items there are. */
double self_value(const struct exporter *x, uint32_t item, unsigned type);
size_t item_count(const struct exporter *x);
/* Says so when the model has types the format leaves out. */
void note_one_type(const struct exporter *x);
void write_number(FILE *out, double v);

/* Is this XS data, a stream or the XS file profiler's file: node 0 is
 * the engine's (host), at the root?  Its .cpuprofile is the engine's. */
bool xs_data(const struct model *m);

void write_folded(struct exporter *x);
/* trace: as trace events around the .cpuprofile. */
void write_cpuprofile(struct exporter *x, bool trace);
/* False when compressing failed. */
bool write_pprof(struct exporter *x);

#endif
