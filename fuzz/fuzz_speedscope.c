/* libFuzzer harness: any bytes through the speedscope JSON loader, then
 * the rules and every view, which must not crash, hang or leak. */
#include <stddef.h>
#include <stdint.h>

#include "fuzz/fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_load_and_view(data, size, load_speedscope);
	return 0;
}
