/* The gprof rule for call-arc data (gmon.out, WasmProf arcs), as
 * ../shared/spec/time-rules.md defines it and as `gprof -b` computes it:
 * calls counted per arc, mutually recursive functions collapsed into
 * cycles, and each function's total made of its self time plus, per
 * callee, the callee's time in proportion to the calls along the arc.
 * Where arcs carry measured time (HAS_ARC_TIMES) that time is used for
 * the arc instead of the estimate. */
#ifndef WPROF_GPROF_H
#define WPROF_GPROF_H

#include <stdbool.h>
#include <stdint.h>

#include "model/model.h"

/* A cycle: functions that call each other, taken as one. */
struct gprof_cycle {
	double self;       /* Σ self of its members */
	double percent;    /* gprof's % time (gprof_graph.percent) */
	double child;      /* time of callees outside the cycle */
	double calls;      /* calls from outside the cycle */
	double self_calls; /* calls between (and within) its members */
	uint32_t members_start, members_end; /* into gprof_graph.members */
};

struct gprof_graph {
	/* Per frame. */
	double *calls;      /* calls from other functions (gprof's ncalls) */
	double *self_calls; /* direct recursive calls */
	double *child;      /* time given by the function's callees */
	/* gprof's % time: 100 × (self + child) / Σ self, in gprof's own
	 * arithmetic (model.frame_ticks), so that it prints the same digits
	 * where it lies on a rounding edge. */
	double *percent;
	uint32_t *cycle;    /* cycle number (1-based), 0 when in none */
	/* Cycles 1..ncycles; cycles[0] is unused. */
	struct gprof_cycle *cycles;
	size_t ncycles;
	uint32_t *members; /* frames, grouped by cycle, in frame order */
	/* Per model arc: the parts of the callee's time given to the caller
	 * (its own self time, and its callees' time); NAN for an arc inside a
	 * cycle or a function calling itself, which gives none. */
	double *arc_self;
	double *arc_child;
};

/* `self` is the rules' per-frame self time. */
void gprof_compute(const struct model *m, const double *self,
		   struct gprof_graph *g);
void gprof_free(struct gprof_graph *g);

#endif
