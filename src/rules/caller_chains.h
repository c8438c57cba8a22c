/* The nodes of a call tree sorted by their chains of callers: a node's
 * chain is its frame, its parent's frame, and so on up to the root.
 * Sorted so, the nodes whose chains begin with the same frames are one
 * range, and that range is a bottom-up row: its numbers are sums over
 * the range and its children split it.  Opening a row then costs a few
 * binary searches, not a walk over every node of the function, which a
 * recursion a million frames deep would repeat at every level.
 *
 * The sort depends on the tree's shape alone, so one serves every rule
 * and every time range (struct rules keeps it).  It is made as deep as
 * the rows opened need: each doubling of the places sorted is a pass
 * over the nodes, and rows opened n levels down need log2(n) of them,
 * not log2 of the deepest chain. */
#ifndef WPROF_CALLER_CHAINS_H
#define WPROF_CALLER_CHAINS_H

#include <stdbool.h>
#include <stdint.h>

#include "model/model.h"

#define CHAINS_WHOLE UINT32_MAX /* places: sorted on every place */

struct chain_doubling;

struct caller_chains {
	uint32_t *sorted;      /* every node, by its chain's first `places` frames */
	uint32_t places;       /* CHAINS_WHOLE once wholly sorted */
	struct chain_doubling *next; /* the sort's state; NULL once whole */
	uint32_t *depth;       /* per node: how many ancestors it has */
	uint32_t *walk_index;  /* per node: its place in a depth-first walk */
	uint32_t *level_start; /* nodes at depth d: level_nodes[level_start[d]..[d+1]) */
	uint32_t *level_nodes; /* each depth's nodes in walk order */
	uint32_t nlevels;
};

/* False when the nodes are a graph (a node with several parents): their
 * chains are not one per node.  Sorted on two places when true. */
bool caller_chains_build(struct caller_chains *c, const struct model *m);
/* Sorts further, until chains agreeing on their first `places` frames are
 * together, shorter ones first.  The ranges of agreeing chains stay where
 * they were: the sort only reorders within them.  In a job stopped
 * (base/background.h), it stops between its rounds, sorted less far. */
void caller_chains_sort_to(struct caller_chains *c, uint32_t places);
void caller_chains_free(struct caller_chains *c);

/* A view's copy: the sorted nodes not hidden outside a time range (their
 * descendants are hidden too, so the chains left keep every frame they
 * name), as sorted as the caller_chains were when it was taken. */
struct chain_order {
	uint32_t *order;
	uint32_t count;
	uint32_t places;
};

/* Takes the order again if the chains were sorted further since; true
 * when it did (its ranges are the same, the nodes within them moved). */
bool chain_order_update(struct chain_order *o, const struct caller_chains *c,
			const struct model *m);
void chain_order_free(struct chain_order *o);

/* The frame `k` places up the chain of the node at order[i] (0: its own);
 * NO_ID when the chain is shorter. */
uint32_t caller_chains_frame_at(const struct caller_chains *c,
				const struct model *m,
				const struct chain_order *o, uint32_t i, uint32_t k);

/* In order[lo, hi), a range whose chains agree on places 0..k, sorted on
 * k + 2 places: the first index whose chain goes on past place k (hi if
 * none).  The chains that end there come first. */
uint32_t caller_chains_longer(const struct caller_chains *c,
			      const struct chain_order *o, uint32_t lo,
			      uint32_t hi, uint32_t k);

/* In order[i, hi), a range whose chains agree on places 0..k-1 and all go
 * on to place k, sorted on k + 1 places: the end of the run whose frame
 * there is order[i]'s. */
uint32_t caller_chains_run_end(const struct caller_chains *c,
			       const struct model *m,
			       const struct chain_order *o, uint32_t i,
			       uint32_t hi, uint32_t k);

#endif
