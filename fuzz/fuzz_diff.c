/* libFuzzer harness: a .cpuprofile compared with itself, as --diff and the
 * split screen would: pairing, the delta rows under every rule, absolute
 * and normalized, and the counterpart of every top-down row. */
#include <stddef.h>
#include <stdint.h>

#include "fuzz/fuzz_common.h"
#include "compare/diff.h"

static void mirror_rows(struct diff *d, struct rules *rules)
{
	struct view_context ctx = { .model = rules->model, .rules = rules,
				    .rule = d->rule, .focus_frame = NO_ID };
	struct view from, to;
	view_open(&from, VIEW_TOPDOWN, &ctx);
	view_open(&to, VIEW_TOPDOWN, &ctx);
	view_expand_all(&from, SIZE_MAX, 16, 10000);
	bool whole;
	for (size_t i = 0; i < from.nrows; i++)
		diff_mirror_row(d, DIFF_BASE, &from, i, &to, &whole);
	view_close(&from);
	view_close(&to);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct input in;
	struct model m;
	struct load_error err;
	struct load_options opt = { .session = -1 };
	input_from_memory(&in, data, size, "fuzz");
	bool loaded = load_cpuprofile(&in, &m, &opt, &err);
	input_close(&in);
	if (!loaded)
		return 0;
	struct rules base, new_side;
	rules_init(&base, &m);
	rules_init(&new_side, &m);
	struct diff d;
	diff_init(&d, &base, &new_side);
	for (int rule = 0; rule < RULE_COUNT; rule++)
		for (int normalize = 0; normalize < 2; normalize++) {
			d.rule = (enum rule)rule;
			d.normalize = normalize;
			diff_build(&d);
		}
	mirror_rows(&d, &base);
	diff_free(&d);
	rules_free(&base);
	rules_free(&new_side);
	model_free(&m);
	return 0;
}
