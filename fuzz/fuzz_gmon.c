/* libFuzzer harness: any bytes as a gmon.out of testdata's `validate`
 * executable (its symbols make the arcs and histograms mean something),
 * then the rules and every view, including gprof's text reports. */
#include <stddef.h>
#include <stdint.h>

#include "fuzz/fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct input in;
	struct model m;
	struct load_error err;
	struct load_options opt = { .exe = FUZZ_GMON_EXE, .session = -1 };
	input_from_memory(&in, data, size, "fuzz");
	bool loaded = load_gmon(&in, &m, &opt, &err);
	input_close(&in);
	if (!loaded)
		return 0;
	fuzz_views(&m);
	fuzz_gprof_reports(&m);
	model_free(&m);
	return 0;
}
