/* C++ and Rust symbol names as people read them, from the names an
 * object file holds ("_ZN3geo5Accum3addEd" -> "geo::Accum::add(double)"),
 * by libiberty's demangler with the options binutils' gprof and perf
 * report give it: parameters shown, ANSI qualifiers. */
#ifndef WPROF_DEMANGLE_H
#define WPROF_DEMANGLE_H

#include "model/model.h"

/* The demangled name (free it), or NULL when `name` is not a mangled
 * name (C's "main", a name already demangled). */
char *demangle_symbol(const char *name);

/* Names f by an object file's symbol: demangled, the symbol itself as
 * its system name (f->extra, as pprof's; gprof orders by it), or as it
 * is when it is not mangled (f->extra left alone). */
void name_frame_by_symbol(struct model *m, struct frame *f, const char *symbol);

#endif
