/* The cycles of an XS function graph removed as XS's file profiler
 * removes them before it saves a .cpuprofile (xsProfile.c,
 * fxRemoveProfilerCycle; time-rules.md, "divided"): a depth-first walk
 * from the root over each function's callees, in the order given, drops
 * every edge to a function still on the walk's stack (a self-call
 * included); functions the walk does not reach are walked after, in node
 * order.  Moddable's xsbug-log writes its graph with the cycles in. */
#ifndef WPROF_XS_CYCLES_H
#define WPROF_XS_CYCLES_H

#include <stddef.h>
#include <stdint.h>

/* Edge e runs parents[e] -> children[e] (nodes 0 .. nnodes-1, the root
 * 0).  Each edge that closes a cycle gets NO_ID as its parent; returns
 * how many did. */
size_t xs_remove_cycles(uint32_t *parents, const uint32_t *children, size_t nedges,
			size_t nnodes);

#endif
