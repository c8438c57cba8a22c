/* libFuzzer harness: any bytes through the WasmProf arc parser, fed in
 * two pieces split where the first byte says (the parser must not care),
 * then the rules, every view and gprof's text reports. */
#include <stddef.h>
#include <stdint.h>

#include "fuzz/fuzz_common.h"
#include "loaders/arcs.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct arcs_parser *p = arcs_parser_new();
	struct load_error err;
	struct model m;
	size_t split = size ? data[0] % (size + 1) : 0;
	bool ok = arcs_parser_feed(p, data, split, &err) &&
		  arcs_parser_feed(p, data + split, size - split, &err) &&
		  arcs_parser_end(p, &err) && arcs_parser_model(p, &m, &err);
	arcs_parser_free(p);
	if (!ok)
		return 0;
	fuzz_views(&m);
	fuzz_gprof_reports(&m);
	model_free(&m);
	return 0;
}
