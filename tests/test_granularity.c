/* A profile by lines (transform/granularity.h) keeps its timeline, and
 * counts of samples split by line stay whole.  Worked by hand: (root) ->
 * f, three samples on f of 10, 20 and 30 us, and V8's positionTicks for f
 * of one tick on line 4 and one on line 5 (ticks that do not add up to
 * the samples, as in a file where some ticks had no line).
 *   time:    60 us over two equal ticks: 30 and 30;
 *   samples: 3 over two equal ticks: 1.5 each, in whole samples 2 and 1
 *            (the rest to the first line of equal remainders);
 *   timeline: the three samples, on f's node, with their durations,
 *            still there once the copy owns them and f's model is gone.
 * Then trees by files, and trees by lines that a copy keeps node for
 * node or does not, worked the same way (see each). */
#include <stdio.h>
#include <string.h>

#include "base/background.h"
#include "tests/check.h"
#include "tests/lines_profile.h"
#include "transform/granularity.h"

/* The links of line_is_a_child's copy, kept node for node: nodes 0
 * (root), 1 f at 2, 2 f at 4 (src's), then 3, f at 5 (line 5's, new);
 * frames (root) 0, f at 2 1, f at 4 2 (src's, line 4's too), f at 5 3.
 * Links (root)->f, f->f at 4, f->f at 5: arcs by (callee, caller)
 * 0->1, 1->2, 1->3, added in the order of the links, so `given` 0, 1,
 * 2; breadth first 0, 1, 2, 3, and each parent's id below its child's. */
static void kept_links(const struct model *out)
{
	static const uint32_t caller[] = { 0, 1, 1 }, callee[] = { 1, 2, 3 };
	CHECK(out->nnodes == 4 && out->nframes == 4 && out->narcs == 3);
	if (out->nnodes != 4 || out->narcs != 3)
		return;
	for (uint32_t a = 0; a < 3; a++) {
		CHECK(out->arcs[a].caller == caller[a] && out->arcs[a].callee == callee[a]);
		CHECK(out->arcs[a].given == a);
	}
	CHECK(out->nodes[0].child_end - out->nodes[0].child_start == 1);
	CHECK(out->child_ids[out->nodes[0].child_start] == 1);
	CHECK(out->link_arcs[out->nodes[0].child_start] == 0);
	CHECK(out->nodes[1].child_end - out->nodes[1].child_start == 2);
	for (uint32_t k = 0; k < 2; k++) {
		CHECK(out->child_ids[out->nodes[1].child_start + k] == 2 + k);
		CHECK(out->link_arcs[out->nodes[1].child_start + k] == 1 + k);
	}
	for (uint32_t v = 0; v < 4; v++) {
		CHECK(out->node_order[v] == v);
		CHECK(out->nodes[v].nparents == (v > 0));
		CHECK(out->parents_start[v + 1] - out->parents_start[v] == (v > 0));
	}
	CHECK(out->parent_ids[out->parents_start[3]] == 1);
	CHECK(out->nodes[2].child_start == out->nodes[2].child_end);
	CHECK(out->parents_first);
	CHECK(out->caps & HAS_STACKS);
}

/* (root) -> f at 2 -> f at 4 (a recursive call placed at line 4), 10,
 * 20 and 30 us on the first f, 5 on the second, and the first f's
 * ticks one on line 4, one on line 5: the first f's line 4 is the frame
 * of its child, so one node: 30 + 5 = 35 us; its line 5 30 us. */
static void line_is_a_child(void)
{
	struct model src, out;
	model_init(&src, "cpuprofile");
	model_add_sample_type(&src, "time", "us");
	uint32_t root = model_add_child(&src, NO_ID, add_frame(&src, "(root)", -1));
	uint32_t f = model_add_child(&src, root, add_frame(&src, "f", 2));
	uint32_t inner = model_add_child(&src, f, add_frame(&src, "f", 4));
	model_add_sample(&src, f, 10);
	model_add_sample(&src, inner, 5);
	model_add_sample(&src, f, 20);
	model_add_sample(&src, f, 30);
	model_add_line_ticks(&src, f, 5, 1);
	model_add_line_ticks(&src, f, 4, 1);
	uint32_t cycle;
	model_finish(&src, &cycle);
	const char *why_not;
	CHECK(model_by_granularity(&src, GRANULARITY_LINES, &out, &why_not));
	uint32_t fn = node_at(&out, "f", 2), l4 = node_at(&out, "f", 4), l5 = node_at(&out, "f", 5);
	CHECK(out.nnodes == 4 && fn != NO_ID && l4 != NO_ID && l5 != NO_ID);
	if (out.nnodes == 4 && fn != NO_ID && l4 != NO_ID && l5 != NO_ID) {
		CHECK(out.nodes[l4].parent == fn && out.nodes[l5].parent == fn);
		CHECK_CLOSE(node_value(&out, fn, 0), 0, "f's own time, all on its lines");
		CHECK_CLOSE(node_value(&out, l4, 0), 35, "line 4's time with the call's");
		CHECK_CLOSE(node_value(&out, l5, 0), 30, "line 5's time");
		CHECK(out.nsamples == 4 && out.sample_node[1] == l4);
		CHECK(out.sample_node[0] == fn && out.sample_node[3] == fn);
	}
	kept_links(&out);
	model_free(&out);
	model_free(&src);
}

/* (root) -> f at 2, twice (a file may repeat a child): one sample of
 * 10 us on the first f, with one tick on line 4; one of 20 us on the
 * second, with one tick on line 4 and one on line 5.  By lines the two
 * are one f: line 4 10 + 10 = 20 us, line 5 10 us; samples 1 + 0.5 and
 * 0.5, in whole samples: the first f's to line 4, the second's by its
 * floors 0 and 0, the one left to its first largest remainder, line 4:
 * 2 and 0.  Both samples are on the one f. */
static void siblings_merged(void)
{
	struct model src, out;
	model_init(&src, "cpuprofile");
	model_add_sample_type(&src, "time", "us");
	uint32_t root = model_add_child(&src, NO_ID, add_frame(&src, "(root)", -1));
	uint32_t frame = add_frame(&src, "f", 2), f[2];
	for (int k = 0; k < 2; k++) {
		f[k] = model_add_node(&src, frame);
		model_add_edge(&src, root, f[k]);
	}
	model_add_sample(&src, f[0], 10);
	model_add_sample(&src, f[1], 20);
	model_add_line_ticks(&src, f[1], 5, 1);
	model_add_line_ticks(&src, f[1], 4, 1);
	model_add_line_ticks(&src, f[0], 4, 1);
	uint32_t cycle;
	model_finish(&src, &cycle);
	model_add_sample_counts(&src);
	const char *why_not;
	CHECK(model_by_granularity(&src, GRANULARITY_LINES, &out, &why_not));
	uint32_t counts = model_count_type(&out);
	uint32_t fn = node_at(&out, "f", 2), l4 = node_at(&out, "f", 4), l5 = node_at(&out, "f", 5);
	CHECK(out.nnodes == 4 && counts != NO_ID && fn != NO_ID && l4 != NO_ID && l5 != NO_ID);
	if (out.nnodes == 4 && counts != NO_ID && fn != NO_ID && l4 != NO_ID && l5 != NO_ID) {
		CHECK_CLOSE(node_value(&out, l4, 0), 20, "line 4's time");
		CHECK_CLOSE(node_value(&out, l5, 0), 10, "line 5's time");
		CHECK_CLOSE(node_value(&out, l4, counts), 2, "line 4's samples");
		CHECK_CLOSE(node_value(&out, l5, counts), 0, "line 5's samples");
		CHECK(out.nsamples == 2 && out.sample_node[0] == fn && out.sample_node[1] == fn);
	}
	model_free(&out);
	model_free(&src);
}

/* By files, worked by hand: (root) has a1 and a3 of a.js; a1 calls a2 of
 * a.js and b2 of b.js; a2 calls b1 of b.js, which calls c3 of c.js; b2
 * calls c1 of c.js; a3 calls c2 of c.js, which calls b3 of b.js; a
 * second root (root) calls b4 of b.js.  Nodes v0..v11 in that order:
 *   v0 (root)  v1 a1<v0  v2 a2<v1  v3 b1<v2  v4 b2<v1  v5 c1<v4
 *   v6 a3<v0   v7 c2<v6  v8 c3<v3  v9 b3<v7  v10 (root)  v11 b4<v10
 * with one sample each of 2^v us (none on v10).  By files a1, a2 and a3
 * are one a.js (a2 is a call within a.js, a3 a sibling of a1's file);
 * b1 and b2 are one b.js under it (children of one node's members),
 * c1 and c3 one c.js under that; c2 a c.js of its own under a.js, b3 a
 * b.js under that; the roots one (root), b4 a b.js under it.  Walked
 * in id order, each node is made where its first member is met:
 *   0 (root) 1           1 a.js 2+4+64 = 70     2 b.js 8+16 = 24
 *   3 c.js 32+256 = 288  4 c.js 128             5 b.js 512
 *   6 b.js 2048 (under the root) */
static const uint32_t file_tree_parent[12] = { NO_ID, 0, 1, 2, 1, 4, 0, 6, 3, 7, NO_ID, 10 };
static const char *const file_tree_url[12] = { "", "a.js", "a.js", "b.js", "b.js", "c.js",
					       "a.js", "c.js", "c.js", "b.js", "", "b.js" };

/* The tree above with node v numbered `reversed ? 11 - v : v`; its
 * links as listed (by v), its samples in v's order. */
static void build_file_tree(struct model *m, bool reversed)
{
	model_init(m, "cpuprofile");
	model_add_sample_type(m, "time", "us");
	uint32_t id[12];
	for (uint32_t k = 0; k < 12; k++) {
		uint32_t v = reversed ? 11 - k : k;
		const char *url = file_tree_url[v];
		char name[8];
		snprintf(name, sizeof(name), "f%u", v);
		struct frame f = { .line = -1, .column = -1, .kind = KIND_JS, .extra = STR_NONE };
		f.name = model_string(m, *url ? name : "(root)", strlen(*url ? name : "(root)"));
		f.url = model_string(m, url, strlen(url));
		id[v] = model_add_node(m, model_intern_frame(m, &f));
	}
	for (uint32_t v = 0; v < 12; v++)
		if (file_tree_parent[v] != NO_ID)
			model_add_edge(m, id[file_tree_parent[v]], id[v]);
	for (uint32_t v = 0; v < 12; v++)
		if (v != 10)
			model_add_sample(m, id[v], (double)(1u << v));
	uint32_t cycle;
	model_finish(m, &cycle);
}

/* What a node of the model by files should be. */
struct file_node {
	const char *name;
	uint32_t parent;
	double time;
};

/* out's nodes, in order: their frames' names, parents and times. */
static void check_file_nodes(const struct model *out, const struct file_node *want, uint32_t n)
{
	CHECK_MSG(out->nnodes == n, "%zu nodes, not %u", out->nnodes, n);
	for (uint32_t v = 0; v < n && v < out->nnodes; v++) {
		const char *shown = model_str(out, out->frames[out->nodes[v].frame].name);
		CHECK_MSG(!strcmp(shown, want[v].name), "node %u is %s, not %s", v, shown,
			  want[v].name);
		CHECK_MSG(out->nodes[v].parent == want[v].parent, "node %u's parent %u, not %u",
			  v, out->nodes[v].parent, want[v].parent);
		CHECK_CLOSE(node_value(out, v, 0), want[v].time, "a file's time");
	}
}

/* The nodes' children, each node's in the order they were made. */
static void check_children(const struct model *out, const uint32_t *children, size_t n)
{
	size_t k = 0;
	for (uint32_t v = 0; v < out->nnodes; v++)
		for (uint32_t i = out->nodes[v].child_start; i < out->nodes[v].child_end; i++, k++)
			CHECK_MSG(k < n && out->child_ids[i] == children[k], "child %zu", k);
	CHECK(k == n);
}

static void files_merged(void)
{
	struct model src, out;
	build_file_tree(&src, false);
	CHECK(src.parents_first);
	const char *why_not;
	CHECK(model_by_granularity(&src, GRANULARITY_FILES, &out, &why_not));
	CHECK(out.nframes == 4 && out.frames_are_files);
	static const struct file_node want[] = {
		{ "(root)", NO_ID, 1 }, { "a.js", 0, 70 }, { "b.js", 1, 24 }, { "c.js", 2, 288 },
		{ "c.js", 1, 128 },	{ "b.js", 4, 512 }, { "b.js", 0, 2048 },
	};
	check_file_nodes(&out, want, 7);
	check_children(&out, (const uint32_t[]){ 1, 6, 2, 4, 3, 5 }, 6);
	static const uint32_t on[11] = { 0, 1, 1, 2, 2, 3, 1, 4, 3, 5, 6 };
	CHECK(out.nsamples == 11);
	for (size_t i = 0; i < out.nsamples && i < 11; i++)
		CHECK_MSG(out.sample_node[i] == on[i], "sample %zu on %u", i, out.sample_node[i]);
	model_free(&out);
	model_free(&src);
}

/* A file called from two places of another: (root) -> a1 (a.js) -> b1
 * (b.js), and (root) -> c1 (c.js) -> a2 (a.js) -> b2 (b.js), nodes v0..v5
 * in that order, each function its own frame.  By files: frames (root)
 * 0, a.js 1, b.js 2, c.js 3; nodes 0 (root), 1 a.js < 0, 2 b.js < 1, 3
 * c.js < 0, 4 a.js < 3, 5 b.js < 4.  The links in turn, with the place
 * each pair first came: 0->1 (0,1: 0), 0->3 (0,3: 1), 1->2 (1,2: 2), 3->4
 * (3,1: 3), 4->5 (1,2 again, from another arc of src, a2 -> b2: met).
 * By (callee, caller): (0,1), (3,1), (1,2), (0,3), `given` 0, 3, 2, 1;
 * the links' arcs 0, 3, 2, 1, 2.  Breadth first: 0, 1, 3, 2, 4, 5. */
static void files_links(void)
{
	static const char *const url[6] = { "", "a.js", "b.js", "c.js", "a.js", "b.js" };
	static const uint32_t parent[6] = { NO_ID, 0, 1, 0, 3, 4 };
	struct model src, out;
	model_init(&src, "cpuprofile");
	model_add_sample_type(&src, "time", "us");
	for (uint32_t v = 0; v < 6; v++) {
		char name[8];
		snprintf(name, sizeof(name), "f%u", v);
		struct frame f = { .line = -1, .column = -1, .kind = KIND_JS, .extra = STR_NONE };
		f.name = model_string(&src, name, strlen(name));
		f.url = model_string(&src, url[v], strlen(url[v]));
		model_add_child(&src, parent[v] == NO_ID ? NO_ID : parent[v],
				model_intern_frame(&src, &f));
	}
	model_add_sample(&src, 5, 1);
	uint32_t cycle;
	model_finish(&src, &cycle);
	const char *why_not;
	CHECK(model_by_granularity(&src, GRANULARITY_FILES, &out, &why_not));
	static const uint32_t caller[] = { 0, 3, 1, 0 }, callee[] = { 1, 1, 2, 3 };
	static const uint32_t given[] = { 0, 3, 2, 1 }, link_arc[] = { 0, 3, 2, 1, 2 };
	static const uint32_t order[] = { 0, 1, 3, 2, 4, 5 };
	CHECK(out.nnodes == 6 && out.nframes == 4 && out.narcs == 4);
	check_children(&out, (const uint32_t[]){ 1, 3, 2, 4, 5 }, 5);
	if (out.nnodes == 6 && out.narcs == 4) {
		for (uint32_t a = 0; a < 4; a++)
			CHECK_MSG(out.arcs[a].caller == caller[a] && out.arcs[a].callee == callee[a] &&
				  out.arcs[a].given == given[a], "arc %u", a);
		for (uint32_t i = 0; i < 5; i++)
			CHECK_MSG(out.link_arcs[i] == link_arc[i], "link %u's arc %u", i,
				  out.link_arcs[i]);
		for (uint32_t k = 0; k < 6; k++)
			CHECK(out.node_order[k] == order[k] && out.nodes[k].parent == parent[k]);
	}
	CHECK(out.parents_first && (out.caps & HAS_STACKS));
	model_free(&out);
	model_free(&src);
}

/* The same tree with the parents after their children: walked parents
 * first by node_order, breadth first from the roots v10 and v0, v10's
 * b4, v0's a1 and a3, then a2, b2, c2, b1, c1, b3, c3, which makes them
 * in this order:
 *   0 (root) 1   1 b.js 2048   2 a.js 70   3 b.js 24   4 c.js 128
 *   5 c.js 288   6 b.js 512 */
static void files_merged_out_of_order(void)
{
	struct model src, out;
	build_file_tree(&src, true);
	CHECK(!src.parents_first);
	const char *why_not;
	CHECK(model_by_granularity(&src, GRANULARITY_FILES, &out, &why_not));
	static const struct file_node want[] = {
		{ "(root)", NO_ID, 1 }, { "b.js", 0, 2048 }, { "a.js", 0, 70 }, { "b.js", 2, 24 },
		{ "c.js", 2, 128 },	{ "c.js", 3, 288 },  { "b.js", 4, 512 },
	};
	check_file_nodes(&out, want, 7);
	check_children(&out, (const uint32_t[]){ 1, 2, 3, 4, 5, 6 }, 6);
	model_free(&out);
	model_free(&src);
}

/* (root) -> A (f at 2) -> B (f at 4), and (root) -> X (x) -> C (f at 2)
 * -> D (d) -> E (e), ids 0 to 6, frames (root) 0, f at 2 1, f at 4 2,
 * x 3, d 4, e 5; one sample of 10 us on C, its one tick on line 4.  By
 * lines C's line 4 is a new node, 7, under C after D, of frame 2 (f at
 * 4 is src's frame), so its link is the pair f -> f at 4 that A -> B
 * made first: one arc for both.  The links in turn (node by node), with
 * the place each pair first came: (root)->A 0->1 (0), (root)->X 0->3
 * (1), A->B 1->2 (2), X->C 3->1 (3), C->D 1->4 (4), C->7 1->2 (met), D->E
 * 4->5 (5).  By (callee, caller): 0->1, 3->1, 1->2, 0->3, 1->4, 4->5,
 * `given` 0, 3, 2, 1, 4, 5; node 7 has C's 10 us, C none.  Breadth
 * first: 0, its children 1 3, 1's 2, 3's 4, 4's 5 7, 5's 6. */
static void line_of_a_known_pair(void)
{
	struct model src, out;
	model_init(&src, "cpuprofile");
	model_add_sample_type(&src, "time", "us");
	uint32_t root = model_add_child(&src, NO_ID, add_frame(&src, "(root)", -1));
	uint32_t f2 = add_frame(&src, "f", 2), f4 = add_frame(&src, "f", 4);
	uint32_t a = model_add_child(&src, root, f2);
	model_add_child(&src, a, f4);
	uint32_t x = model_add_child(&src, root, add_frame(&src, "x", 7));
	uint32_t c = model_add_child(&src, x, f2);
	uint32_t d = model_add_child(&src, c, add_frame(&src, "d", 8));
	model_add_child(&src, d, add_frame(&src, "e", 9));
	model_add_sample(&src, c, 10);
	model_add_line_ticks(&src, c, 4, 1);
	uint32_t cycle;
	model_finish(&src, &cycle);
	const char *why_not;
	CHECK(model_by_granularity(&src, GRANULARITY_LINES, &out, &why_not));
	static const uint32_t caller[] = { 0, 3, 1, 0, 1, 4 }, callee[] = { 1, 1, 2, 3, 4, 5 };
	static const uint32_t given[] = { 0, 3, 2, 1, 4, 5 };
	CHECK(out.nnodes == 8 && out.nframes == 6 && out.narcs == 6);
	if (out.nnodes == 8 && out.narcs == 6) {
		for (uint32_t k = 0; k < 6; k++)
			CHECK(out.arcs[k].caller == caller[k] && out.arcs[k].callee == callee[k] &&
			      out.arcs[k].given == given[k]);
		const struct node *cn = &out.nodes[c];
		CHECK(cn->child_end - cn->child_start == 2);
		CHECK(out.child_ids[cn->child_start] == d && out.child_ids[cn->child_start + 1] == 7);
		CHECK(out.link_arcs[cn->child_start] == 4 && out.link_arcs[cn->child_start + 1] == 2);
		CHECK(out.nodes[7].frame == f4 && out.nodes[7].parent == c);
		CHECK_CLOSE(node_value(&out, 7, 0), 10, "line 4's time");
		CHECK_CLOSE(node_value(&out, c, 0), 0, "C's own time, all on its line");
		static const uint32_t order[] = { 0, 1, 3, 2, 4, 5, 7, 6 };
		for (uint32_t k = 0; k < 8; k++)
			CHECK(out.node_order[k] == order[k]);
	}
	model_free(&out);
	model_free(&src);
}

/* A model made ahead whose job is stopped (the explorer closing) ends
 * at its first pause point, in the walk of the nodes: false, "stopped",
 * and nothing left of it (ASan's run checks the leaks). */
struct stopped_model {
	struct background job;
	const struct model *src;
	enum granularity g;
	bool made;
	const char *why_not;
};

static void make_stopped(void *arg)
{
	struct stopped_model *s = arg;
	background_stop(&s->job); /* before its first pause point */
	struct model out;
	s->made = model_by_granularity(s->src, s->g, &out, &s->why_not);
	if (s->made)
		model_free(&out);
}

static void check_stopped(const struct model *src, enum granularity g)
{
	struct stopped_model s = { .src = src, .g = g, .made = true };
	background_start_behind(&s.job, make_stopped, &s, 0);
	background_wait(&s.job);
	CHECK_MSG(!s.made && s.why_not && !strcmp(s.why_not, "stopped"),
		  "a stopped model by %s was made", granularity_name(g));
}

int main(void)
{
	files_merged();
	files_links();
	files_merged_out_of_order();
	line_is_a_child();
	line_of_a_known_pair();
	siblings_merged();
	struct model tree;
	build_file_tree(&tree, false);
	check_stopped(&tree, GRANULARITY_FILES);
	model_free(&tree);
	build_lines_profile(&tree, true);
	check_stopped(&tree, GRANULARITY_LINES);
	model_free(&tree);
	struct model src, out;
	build_lines_profile(&src, true);
	const char *why_not = NULL;
	CHECK(model_by_granularity(&src, GRANULARITY_LINES, &out, &why_not));
	uint32_t counts = model_count_type(&out);
	uint32_t fn = node_at(&out, "f", 2), l4 = node_at(&out, "f", 4), l5 = node_at(&out, "f", 5);
	CHECK(counts != NO_ID && fn != NO_ID && l4 != NO_ID && l5 != NO_ID);
	if (counts != NO_ID && fn != NO_ID && l4 != NO_ID && l5 != NO_ID) {
		CHECK_CLOSE(node_value(&out, l4, 0), 30, "line 4's time");
		CHECK_CLOSE(node_value(&out, l5, 0), 30, "line 5's time");
		CHECK_CLOSE(node_value(&out, l4, counts), 2, "line 4's samples");
		CHECK_CLOSE(node_value(&out, l5, counts), 1, "line 5's samples");
		CHECK(out.caps & HAS_TIMELINE);
		CHECK(out.nsamples == 3);
		/* Whole microseconds: a range's sums can move (range.c). */
		CHECK(out.integral_samples == 3);
		CHECK(out.nsample_offsets == 1 && out.sample_offsets[0] == 0);
		for (size_t i = 0; i < out.nsamples && i < 3; i++) {
			CHECK(out.sample_node[i] == fn);
			CHECK_CLOSE(out.sample_duration[i], 10.0 * (double)(i + 1), "a duration");
		}
	}
	/* A live session's copy owns its timeline: it outlives the model by
	 * functions (ASan would see it read after it is freed). */
	model_own_timeline(&out);
	CHECK(!out.durations_borrowed);
	CHECK(!out.sample_nodes_borrowed);
	model_free(&src);
	for (size_t i = 0; i < out.nsamples && i < 3; i++) {
		CHECK_CLOSE(out.sample_duration[i], 10.0 * (double)(i + 1), "a duration of its own");
		CHECK(out.sample_node[i] == fn);
	}
	model_free(&out);
	return check_done();
}
