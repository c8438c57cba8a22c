/* An executable's function symbols, read with libelf the way gprof reads
 * them (nm's classes T, W and usable t names, one symbol per address,
 * each ending where the next begins), for loaders whose addresses only
 * mean something with the program: gmon.out, gperftools CPU profiles and
 * legacy text profiles given --exe. */
#ifndef WPROF_ELF_SYMBOLS_H
#define WPROF_ELF_SYMBOLS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "loaders.h"

struct symbol {
	uint64_t addr, end; /* [addr, end]: end is inclusive, as gprof's */
	char *name;
	bool is_static, is_func;
	double ticks;
	uint32_t frame;
};

struct executable {
	const char *path;
	bool is64, big_endian;
	struct symbol *syms;
	size_t nsyms, syms_cap;
	uint64_t text_end; /* last byte of .text */
	uint64_t etext;    /* the `etext` symbol, 0 when none */
	/* Where the file's loadable segments go, for addresses seen in a
	 * running process: a position-independent program (ET_DYN) is
	 * mapped anywhere, so /proc/self/maps' file offsets find them. */
	bool position_independent;
	struct load_segment { uint64_t offset, vaddr, filesz; } *segments;
	size_t nsegments;
};

/* Reads x->path; fails (in err) when it is not an ELF file with function
 * symbols. */
bool read_executable(struct executable *x, struct load_error *err);
void executable_free(struct executable *x);
/* gprof's sym_lookup: the symbol whose [addr, end] holds pc, or NULL. */
struct symbol *symbol_at(struct executable *x, uint64_t pc);
/* The link-time address of the byte at `offset` in the file, as the
 * loadable segment holding it places it; false when none does. */
bool executable_vaddr_of_offset(const struct executable *x, uint64_t offset,
				uint64_t *vaddr);

#endif
