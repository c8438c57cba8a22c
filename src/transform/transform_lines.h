/* pprof's per-line numbers (model.node_lines) through a transform or a
 * time range's cut: each line's self goes with its node's self, its total
 * with the node that stands for the node's stack, when that node is of
 * the same function (a function merged or hidden takes its lines along).
 * The source pane and --report lines add a function's lines over all its
 * nodes, so moving them with the values keeps each function's lines
 * what they were for every sample kept. */
#ifndef WPROF_TRANSFORM_LINES_H
#define WPROF_TRANSFORM_LINES_H

#include <stdbool.h>
#include <stdint.h>

#include "model/model.h"

struct line_moves {
	const struct model *src;
	const uint32_t *self_to;  /* per node of src: the node of out its self
				   * went to, or NO_ID */
	const uint32_t *stack_to; /* per node of src: the node of out standing
				   * for its stack, or NO_ID */
	/* Per node of src and type: the value each node kept (NULL: all).
	 * A line's self is kept in the share of its node's self kept; its
	 * total is that plus what its calls measured, kept whole when the
	 * node's callees are.  When part of them is dropped, the profile
	 * does not say at which line each call was made: `proportional`
	 * then keeps the calls' part in the share of the callees' values
	 * kept (tag filters and ranges, which drop samples anywhere), else
	 * the line's total is its self alone, a lower bound (focus and
	 * ignore keep or drop whole stacks). */
	const double *kept;
	bool proportional;
};

void transform_move_node_lines(const struct line_moves *mv, struct model *out);

#endif
