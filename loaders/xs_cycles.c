/* XS function graphs without their cycles: see xs_cycles.h. */
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "xs_cycles.h"

enum walk_state { UNSEEN, ON_STACK, DONE };

/* A node's callees as edge indexes, in the order given: out[start[v] ..
 * start[v + 1]). */
struct callees {
	size_t *start;
	size_t *out;
};

static struct callees list_callees(const uint32_t *parents, size_t nedges, size_t nnodes)
{
	struct callees c = { xcalloc(nnodes + 2, sizeof(size_t)),
			     xmalloc((nedges + 1) * sizeof(size_t)) };
	for (size_t e = 0; e < nedges; e++)
		c.start[parents[e] + 2]++;
	for (size_t v = 0; v < nnodes; v++)
		c.start[v + 2] += c.start[v + 1];
	for (size_t e = 0; e < nedges; e++)
		c.out[c.start[parents[e] + 1]++] = e;
	return c;
}

struct walk {
	uint32_t *parents;
	const uint32_t *children;
	struct callees c;
	uint8_t *state;
	uint32_t *stack; /* nodes on the walk */
	size_t *next;    /* per node on the walk: its next callee */
	size_t removed;
};

/* Depth first without recursion: a graph can be deeper than the C
 * stack. */
static void walk_from(struct walk *w, uint32_t root)
{
	size_t sp = 0;
	w->stack[sp++] = root;
	w->state[root] = ON_STACK;
	w->next[root] = w->c.start[root];
	while (sp) {
		uint32_t v = w->stack[sp - 1];
		if (w->next[v] == w->c.start[v + 1]) {
			w->state[v] = DONE;
			sp--;
			continue;
		}
		size_t e = w->c.out[w->next[v]++];
		uint32_t callee = w->children[e];
		if (w->state[callee] == ON_STACK) {
			w->parents[e] = NO_ID;
			w->removed++;
		} else if (w->state[callee] == UNSEEN) {
			w->state[callee] = ON_STACK;
			w->next[callee] = w->c.start[callee];
			w->stack[sp++] = callee;
		}
	}
}

size_t xs_remove_cycles(uint32_t *parents, const uint32_t *children, size_t nedges,
			size_t nnodes)
{
	struct walk w = {
		.parents = parents,
		.children = children,
		.c = list_callees(parents, nedges, nnodes),
		.state = xcalloc(nnodes + 1, 1),
		.stack = xmalloc((nnodes + 1) * sizeof(uint32_t)),
		.next = xmalloc((nnodes + 1) * sizeof(size_t)),
	};
	for (uint32_t v = 0; v < nnodes; v++)
		if (w.state[v] == UNSEEN)
			walk_from(&w, v);
	free(w.c.start);
	free(w.c.out);
	free(w.state);
	free(w.stack);
	free(w.next);
	return w.removed;
}
