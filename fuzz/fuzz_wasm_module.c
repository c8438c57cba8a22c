/* libFuzzer harness for the wasm module reader (loaders/wasm_module.h)
 * and symbol maps: nothing may crash, hang or leak, and what it reads
 * lies inside the input: every body and custom section within the
 * bytes, every name found again by its name. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "loaders/wasm_module.h"

static void check_inside(const struct wasm_module *w)
{
	for (uint32_t i = 0; i < w->nfuncs; i++) {
		const struct wasm_function *f = &w->funcs[i];
		if ((uint64_t)f->body + f->body_size > w->len)
			abort();
		if (f->name && wasm_module_find_name(w, f->name) > i)
			abort();
	}
	for (size_t i = 0; i < w->ncustom; i++)
		if ((uint64_t)w->custom[i].offset + w->custom[i].size > w->len ||
		    wasm_module_custom(w, w->custom[i].name) > &w->custom[i])
			abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t *copy = xmalloc(size + 1);
	memcpy(copy, data, size);
	struct wasm_module w;
	struct load_error err;
	if (wasm_module_parse(&w, copy, size, &err))
		check_inside(&w);
	wasm_module_free(&w);
	return 0;
}
