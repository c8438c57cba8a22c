/* Frames for code addresses (see addresses.h). */
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/id_table.h"
#include "base/util.h"
#include "addresses.h"
#include "address_search.h"
#include "demangle.h"

bool address_frames_init(struct address_frames *af, struct model *m,
			 const struct load_options *opt, struct load_error *err)
{
	const char *exe = opt ? opt->exe : NULL;
	*af = (struct address_frames){ .m = m, .exe = { .path = exe },
				       .by_address = opt && opt->by_address };
	return !exe || read_executable(&af->exe, err);
}

void address_frames_free(struct address_frames *af)
{
	if (af->exe.path)
		executable_free(&af->exe);
	for (size_t i = 0; i < af->nmaps; i++)
		free(af->maps[i].file);
	free(af->maps);
	for (size_t i = 0; i < af->nnames; i++)
		free(af->names[i].name);
	free(af->names);
	free(af->cached);
	id_table_free(&af->index);
}

static const char *skip_spaces(const char *p, const char *end)
{
	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	return p;
}

/* A hex number up to `stop` (or a space); NULL when there is none. */
static const char *hex_field(const char *p, const char *end, char stop,
			     uint64_t *out)
{
	const char *start = p;
	uint64_t v = 0;
	for (; p < end && *p != stop && *p != ' ' && *p != '\t'; p++) {
		int d = *p >= '0' && *p <= '9' ? *p - '0'
			: *p >= 'a' && *p <= 'f' ? *p - 'a' + 10
			: *p >= 'A' && *p <= 'F' ? *p - 'A' + 10 : -1;
		if (d < 0 || v >> 60)
			return NULL;
		v = v << 4 | (uint64_t)d;
	}
	if (p == start)
		return NULL;
	*out = v;
	return p;
}

/* "start-limit perms offset dev inode [path]", as pprof's procMapsRE. */
bool address_frames_add_maps_line(struct address_frames *af,
				  const char *line, size_t len)
{
	const char *end = line + len, *p = skip_spaces(line, end);
	struct mapping map = { 0 };
	uint64_t dev;
	if (!(p = hex_field(p, end, '-', &map.start)) || p == end || *p++ != '-' ||
	    !(p = hex_field(p, end, ' ', &map.limit)))
		return false;
	p = skip_spaces(p, end);
	const char *perms = p;
	while (p < end && strchr("-rwxps", *p))
		p++;
	if (p == perms)
		return false;
	bool executable = memchr(perms, 'x', (size_t)(p - perms)) != NULL;
	p = skip_spaces(p, end);
	if (!(p = hex_field(p, end, ' ', &map.offset)))
		return false;
	p = skip_spaces(p, end);
	if (!(p = hex_field(p, end, ':', &dev)) || p == end || *p++ != ':' ||
	    !(p = hex_field(p, end, ' ', &dev)))
		return false;
	p = skip_spaces(p, end);
	if (!(p = hex_field(p, end, ' ', &dev)))
		return false;
	p = skip_spaces(p, end);
	const char *path_end = p;
	while (path_end < end && *path_end != ' ' && *path_end != '\t' &&
	       *path_end != '\r')
		path_end++;
	if (!executable || map.limit <= map.start)
		return true;
	map.file = xmalloc((size_t)(path_end - p) + 1);
	memcpy(map.file, p, (size_t)(path_end - p));
	map.file[path_end - p] = '\0';
	GROW(af->maps, af->maps_cap, af->nmaps + 1);
	af->maps[af->nmaps++] = map;
	return true;
}

void address_frames_add_name(struct address_frames *af, uint64_t addr,
			     const char *name, size_t len)
{
	char *copy = xmalloc(len + 1);
	memcpy(copy, name, len);
	copy[len] = '\0';
	GROW(af->names, af->names_cap, af->nnames + 1);
	af->names[af->nnames++] = (struct named_address){ addr, copy };
	af->names_sorted = false;
}

static const char *base_name(const char *path)
{
	const char *slash = strrchr(path, '/');
	return slash ? slash + 1 : path;
}

static int by_addr(const void *a, const void *b)
{
	const struct named_address *x = a, *y = b;
	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/* The executable's mapping: the one of the same file name, else the
 * first (the main program comes first in /proc/self/maps). */
static void prepare(struct address_frames *af)
{
	if (!af->names_sorted && af->nnames > 1)
		qsort(af->names, af->nnames, sizeof(*af->names), by_addr);
	af->names_sorted = true;
	if (!af->exe.path || af->exe_mapping || !af->nmaps)
		return;
	af->exe_mapping = &af->maps[0];
	for (size_t i = 0; i < af->nmaps; i++)
		if (!strcmp(base_name(af->maps[i].file), base_name(af->exe.path))) {
			af->exe_mapping = &af->maps[i];
			break;
		}
}

static const struct mapping *mapping_of(const struct address_frames *af,
					uint64_t addr)
{
	for (size_t i = 0; i < af->nmaps; i++)
		if (addr >= af->maps[i].start && addr < af->maps[i].limit)
			return &af->maps[i];
	return NULL;
}

/* The executable's symbol for addr: its own link-time addresses when
 * the profile has no mappings or the program is not position
 * independent, else through the mapping's file offset. */
static const char *exe_symbol(struct address_frames *af,
			      const struct mapping *map, uint64_t addr)
{
	uint64_t vaddr = addr;
	if (af->exe_mapping) {
		if (!map || strcmp(map->file, af->exe_mapping->file))
			return NULL;
		if (af->exe.position_independent &&
		    !executable_vaddr_of_offset(&af->exe, addr - map->start + map->offset,
						&vaddr))
			return NULL;
	}
	const struct symbol *s = symbol_at(&af->exe, vaddr);
	return s ? s->name : NULL;
}

/* The `--- symbol` name of the greatest address at or below addr. */
static const char *listed_name(const struct address_frames *af, uint64_t addr)
{
	const struct named_address *n = GREATEST_AT_OR_BELOW(af->names, af->nnames, addr, addr);
	return n ? n->name : NULL;
}

/* Go's ELF symbols name an assembly function's ABI0 wrapper
 * "runtime.goexit.abi0"; Go's own tables, which pprof reads, say
 * "runtime.goexit". */
static int function_length(const char *symbol)
{
	size_t n = strlen(symbol);
	if (n > 5 && !strcmp(symbol + n - 5, ".abi0"))
		n -= 5;
	return n > INT_MAX ? INT_MAX : (int)n;
}

/* pprof's names: an unnamed address is its mapping's file ("[libc.so]")
 * or "<unknown>"; by address, each is its address first. */
static void frame_name(const struct address_frames *af, const struct mapping *map,
		       uint64_t addr, const char *symbol, char *out, size_t size)
{
	int n = af->by_address ? snprintf(out, size, "%016" PRIx64 " ", addr) : 0;
	if (symbol)
		snprintf(out + n, size - (size_t)n, "%.*s", function_length(symbol), symbol);
	else if (map && *map->file)
		snprintf(out + n, size - (size_t)n, "[%s]", base_name(map->file));
	else
		snprintf(out + n, size - (size_t)n, "<unknown>");
}

static const char *symbol_of(struct address_frames *af, const struct mapping *map,
			     uint64_t addr)
{
	const char *symbol = af->exe.path ? exe_symbol(af, map, addr) : NULL;
	return symbol ? symbol : listed_name(af, addr);
}

static void ready(struct address_frames *af)
{
	if (!af->index.size) {
		prepare(af);
		id_table_init(&af->index, 512);
	}
}

const char *address_function(struct address_frames *af, uint64_t addr, char *buf,
			     size_t size)
{
	ready(af);
	const char *symbol = symbol_of(af, mapping_of(af, addr), addr);
	if (!symbol)
		return NULL;
	snprintf(buf, size, "%.*s", function_length(symbol), symbol);
	return buf;
}

static uint32_t make_frame(struct address_frames *af, uint64_t addr)
{
	const struct mapping *map = mapping_of(af, addr);
	char name[1024];
	frame_name(af, map, addr, symbol_of(af, map, addr), name, sizeof(name));
	const char *file = map ? map->file : "";
	struct frame f = {
		.url = model_string(af->m, file, strlen(file)),
		.extra = STR_NONE, .line = -1, .column = -1, .kind = KIND_NATIVE,
	};
	name_frame_by_symbol(af->m, &f, name);
	return model_intern_frame(af->m, &f);
}

uint32_t address_frame(struct address_frames *af, uint64_t addr)
{
	ready(af);
	struct id_probe p = id_table_probe(&af->index, hash_mix(addr + 1));
	for (uint32_t k; (k = id_probe_next(&af->index, &p)) != NO_ID;)
		if (af->cached[k].addr == addr)
			return af->cached[k].frame;
	uint32_t frame = make_frame(af, addr);
	GROW(af->cached, af->cached_cap, af->ncached + 1);
	af->cached[af->ncached] = (struct cached_address){ addr, frame };
	id_table_add(&af->index, &p, (uint32_t)af->ncached++);
	return frame;
}
