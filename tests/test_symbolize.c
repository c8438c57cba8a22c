/* The symbolization pass (src/transform/symbolize.h) on a model built by
 * hand: two generated functions that are one original merge with their
 * values, samples, ticks and calls; an unmapped frame keeps its name and
 * says why; the generated place and the summary stay. */
#include <string.h>

#include "tests/check.h"
#include "transform/symbolize.h"
#include "base/util.h"

static uint32_t frame(struct model *m, const char *name, const char *url,
		      int32_t column, enum frame_kind kind)
{
	struct frame f = { .line = url ? 0 : -1, .column = column, .kind = (uint8_t)kind };
	f.name = model_string(m, name, strlen(name));
	f.url = model_string(m, url ? url : "", url ? strlen(url) : 0);
	f.extra = STR_NONE;
	return model_intern_frame(m, &f);
}

enum { ROOT, A, B, C };

/* root -> a -> c, root -> b -> c, samples in time order on every node. */
static void build(struct model *m)
{
	model_init(m, "cpuprofile");
	model_add_sample_type(m, "time", "us");
	m->lines_zero_based = true;
	uint32_t root = frame(m, "(root)", NULL, -1, KIND_ROOT);
	uint32_t a = frame(m, "a", "bundle.js", 10, KIND_JS);
	uint32_t b = frame(m, "b", "bundle.js", 50, KIND_JS);
	uint32_t c = frame(m, "c", "bundle.js", 90, KIND_JS);
	uint32_t n0 = model_add_child(m, NO_ID, root);
	uint32_t n1 = model_add_child(m, n0, a), n2 = model_add_child(m, n0, b);
	uint32_t n3 = model_add_child(m, n1, c), n4 = model_add_child(m, n2, c);
	model_add_sample(m, n1, 10);
	model_add_sample(m, n3, 20);
	model_add_sample(m, n2, 5);
	model_add_sample(m, n4, 7);
	model_add_sample(m, n0, 1);
	model_add_line_ticks(m, n1, 1, 3);
	model_add_line_ticks(m, n2, 1, 4);
	model_add_line_ticks(m, n3, 1, 2);
	uint32_t cycle;
	CHECK(model_finish(m, &cycle));
}

/* Generated line 1 is original line 7; nothing else is mapped. */
static int32_t tick_line(void *ctx, uint32_t f, int32_t line)
{
	(void)ctx;
	return (f == A || f == B) && line == 1 ? 7 : -1;
}

static uint32_t find(const struct model *m, const char *name)
{
	for (uint32_t f = 0; f < m->nframes; f++)
		if (!strcmp(model_str(m, m->frames[f].name), name))
			return f;
	return NO_ID;
}

static double self_of(const struct model *m, uint32_t f)
{
	double sum = 0;
	for (uint32_t v = 0; v < m->nnodes; v++)
		if (m->nodes[v].frame == f)
			sum += node_value(m, v, 0);
	return sum;
}

static double ticks_at(const struct model *m, uint32_t f, int32_t line)
{
	double sum = 0;
	for (size_t i = 0; i < m->nline_ticks; i++)
		if (m->nodes[m->line_ticks[i].node].frame == f && m->line_ticks[i].line == line)
			sum += m->line_ticks[i].ticks;
	return sum;
}

static void fill(struct symbols *s, const struct model *m)
{
	symbols_init(s, m);
	s->frames[A] = (struct symbol){ .mapped = true, .name = "original",
					.url = "src/f.js", .line = 2, .column = 0,
					.third_party = true };
	s->frames[B] = s->frames[A];
	s->frames[C].why_not = "no mapping at 1:91";
	s->tick_line = tick_line;
	s->summary = "source maps: 1 of 1 scripts";
}

static void test_merge(void)
{
	struct model m;
	build(&m);
	struct symbols s;
	fill(&s, &m);
	symbolize_model(&m, &s);
	symbols_free(&s);

	uint32_t f = find(&m, "original"), c = find(&m, "c"), root = find(&m, "(root)");
	CHECK(f != NO_ID && c != NO_ID && root != NO_ID);
	CHECK(find(&m, "a") == NO_ID && find(&m, "b") == NO_ID);
	CHECK(!strcmp(model_str(&m, m.frames[f].url), "src/f.js"));
	CHECK(m.frames[f].line == 2 && m.frames[f].column == 0);
	CHECK(m.frames[f].flags & FRAME_THIRD_PARTY);
	/* root -> original -> c: the siblings became one node. */
	CHECK(m.nnodes == 3);
	CHECK(self_of(&m, f) == 15 && self_of(&m, c) == 27 && self_of(&m, root) == 1);
	CHECK(m.narcs == 2);
	CHECK(model_find_arc(&m, root, f) != NO_ID && model_find_arc(&m, f, c) != NO_ID);

	/* The timeline: the same durations in the same order. */
	static const double durations[] = { 10, 20, 5, 7, 1 };
	const uint32_t *want_frames = (const uint32_t[]){ f, c, f, c, root };
	CHECK(m.nsamples == 5 && (m.caps & HAS_TIMELINE));
	for (size_t i = 0; i < 5 && i < m.nsamples; i++) {
		CHECK(m.sample_duration[i] == durations[i]);
		CHECK(m.nodes[m.sample_node[i]].frame == want_frames[i]);
	}

	/* Ticks of mapped frames move to the original line; others stay. */
	CHECK(ticks_at(&m, f, 7) == 7 && ticks_at(&m, f, 1) == 0);
	CHECK(ticks_at(&m, c, 1) == 2);

	/* The first generated frame's place, and why c kept its name. */
	const struct frame_origin *o = symbol_origin(&m, f);
	CHECK(o && !strcmp(model_str(&m, o->url), "bundle.js"));
	CHECK(o && o->line == 0 && o->column == 10 && o->why_not == STR_NONE);
	o = symbol_origin(&m, c);
	CHECK(o && o->url == STR_NONE && !strcmp(model_str(&m, o->why_not), "no mapping at 1:91"));
	CHECK(symbol_origin(&m, root) == NULL);
	CHECK(!strcmp(model_str(&m, m.symbols), "source maps: 1 of 1 scripts"));

	/* A second pass keeps the first pass's origins, maps what the first
	 * could not, and adds its note. */
	symbols_init(&s, &m);
	s.frames[c] = (struct symbol){ .mapped = true, .name = "cc", .url = "src/c.js",
				       .line = 4, .column = 2 };
	s.summary = "symbols: app.wasm (name section)";
	symbolize_model(&m, &s);
	symbols_free(&s);
	f = find(&m, "original");
	uint32_t cc = find(&m, "cc");
	CHECK(cc != NO_ID && self_of(&m, cc) == 27);
	o = symbol_origin(&m, cc);
	CHECK(o && o->why_not == STR_NONE && !strcmp(model_str(&m, o->url), "bundle.js"));
	CHECK(o && o->column == 90);
	o = symbol_origin(&m, f);
	CHECK(o && o->column == 10);
	CHECK(!strcmp(model_str(&m, m.symbols),
		      "source maps: 1 of 1 scripts; symbols: app.wasm (name section)"));
	model_free(&m);
}

int main(void)
{
	test_merge();
	return check_done();
}
