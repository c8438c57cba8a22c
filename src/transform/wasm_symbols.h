/* --symbols: the wasm frames of a loaded profile named and placed from
 * the modules (or Emscripten symbol maps) the user has, through the
 * symbolization pass (symbolize.h).
 *
 * Each module of the profile (a wasm:// url) takes the first symbol
 * file that fits it: every frame of the url found in the file, by
 * function index where the profile says wasm-function[N], by name where
 * it has names, and by body offset only where the file's layout is the
 * one that ran (every frame's offset differs from the file's body by the
 * same amount: llvm-strip moves the code section, never a body).  A
 * frame then takes the name section's name and its DWARF subprogram's
 * file and line (decl_file, decl_line; the module's own .debug_* or the
 * external_debug_info file beside it).  A file named on the command line
 * that fits no module is refused, with why; files found in a directory
 * that fit none are passed over. */
#ifndef WPROF_WASM_SYMBOLS_H
#define WPROF_WASM_SYMBOLS_H

#include <stdbool.h>
#include <stddef.h>

#include "model/model.h"

/* Applies the symbol files and directories `paths` to the finished m;
 * false with the reason in `why` (naming the file) when one cannot be
 * read or does not fit, m then unchanged. */
bool wasm_symbols_apply(struct model *m, const char *const *paths, size_t npaths,
			char *why, size_t cap);

/* The same for model after model of one session (live refreshes): the
 * files read once (open: false with why when one cannot be), their DWARF
 * when first they fit, each model's modules bound to them anew (map:
 * false with why, m unchanged, as wasm_symbols_apply). */
struct wasm_symbols;
struct wasm_symbols *wasm_symbols_open(const char *const *paths, size_t npaths, char *why,
				       size_t cap);
bool wasm_symbols_map(struct wasm_symbols *ws, struct model *m, char *why, size_t cap);
void wasm_symbols_free(struct wasm_symbols *ws);

#endif
