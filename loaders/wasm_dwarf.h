/* Where each function of a WebAssembly module comes from, by its DWARF
 * (.debug_info and .debug_line custom sections), read with libdwarf
 * through its object access interface: the module's custom sections are
 * served to it as an object file's sections. */
#ifndef WPROF_WASM_DWARF_H
#define WPROF_WASM_DWARF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "loaders.h"
#include "wasm_module.h"

/* A subprogram with code: its DW_AT_low_pc (an offset from the start of
 * the code section's payload), name, DW_AT_decl_file and decl_line
 * (file NULL, line -1 when the DWARF leaves them out). */
struct wasm_source {
	uint64_t low_pc;
	char *name, *file;
	int32_t line;
};

struct wasm_sources {
	struct wasm_source *funcs; /* in low_pc order */
	size_t n;
};

/* The sources of w's functions; false (with libdwarf's reason) when its
 * DWARF cannot be read, true with none when it has no .debug_info. */
bool wasm_dwarf_read(const struct wasm_module *w, struct wasm_sources *out,
		     struct load_error *err);
/* The function whose low_pc is `low_pc`, NULL when none. */
const struct wasm_source *wasm_dwarf_at(const struct wasm_sources *s, uint64_t low_pc);
void wasm_sources_free(struct wasm_sources *s);

#endif
