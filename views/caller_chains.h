/* The nodes of a call tree sorted by their chains of callers: a node's
 * chain is its frame, its parent's frame, and so on up to the root.
 * Sorted so, the nodes whose chains begin with the same frames are one
 * range, and that range is a bottom-up row: its numbers are sums over
 * the range and its children split it.  Opening a row then costs a few
 * binary searches, not a walk over every node of the function, which a
 * recursion a million frames deep would repeat at every level. */
#ifndef WPROF_CALLER_CHAINS_H
#define WPROF_CALLER_CHAINS_H

#include <stdbool.h>
#include <stdint.h>

#include "../src/model.h"

struct caller_chains {
	uint32_t *order;       /* the nodes not hidden, sorted by their chains */
	uint32_t count;        /* how many: hidden nodes (outside a time range)
				* have no chain, nor do their descendants */
	uint32_t *depth;       /* per node: how many ancestors it has */
	uint32_t *walk_index;  /* per node: its place in a depth-first walk */
	uint32_t *level_start; /* nodes at depth d: level_nodes[level_start[d]..[d+1]) */
	uint32_t *level_nodes; /* each depth's nodes in walk order */
	uint32_t nlevels;
};

/* False when the nodes are a graph (a node with several parents): their
 * chains are not one per node. */
bool caller_chains_build(struct caller_chains *c, const struct model *m);
void caller_chains_free(struct caller_chains *c);

/* The frame `k` places up the chain of the node at order[i] (0: its own);
 * NO_ID when the chain is shorter. */
uint32_t caller_chains_frame_at(const struct caller_chains *c,
				const struct model *m, uint32_t i, uint32_t k);

/* In order[lo, hi), a range whose chains agree on places 0..k: the first
 * index whose chain goes on past place k (hi if none).  The chains that
 * end there come first. */
uint32_t caller_chains_longer(const struct caller_chains *c, uint32_t lo,
			      uint32_t hi, uint32_t k);

/* In order[i, hi), a range whose chains agree on places 0..k-1 and all go
 * on to place k: the end of the run whose frame there is order[i]'s. */
uint32_t caller_chains_run_end(const struct caller_chains *c,
			       const struct model *m, uint32_t i, uint32_t hi,
			       uint32_t k);

#endif
