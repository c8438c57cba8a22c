/* Source lines through filters and on hand-made data.  Numbers from go tool
 * pprof -list on testdata/lines/go/inline-lines.pprof (list.expected.txt):
 * main.hash 17: . 10ms, 19: 70ms 90ms, 20: 70ms 370ms, 21: 200ms 280ms,
 * 22: . 70ms; and positionTicks worked by hand. */
#include <string.h>

#include "tests/check.h"
#include "loaders/loaders.h"
#include "transform/range.h"
#include "transform/transform.h"
#include "rules/lines.h"
#include "input/source.h"
#include "base/util.h"

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

struct want_line { int32_t line; double self, total; };

/* The function's lines, in microseconds, equal `want` (and no others). */
static void check_lines(const struct model *m, const char *function,
			const struct want_line *want, size_t n, const char *what)
{
	struct line_profile p;
	lines_of_frame(m, frame_named(m, function), m->default_type, &p);
	CHECK_MSG(p.nrows == n, "%s: %s has %zu rows, not %zu", what, function, p.nrows, n);
	for (size_t i = 0; i < n; i++) {
		const struct line_row *r = row_at(&p, want[i].line);
		CHECK_MSG(r && fabs(r->self - want[i].self) < 1e-6 &&
			  fabs(r->total - want[i].total) < 1e-6,
			  "%s: %s line %d: %g %g, not %g %g", what, function, want[i].line,
			  r ? r->self : -1, r ? r->total : -1, want[i].self, want[i].total);
	}
	line_profile_free(&p);
}

#define CHECK_LINES(m, f, want, what) \
	check_lines(m, f, want, sizeof(want) / sizeof(want[0]), what)

/* `m` after one transform; false when it cannot be made. */
static bool transformed(const struct model *m, enum transform_kind kind,
			const char *text, struct model *out)
{
	struct transform_stack st = { 0 };
	char err[256];
	const char *why;
	bool ok = transform_push(&st, kind, NO_ID, text, err, sizeof(err)) &&
		  model_transform(m, st.items, st.n, out, &why);
	transform_stack_free(&st);
	CHECK_MSG(ok, "%s %s", transform_name(kind), text ? text : "");
	return ok;
}

/* go tool pprof -list 'main.hash|main.mix' with -trim_path=/tmp/h9go
 * -source_path=testdata/lines/go on inline-lines.pprof, unfiltered and
 * after each filter (the numbers a comment gives are pprof's). */
static const struct want_line hash_all[] = {
	{ 17, 0, 10e3 }, { 19, 70e3, 90e3 }, { 20, 70e3, 370e3 },
	{ 21, 200e3, 280e3 }, { 22, 0, 70e3 },
};
static const struct want_line mix_all[] = {
	{ 10, 120e3, 210e3 }, { 11, 0, 10e3 }, { 12, 60e3, 150e3 },
};

/* Filters that keep every sample keep every total per line as pprof has
 * them.  pprof puts a hidden callee's flat time at its caller's call
 * line; wprof-tui keeps it in the caller's self, not at a line, so the
 * lines' self stays what it was. */
static void check_values_kept(const struct model *m)
{
	static const struct { enum transform_kind kind; const char *text; } kept[] = {
		{ TF_HIDE, "runtime\\.asyncPreempt" }, /* pprof -hide: the same cum */
		{ TF_MERGE, "runtime\\.asyncPreempt" },
		{ TF_SHOW, "main" },                    /* pprof -show=main: the same cum */
		{ TF_COLLAPSE_RECURSION, NULL },
		{ TF_COLLAPSE_FILE, "runtime/" },
		{ TF_MINE, "/tmp/h9go" },
		{ TF_TAGROOT, "thread" },
	};
	for (size_t i = 0; i < sizeof(kept) / sizeof(kept[0]); i++) {
		struct model out;
		if (!transformed(m, kept[i].kind, kept[i].text, &out))
			continue;
		CHECK_LINES(&out, "main.hash", hash_all, transform_name(kept[i].kind));
		CHECK_LINES(&out, "main.mix (inline)", mix_all, transform_name(kept[i].kind));
		model_free(&out);
	}
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
	CHECK_LINES(&m, "main.hash", hash_all, "loaded");
	CHECK_LINES(&m, "main.mix (inline)", mix_all, "loaded");
	struct model out;
	/* Focus on main.hash: every sample of its lines goes through it. */
	if (transformed(&m, TF_FOCUS, "^main\\.hash$", &out)) {
		CHECK_LINES(&out, "main.hash", hash_all, "focus=main.hash");
		model_free(&out);
	}
	/* pprof -focus=main.mix: mix's lines as they were.  main.hash is
	 * above the focus: its lines' totals count stacks the focus drops
	 * (pprof: 20 300ms, 22 70ms), and the profile does not say which
	 * line called mix, so it shows none. */
	if (transformed(&m, TF_FOCUS, "main\\.mix", &out)) {
		CHECK_LINES(&out, "main.mix (inline)", mix_all, "focus=main.mix");
		check_lines(&out, "main.hash", NULL, 0, "focus=main.mix");
		model_free(&out);
	}
	/* pprof -ignore=runtime.asyncPreempt: flat 19 70ms, 20 70ms, 21 200ms;
	 * mix 10 120ms, 12 60ms.  Totals: the self alone, a lower bound. */
	if (transformed(&m, TF_IGNORE, "asyncPreempt", &out)) {
		static const struct want_line hash_ignored[] = {
			{ 19, 70e3, 70e3 }, { 20, 70e3, 70e3 }, { 21, 200e3, 200e3 } };
		static const struct want_line mix_ignored[] = {
			{ 10, 120e3, 120e3 }, { 12, 60e3, 60e3 } };
		CHECK_LINES(&out, "main.hash", hash_ignored, "ignore");
		CHECK_LINES(&out, "main.mix (inline)", mix_ignored, "ignore");
		model_free(&out);
	}
	/* pprof -prune_from=main.mix: main.hash as it was; mix's cum 210, 10,
	 * 150 (its flat there puts asyncPreempt's at mix's lines). */
	if (transformed(&m, TF_PRUNE_FROM, "main\\.mix", &out)) {
		CHECK_LINES(&out, "main.hash", hash_all, "prune_from");
		CHECK_LINES(&out, "main.mix (inline)", mix_all, "prune_from");
		model_free(&out);
	}
	check_values_kept(&m);
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

static uint32_t add_frame(struct model *m, const char *name, int32_t line)
{
	struct frame f = { .name = model_string(m, name, strlen(name)),
			   .url = model_string(m, "/src/f.go", 9), .extra = STR_NONE,
			   .line = line, .column = -1 };
	return model_intern_frame(m, &f);
}

static void add_node_line(struct model *m, uint32_t node, int32_t line, double self,
			  double total)
{
	uint32_t k = model_node_line(m, node, line);
	node_line_self(m, k)[0] = self;
	node_line_total(m, k)[0] = total;
}

static void add_tag(struct model *m, uint32_t node, const char *value, double samples)
{
	struct sample_label l = { .node = node, .key = model_string(m, "k", 1),
				  .str = model_string(m, value, strlen(value)),
				  .num_unit = STR_NONE };
	l.row = model_add_label_row(m, &samples);
	l.sample = l.row;
	model_add_label(m, &l);
}

/* By hand: f (self 3: line 5 2 samples, line 6 1) calls g at line 7; g
 * (self 4, line 10).  Labels k=a on 1 of f's samples and 3 of g's, k=b
 * on the others. */
static void pprof_like(struct model *m)
{
	model_init(m, "pprof");
	model_add_sample_type(m, "samples", "count");
	uint32_t f = model_add_child(m, NO_ID, add_frame(m, "f", 4));
	uint32_t g = model_add_child(m, f, add_frame(m, "g", 9));
	model_add_node_value(m, f, 0, 3);
	model_add_node_value(m, g, 0, 4);
	add_node_line(m, f, 5, 2, 2);
	add_node_line(m, f, 6, 1, 1);
	add_node_line(m, f, 7, 0, 4);
	add_node_line(m, g, 10, 4, 4);
	add_tag(m, f, "a", 1);
	add_tag(m, f, "b", 2);
	add_tag(m, g, "a", 3);
	add_tag(m, g, "b", 1);
	uint32_t cycle;
	model_finish(m, &cycle);
}

/* Labels are per sample, lines per node: a tag filter keeps a node's
 * lines in the share of the values it keeps. */
static void check_tag_filters(void)
{
	struct model m, out;
	pprof_like(&m);
	/* k=a: f keeps 1 of 3 samples, g 3 of 4. */
	if (transformed(&m, TF_TAGFOCUS, "k=a", &out)) {
		static const struct want_line f[] = {
			{ 5, 2.0 / 3, 2.0 / 3 }, { 6, 1.0 / 3, 1.0 / 3 }, { 7, 0, 3 } };
		static const struct want_line g[] = { { 10, 3, 3 } };
		CHECK_LINES(&out, "f", f, "tagfocus");
		CHECK_LINES(&out, "g", g, "tagfocus");
		model_free(&out);
	}
	/* Dropping k=a keeps f's 2 of 3 and g's 1 of 4. */
	if (transformed(&m, TF_TAGIGNORE, "k=a", &out)) {
		static const struct want_line f[] = {
			{ 5, 4.0 / 3, 4.0 / 3 }, { 6, 2.0 / 3, 2.0 / 3 }, { 7, 0, 1 } };
		CHECK_LINES(&out, "f", f, "tagignore");
		model_free(&out);
	}
	/* tagroot keeps every sample: each function's lines whole. */
	if (transformed(&m, TF_TAGROOT, "k", &out)) {
		static const struct want_line f[] = { { 5, 2, 2 }, { 6, 1, 1 }, { 7, 0, 4 } };
		CHECK_LINES(&out, "f", f, "tagroot");
		model_free(&out);
	}
	model_free(&m);
}

/* tagroot on a stack deeper than its first scratch space (16): the
 * labelled sample's copy is whole, its leaf's line with it (the scratch
 * space is reallocated on the way, and must be the caller's after). */
static void check_tag_root_deep(void)
{
	struct model m, out;
	model_init(&m, "pprof");
	model_add_sample_type(&m, "samples", "count");
	uint32_t v = NO_ID;
	char name[16];
	for (int depth = 0; depth < 40; depth++) {
		snprintf(name, sizeof(name), "f%d", depth);
		v = model_add_child(&m, v, add_frame(&m, name, depth + 1));
	}
	model_add_node_value(&m, v, 0, 2);
	add_node_line(&m, v, 50, 2, 2);
	add_tag(&m, v, "a", 2);
	uint32_t cycle;
	model_finish(&m, &cycle);
	if (transformed(&m, TF_TAGROOT, "k", &out)) {
		static const struct want_line leaf[] = { { 50, 2, 2 } };
		CHECK_LINES(&out, "f39", leaf, "tagroot, 40 deep");
		CHECK(out.nnodes == 41); /* the label's root, then the 40 frames */
		model_free(&out);
	}
	model_free(&m);
}

/* A range keeps a node's V8 ticks in the share of its samples in the
 * range, and pprof-like lines in the share of its values. */
static void check_range_lines(void)
{
	struct model m;
	model_init(&m, "cpuprofile");
	model_add_sample_type(&m, "time", "us");
	uint32_t f = model_add_child(&m, NO_ID, add_frame(&m, "f", 2));
	uint32_t g = model_add_child(&m, f, add_frame(&m, "g", 9));
	/* f: 4 samples of 10 us (ticks: line 3 once, line 4 three times);
	 * g: 2 samples, the last two. */
	uint32_t *nodes = xmalloc(6 * sizeof(uint32_t));
	double *durations = xmalloc(6 * sizeof(double));
	for (size_t i = 0; i < 6; i++) {
		nodes[i] = i < 4 ? f : g;
		durations[i] = 10;
	}
	model_adopt_samples(&m, nodes, durations, 6);
	model_add_line_ticks(&m, f, 3, 1);
	model_add_line_ticks(&m, f, 4, 3);
	add_node_line(&m, f, 3, 10, 10);
	add_node_line(&m, f, 4, 30, 50);  /* g called from line 4 */
	add_node_line(&m, g, 10, 20, 20);
	uint32_t cycle;
	model_finish(&m, &cycle);
	struct model cut;
	const char *why;
	/* Samples #1-#5: f's 4 (all its ticks) and one of g's 2. */
	CHECK(model_cut_range(&m, (struct sample_range){ 0, 5 }, true, &cut, &why));
	static const struct want_line f_cut[] = { { 3, 10, 10 }, { 4, 30, 40 } };
	static const struct want_line g_cut[] = { { 10, 10, 10 } };
	CHECK_LINES(&cut, "f", f_cut, "range #1-#5");
	CHECK_LINES(&cut, "g", g_cut, "range #1-#5");
	model_free(&cut);
	/* #3-#4: half of f's samples; ticks keep their proportion. */
	CHECK(model_cut_range(&m, (struct sample_range){ 2, 4 }, true, &cut, &why));
	uint32_t cf = frame_named(&cut, "f");
	double ticks[2] = { 0 };
	for (size_t i = 0; i < cut.nline_ticks; i++)
		if (cut.nodes[cut.line_ticks[i].node].frame == cf)
			ticks[cut.line_ticks[i].line - 3] += cut.line_ticks[i].ticks;
	CHECK(fabs(ticks[0] - 0.5) < 1e-9 && fabs(ticks[1] - 1.5) < 1e-9);
	static const struct want_line f_half[] = { { 3, 5, 5 }, { 4, 15, 15 } };
	CHECK_LINES(&cut, "f", f_half, "range #3-#4");
	model_free(&cut);
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
	/* The file's last line (43, "}" and the file's final break) without
	 * its break, as every other line. */
	text = source_line(&f, 43, &len);
	CHECK(text && len == 1 && text[0] == '}');
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
	check_tag_filters();
	check_tag_root_deep();
	check_range_lines();
	check_source_paths(dir);
	return check_done();
}
