/* Frames for code addresses, for the formats whose stacks are program
 * counters (gperftools CPU profiles, legacy text profiles).  A name comes,
 * in this order, from the executable given with --exe (its ELF symbols,
 * placed through the profile's /proc/self/maps mappings so that PIE
 * programs work), from a `--- symbol` section of the file, or else is the
 * address itself in hex, as `go tool pprof -addresses` shows it.  A
 * frame's url is the file of the mapping the address falls in. */
#ifndef WPROF_ADDRESSES_H
#define WPROF_ADDRESSES_H

#include "base/id_table.h"
#include "elf_symbols.h"
#include "loaders.h"

struct mapping {
	uint64_t start, limit, offset;
	char *file;
};

struct named_address {
	uint64_t addr;
	char *name;
};

struct address_frames {
	struct model *m;
	bool by_address;
	struct executable exe; /* exe.path NULL without --exe */
	const struct mapping *exe_mapping;
	struct mapping *maps;
	size_t nmaps, maps_cap;
	struct named_address *names; /* sorted by address once used */
	size_t nnames, names_cap;
	bool names_sorted;
	struct cached_address { uint64_t addr; uint32_t frame; } *cached;
	size_t ncached, cached_cap;
	struct id_table index; /* cached by address; size 0 until the first */
};

/* opt (exe, by_address) may be NULL.  Fails (in err) when the
 * executable cannot be read. */
bool address_frames_init(struct address_frames *af, struct model *m,
			 const struct load_options *opt, struct load_error *err);
void address_frames_free(struct address_frames *af);

/* A line of /proc/self/maps ("start-limit perms offset dev inode path"):
 * executable mappings are kept, others ignored; false when the line is
 * not a mapping at all. */
bool address_frames_add_maps_line(struct address_frames *af,
				  const char *line, size_t len);
void address_frames_add_name(struct address_frames *af, uint64_t addr,
			     const char *name, size_t len);

/* The frame for an address; call only after every mapping and name has
 * been added. */
uint32_t address_frame(struct address_frames *af, uint64_t addr);

/* The name of the function at addr (from --exe or a symbol section, as
 * its frame says it) in buf, or NULL when it has none: what pprof's
 * drop_frames match.  Call only after every mapping and name has been
 * added. */
const char *address_function(struct address_frames *af, uint64_t addr, char *buf,
			     size_t size);

#endif
