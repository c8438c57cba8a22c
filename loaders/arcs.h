/* WasmProf call arcs as text, one host call per line (docs/formats.md):
 *   name ID NAME [FILE:LINE]     add SRC DST COUNT TIME_MS
 *   set SRC DST COUNT TIME_MS    clear      print
 * A streaming parser: bytes may arrive split anywhere (a file read in
 * chunks, a socket in live mode); a model can be made after any `print`. */
#ifndef WPROF_ARCS_H
#define WPROF_ARCS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "loaders.h"

struct arcs_parser;

struct arcs_parser *arcs_parser_new(void);
void arcs_parser_free(struct arcs_parser *p);

/* Reads more bytes.  False, with the line and what is wrong in err, on
 * the first bad line; the parser then takes nothing more. */
bool arcs_parser_feed(struct arcs_parser *p, const uint8_t *bytes, size_t len,
		      struct load_error *err);
/* The stream has ended: a last line without a newline still counts. */
bool arcs_parser_end(struct arcs_parser *p, struct load_error *err);

/* How many `print` lines so far: a live view redraws when it grows. */
unsigned long arcs_parser_prints(const struct arcs_parser *p);

/* A finished model of the data as of the last `print` (of everything so
 * far when nothing was printed).  False, with err, when an arc uses an id
 * that was never named. */
bool arcs_parser_model(const struct arcs_parser *p, struct model *m,
		       struct load_error *err);

#endif
