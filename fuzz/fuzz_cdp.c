/* libFuzzer harness: any bytes as two Profiler.stop results (split where
 * the first byte says) folded into one inspector session, then the
 * session's .cpuprofile through the loader, the rules and every view. */
#include <stddef.h>
#include <stdint.h>

#include "fuzz/fuzz_common.h"
#include "live/cdp.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct cdp *c = cdp_new_session();
	char err[300];
	size_t split = size ? data[0] % (size + 1) : 0;
	cdp_fold_json(c, (const char *)data, split, err, sizeof(err));
	cdp_fold_json(c, (const char *)data + split, size - split, err, sizeof(err));
	struct model m;
	if (cdp_session_model(c, &m, err, sizeof(err))) {
		fuzz_views(&m);
		model_free(&m);
	}
	cdp_free(c);
	return 0;
}
