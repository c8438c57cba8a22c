/* What every loader harness does with a model that loaded: compute each
 * rule and build each view fully, as --report would. */
#ifndef WPROF_FUZZ_COMMON_H
#define WPROF_FUZZ_COMMON_H

#include <stdint.h>
#include <stdio.h>

#include <stdlib.h>

#include "loaders/loaders.h"
#include "output/gprof_report.h"
#include "model/sample_counts.h"
#include "transform/transform.h"
#include "transform/granularity.h"
#include "output/report_lines.h"
#include "rules/rules.h"
#include "base/util.h"
#include "views/view.h"

static inline void fuzz_views(struct model *m)
{
	struct rules rules;
	rules_init(&rules, m);
	for (int rule = 0; rule < RULE_COUNT; rule++) {
		struct view_context ctx = { .model = m, .rules = &rules,
					    .rule = (enum rule)rule,
					    .focus_frame = NO_ID };
		for (int kind = 0; kind < VIEW_COUNT; kind++) {
			struct view v;
			view_open(&v, (enum view_kind)kind, &ctx);
			view_expand_all(&v, SIZE_MAX, 64, 100000);
			view_close(&v);
		}
	}
	rules_free(&rules);
}

/* gprof's own text layouts, for data the gprof rule applies to. */
static inline void fuzz_gprof_reports(struct model *m)
{
	struct rules rules;
	rules_init(&rules, m);
	struct view_context ctx = { .model = m, .rules = &rules,
				    .rule = RULE_GPROF, .focus_frame = NO_ID };
	struct view v;
	view_open(&v, VIEW_FLAT, &ctx);
	FILE *sink = fopen("/dev/null", "w");
	if (sink && v.totals->gprof) {
		gprof_print_flat(sink, &v);
		gprof_print_callgraph(sink, &v);
	}
	if (sink)
		fclose(sink);
	view_close(&v);
	rules_free(&rules);
}

/* Every function's lines (--report lines --function .) and the model by
 * files and by lines, with its views. */
static inline void fuzz_lines(struct model *m)
{
	FILE *sink = fopen("/dev/null", "w");
	struct source_options none = { 0 };
	struct lines_report rep = { "fuzz", REPORT_TEXT, ".", m->default_type, &none };
	char err[256];
	for (int format = 0; sink && format < REPORT_FORMAT_COUNT; format++) {
		rep.format = (enum report_format)format;
		report_lines(sink, m, &rep, err, sizeof(err));
	}
	if (sink)
		fclose(sink);
	for (int g = GRANULARITY_FILES; g < GRANULARITY_COUNT; g++) {
		struct model by;
		const char *why_not;
		if (model_by_granularity(m, (enum granularity)g, &by, &why_not)) {
			fuzz_views(&by);
			model_free(&by);
		}
	}
}

/* The explorer's filter stack over whatever loaded (focus on the first
 * frame, then hide the last: src/transform.h) with the lines it keeps,
 * and its sample counts. */
static inline void fuzz_filters(struct model *m)
{
	if (!m->nframes)
		return;
	struct transform_stack stack = { 0 };
	char err[256];
	struct model copy;
	const char *why_not;
	if (transform_push(&stack, TF_FOCUS, 0, NULL, err, sizeof(err)) &&
	    transform_push(&stack, TF_HIDE, (uint32_t)(m->nframes - 1), NULL, err,
			   sizeof(err)) &&
	    model_transform(m, stack.items, stack.n, &copy, &why_not)) {
		fuzz_views(&copy);
		fuzz_lines(&copy);
		model_free(&copy);
	}
	transform_stack_free(&stack);
	model_add_sample_counts(m);
	fuzz_views(m);
}

/* Past this many nodes the derived models (by granularity, filtered, pprof
 * read by line) are not built: a seed that large (the million-frame
 * recursion in testdata/fuzz-regressions) would build nine models of a
 * million nodes, each with every view under every rule, past the
 * fuzzer's timeout under ASan.  The derivations are linear in the nodes
 * (tests/e2e/linear_time.py) and every smaller input covers them. */
#define FUZZ_DERIVE_MAX_NODES 100000

static inline void fuzz_load_and_view(const uint8_t *data, size_t size,
				      load_fn *load)
{
	struct input in;
	struct model m;
	struct load_error err;
	struct load_options opt = { .session = -1 };
	input_from_memory(&in, data, size, "fuzz");
	bool loaded = load(&in, &m, &opt, &err); /* on failure it frees what it built */
	input_close(&in); /* gzip bytes are inflated into buffers of its own */
	if (!loaded)
		return;
	fuzz_views(&m);
	bool derive = m.nnodes <= FUZZ_DERIVE_MAX_NODES;
	if (derive) {
		fuzz_lines(&m);
		fuzz_filters(&m);
	}
	model_free(&m);
	/* pprof read by line as well (--granularity lines); no other loader
	 * reads by_line, and reading twice would double the time of a gzip
	 * input that inflates to the limit. */
	if (load != load_pprof || !derive)
		return;
	opt.by_line = true;
	input_from_memory(&in, data, size, "fuzz");
	loaded = load(&in, &m, &opt, &err);
	input_close(&in);
	if (loaded) {
		fuzz_lines(&m);
		model_free(&m);
	}
}

#endif
