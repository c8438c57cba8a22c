/* libFuzzer harness: any bytes through the folded-stacks loader, both
 * count columns (the second only loads from the differential form),
 * then the rules and every view. */
#include <stddef.h>
#include <stdint.h>

#include "fuzz/fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_load_and_view(data, size, load_folded);
	struct input in;
	struct model m;
	struct load_error err;
	struct load_options opt = { .session = -1, .count_column = 1 };
	input_from_memory(&in, data, size, "fuzz");
	if (load_folded(&in, &m, &opt, &err)) {
		fuzz_views(&m);
		model_free(&m);
	}
	input_close(&in);
	return 0;
}
