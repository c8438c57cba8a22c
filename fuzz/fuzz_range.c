/* libFuzzer harness for time ranges: the first line of the input as a
 * --range spec (read, and resolved against what loads), the rest through
 * the .cpuprofile loader, then the cut to that range (with and without
 * its samples) through every rule and view: nothing may crash, hang or
 * leak, and a cut never holds more than the profile. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "fuzz/fuzz_common.h"
#include "transform/range.h"

static void cut_and_view(const struct model *m, struct sample_range r, bool keep)
{
	struct model cut;
	const char *why_not;
	if (!model_cut_range(m, r, keep, &cut, &why_not))
		return;
	if (cut.nnodes > m->nnodes || cut.nsamples > m->nsamples)
		abort();
	fuzz_views(&cut);
	fuzz_lines(&cut);
	model_free(&cut);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const uint8_t *newline = memchr(data, '\n', size);
	size_t spec_len = newline ? (size_t)(newline - data) : size;
	char spec_text[128];
	if (spec_len >= sizeof(spec_text))
		return 0;
	memcpy(spec_text, data, spec_len);
	spec_text[spec_len] = 0;
	struct range_spec spec;
	char why[256];
	bool parsed = range_parse(spec_text, &spec, why, sizeof(why));
	if (!newline)
		return 0;
	struct input in;
	struct model m;
	struct load_error err;
	struct load_options opt = { .session = -1 };
	input_from_memory(&in, newline + 1, size - spec_len - 1, "fuzz");
	bool loaded = load_cpuprofile(&in, &m, &opt, &err);
	input_close(&in); /* gzip data inflates into the input's buffers */
	if (!loaded)
		return 0;
	struct sample_range r;
	if (parsed && range_resolve(&m, &spec, &r, why, sizeof(why))) {
		cut_and_view(&m, r, true);
		cut_and_view(&m, r, false);
		char text[160];
		range_describe(&m, r, true, text, sizeof(text));
	}
	model_free(&m);
	return 0;
}
