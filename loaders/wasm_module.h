/* A WebAssembly module's layout as a symbolizer needs it: the function
 * index space (imported functions first, as V8's wasm-function[N] and
 * wasm-objdump's func[N] count), where each defined function's body
 * lies in the file, the `name` section's function names, the custom
 * sections (DWARF's .debug_*) and the `external_debug_info` file a
 * -gseparate-dwarf build names.  Also Emscripten's --emit-symbol-map
 * file (`N:name` lines), which gives names by index and nothing else. */
#ifndef WPROF_WASM_MODULE_H
#define WPROF_WASM_MODULE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "loaders.h"

struct wasm_function {
	uint32_t body;      /* offset in the file of the body (after its size
			     * LEB); 0 for an imported function */
	uint32_t body_size; /* 0 for an imported function */
	char *name;         /* the name section's, NULL when none */
};

struct wasm_section {
	char *name;         /* a custom section's name */
	uint32_t offset;    /* of its payload (after the name) in the file */
	uint32_t size;
};

struct wasm_module {
	bool symbol_map;          /* an Emscripten symbol map: names only */
	struct wasm_function *funcs; /* the function index space */
	uint32_t nfuncs, nimported;
	uint32_t code_payload;    /* where the code section's payload starts:
				   * DWARF's addresses are offsets from it */
	struct wasm_section *custom;
	size_t ncustom;
	char *external_debug_info; /* NULL when none */
	uint8_t *bytes;           /* the file, owned */
	size_t len;
};

/* Reads `len` bytes of a module or symbol map (taking ownership of
 * `bytes`, malloc'd); fails with "wasm module, byte N: what" or
 * "symbol map, line N: what" in err. */
bool wasm_module_parse(struct wasm_module *w, uint8_t *bytes, size_t len,
		       struct load_error *err);
/* Reads the file at path likewise. */
bool wasm_module_read(struct wasm_module *w, const char *path, struct load_error *err);
void wasm_module_free(struct wasm_module *w);

/* The function whose name is `name`, or UINT32_MAX. */
uint32_t wasm_module_find_name(const struct wasm_module *w, const char *name);
/* A custom section by name, NULL when the module has none. */
const struct wasm_section *wasm_module_custom(const struct wasm_module *w,
					       const char *name);

#endif
