/* The outermost flags (rules/node_shape.h) of a model by lines derived
 * from its source's, against the definition worked by hand and against
 * the depth-first walk on random trees.
 *
 * By hand: (root) R -> f at 2 (node 1) -> f at 4 (node 2) -> f at 2
 * (node 3, f again) -> g at 3 (node 4); 10 us on node 1, 20 on node 3,
 * 40 on node 4; ticks: node 1 line 2 and line 4 (one each), node 3 line
 * 4 (one) and line 5 (three), node 4 line 3 (one).  A line's frame is
 * its function's at that line, so by lines:
 *   node 1's line 4 is its child node 2 (kept, 5 us);
 *   node 1's line 2 is a new leaf of frame f at 2 (5 us): its frame is
 *     its parent's (not outermost), the arc f2 -> f2 is on no link above
 *     (outermost);
 *   node 3's line 4, a leaf of f at 4 (5 us): that frame is node 2's and
 *     its arc f2 -> f4 the link 1 -> 2's: neither outermost;
 *   node 3's line 5, f at 5, a frame of its own (15 us): both outermost;
 *   node 4's line 3, g at 3 as node 4 (40 us): frame not outermost, arc
 *     g3 -> g3 outermost.
 * Kept nodes as in the source: R 1 (a root's arc 0), node 1 1 1, node 2
 * 1 1, node 3 0 (f at 2 is node 1's) and 1 (f4 -> f2 once), node 4 1 1.
 * Exact totals (each sample once per frame on its stack): R, f2 70;
 * f4 65 (all but node 1's line 2); g3 40; f5 15.  Additive (sub of every
 * node by frame): f2 70 + 5 + 60 = 135, f4 65 + 5 = 70, g3 40 + 40 = 80.
 * Exact arcs: f2 -> f4 65 (node 2's sub; node 3's leaf not outermost),
 * f2 -> f2 5, f4 -> f2 60, f2 -> g3 40, g3 -> g3 40, f2 -> f5 15. */
#include <stdlib.h>
#include <string.h>

#include "tests/check.h"
#include "tests/lines_profile.h"
#include "rules/rules.h"
#include "transform/granularity.h"

static void build_recursive(struct model *src)
{
	model_init(src, "cpuprofile");
	model_add_sample_type(src, "time", "us");
	uint32_t f2 = add_frame(src, "f", 2), f4 = add_frame(src, "f", 4);
	uint32_t root = model_add_child(src, NO_ID, add_frame(src, "R", -1));
	uint32_t n1 = model_add_child(src, root, f2);
	uint32_t n2 = model_add_child(src, n1, f4);
	uint32_t n3 = model_add_child(src, n2, f2);
	uint32_t n4 = model_add_child(src, n3, add_frame(src, "g", 3));
	model_add_sample(src, n1, 10);
	model_add_sample(src, n3, 20);
	model_add_sample(src, n4, 40);
	model_add_line_ticks(src, n1, 2, 1);
	model_add_line_ticks(src, n1, 4, 1);
	model_add_line_ticks(src, n3, 4, 1);
	model_add_line_ticks(src, n3, 5, 3);
	model_add_line_ticks(src, n4, 3, 1);
	uint32_t cycle;
	model_finish(src, &cycle);
}

/* Node `parent`'s child of frame name at line, NO_ID if none. */
static uint32_t child_at(const struct model *m, uint32_t parent, const char *name, int32_t line)
{
	const struct node *p = &m->nodes[parent];
	for (uint32_t i = p->child_start; i < p->child_end; i++) {
		const struct frame *fr = &m->frames[m->nodes[m->child_ids[i]].frame];
		if (!strcmp(model_str(m, fr->name), name) && fr->line == line)
			return m->child_ids[i];
	}
	return NO_ID;
}

static void check_flags(const struct node_shape *s, uint32_t v, int outermost, int arc,
			const char *what)
{
	CHECK_MSG(v != NO_ID, "%s: no such node", what);
	if (v == NO_ID)
		return;
	CHECK_MSG(s->outermost[v] == outermost, "%s: outermost %d", what, s->outermost[v]);
	CHECK_MSG(s->arc_outermost[v] == arc, "%s: arc outermost %d", what, s->arc_outermost[v]);
}

static uint32_t frame_at(const struct model *m, const char *name, int32_t line)
{
	for (uint32_t f = 0; f < m->nframes; f++)
		if (!strcmp(model_str(m, m->frames[f].name), name) && m->frames[f].line == line)
			return f;
	return NO_ID;
}

static void check_total(const double *total, const struct model *m, const char *name,
			int32_t line, double want, const char *what)
{
	uint32_t f = frame_at(m, name, line);
	CHECK_MSG(f != NO_ID, "%s: no frame %s at %d", what, name, line);
	if (f != NO_ID)
		CHECK_CLOSE(total[f], want, what);
}

static void check_arc_total(const struct totals *t, const struct model *m, const char *from,
			    int32_t from_line, const char *to, int32_t to_line, double want)
{
	uint32_t a = model_find_arc(m, frame_at(m, from, from_line), frame_at(m, to, to_line));
	CHECK_MSG(a != NO_ID, "no arc %s:%d -> %s:%d", from, from_line, to, to_line);
	if (a != NO_ID)
		CHECK_CLOSE(t->arc_total[a], want, "an arc's exact total");
}

/* The hand-worked totals, the rules' flags derived (`derived`) or
 * walked. */
static void check_totals(const struct model *out, const struct model *src,
			 struct node_shape *from, bool derived)
{
	struct rules r;
	rules_init(&r, out);
	if (derived)
		rules_extend_shape(&r, src, from);
	CHECK(derived == (r.shape != NULL)); /* made before any rule asks */
	const struct totals *exact = rules_arc_totals(&r, rules_totals(&r, RULE_EXACT, 0));
	const struct totals *additive = rules_totals(&r, RULE_ADDITIVE, 0);
	static const struct { const char *name; int32_t line; double exact, additive; } want[] = {
		{ "R", -1, 70, 70 }, { "f", 2, 70, 135 }, { "f", 4, 65, 70 },
		{ "g", 3, 40, 80 },  { "f", 5, 15, 15 },
	};
	for (size_t i = 0; i < ARRAY_LEN(want); i++) {
		check_total(exact->total, out, want[i].name, want[i].line, want[i].exact, "exact");
		check_total(additive->total, out, want[i].name, want[i].line, want[i].additive,
			    "additive");
	}
	check_arc_total(exact, out, "f", 2, "f", 4, 65);
	check_arc_total(exact, out, "f", 2, "f", 2, 5);
	check_arc_total(exact, out, "f", 4, "f", 2, 60);
	check_arc_total(exact, out, "f", 2, "g", 3, 40);
	check_arc_total(exact, out, "g", 3, "g", 3, 40);
	check_arc_total(exact, out, "f", 2, "f", 5, 15);
	rules_free(&r);
}

static void by_hand(void)
{
	struct model src, out;
	build_recursive(&src);
	const char *why_not;
	CHECK(model_by_granularity(&src, GRANULARITY_LINES, &out, &why_not));
	struct node_shape *from = node_shape_walk(&src);
	struct node_shape *s = node_shape_extend(&out, &src, from);
	CHECK(out.nnodes == 9 && s != NULL);
	if (s && out.nnodes == 9) {
		check_flags(s, 0, 1, 0, "R");
		check_flags(s, 1, 1, 1, "node 1");
		check_flags(s, 2, 1, 1, "node 2, node 1's line 4");
		check_flags(s, 3, 0, 1, "node 3, f again");
		check_flags(s, 4, 1, 1, "node 4");
		check_flags(s, child_at(&out, 1, "f", 2), 0, 1, "node 1's line 2");
		check_flags(s, child_at(&out, 3, "f", 4), 0, 0, "node 3's line 4");
		check_flags(s, child_at(&out, 3, "f", 5), 1, 1, "node 3's line 5");
		check_flags(s, child_at(&out, 4, "g", 3), 0, 1, "node 4's line 3");
	}
	check_totals(&out, &src, from, true);
	check_totals(&out, &src, from, false);
	node_shape_release(s);
	node_shape_release(from);
	model_free(&out);
	model_free(&src);
}

/* Not derived where the model does not extend its source by leaves: the
 * model by files (one node for f.js), and the model by lines with a
 * kept node's frame changed. */
static void not_an_extension(void)
{
	struct model src, files, lines;
	build_recursive(&src);
	const char *why_not;
	CHECK(model_by_granularity(&src, GRANULARITY_FILES, &files, &why_not));
	CHECK(model_by_granularity(&src, GRANULARITY_LINES, &lines, &why_not));
	struct node_shape *from = node_shape_walk(&src);
	CHECK(node_shape_extend(&files, &src, from) == NULL);
	struct node_shape *s = node_shape_extend(&lines, &src, from);
	CHECK(s != NULL);
	node_shape_release(s);
	lines.nodes[4].frame = lines.nodes[3].frame;
	CHECK(node_shape_extend(&lines, &src, from) == NULL);
	node_shape_release(from);
	model_free(&lines);
	model_free(&files);
	model_free(&src);
}

/* (root) g at 2, then a path of 599 g at 1, each with a tick on line 2:
 * each leaf's frame is the root's, its arc g1 -> g2 none above, so every
 * leaf climbs to the root: 180 000 steps against a walk of 1 199 nodes,
 * not derived.  The walk's flags: frame not outermost, arc outermost. */
static void climbs_too_long(void)
{
	struct model src, out;
	model_init(&src, "cpuprofile");
	model_add_sample_type(&src, "time", "us");
	uint32_t g1 = add_frame(&src, "g", 1);
	uint32_t v = model_add_child(&src, NO_ID, add_frame(&src, "g", 2));
	for (int k = 1; k < 600; k++) {
		v = model_add_child(&src, v, g1);
		model_add_sample(&src, v, 1);
		model_add_line_ticks(&src, v, 2, 1);
	}
	uint32_t cycle;
	model_finish(&src, &cycle);
	const char *why_not;
	CHECK(model_by_granularity(&src, GRANULARITY_LINES, &out, &why_not));
	CHECK(out.nnodes == 1199);
	struct node_shape *from = node_shape_walk(&src);
	CHECK(node_shape_extend(&out, &src, from) == NULL);
	struct node_shape *walked = node_shape_walk(&out);
	size_t as_worked = 0;
	for (size_t w = src.nnodes; w < out.nnodes; w++)
		as_worked += !walked->outermost[w] && walked->arc_outermost[w];
	CHECK(as_worked == 599);
	node_shape_release(walked);
	node_shape_release(from);
	model_free(&out);
	model_free(&src);
}

/* Random trees of a few functions at a few lines, recursion and repeated
 * arcs everywhere, each node with ticks on random lines of its function
 * (many a frame of the tree): the flags derived equal the walk's. */
static void random_trees(void)
{
	srand(29);
	size_t derived = 0, known = 0;
	for (int round = 0; round < 200; round++) {
		struct model src, out;
		model_init(&src, "cpuprofile");
		model_add_sample_type(&src, "time", "us");
		static const char *const names[] = { "f", "g", "h" };
		uint32_t frames[12];
		for (int k = 0; k < 12; k++)
			frames[k] = add_frame(&src, names[k % 3], 1 + k / 3);
		size_t n = 1 + (size_t)(rand() % 300);
		uint32_t *ids = malloc(n * sizeof(uint32_t));
		ids[0] = model_add_child(&src, NO_ID, frames[0]);
		for (size_t k = 1; k < n; k++)
			ids[k] = model_add_child(&src, ids[(size_t)rand() % k], frames[rand() % 12]);
		for (size_t k = 0; k < n; k++) {
			model_add_sample(&src, ids[k], 1 + rand() % 5);
			for (int t = rand() % 3; t > 0; t--)
				model_add_line_ticks(&src, ids[k], 1 + rand() % 12, 1 + rand() % 3);
		}
		free(ids);
		uint32_t cycle;
		model_finish(&src, &cycle);
		const char *why_not;
		CHECK(model_by_granularity(&src, GRANULARITY_LINES, &out, &why_not));
		struct node_shape *from = node_shape_walk(&src);
		struct node_shape *s = node_shape_extend(&out, &src, from);
		struct node_shape *walked = node_shape_walk(&out);
		if (s) {
			derived++;
			for (size_t w = src.nnodes; w < out.nnodes; w++)
				known += out.nodes[w].frame < src.nframes;
			CHECK_MSG(!memcmp(s->outermost, walked->outermost, out.nnodes) &&
				  !memcmp(s->arc_outermost, walked->arc_outermost, out.nnodes),
				  "round %d: derived flags differ from the walk's", round);
		}
		node_shape_release(walked);
		node_shape_release(s);
		node_shape_release(from);
		model_free(&out);
		model_free(&src);
	}
	/* All but the trees of many long climbs, and many a leaf of a
	 * frame of the tree among them. */
	CHECK_MSG(derived >= 150 && known >= 5000, "derived %zu, %zu leaves of src's frames", derived, known);
}

int main(void)
{
	by_hand();
	not_an_extension();
	climbs_too_long();
	random_trees();
	return check_done();
}
