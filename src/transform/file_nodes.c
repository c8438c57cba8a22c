#include "file_nodes.h"

#include <stdlib.h>
#include <string.h>

#include "base/background.h"
#include "base/util.h"

/* How far ahead the walk fetches the children it will group: a node's
 * children are scattered over the tree. */
#define FETCH_AHEAD 16

/* What the walk keeps of a src node.  The nodes that become one node
 * of `out` are a group, named by one of them (its first): the group's
 * members are listed from that one through `next`, and its node made,
 * and its members' children grouped, when the walk first meets one of
 * them.  Most groups are one node, whose own entry holds all. */
struct member {
	uint32_t group; /* the node that names its group */
	uint32_t next;  /* the next member of that group, NO_ID: the last */
	uint32_t node;  /* of the group it names: NO_ID until made */
};

struct file_groups {
	const struct model *src;
	const uint32_t *fmap;
	struct member *members; /* per src node */
	/* Per frame of `out`: the group whose children were last grouped
	 * with that frame, and the group they made; all of a group's
	 * children are grouped together, so only the last one counts. */
	uint32_t *owner, *child;
};

/* Node v, of `file`, joins the group of that file among the children
 * of group `parent`, or names it if it is the first. */
static void join_child(struct file_groups *fg, uint32_t parent, uint32_t file, uint32_t v)
{
	struct member *m = &fg->members[v];
	if (fg->owner[file] == parent) {
		m->group = fg->child[file];
		m->next = fg->members[m->group].next;
		fg->members[m->group].next = v;
	} else {
		*m = (struct member){ .group = v, .next = NO_ID, .node = NO_ID };
		fg->owner[file] = parent;
		fg->child[file] = v;
	}
}

/* The children of every member of group g, of file `file`: those of the
 * same file are members too, met by this walk after the one they are
 * under; the others join their files' groups under g. */
static void group_children(struct file_groups *fg, uint32_t g, uint32_t file)
{
	const struct model *src = fg->src;
	for (uint32_t m = g; m != NO_ID; m = fg->members[m].next) {
		const struct node *p = &src->nodes[m];
		for (uint32_t i = p->child_start; i < p->child_end; i++) {
			uint32_t c = src->child_ids[i], f = fg->fmap[src->nodes[c].frame];
			struct member *child = &fg->members[c];
			if (f == file) {
				child->group = g;
				child->next = fg->members[m].next;
				fg->members[m].next = c;
			} else {
				join_child(fg, g, f, c);
			}
		}
	}
}

/* The children of the node the walk meets `ahead` steps on, fetched. */
static void fetch_children(const struct file_groups *fg, size_t ahead)
{
	const struct model *src = fg->src;
	if (ahead >= src->nnodes)
		return;
	const struct node *p = &src->nodes[node_parents_first(src, ahead)];
	for (uint32_t i = p->child_start; i < p->child_end; i++) {
		__builtin_prefetch(&src->nodes[src->child_ids[i]]);
		__builtin_prefetch(&fg->members[src->child_ids[i]]);
	}
}

uint32_t *file_nodes(const struct model *src, struct model *out, const uint32_t *fmap)
{
	size_t n = src->nnodes;
	struct file_groups fg = {
		.src = src,
		.fmap = fmap,
		.members = xmalloc((n + 1) * sizeof(struct member)),
		.owner = xmalloc((out->nframes + 1) * sizeof(uint32_t)),
		.child = xmalloc((out->nframes + 1) * sizeof(uint32_t)),
	};
	memset(fg.owner, 0xff, (out->nframes + 1) * sizeof(uint32_t)); /* NO_ID */
	/* The roots, first in node_order, are children of a group of none
	 * (n: no node's). */
	for (size_t k = 0; k < n && src->nodes[src->node_order[k]].parent == NO_ID; k++) {
		uint32_t v = src->node_order[k];
		join_child(&fg, (uint32_t)n, fmap[src->nodes[v].frame], v);
	}
	uint32_t *map = xmalloc((n + 1) * sizeof(uint32_t));
	for (size_t k = 0; k < n; k++) {
		if (!background_pause_in_loop(k, PAUSE_EVERY_NODES))
			break; /* stopped: so is model_by_granularity */
		fetch_children(&fg, k + FETCH_AHEAD);
		uint32_t v = node_parents_first(src, k), g = fg.members[v].group;
		struct member *named = &fg.members[g];
		if (named->node == NO_ID) {
			uint32_t parent = src->nodes[v].parent, file = fmap[src->nodes[v].frame];
			named->node = model_add_node(out, file);
			if (parent != NO_ID)
				model_add_edge(out, map[parent], named->node);
			group_children(&fg, g, file);
		}
		map[v] = named->node;
	}
	FREE_ALL(fg.members, fg.owner, fg.child);
	return map;
}
