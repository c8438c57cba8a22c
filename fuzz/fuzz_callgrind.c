/* libFuzzer harness: any bytes through the callgrind.out loader, then the
 * rules (gprof with measured arc costs) and every view. */
#include <stddef.h>
#include <stdint.h>

#include "fuzz/fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_load_and_view(data, size, load_callgrind);
	return 0;
}
