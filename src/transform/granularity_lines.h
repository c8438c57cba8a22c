/* The model by lines of a profile with V8's positionTicks, for
 * model_by_granularity (granularity.h): each node's values split over
 * frames "f" at line L under the node, by their ticks.  Private to
 * src/transform. */
#ifndef WPROF_GRANULARITY_LINES_H
#define WPROF_GRANULARITY_LINES_H

#include <stdbool.h>
#include <stdint.h>

#include "model/model.h"

/* Does the copy by lines keep src's nodes as they are, node v as node v?
 * It does when fmap (src's frames to out's) is the identity and no two
 * siblings (or roots) have one frame, which a copy made by
 * model_add_child would merge. */
bool lines_keep_nodes(const struct model *src, const uint32_t *fmap);

/* Fills `out` (its header and src's frames in it, as lines_keep_nodes
 * found them) with src's nodes as they are and, under each node with
 * ticks, the nodes of its lines, with their values: the tree given
 * whole, with its links' arcs and node_order (model_adopt_tree and
 * after), for model_finish.  split[v] (src->nnodes of them, 0) is set
 * for each node whose values went to its lines.  When its behind job is
 * stopped (background_pause_point false), it hands nothing over. */
void lines_over_kept_nodes(const struct model *src, struct model *out, uint8_t *split);

/* In `out`, a copy of src whose node map[v] stands for node v: each node
 * with ticks has its values split to nodes of its lines made under
 * map[v] (model_add_child), and split[v] set. */
void lines_split_copied(const struct model *src, struct model *out, const uint32_t *map,
			uint8_t *split);

#endif
