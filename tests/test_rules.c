/* The rules on small hand-made profiles whose numbers are worked out by
 * hand from time-rules.md, and the fast `divided` pass against the
 * definition's own recursion on random graphs. */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tests/check.h"
#include "tests/random_model.h"
#include "loaders/loaders.h"
#include "base/background.h"
#include "rules/rules.h"
#include "base/util.h"

/* ---- the definition, transcribed ------------------------------------ */

#define MAX_NAIVE 96

struct naive {
	const struct model *m;
	double cutoff;
	double *total, *arc_total;
	/* callees[f]: f's callees in the order the data first shows them */
	uint32_t callees[MAX_NAIVE][MAX_NAIVE], ncallees[MAX_NAIVE];
	uint8_t state[MAX_NAIVE]; /* 0 not walked, 1 on the walk, 2 done */
	bool kept[MAX_NAIVE][MAX_NAIVE]; /* [caller][callee] */
	/* callers(f) once the cycles are gone, and the arc from each */
	uint32_t callers[MAX_NAIVE][MAX_NAIVE], caller_arcs[MAX_NAIVE][MAX_NAIVE];
	uint32_t ncallers[MAX_NAIVE];
	/* shares cut off: any, and ones that had left their function */
	size_t cuts, cuts_above;
};

static void see_callee(struct naive *n, uint32_t caller, uint32_t callee)
{
	for (uint32_t i = 0; i < n->ncallees[caller]; i++)
		if (n->callees[caller][i] == callee)
			return;
	n->callees[caller][n->ncallees[caller]++] = callee;
}

/* fxRemoveProfilerCycle: an arc to a function on the walk is dropped. */
static void remove_cycle(struct naive *n, uint32_t f)
{
	n->state[f] = 1;
	for (uint32_t i = 0; i < n->ncallees[f]; i++) {
		uint32_t c = n->callees[f][i];
		if (n->state[c] == 1)
			continue;
		n->kept[f][c] = true;
		if (n->state[c] == 0)
			remove_cycle(n, c);
	}
	n->state[f] = 2;
}

static uint32_t arc_of(const struct model *m, uint32_t caller, uint32_t callee)
{
	for (uint32_t a = 0; a < m->narcs; a++)
		if (m->arcs[a].caller == caller && m->arcs[a].callee == callee)
			return a;
	return NO_ID;
}

static void list_callers(struct naive *n)
{
	for (uint32_t f = 0; f < n->m->nframes; f++)
		for (uint32_t c = 0; c < n->m->nframes; c++)
			if (n->kept[c][f]) {
				n->caller_arcs[f][n->ncallers[f]] = arc_of(n->m, c, f);
				n->callers[f][n->ncallers[f]++] = c;
			}
}

static void propagate(struct naive *n, uint32_t f, double d, bool left)
{
	n->total[f] += d;
	uint32_t k = n->ncallers[f];
	if (k > 0 && d / k >= n->cutoff) {
		for (uint32_t i = 0; i < k; i++) {
			n->arc_total[n->caller_arcs[f][i]] += d / k;
			propagate(n, n->callers[f][i], d / k, true);
		}
	} else if (k > 0) {
		n->cuts++;
		n->cuts_above += left;
	}
}

/* `root` first, then the others by id (their order of appearance). */
static void naive_divided(struct naive *n, uint32_t root, const double *self,
			  double *total, double *arc_total)
{
	const struct model *m = n->m;
	n->total = total;
	n->arc_total = arc_total;
	memset(total, 0, m->nframes * sizeof(double));
	memset(arc_total, 0, m->narcs * sizeof(double));
	remove_cycle(n, root);
	for (uint32_t f = 0; f < m->nframes; f++)
		if (!n->state[f])
			remove_cycle(n, f);
	list_callers(n);
	for (uint32_t h = 0; h < m->nframes; h++)
		if (self[h] > 0)
			propagate(n, h, self[h], false);
}

/* Equal to `within` relative (both 0 too). */
static bool close_within(double got, double want, double within)
{
	double scale = fabs(want) > fabs(got) ? fabs(want) : fabs(got);
	return fabs(got - want) <= within * scale;
}

static void compare_within(struct naive *n, uint32_t root, const double *self,
			   double within)
{
	const struct model *m = n->m;
	uint32_t nf = (uint32_t)m->nframes;
	double *want = xcalloc(nf, sizeof(double));
	double *got = xcalloc(nf, sizeof(double));
	double *want_arcs = xcalloc(m->narcs + 1, sizeof(double));
	double *got_arcs = xcalloc(m->narcs + 1, sizeof(double));
	double *arc_self = xcalloc(m->narcs + 1, sizeof(double));
	naive_divided(n, root, self, want, want_arcs);
	divided_compute(m, self, n->cutoff, got, got_arcs, arc_self, NULL);
	for (uint32_t f = 0; f < nf; f++)
		CHECK_MSG(close_within(got[f], want[f], within),
			  "f%u: got %.17g, want %.17g", f, got[f], want[f]);
	for (uint32_t a = 0; a < m->narcs; a++)
		CHECK_MSG(close_within(got_arcs[a], want_arcs[a], within),
			  "arc f%u -> f%u: got %.17g, want %.17g", m->arcs[a].caller,
			  m->arcs[a].callee, got_arcs[a], want_arcs[a]);
	free(want);
	free(got);
	free(want_arcs);
	free(got_arcs);
	free(arc_self);
}

static void compare_with_naive(struct naive *n, uint32_t root, const double *self)
{
	compare_within(n, root, self, 1e-6);
}

/* Self values around the cutoff, so that cuts happen everywhere. */
static double random_self(void)
{
	uint32_t r = next_random(4);
	return r == 0 ? 0 : r == 1 ? next_random(40) / 8.0 : next_random(100000) / 7.0;
}

/* The model, finished, and the definition's view of it: no data says
 * which callee came first, so callees are walked by id. */
static struct naive *naive_for_arcs(struct model *m)
{
	uint32_t cycle_node, nf = (uint32_t)m->nframes;
	model_finish(m, &cycle_node);
	struct naive *n = xcalloc(1, sizeof(*n));
	n->m = m;
	n->cutoff = 1.0;
	for (uint32_t caller = 0; caller < nf; caller++)
		for (uint32_t callee = 0; callee < nf; callee++)
			if (arc_of(m, caller, callee) != NO_ID)
				see_callee(n, caller, callee);
	return n;
}

/* Call-arc data: cycles, self-loops, shared callers; no data says which
 * callee came first, so callees are walked by id. */
static void check_random_arc_graphs(void)
{
	for (int round = 0; round < 300; round++) {
		struct model m;
		model_init(&m, "test");
		uint32_t nf = 3 + next_random(18);
		add_frames(&m, nf);
		uint32_t narcs = next_random(nf * 3);
		for (uint32_t i = 0; i < narcs; i++) {
			uint32_t callee = next_random(nf);
			/* Mostly downward (callers have lower ids), some back. */
			uint32_t caller = next_random(4) ? next_random(callee + 1)
							 : next_random(nf);
			model_add_arc(&m, caller, callee, 0, 0);
		}
		struct naive *n = naive_for_arcs(&m);
		double *self = xcalloc(nf, sizeof(double));
		for (uint32_t f = 0; f < nf; f++)
			self[f] = random_self();
		compare_with_naive(n, 0, self);
		free(self);
		free(n);
		model_free(&m);
	}
}

/* Stream data: random stacks under f0 (the host) with direct and mutual
 * recursion; callees are walked in sample order, each stack leaf up. */
static void check_random_streams(void)
{
	for (int round = 0; round < 300; round++) {
		struct model m;
		model_init(&m, "xsbug");
		uint32_t nf = 3 + next_random(18);
		add_frames(&m, nf);
		struct naive *n = xcalloc(1, sizeof(*n));
		n->m = &m;
		n->cutoff = 1.0;
		uint32_t nsamples = 1 + next_random(30);
		m.first_leaves = xmalloc(nsamples * sizeof(uint32_t));
		for (uint32_t s = 0; s < nsamples; s++) {
			uint32_t stack[8], depth = 1 + next_random(7);
			for (uint32_t i = 0; i + 1 < depth; i++)
				stack[i] = 1 + next_random(nf - 1);
			stack[depth - 1] = 0;
			for (uint32_t i = 0; i + 1 < depth; i++)
				see_callee(n, stack[i + 1], stack[i]);
			uint32_t leaf = model_add_stack(&m, stack, depth);
			m.first_leaves[m.nfirst_leaves++] = leaf;
			model_add_sample(&m, leaf, random_self());
		}
		uint32_t cycle_node;
		model_finish(&m, &cycle_node);
		double *self = xcalloc(nf, sizeof(double));
		for (uint32_t v = 0; v < m.nnodes; v++)
			self[m.nodes[v].frame] += node_value(&m, v, 0);
		compare_with_naive(n, 0, self);
		free(self);
		free(n);
		model_free(&m);
	}
}

/* Call-arc graphs with a large fan-in, acyclic (every arc down, to a
 * larger id) and cyclic (some arcs up, and self-calls): shares are split
 * many ways over several levels, so the cutoff stops them high and low.
 * Self times are mostly whole microseconds, some in eighths. */
static void check_fan_in(bool cyclic, size_t *cuts, size_t *cuts_above)
{
	for (int round = 0; round < 60; round++) {
		struct model m;
		model_init(&m, "test");
		uint32_t nf = 30 + next_random(MAX_NAIVE - 30);
		add_frames(&m, nf);
		for (uint32_t f = 1; f < nf; f++) {
			uint32_t fan_in = 1 + next_random(f < 24 ? f : 24);
			for (uint32_t i = 0; i < fan_in; i++)
				model_add_arc(&m, next_random(f), f, 0, 0);
			if (cyclic && next_random(3) == 0)
				model_add_arc(&m, f + next_random(nf - f), f, 0, 0);
		}
		struct naive *n = naive_for_arcs(&m);
		double *self = xcalloc(nf, sizeof(double));
		for (uint32_t f = 0; f < nf; f++) {
			uint32_t r = next_random(8);
			self[f] = r < 3 ? 0 : r < 7 ? next_random(3000) : next_random(800) / 8.0;
		}
		compare_within(n, 0, self, 1e-9);
		*cuts += n->cuts;
		*cuts_above += n->cuts_above;
		free(self);
		free(n);
		model_free(&m);
	}
}

static void check_fan_in_graphs(void)
{
	size_t cuts = 0, cuts_above = 0;
	check_fan_in(false, &cuts, &cuts_above);
	check_fan_in(true, &cuts, &cuts_above);
	/* The test means something only if shares were cut, and not only
	 * where they started. */
	CHECK(cuts_above > 1000);
	CHECK(cuts > cuts_above);
}

/* Where the cutoff matters, by hand (1 µs):
 *
 *   main -> x, main -> y, main -> c, x -> a, y -> a, x -> b,
 *   a -> leaf, b -> leaf, c -> leaf, a -> w, b -> w
 *   self: leaf 5, w 4, a 3, the others 0.
 *
 *   leaf's 5: 5/3 each to a, b, c.  At a (2 callers) 5/6 < 1: cut.  b
 *     gives 5/3 to x and on to main; c gives 5/3 to main.
 *   w's 4: 2 each to a and b.  At a 2/2 = 1, not below the cutoff: 1 to
 *     x and y and on to main; b gives 2 to x and on to main.
 *   a's 3: 1.5 to x and y, and on to main.
 *
 *   leaf 5, w 4, a 5/3 + 2 + 3 = 20/3, b 5/3 + 2 = 11/3, c 5/3,
 *   x 5/3 + 1 + 2 + 1.5 = 37/6, y 1 + 1.5 = 5/2,
 *   main 5/3 + 5/3 + 1 + 1 + 2 + 1.5 + 1.5 = 31/3: the profile's 12 less
 *   the 5/3 cut at a.
 *   Arcs: x -> a 1 + 1.5 = 5/2 (the 5/6 of leaf's share never leave a),
 *   b -> leaf 5/3, main -> x 37/6. */
static void check_cutoff_by_hand(void)
{
	enum { MAIN, X, Y, A, B, C, LEAF, W, N };
	static const uint32_t arcs[][2] = {
		{ MAIN, X }, { MAIN, Y }, { MAIN, C }, { X, A }, { Y, A }, { X, B },
		{ A, LEAF }, { B, LEAF }, { C, LEAF }, { A, W }, { B, W },
	};
	struct model m;
	model_init(&m, "test");
	add_frames(&m, N);
	for (size_t i = 0; i < ARRAY_LEN(arcs); i++)
		model_add_arc(&m, arcs[i][0], arcs[i][1], 0, 0);
	uint32_t cycle_node;
	model_finish(&m, &cycle_node);
	double self[N] = { [LEAF] = 5, [W] = 4, [A] = 3 };
	double total[N], arc_self[ARRAY_LEN(arcs)], arc_total[ARRAY_LEN(arcs)];
	CHECK(divided_compute(&m, self, 1.0, total, arc_total, arc_self, NULL));
	static const double want[N] = {
		[MAIN] = 31 / 3.0, [X] = 37 / 6.0, [Y] = 2.5, [A] = 20 / 3.0,
		[B] = 11 / 3.0, [C] = 5 / 3.0, [LEAF] = 5, [W] = 4,
	};
	for (uint32_t f = 0; f < N; f++)
		CHECK_MSG(close_within(total[f], want[f], 1e-12),
			  "f%u: got %.17g, want %.17g", f, total[f], want[f]);
	CHECK(close_within(arc_total[arc_of(&m, X, A)], 2.5, 1e-12));
	CHECK(close_within(arc_total[arc_of(&m, B, LEAF)], 5 / 3.0, 1e-12));
	CHECK(close_within(arc_total[arc_of(&m, MAIN, X)], 37 / 6.0, 1e-12));
	/* a's own 3 leaves it in halves; leaf's 5 in thirds. */
	CHECK(close_within(arc_self[arc_of(&m, X, A)], 1.5, 1e-12));
	CHECK(close_within(arc_self[arc_of(&m, C, LEAF)], 5 / 3.0, 1e-12));
	model_free(&m);
}

/* ---- hand-made profiles ------------------------------------------------ */

struct expected_row {
	const char *name;
	double self, exact, additive, divided; /* NAN: n/a */
};

static uint32_t frame_named(const struct model *m, const char *name)
{
	for (uint32_t f = 0; f < m->nframes; f++)
		if (!strcmp(model_str(m, m->frames[f].name), name))
			return f;
	return NO_ID;
}

static void check_profile(const char *what, const char *json,
			  const struct expected_row *rows, size_t nrows)
{
	struct model m;
	struct load_error err;
	struct load_options opt = { .session = -1 };
	bool ok = load_memory(json, strlen(json), what, &opt, &m, &err);
	CHECK_MSG(ok, "%s: %s", what, err.message);
	if (!ok)
		return;
	struct rules rules;
	rules_init(&rules, &m);
	const struct totals *t[3] = {
		rules_totals(&rules, RULE_EXACT, 0),
		rules_totals(&rules, RULE_ADDITIVE, 0),
		rules_totals(&rules, RULE_DIVIDED, 0),
	};
	for (size_t i = 0; i < nrows; i++) {
		uint32_t f = frame_named(&m, rows[i].name);
		CHECK_MSG(f != NO_ID, "%s: no function %s", what, rows[i].name);
		if (f == NO_ID)
			continue;
		char label[128];
		snprintf(label, sizeof(label), "%s: %s", what, rows[i].name);
		CHECK_CLOSE(t[0]->self[f], rows[i].self, label);
		CHECK_CLOSE(t[0]->total ? t[0]->total[f] : NAN, rows[i].exact, label);
		CHECK_CLOSE(t[1]->total[f], rows[i].additive, label);
		CHECK_CLOSE(t[2]->total[f], rows[i].divided, label);
	}
	rules_free(&rules);
	model_free(&m);
}

#define NODE(id, name, line, kids) \
	"{\"id\":" #id ",\"callFrame\":{\"functionName\":\"" name "\",\"url\":\"t.js\"," \
	"\"lineNumber\":" #line ",\"columnNumber\":0},\"children\":[" kids "]}"

/* main > fib > fib > fib, samples 1 ms in each fib node and 1 ms in main:
 * exact counts each sample once, additive counts nested nodes again, and
 * divided drops the arc fib -> fib with the cycles (fib's callers: main). */
static void check_recursion(void)
{
	static const char json[] = "{\"nodes\":["
		NODE(1, "main", 0, "2") "," NODE(2, "fib", 1, "3") ","
		NODE(3, "fib", 1, "4") "," NODE(4, "fib", 1, "")
		"],\"startTime\":0,\"endTime\":4000,\"samples\":[1,2,3,4],"
		"\"timeDeltas\":[0,1000,1000,1000]}";
	/* fib self 3000; sub: node2 3000, node3 2000, node4 1000.
	 * divided: the walk from main reaches fib, whose callee fib is on the
	 * walk: that arc goes.  fib's 3000 all go to main; main = 1000 + 3000. */
	static const struct expected_row rows[] = {
		{ "main", 1000, 4000, 4000, 4000 },
		{ "fib", 3000, 3000, 6000, 3000 },
	};
	check_profile("recursion", json, rows, ARRAY_LEN(rows));
}

/* main > a > b > a > b (mutual recursion), 1 ms per node. */
static void check_mutual_recursion(void)
{
	static const char json[] = "{\"nodes\":["
		NODE(1, "main", 0, "2") "," NODE(2, "a", 1, "3") ","
		NODE(3, "b", 2, "4") "," NODE(4, "a", 1, "5") "," NODE(5, "b", 2, "")
		"],\"startTime\":0,\"endTime\":5000,\"samples\":[1,2,3,4,5],"
		"\"timeDeltas\":[0,1000,1000,1000,1000]}";
	/* sub: n1 5000, n2 4000, n3 3000, n4 2000, n5 1000.
	 * exact: a 4000 (outermost n2), b 3000 (n3).
	 * additive: a 4000+2000, b 3000+1000.
	 * divided: the walk goes main -> a -> b, and b's callee a is on the
	 * walk: the arc b -> a goes.  callers(a) = {main}, callers(b) = {a}.
	 *   b's 2000: b += 2000; 2000 -> a: a += 2000; 2000 -> main.
	 *   a's 2000: a += 2000; 2000 -> main.  main's 1000: main += 1000.
	 *   b = 2000, a = 4000, main = 1000 + 2000 + 2000 = 5000. */
	static const struct expected_row rows[] = {
		{ "main", 1000, 5000, 5000, 5000 },
		{ "a", 2000, 4000, 6000, 4000 },
		{ "b", 2000, 3000, 4000, 2000 },
	};
	check_profile("mutual recursion", json, rows, ARRAY_LEN(rows));
}

/* The mutual recursion above, its nodes written children first: node ids
 * that do not put parents first (model.parents_first false), so the
 * totals walk node_order; written parents first, they walk the ids.
 * The same numbers either way, those worked out above. */
static void check_parents_first(void)
{
	static const char reversed[] = "{\"nodes\":["
		NODE(5, "b", 2, "") "," NODE(4, "a", 1, "5") "," NODE(3, "b", 2, "4") ","
		NODE(2, "a", 1, "3") "," NODE(1, "main", 0, "2")
		"],\"startTime\":0,\"endTime\":5000,\"samples\":[1,2,3,4,5],"
		"\"timeDeltas\":[0,1000,1000,1000,1000]}";
	static const char in_order[] = "{\"nodes\":["
		NODE(1, "main", 0, "2") "," NODE(2, "a", 1, "3") ","
		NODE(3, "b", 2, "4") "," NODE(4, "a", 1, "5") "," NODE(5, "b", 2, "")
		"],\"startTime\":0,\"endTime\":5000,\"samples\":[1,2,3,4,5],"
		"\"timeDeltas\":[0,1000,1000,1000,1000]}";
	static const struct { const char *json; bool parents_first; } files[] = {
		{ reversed, false }, { in_order, true },
	};
	for (size_t i = 0; i < ARRAY_LEN(files); i++) {
		struct model m;
		struct load_error err;
		struct load_options opt = { .session = -1 };
		const char *json = files[i].json;
		CHECK(load_memory(json, strlen(json), "t", &opt, &m, &err));
		CHECK(m.parents_first == files[i].parents_first);
		struct rules rules;
		rules_init(&rules, &m);
		const double *sub = rules_node_totals(&rules, 0);
		uint32_t main_node = NO_ID;
		for (uint32_t v = 0; v < m.nnodes; v++)
			if (m.nodes[v].parent == NO_ID)
				main_node = v;
		CHECK(main_node != NO_ID && sub[main_node] == 5000);
		rules_free(&rules);
		model_free(&m);
	}
	static const struct expected_row rows[] = {
		{ "main", 1000, 5000, 5000, 5000 },
		{ "a", 2000, 4000, 6000, 4000 },
		{ "b", 2000, 3000, 4000, 2000 },
	};
	check_profile("children first", reversed, rows, ARRAY_LEN(rows));
}

/* A .cpuprofile's cycles go in node order, whatever the samples' order:
 * main lists a before b, so the walk is main, a, b and drops b -> a
 * although the first sample is main > b.  Samples: main > b 6 ms, then
 * main > a > b > a 4 ms (until endTime).
 *   callers(a) = {main}, callers(b) = {a, main}.
 *   divided: a's 4000 to main; b's 6000: 3000 to a (then main), 3000 to
 *   main.  a 7000, b 6000, main 10000.  (Sample order would walk main, b,
 *   a and give a 4000, b 8000.)
 *   exact: a 4000, b 10000; additive: a 4000 + 4000, b 4000 + 6000. */
static void check_node_order(void)
{
	static const char json[] = "{\"nodes\":["
		NODE(1, "main", 0, "2,4") "," NODE(2, "a", 1, "3") ","
		NODE(3, "b", 2, "5") "," NODE(4, "b", 2, "") "," NODE(5, "a", 1, "")
		"],\"startTime\":0,\"endTime\":10000,\"samples\":[4,5],"
		"\"timeDeltas\":[0,6000]}";
	static const struct expected_row rows[] = {
		{ "main", 0, 10000, 10000, 10000 },
		{ "a", 4000, 4000, 8000, 7000 },
		{ "b", 6000, 10000, 10000, 6000 },
	};
	check_profile("node order", json, rows, ARRAY_LEN(rows));
}

/* The worked example of time-rules.md: a DAG where leaf has two callers. */
static void check_dag(void)
{
	static const char json[] = "{\"nodes\":["
		NODE(1, "main", 0, "2,3") "," NODE(2, "a", 1, "4") ","
		NODE(3, "b", 2, "5") "," NODE(4, "leaf", 3, "") "," NODE(5, "leaf", 3, "")
		"],\"startTime\":0,\"endTime\":6000,\"samples\":[4,5,2],"
		"\"timeDeltas\":[0,3000,1000]}";
	static const struct expected_row rows[] = {
		{ "main", 0, 6000, 6000, 6000 },
		{ "a", 2000, 5000, 5000, 4000 },
		{ "b", 0, 1000, 1000, 2000 },
		{ "leaf", 4000, 4000, 4000, 4000 },
	};
	check_profile("worked example", json, rows, ARRAY_LEN(rows));
}

/* One sample lasts until endTime. */
static void check_one_sample(void)
{
	static const char json[] = "{\"nodes\":["
		NODE(1, "main", 0, "2") "," NODE(2, "work", 1, "")
		"],\"startTime\":100,\"endTime\":850,\"samples\":[2],\"timeDeltas\":[50]}";
	static const struct expected_row rows[] = {
		{ "main", 0, 700, 700, 700 },
		{ "work", 700, 700, 700, 700 },
	};
	check_profile("one sample", json, rows, ARRAY_LEN(rows));
}

/* Negative deltas: samples are put in time order first (stable). */
static void check_negative_delta(void)
{
	static const char json[] = "{\"nodes\":["
		NODE(1, "main", 0, "2,3") "," NODE(2, "x", 1, "") "," NODE(3, "y", 2, "")
		"],\"startTime\":0,\"endTime\":1000,\"samples\":[2,3,2],"
		"\"timeDeltas\":[100,300,-200]}";
	/* times: x@100, y@400, x@200 -> order x@100, x@200, y@400:
	 * x 100 + 200, y 600. */
	static const struct expected_row rows[] = {
		{ "x", 300, 300, 300, 300 },
		{ "y", 600, 600, 600, 600 },
		{ "main", 0, 900, 900, 900 },
	};
	check_profile("negative delta", json, rows, ARRAY_LEN(rows));
}

/* No samples but hit counts (old format): each hit is an equal share of
 * endTime - startTime. */
static void check_hit_counts(void)
{
	static const char json[] = "{\"nodes\":["
		"{\"id\":1,\"callFrame\":{\"functionName\":\"main\",\"url\":\"t.js\","
		"\"lineNumber\":0,\"columnNumber\":0},\"hitCount\":1,\"children\":[2]},"
		"{\"id\":2,\"callFrame\":{\"functionName\":\"w\",\"url\":\"t.js\","
		"\"lineNumber\":1,\"columnNumber\":0},\"hitCount\":3}"
		"],\"startTime\":0,\"endTime\":400}";
	static const struct expected_row rows[] = {
		{ "main", 100, 400, 400, 400 },
		{ "w", 300, 300, 300, 300 },
	};
	check_profile("hit counts", json, rows, ARRAY_LEN(rows));
}

/* No samples and no hits: not a profile to show. */
static void check_empty(void)
{
	static const char json[] = "{\"nodes\":[" NODE(1, "main", 0, "")
		"],\"startTime\":0,\"endTime\":10,\"samples\":[],\"timeDeltas\":[]}";
	struct model m;
	struct load_error err;
	struct load_options opt = { .session = -1 };
	CHECK(!load_memory(json, strlen(json), "empty", &opt, &m, &err));
	CHECK(strstr(err.message, "empty") != NULL);
}

/* A function graph (XS form): exact is n/a with its reason. */
static void check_graph_has_no_exact(void)
{
	static const char json[] = "{\"nodes\":["
		"{\"id\":0,\"callFrame\":{\"functionName\":\"(host)\",\"url\":\"\","
		"\"lineNumber\":-1,\"columnNumber\":-1},\"children\":[2,3]},"
		NODE(2, "a", 1, "4") "," NODE(3, "b", 2, "4") "," NODE(4, "leaf", 3, "")
		"],\"startTime\":0,\"endTime\":4000,\"samples\":[4,4,2],"
		"\"timeDeltas\":[0,1000,1000]}";
	/* leaf 2000 (shared child of a and b), a 2000 self.
	 * additive on the graph: leaf's sub counts under a and under b. */
	static const struct expected_row rows[] = {
		{ "leaf", 2000, NAN, 2000, 2000 },
		{ "a", 2000, NAN, 4000, 3000 },
		{ "b", 0, NAN, 2000, 1000 },
		{ "(host)", 0, NAN, 6000, 4000 },
	};
	check_profile("XS graph", json, rows, ARRAY_LEN(rows));
}

/* The same numbers from rules that kept the shape's arrays as from fresh
 * ones, arc by arc. */
static void check_same_totals(struct rules *kept, const struct model *m,
			      enum rule rule)
{
	struct rules fresh;
	rules_init(&fresh, m);
	const struct totals *got = rules_arc_totals(kept, rules_totals(kept, rule, 0));
	const struct totals *want = rules_arc_totals(&fresh, rules_totals(&fresh, rule, 0));
	const char *what = rule_name(rule);
	for (uint32_t f = 0; f < m->nframes; f++) {
		CHECK_CLOSE(got->self[f], want->self[f], what);
		CHECK_CLOSE(got->total[f], want->total[f], what);
	}
	for (uint32_t a = 0; a < m->narcs; a++) {
		CHECK_CLOSE(got->arc_total[a], want->arc_total[a], what);
		CHECK_CLOSE(got->arc_self[a], want->arc_self[a], what);
	}
	rules_free(&fresh);
}

/* Values changed in place (a live snapshot of the same stacks): main >
 * fib > fib > fib at 1 ms each, then the innermost fib's value becomes
 * 3 ms.  By hand: sub is then n2 5 ms, n3 4 ms, n4 3 ms; exact: main 6,
 * fib 5; the arc fib -> fib counts n3 only (n4's is not outermost): 4. */
static void check_values_changed(void)
{
	static const char json[] = "{\"nodes\":["
		NODE(1, "main", 0, "2") "," NODE(2, "fib", 1, "3") ","
		NODE(3, "fib", 1, "4") "," NODE(4, "fib", 1, "")
		"],\"startTime\":0,\"endTime\":4000,\"samples\":[1,2,3,4],"
		"\"timeDeltas\":[0,1000,1000,1000]}";
	struct model m;
	struct load_error err;
	struct load_options opt = { .session = -1 };
	CHECK(load_memory(json, strlen(json), "values", &opt, &m, &err));
	struct rules rules;
	rules_init(&rules, &m);
	static const enum rule all[] = { RULE_EXACT, RULE_ADDITIVE, RULE_DIVIDED };
	for (size_t i = 0; i < ARRAY_LEN(all); i++)
		rules_totals(&rules, all[i], 0);
	uint32_t fib = frame_named(&m, "fib"), main_frame = frame_named(&m, "main");
	for (uint32_t v = 0; v < m.nnodes; v++)
		if (m.nodes[v].frame == fib && m.nodes[v].child_start == m.nodes[v].child_end)
			m.node_self[(size_t)v * m.ntypes] = 3000;
	rules_values_changed(&rules);
	const struct totals *t = rules_totals(&rules, RULE_EXACT, 0);
	CHECK_CLOSE(t->total[main_frame], 6000, "main after the change");
	CHECK_CLOSE(t->total[fib], 5000, "fib after the change");
	CHECK_CLOSE(t->self[fib], 5000, "fib's self after the change");
	CHECK(t->arcs_later && !t->arc_total); /* not summed until asked */
	t = rules_arc_totals(&rules, t);
	for (uint32_t a = 0; a < m.narcs; a++)
		if (m.arcs[a].caller == fib && m.arcs[a].callee == fib)
			CHECK_CLOSE(t->arc_total[a], 4000, "fib -> fib");
	for (size_t i = 0; i < ARRAY_LEN(all); i++)
		check_same_totals(&rules, &m, all[i]);
	rules_free(&rules);
	model_free(&m);
}

/* Stack data merges into a tree: the same path is one node, and the
 * node index keeps working as it grows. */
static void check_stack_merging(void)
{
	struct model m;
	model_init(&m, "test");
	model_add_sample_type(&m, "time", "us");
	uint32_t f[3000];
	for (uint32_t i = 0; i < 3000; i++) {
		char name[16];
		snprintf(name, sizeof(name), "f%u", i);
		struct frame fr = { .name = model_string(&m, name, strlen(name)),
				    .url = STR_NONE, .extra = STR_NONE, .line = -1,
				    .column = -1 };
		f[i] = model_intern_frame(&m, &fr);
	}
	/* leaf first: f2 <- f1 <- f0 twice, then f0 -> fi for every i >= 3 */
	uint32_t stack[3] = { f[2], f[1], f[0] };
	uint32_t leaf1 = model_add_stack(&m, stack, 3);
	uint32_t leaf2 = model_add_stack(&m, stack, 3);
	CHECK(leaf1 == leaf2);
	model_add_node_value(&m, leaf1, 0, 5);
	for (uint32_t i = 3; i < 3000; i++) {
		uint32_t two[2] = { f[i], f[0] };
		model_add_node_value(&m, model_add_stack(&m, two, 2), 0, 1);
	}
	uint32_t cycle;
	CHECK(model_finish(&m, &cycle));
	CHECK_MSG(m.nnodes == 3 + 2997, "nodes: %zu", m.nnodes);
	CHECK(m.caps & HAS_STACKS);
	struct rules rules;
	rules_init(&rules, &m);
	const struct totals *t = rules_totals(&rules, RULE_EXACT, 0);
	CHECK_CLOSE(t->total[f[0]], 5 + 2997, "root of merged stacks");
	CHECK_CLOSE(t->total[f[1]], 5, "middle of merged stacks");
	rules_free(&rules);
	model_free(&m);
}

/* ---- divided on its own thread ----------------------------------------- */

/* Functions 0..n-1, each calling every other, `self` µs each: without
 * its cycles f_j has the j callers f_0..f_j-1, and shares above the
 * cutoff go down every decreasing path.  Shares of one size travel
 * together, so it takes n = 100 and 1e12 µs (about 1.8 s of distinct
 * sizes) to be slow. */
static void make_clique(struct model *m, uint32_t n, double self)
{
	model_init(m, "test");
	model_add_sample_type(m, "time", "us");
	add_frames(m, n);
	for (uint32_t f = 0; f < n; f++) {
		model_add_frame_value(m, f, 0, self);
		for (uint32_t g = 0; g < n; g++)
			if (g != f)
				model_add_arc(m, f, g, 0, 0);
	}
	uint32_t cycle;
	model_finish(m, &cycle);
}

static void wait_for_rules(struct rules *r, bool *news)
{
	struct timespec ms = { 0, 1000000 };
	while (rules_busy(r)) {
		nanosleep(&ms, NULL);
		*news |= rules_poll(r);
	}
	*news |= rules_poll(r);
}

static void check_background(void)
{
	/* A small graph: the thread's numbers are the ones computed inline. */
	struct model m;
	make_clique(&m, 5, 1e9);
	struct rules inline_rules, threaded;
	rules_init(&inline_rules, &m);
	rules_init(&threaded, &m);
	threaded.background = true;
	const struct totals *want = rules_totals(&inline_rules, RULE_DIVIDED, 0);
	rules_start_divided(&threaded, 0);
	bool news = false;
	wait_for_rules(&threaded, &news);
	CHECK(news);
	const struct totals *got = rules_totals(&threaded, RULE_DIVIDED, 0);
	CHECK(got->total && !got->computing);
	for (uint32_t f = 0; got->total && f < m.nframes; f++)
		CHECK_CLOSE(got->total[f], want->total[f], "divided from the thread");
	CHECK(!rules_poll(&threaded)); /* said once */
	rules_free(&threaded);
	rules_free(&inline_rules);
	model_free(&m);

	/* A slow one: asked for, it is being computed; freeing the rules
	 * stops the thread, and a stopped walk gives no numbers. */
	/* Divided waits for the caller chains made first (a tree's), and
	 * starts as soon as it is asked once they are made, without a poll
	 * to take them first.  The chains of three nodes take microseconds:
	 * five seconds is only a bound for a loaded machine. */
	model_init(&m, "test");
	model_add_sample_type(&m, "time", "us");
	add_frames(&m, 2);
	uint32_t stack[2] = { 1, 0 }; /* leaf first: frame 0 calls frame 1 */
	model_add_node_value(&m, model_add_stack(&m, stack, 2), 0, 1);
	uint32_t cycle;
	CHECK(model_finish(&m, &cycle) && (m.caps & HAS_STACKS));
	rules_init(&threaded, &m);
	threaded.background = true;
	rules_start_chains(&threaded);
	struct timespec ms = { 0, 1000000 };
	for (int i = 0; i < 5000 && !threaded.job; i++) {
		rules_start_divided(&threaded, 0);
		if (!threaded.job)
			nanosleep(&ms, NULL);
	}
	CHECK(threaded.job && threaded.chains_tried);
	news = false;
	wait_for_rules(&threaded, &news);
	CHECK(news);
	rules_free(&threaded);
	model_free(&m);

	/* Made ahead, divided is work behind (base/background.h): on one
	 * core a key's work holds it up; asked for by the screen, it is
	 * wanted and done while the key's work goes on. */
	make_clique(&m, 5, 1e9);
	rules_init(&threaded, &m);
	threaded.background = true;
	background_set_cores(1);
	background_foreground_begin();
	rules_start_divided(&threaded, 0);
	nanosleep(&(struct timespec){ 0, 100000000 }, NULL);
	CHECK_MSG(!rules_poll(&threaded) && rules_busy(&threaded),
		  "divided made ahead ran during a key's work on one core");
	CHECK(rules_totals(&threaded, RULE_DIVIDED, 0)->computing);
	news = false;
	wait_for_rules(&threaded, &news);
	CHECK(news && rules_totals(&threaded, RULE_DIVIDED, 0)->total);
	background_foreground_end();
	background_set_cores(0);
	rules_free(&threaded);
	model_free(&m);

	make_clique(&m, 100, 1e12);
	rules_init(&threaded, &m);
	threaded.background = true;
	const struct totals *t = rules_totals(&threaded, RULE_DIVIDED, 0);
	CHECK(t->computing && !t->total && t->why_not);
	CHECK(rules_busy(&threaded));
	rules_free(&threaded);
	double *self = xcalloc(m.nframes, sizeof(double));
	double *total = xcalloc(m.nframes, sizeof(double));
	double *arc_total = xcalloc(m.narcs, sizeof(double));
	double *arc_self = xcalloc(m.narcs, sizeof(double));
	for (uint32_t f = 0; f < m.nframes; f++)
		self[f] = 1e12;
	atomic_bool stop;
	atomic_init(&stop, true);
	CHECK(!divided_compute(&m, self, 1.0, total, arc_total, arc_self, &stop));
	free(self);
	free(total);
	free(arc_total);
	free(arc_self);
	model_free(&m);
}

int main(void)
{
	check_stack_merging();
	check_random_arc_graphs();
	check_random_streams();
	check_fan_in_graphs();
	check_cutoff_by_hand();
	check_recursion();
	check_mutual_recursion();
	check_parents_first();
	check_node_order();
	check_dag();
	check_one_sample();
	check_negative_delta();
	check_hit_counts();
	check_empty();
	check_graph_has_no_exact();
	check_background();
	check_values_changed();
	return check_done();
}
