#include "file_nodes.h"

#include <stdlib.h>
#include <string.h>

#include "base/util.h"

/* Groups of src's nodes, each to be one node of `out`.  A group's
 * members are a list through `next`; its children are grouped when the
 * walk first meets one of its members, and its node made then. */
struct file_groups {
	const struct model *src;
	/* Per src node: its file, out's frame, read in one pass in id order
	 * rather than node by node across the tree. */
	uint32_t *file;
	/* Per src node: its group until the walk meets it, then out's node
	 * (the map returned). */
	uint32_t *map;
	uint32_t *next;  /* per src node: the next member of its group */
	uint32_t *first; /* per group: its members' list */
	uint32_t *node;  /* per group: out's node, NO_ID until made */
	uint32_t count;
	/* Per frame of `out`: the group whose children were last grouped
	 * with that frame, and the group they made; all of a group's
	 * children are grouped together, so only the last one counts. */
	uint32_t *owner, *child;
};

/* Node v, of file `file`, joins the group of that file among the
 * children of group `parent`, made if it is the first. */
static void join_child(struct file_groups *fg, uint32_t parent, uint32_t file, uint32_t v)
{
	uint32_t g;
	if (fg->owner[file] == parent) {
		g = fg->child[file];
		fg->next[v] = fg->first[g];
	} else {
		g = fg->count++;
		fg->node[g] = NO_ID;
		fg->next[v] = NO_ID;
		fg->owner[file] = parent;
		fg->child[file] = g;
	}
	fg->first[g] = v;
	fg->map[v] = g;
}

/* The children of every member of group g, of file `file`: those of the
 * same file are members too, met by this walk after the one they are
 * under; the others join their files' groups under g. */
static void group_children(struct file_groups *fg, uint32_t g, uint32_t file)
{
	const struct model *src = fg->src;
	for (uint32_t m = fg->first[g]; m != NO_ID; m = fg->next[m]) {
		const struct node *p = &src->nodes[m];
		for (uint32_t i = p->child_start; i < p->child_end; i++) {
			uint32_t c = src->child_ids[i], f = fg->file[c];
			if (f == file) {
				fg->next[c] = fg->next[m];
				fg->next[m] = c;
				fg->map[c] = g;
			} else {
				join_child(fg, g, f, c);
			}
		}
	}
}

uint32_t *file_nodes(const struct model *src, struct model *out, const uint32_t *fmap)
{
	size_t n = src->nnodes;
	struct file_groups fg = {
		.src = src,
		.file = xmalloc((n + 1) * sizeof(uint32_t)),
		.map = xmalloc((n + 1) * sizeof(uint32_t)),
		.next = xmalloc((n + 1) * sizeof(uint32_t)),
		.first = xmalloc((n + 1) * sizeof(uint32_t)),
		.node = xmalloc((n + 1) * sizeof(uint32_t)),
		.owner = xmalloc((out->nframes + 1) * sizeof(uint32_t)),
		.child = xmalloc((out->nframes + 1) * sizeof(uint32_t)),
	};
	memset(fg.owner, 0xff, (out->nframes + 1) * sizeof(uint32_t)); /* NO_ID */
	for (size_t v = 0; v < n; v++)
		fg.file[v] = fmap[src->nodes[v].frame];
	/* The roots, first in node_order, are children of a group of none
	 * (numbered n: each group has a member of its own, so none is). */
	for (size_t k = 0; k < n && src->nodes[src->node_order[k]].parent == NO_ID; k++) {
		uint32_t v = src->node_order[k];
		join_child(&fg, (uint32_t)n, fg.file[v], v);
	}
	for (size_t k = 0; k < n; k++) {
		uint32_t v = node_parents_first(src, k), g = fg.map[v];
		if (fg.node[g] == NO_ID) {
			uint32_t file = fg.file[v], parent = src->nodes[v].parent;
			fg.node[g] = model_add_node(out, file);
			if (parent != NO_ID)
				model_add_edge(out, fg.map[parent], fg.node[g]);
			group_children(&fg, g, file);
		}
		fg.map[v] = fg.node[g];
	}
	FREE_ALL(fg.file, fg.next, fg.first, fg.node, fg.owner, fg.child);
	return fg.map;
}
