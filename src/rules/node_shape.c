#include "node_shape.h"

#include <stdlib.h>
#include <string.h>

#include "base/background.h"
#include "base/util.h"

static struct node_shape *shape_new(size_t nnodes)
{
	struct node_shape *s = xmalloc(sizeof(*s));
	atomic_init(&s->holders, 1);
	s->outermost = xcalloc(nnodes + 1, 1);
	s->arc_outermost = xcalloc(nnodes + 1, 1);
	return s;
}

struct node_shape *node_shape_hold(struct node_shape *s)
{
	if (s)
		atomic_fetch_add(&s->holders, 1);
	return s;
}

void node_shape_release(struct node_shape *s)
{
	if (!s || atomic_fetch_sub(&s->holders, 1) != 1)
		return;
	free(s->outermost);
	free(s->arc_outermost);
	free(s);
}

/* Keeps how often each frame and each arc is on the current path: a node
 * is outermost when its frame is not already there, and its arc from the
 * parent when that arc is not. */
struct node_shape *node_shape_walk(const struct model *m)
{
	const uint32_t *link_arc = m->link_arcs;
	uint32_t *frame_depth = xcalloc(m->nframes + 1, sizeof(uint32_t));
	uint32_t *arc_depth = xcalloc(m->narcs + 1, sizeof(uint32_t));
	struct { uint32_t node, arc, next; } *stack = NULL;
	size_t cap = 0;
	struct node_shape *s = shape_new(m->nnodes);

	for (size_t root = 0; root < m->nnodes; root++) {
		if (m->nodes[root].parent != NO_ID)
			continue;
		size_t sp = 0;
		uint32_t v = (uint32_t)root, a = NO_ID;
		for (;;) {
			const struct node *n = &m->nodes[v];
			/* Its first children's nodes, all over the array, fetched
			 * while the first ones are walked (a node's lines come
			 * after its calls, far apart). */
			for (uint32_t i = n->child_start; i < n->child_end && i < n->child_start + 4; i++)
				__builtin_prefetch(&m->nodes[m->child_ids[i]]);
			background_pause_in_loop(v, PAUSE_EVERY_NODES); /* each id once */
			s->outermost[v] = frame_depth[n->frame]++ == 0;
			s->arc_outermost[v] = a != NO_ID && arc_depth[a]++ == 0;
			GROW(stack, cap, sp + 1);
			stack[sp].node = v;
			stack[sp].arc = a;
			stack[sp++].next = n->child_start;
			v = NO_ID;
			while (sp && v == NO_ID) {
				uint32_t p = stack[sp - 1].node;
				const struct node *pn = &m->nodes[p];
				if (stack[sp - 1].next < pn->child_end) {
					uint32_t i = stack[sp - 1].next++;
					v = m->child_ids[i];
					a = link_arc[i];
					break;
				}
				frame_depth[pn->frame]--;
				if (stack[sp - 1].arc != NO_ID)
					arc_depth[stack[sp - 1].arc]--;
				sp--;
			}
			if (v == NO_ID)
				break;
		}
	}
	free(stack);
	free(arc_depth);
	free(frame_depth);
	return s;
}

/* Node v of m is node v of src, with its frame and parent, for every
 * node of src, and m's others are leaves under those. */
static bool extends_by_leaves(const struct model *m, const struct model *src)
{
	size_t n = src->nnodes;
	if (m->nnodes < n)
		return false;
	for (size_t v = 0; v < n; v++)
		if (m->nodes[v].frame != src->nodes[v].frame ||
		    m->nodes[v].parent != src->nodes[v].parent)
			return false;
	for (size_t w = n; w < m->nnodes; w++)
		if (m->nodes[w].parent >= n || m->nodes[w].child_start != m->nodes[w].child_end)
			return false;
	return true;
}

/* Climbs from src's node u to its root: is frame f on the way, and is a
 * link on it of the arc from u's frame to f (a link's arc is its pair of
 * frames)?  Each node climbed counts in *steps. */
static void climb(const struct model *src, uint32_t u, uint32_t f, bool *frame_on, bool *arc_on,
		  size_t *steps)
{
	uint32_t caller = src->nodes[u].frame;
	for (; u != NO_ID && !*arc_on; u = src->nodes[u].parent, ++*steps) {
		const struct node *x = &src->nodes[u];
		if (x->frame != f)
			continue;
		*frame_on = true;
		*arc_on = x->parent != NO_ID && src->nodes[x->parent].frame == caller;
	}
}

struct node_shape *node_shape_extend(const struct model *m, const struct model *src,
				     const struct node_shape *from)
{
	if (!from || !extends_by_leaves(m, src))
		return NULL;
	size_t n = src->nnodes, steps = 0;
	struct node_shape *s = shape_new(m->nnodes);
	memcpy(s->outermost, from->outermost, n);
	memcpy(s->arc_outermost, from->arc_outermost, n);
	for (size_t w = n; w < m->nnodes; w++) {
		const struct node *leaf = &m->nodes[w];
		bool frame_on = false, arc_on = false;
		/* The kept nodes' frames are src's: a new one is on no path. */
		if (leaf->frame < src->nframes)
			climb(src, leaf->parent, leaf->frame, &frame_on, &arc_on, &steps);
		/* Deep paths climbed often: a walk is the cheaper. */
		if (steps > m->nnodes) {
			node_shape_release(s);
			return NULL;
		}
		s->outermost[w] = !frame_on;
		s->arc_outermost[w] = !arc_on;
	}
	return s;
}
