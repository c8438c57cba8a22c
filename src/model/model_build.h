/* The model's build-time indexes, private to src/model: what
 * model_intern_frame, model_add_stack, model_add_child, model_add_edge and
 * model_node_line look things up in while a loader or a transform builds
 * a model.  model_init makes them, model_finish frees them: a finished
 * model holds only what it shows (model.h). */
#ifndef WPROF_MODEL_BUILD_H
#define WPROF_MODEL_BUILD_H

#include "base/id_table.h"
#include "model.h"

struct model_edge {
	uint32_t parent, child;
};

struct model_build {
	struct id_table frames;     /* frame ids, by the frame's hash */
	struct id_table stacks;     /* node ids, by (parent, frame) */
	struct id_table node_lines; /* model.node_lines indexes, by (node, line) */
	/* Links as they come; model_finish makes the children lists. */
	struct model_edge *edges;
	size_t nedges, edges_cap;
	/* The links came whole, as children lists (model_adopt_tree). */
	bool tree_given;
	bool link_arcs_given; /* and their arcs (model_adopt_link_arcs) */
};

#endif
