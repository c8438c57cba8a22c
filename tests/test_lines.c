/* Source lines through filters and on hand-made data.  Numbers from go tool
 * pprof -list on testdata/lines/go/inline-lines.pprof (list.expected.txt):
 * main.hash 17: . 10ms, 19: 70ms 90ms, 20: 70ms 370ms, 21: 200ms 280ms,
 * 22: . 70ms; and positionTicks worked by hand. */
#include <string.h>

#include "check.h"
#include "loaders/loaders.h"
#include "src/filter.h"
#include "src/lines.h"
#include "src/source.h"
#include "src/util.h"

static uint32_t frame_named(const struct model *m, const char *name)
{
	for (uint32_t f = 0; f < m->nframes; f++)
		if (!strcmp(model_str(m, m->frames[f].name), name))
			return f;
	return NO_ID;
}

static const struct line_row *row_at(const struct line_profile *p, int32_t line)
{
	for (size_t i = 0; i < p->nrows; i++)
		if (p->rows[i].line == line)
			return &p->rows[i];
	return NULL;
}

/* main.hash's lines in microseconds, as pprof -list prints them. */
static void check_hash_lines(const struct model *m, const char *what)
{
	static const struct { int32_t line; double self, total; } want[] = {
		{ 17, 0, 10e3 }, { 19, 70e3, 90e3 }, { 20, 70e3, 370e3 },
		{ 21, 200e3, 280e3 }, { 22, 0, 70e3 },
	};
	struct line_profile p;
	lines_of_frame(m, frame_named(m, "main.hash"), m->default_type, &p);
	CHECK_MSG(p.nrows == 5 && p.has_total, "%s: %zu rows", what, p.nrows);
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		const struct line_row *r = row_at(&p, want[i].line);
		CHECK_MSG(r && fabs(r->self - want[i].self) < 1e-6 &&
			  fabs(r->total - want[i].total) < 1e-6, "%s: line %d", what,
			  want[i].line);
	}
	line_profile_free(&p);
}

static void check_pprof_filtered(const char *dir)
{
	char path[1024];
	snprintf(path, sizeof(path), "%s/lines/go/inline-lines.pprof", dir);
	struct model m;
	struct load_options opt = { .session = -1 };
	struct load_error err;
	CHECK(load_file(path, &opt, &m, &err, NULL));
	if (!m.finished)
		return;
	check_hash_lines(&m, "loaded");
	/* Focus on main.hash: every sample of its lines goes through it. */
	struct model focused;
	const char *why;
	struct stack_filter focus = { .focus = frame_named(&m, "main.hash") };
	CHECK(model_filter_stacks(&m, &focus, &focused, &why));
	check_hash_lines(&focused, "focused on main.hash");
	model_free(&focused);
	/* Focus on main.mix (inline): main.hash is above the focus, its
	 * lines count stacks the focus drops, so it shows none. */
	struct stack_filter on_mix = { .focus = frame_named(&m, "main.mix (inline)") };
	CHECK(model_filter_stacks(&m, &on_mix, &focused, &why));
	struct line_profile p;
	lines_of_frame(&focused, frame_named(&focused, "main.hash"), m.default_type, &p);
	CHECK(p.nrows == 0 || p.origin != LINES_SAMPLED);
	line_profile_free(&p);
	lines_of_frame(&focused, frame_named(&focused, "main.mix (inline)"), m.default_type, &p);
	CHECK(row_at(&p, 10) && fabs(row_at(&p, 10)->self - 120e3) < 1e-6 &&
	      fabs(row_at(&p, 10)->total - 210e3) < 1e-6);
	line_profile_free(&p);
	model_free(&focused);
	model_free(&m);
}

/* A V8-like tree by hand: f (0-based line 4) with 30 us of self over
 * lines 7 (1 tick) and 8 (2 ticks); no totals per line. */
static void check_ticks(void)
{
	struct model m;
	model_init(&m, "cpuprofile");
	model_add_sample_type(&m, "time", "us");
	struct frame root = { .name = model_string(&m, "(root)", 6), .url = STR_NONE,
			      .extra = STR_NONE, .line = -1, .column = -1 };
	struct frame f = { .name = model_string(&m, "f", 1),
			   .url = model_string(&m, "file:///x.js", 12), .extra = STR_NONE,
			   .line = 4, .column = 0 };
	uint32_t r = model_add_child(&m, NO_ID, model_intern_frame(&m, &root));
	uint32_t v = model_add_child(&m, r, model_intern_frame(&m, &f));
	model_add_node_value(&m, v, 0, 30);
	model_add_line_ticks(&m, v, 7, 1);
	model_add_line_ticks(&m, v, 8, 2);
	m.lines_zero_based = true;
	uint32_t cycle;
	model_finish(&m, &cycle);
	struct line_profile p;
	lines_of_frame(&m, m.nodes[v].frame, 0, &p);
	CHECK(p.nrows == 2 && !p.has_total && p.start_line == 5);
	CHECK(row_at(&p, 7) && fabs(row_at(&p, 7)->self - 10) < 1e-9 && isnan(row_at(&p, 7)->total));
	CHECK(row_at(&p, 8) && fabs(row_at(&p, 8)->self - 20) < 1e-9);
	int32_t first, last;
	lines_window(&p, &first, &last);
	CHECK(first == 5 && last == 13); /* pprof: from the start, 5 lines after the first */
	line_profile_free(&p);
	model_free(&m);
}

static void check_source_paths(const char *dir)
{
	char sources[1024];
	snprintf(sources, sizeof(sources), "%s/lines", dir);
	const char *dirs[] = { "/nonexistent", sources };
	const char *trims[] = { "/tmp/h9go/" };
	struct source_options o = { dirs, 2, trims, 1 };
	struct source_file f;
	/* Trimmed, then under each directory and each shorter tail: found as
	 * lines/go/main.go by the tail "go/main.go" of /build/x/go/main.go. */
	CHECK(source_find(&o, "file:///build/x/go/main.go", &f));
	size_t len;
	const char *text = source_line(&f, 9, &len);
	CHECK(text && len == 27 && !strncmp(text, "func mix(x uint64) uint64 {", 27));
	CHECK(source_line(&f, 0, &len) == NULL && source_line(&f, 100000, &len) == NULL);
	source_file_free(&f);
	CHECK(!source_find(&o, "/tmp/h9go/nothing.go", &f));
	CHECK(f.tried && strstr(f.tried, "/nonexistent/nothing.go"));
	source_file_free(&f);
	CHECK(!strcmp(source_shown_path(&o, "/tmp/h9go/main.go"), "main.go"));
}

int main(int argc, char **argv)
{
	const char *dir = argc > 1 ? argv[1] : "testdata";
	check_pprof_filtered(dir);
	check_ticks();
	check_source_paths(dir);
	return check_done();
}
