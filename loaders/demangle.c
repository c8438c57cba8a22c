/* libiberty's cplus_demangle: the demangler gprof, nm and perf use. */
#include <stdlib.h>
#include <string.h>

#include <libiberty/demangle.h>

#include "demangle.h"

char *demangle_symbol(const char *name)
{
	/* Only the mangling schemes' prefixes (Itanium C++ and Rust's
	 * legacy "_Z", Rust v0 "_R"): any other name is left as written. */
	if (name[0] != '_' || (name[1] != 'Z' && name[1] != 'R'))
		return NULL;
	return cplus_demangle(name, DMGL_PARAMS | DMGL_ANSI);
}

void name_frame_by_symbol(struct model *m, struct frame *f, const char *symbol)
{
	char *readable = demangle_symbol(symbol);
	if (!readable) {
		f->name = model_string(m, symbol, strlen(symbol));
		return;
	}
	f->name = model_string(m, readable, strlen(readable));
	f->extra = model_string(m, symbol, strlen(symbol));
	free(readable);
}
