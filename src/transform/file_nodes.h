/* The nodes of a model by files (transform/granularity.h): src's call
 * tree with each node's frame mapped to its file's, the calls within a
 * file one node with their caller, and the children of a node that come
 * to have one file merged.
 *
 * The same nodes, numbered and linked in the same order, as src's nodes
 * walked parents first (node_parents_first) each finding or making its
 * node under its parent's with model_add_child would give; but found
 * without an index of (parent, frame): a node's children are all met at
 * once, the first time one of the nodes standing for it is walked, so a
 * table as small as the frames says which were met under it. */
#ifndef WPROF_FILE_NODES_H
#define WPROF_FILE_NODES_H

#include <stdint.h>

#include "model/model.h"

/* src's nodes (a finished tree: HAS_NODES without HAS_NODE_GRAPH) into
 * `out`, whose frames fmap gives (src's frame f is out's fmap[f]), with
 * model_add_node and model_add_edge: `out`'s index of stacks stays empty.
 * Returns the map from src's nodes to out's (xmalloc'd, nnodes + 1), set
 * only in part when its behind job was stopped (background_pause_point
 * false). */
uint32_t *file_nodes(const struct model *src, struct model *out, const uint32_t *fmap);

#endif
