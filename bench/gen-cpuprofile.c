/* Writes a large, realistic V8 .cpuprofile for the benchmarks.
 *
 *   gen-cpuprofile [SIZE_MB] > big.cpuprofile      (default 200)
 *
 * A made-up program: thousands of functions in hundreds of files, each
 * calling a few others (hot paths favoured, some recursion, shared
 * helpers called from everywhere).  Samples are random walks down that
 * program (main is function 3), merged into V8's node tree; time deltas jitter around 100 µs
 * and a few are negative, as V8 writes them.  Deterministic: the same
 * size gives the same file. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NFUNCS 30000
#define NFILES 800
#define CALLEES 6
#define MAX_DEPTH 64
#define NODE_LIMIT 450000 /* "hundreds of thousands of nodes" */

static uint64_t rng_state = 0x9e3779b97f4a7c15ULL;

static uint64_t rnd(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state;
}

static uint32_t below(uint32_t n)
{
	return (uint32_t)(rnd() % n);
}

/* Small numbers far more often than large ones. */
static uint32_t skewed(uint32_t n)
{
	uint32_t a = below(n), b = below(n);
	return a < b ? a : b;
}

struct func {
	uint32_t file, line, column;
	uint32_t callees[CALLEES];
};

struct node {
	uint32_t func, parent, first_child, next_sibling, hits;
};

static struct func funcs[NFUNCS];
static struct node *nodes;
static uint32_t nnodes, nodes_cap;

static uint32_t new_node(uint32_t func, uint32_t parent)
{
	if (nnodes == nodes_cap) {
		nodes_cap = nodes_cap ? nodes_cap * 2 : 1 << 16;
		nodes = realloc(nodes, nodes_cap * sizeof(*nodes));
		if (!nodes)
			exit(1);
	}
	nodes[nnodes] = (struct node){ func, parent, UINT32_MAX, UINT32_MAX, 0 };
	if (parent != UINT32_MAX) {
		nodes[nnodes].next_sibling = nodes[parent].first_child;
		nodes[parent].first_child = nnodes;
	}
	return nnodes++;
}

/* The node for func under parent; once the tree is full, an existing
 * child instead (UINT32_MAX when there is none: the walk ends). */
static uint32_t child_for(uint32_t parent, uint32_t func)
{
	uint32_t any = UINT32_MAX;
	for (uint32_t c = nodes[parent].first_child; c != UINT32_MAX;
	     c = nodes[c].next_sibling) {
		if (nodes[c].func == func)
			return c;
		any = c;
	}
	return nnodes < NODE_LIMIT ? new_node(func, parent) : any;
}

/* A layered program: each function calls functions further down (higher
 * ids), shared utilities at the bottom are called from everywhere, a few
 * functions recurse, and small clusters of four call each other (mutual
 * recursion, as parsers and tree walkers do). */
#define UTILITIES 300

static uint32_t pick_callee(uint32_t f)
{
	uint32_t r = below(100);
	uint32_t first_utility = NFUNCS - UTILITIES;
	if (r < 2)
		return f;
	if (r < 3)
		return (f & ~3u) + below(4);
	if (r < 15 || f + 1 >= first_utility)
		return first_utility + skewed(UTILITIES);
	uint32_t span = first_utility - f - 1;
	return f + 1 + skewed(span < 2000 ? span : 2000);
}

static void make_program(void)
{
	for (uint32_t f = 0; f < NFUNCS; f++) {
		funcs[f].file = skewed(NFILES);
		funcs[f].line = below(5000);
		funcs[f].column = below(80);
		for (int k = 0; k < CALLEES; k++) {
			uint32_t c = pick_callee(f);
			funcs[f].callees[k] = c < NFUNCS ? c : NFUNCS - 1;
		}
	}
}

/* One sample: walk down from main, stopping at a random depth. */
static uint32_t sample_leaf(uint32_t root, uint32_t main_node)
{
	uint32_t at = main_node, func = 3;
	uint32_t depth = 8 + skewed(MAX_DEPTH - 8);
	if (below(100) < 3)
		return child_for(root, 1); /* (garbage collector) */
	for (uint32_t d = 0; d < depth; d++) {
		func = funcs[func].callees[skewed(CALLEES)];
		uint32_t next = child_for(at, func);
		if (next == UINT32_MAX)
			break;
		at = next;
		func = nodes[at].func;
	}
	return at;
}

static void print_name(uint32_t f)
{
	static const char *const verbs[] = { "get", "set", "update", "render",
		"parse", "compute", "handle", "visit", "emit", "resolve" };
	static const char *const nouns[] = { "Node", "Value", "Request", "Token",
		"Frame", "Buffer", "State", "Child", "Module", "Promise" };
	if (f == 0)
		printf("(root)");
	else if (f == 1)
		printf("(garbage collector)");
	else if (f == 3)
		printf("main");
	else
		printf("%s%s%u", verbs[f % 10], nouns[(f / 10) % 10], f);
}

static void print_node(uint32_t id, int last)
{
	const struct node *n = &nodes[id];
	const struct func *f = &funcs[n->func];
	printf("{\"id\":%u,\"callFrame\":{\"functionName\":\"", id + 1);
	print_name(n->func);
	if (n->func < 2)
		printf("\",\"scriptId\":\"0\",\"url\":\"\",\"lineNumber\":-1,\"columnNumber\":-1},");
	else
		printf("\",\"scriptId\":\"%u\",\"url\":\"file:///home/dev/app/node_modules/package%u/lib/module%u.js\",\"lineNumber\":%u,\"columnNumber\":%u},",
		       f->file + 10, f->file / 8, f->file, f->line, f->column);
	printf("\"hitCount\":%u", n->hits);
	if (n->first_child != UINT32_MAX) {
		printf(",\"children\":[");
		for (uint32_t c = n->first_child; c != UINT32_MAX; c = nodes[c].next_sibling)
			printf("%u%s", c + 1, nodes[c].next_sibling != UINT32_MAX ? "," : "");
		printf("]");
	}
	if (n->hits)
		printf(",\"positionTicks\":[{\"line\":%u,\"ticks\":%u}]", f->line + 2, n->hits);
	printf("}%s", last ? "" : ",\n");
}

int main(int argc, char **argv)
{
	double size_mb = argc > 1 ? atof(argv[1]) : 200;
	/* About 260 bytes a node and 11.5 a sample (its id and delta). */
	double sample_bytes = size_mb * 1e6 - NODE_LIMIT * 260.0;
	uint64_t nsamples = sample_bytes > 1.15e6 ? (uint64_t)(sample_bytes / 11.5) : 100000;
	uint32_t *samples = malloc(nsamples * sizeof(uint32_t));
	if (!samples)
		return 1;
	make_program();
	uint32_t root = new_node(0, UINT32_MAX);
	uint32_t main_node = new_node(3, root);
	for (uint64_t i = 0; i < nsamples; i++) {
		samples[i] = sample_leaf(root, main_node);
		nodes[samples[i]].hits++;
	}
	uint64_t start = 8692096616;
	printf("{\"nodes\":[");
	for (uint32_t id = 0; id < nnodes; id++)
		print_node(id, id + 1 == nnodes);
	printf("],\"startTime\":%llu,\"endTime\":%llu,\"samples\":[",
	       (unsigned long long)start,
	       (unsigned long long)(start + nsamples * 100 + 50));
	for (uint64_t i = 0; i < nsamples; i++)
		printf("%u%s", samples[i] + 1, i + 1 < nsamples ? "," : "");
	printf("],\"timeDeltas\":[");
	for (uint64_t i = 0; i < nsamples; i++) {
		int delta = i == 0 ? 40 : 100 + (int)below(41) - 20;
		if (i % 100000 == 7)
			delta = -30; /* V8 does this now and then */
		else if (i % 100000 == 8)
			delta = 230;
		printf("%d%s", delta, i + 1 < nsamples ? "," : "");
	}
	printf("]}\n");
	fprintf(stderr, "gen-cpuprofile: %u nodes, %llu samples\n", nnodes,
		(unsigned long long)nsamples);
	free(samples);
	free(nodes);
	return 0;
}
