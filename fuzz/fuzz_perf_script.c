/* libFuzzer harness: any bytes through the perf script loader, all
 * threads and then one picked by id, then the rules and every view. */
#include <stddef.h>
#include <stdint.h>

#include "fuzz/fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_load_and_view(data, size, load_perf_script);
	struct input in;
	struct model m;
	struct load_error err;
	struct load_options opt = { .session = -1, .thread = "10" };
	input_from_memory(&in, data, size, "fuzz");
	if (load_perf_script(&in, &m, &opt, &err)) {
		fuzz_views(&m);
		model_free(&m);
	}
	input_close(&in);
	return 0;
}
