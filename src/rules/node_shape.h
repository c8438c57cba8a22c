/* What a call tree's shape alone decides for the exact rule: for each
 * node, whether it is outermost (no ancestor shares its frame) and
 * whether its arc from its parent is (no link above it is of that arc),
 * so that a sample counts once in a frame's and an arc's total.  Made
 * once, never changed: the rules that read it and the threads that
 * derive another model's from it each hold it, and the last to let go
 * frees it. */
#ifndef WPROF_NODE_SHAPE_H
#define WPROF_NODE_SHAPE_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "model/model.h"

struct node_shape {
	atomic_uint holders;
	uint8_t *outermost;     /* per node, 1 or 0 */
	uint8_t *arc_outermost; /* per node, 0 for a root */
};

/* m's flags by one depth-first walk of its tree (m has HAS_STACKS);
 * held once, by the caller. */
struct node_shape *node_shape_walk(const struct model *m);

/* m's flags from src's (`from`), in one pass over m's nodes in turn,
 * when m extends src by leaves: node v of src is node v of m, with its
 * frame id and parent, and m's other nodes are leaves under them (the
 * model by lines over kept nodes, granularity_lines.h).  Then a kept
 * node has src's flags (its ancestors are src's, and a model's arcs are
 * its distinct pairs of frames), and a new leaf's are found by its
 * frame and its parent's: both 1 when its frame is none of src's, else
 * by climbing to the root.  NULL when m does not extend src so, or when
 * the climbs would cost more than a walk; held once, by the caller. */
struct node_shape *node_shape_extend(const struct model *m, const struct model *src,
				     const struct node_shape *from);

/* One more holder of s (may be NULL); returns s. */
struct node_shape *node_shape_hold(struct node_shape *s);
/* A holder lets go of s (may be NULL): freed by the last. */
void node_shape_release(struct node_shape *s);

#endif
