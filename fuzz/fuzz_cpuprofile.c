/* libFuzzer harness: any bytes through the .cpuprofile loader, then the
 * rules and every view, which must not crash, hang or leak; and the
 * loader's second thread must change nothing: loaded with it and
 * without (load_options.one_thread), the same model or the same
 * message, else the run aborts. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "fuzz/fuzz_common.h"

static bool load_once(const uint8_t *data, size_t size, bool one_thread, struct model *m,
		      struct load_error *err)
{
	struct input in;
	struct load_options opt = { .session = -1, .one_thread = one_thread };
	input_from_memory(&in, data, size, "fuzz");
	bool ok = load_cpuprofile(&in, m, &opt, err);
	input_close(&in);
	return ok;
}

static bool same_bytes(const void *a, const void *b, size_t n)
{
	return n == 0 || !memcmp(a, b, n);
}

static void check_one_thread_same(const uint8_t *data, size_t size)
{
	struct model a, b;
	struct load_error ea, eb;
	bool ok_a = load_once(data, size, false, &a, &ea);
	bool ok_b = load_once(data, size, true, &b, &eb);
	if (ok_a != ok_b || (!ok_a && strcmp(ea.message, eb.message)))
		__builtin_trap();
	if (!ok_a)
		return;
	if (a.nnodes != b.nnodes || a.nframes != b.nframes || a.nsamples != b.nsamples ||
	    a.strings.used != b.strings.used ||
	    !same_bytes(a.strings.arena, b.strings.arena, a.strings.used) ||
	    !same_bytes(a.frames, b.frames, a.nframes * sizeof(*a.frames)) ||
	    !same_bytes(a.nodes, b.nodes, a.nnodes * sizeof(*a.nodes)) ||
	    !same_bytes(a.node_self, b.node_self, a.nnodes * a.ntypes * sizeof(double)) ||
	    !same_bytes(a.sample_node, b.sample_node, a.nsamples * sizeof(uint32_t)) ||
	    !same_bytes(a.sample_duration, b.sample_duration, a.nsamples * sizeof(double)))
		__builtin_trap();
	model_free(&a);
	model_free(&b);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_load_and_view(data, size, load_cpuprofile);
	check_one_thread_same(data, size);
	return 0;
}
