/* An executable's function symbols, as gprof takes them (see
 * elf_symbols.h). */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/util.h"
#include "address_search.h"
#include "elf_symbols.h"

/* gprof keeps static function names unless they look like labels or
 * object file names: a '$', or a '.' not followed by a numbered suffix
 * (".1234", ".clone.3", ".constprop.0"). */
static bool static_name_usable(const char *name)
{
	if (!*name || !strncmp(name, "__gnu_compiled", 14))
		return false;
	for (const char *p = name; *p; p++) {
		if (*p == '$')
			return false;
		if (*p != '.')
			continue;
		if (!strncmp(p, ".clone.", 7))
			p += 6;
		else if (!strncmp(p, ".constprop.", 11))
			p += 10;
		const char *digits = p + 1;
		while (*digits >= '0' && *digits <= '9')
			digits++;
		if (digits == p + 1 || (*digits && *digits != '.'))
			return false;
		p = digits - 1;
	}
	return true;
}

/* Which symbols gprof takes as functions: nm's classes 'T' and 'W' (a
 * defined weak symbol of any section), and usable 't' names. */
static bool symbol_wanted(Elf *elf, const GElf_Sym *s, const char *name,
			  bool *is_static)
{
	int type = GELF_ST_TYPE(s->st_info), bind = GELF_ST_BIND(s->st_info);
	if (s->st_shndx == SHN_UNDEF || s->st_shndx >= SHN_LORESERVE ||
	    type == STT_SECTION || type == STT_FILE || type == STT_GNU_IFUNC)
		return false;
	*is_static = bind == STB_LOCAL;
	if (bind == STB_WEAK)
		return type != STT_OBJECT;
	Elf_Scn *scn = elf_getscn(elf, s->st_shndx);
	GElf_Shdr sh;
	if (!scn || !gelf_getshdr(scn, &sh) || !(sh.sh_flags & SHF_EXECINSTR))
		return false;
	return bind == STB_GLOBAL || (bind == STB_LOCAL && static_name_usable(name));
}

static void add_symbol(struct executable *x, const GElf_Sym *s,
		       const char *name, bool is_static)
{
	GROW(x->syms, x->syms_cap, x->nsyms + 1);
	x->syms[x->nsyms++] = (struct symbol){
		.addr = s->st_value,
		.name = xstrdup(name),
		.is_static = is_static,
		.is_func = GELF_ST_TYPE(s->st_info) == STT_FUNC,
		.frame = NO_ID,
	};
}

static bool read_symbols(Elf *elf, struct executable *x)
{
	bool found = false;
	for (Elf_Scn *scn = NULL; (scn = elf_nextscn(elf, scn));) {
		GElf_Shdr sh;
		if (!gelf_getshdr(scn, &sh))
			continue;
		size_t shstrndx;
		const char *sec_name = elf_getshdrstrndx(elf, &shstrndx) == 0
			? elf_strptr(elf, shstrndx, sh.sh_name) : NULL;
		if (sec_name && !strcmp(sec_name, ".text"))
			x->text_end = sh.sh_addr + sh.sh_size - 1;
		if (sh.sh_type != SHT_SYMTAB || !sh.sh_entsize)
			continue;
		found = true;
		Elf_Data *data = elf_getdata(scn, NULL);
		size_t n = data ? sh.sh_size / sh.sh_entsize : 0;
		for (size_t i = 0; i < n; i++) {
			GElf_Sym s;
			bool is_static;
			if (!gelf_getsym(data, (int)i, &s))
				continue;
			const char *name = elf_strptr(elf, sh.sh_link, s.st_name);
			if (name && !strcmp(name, "etext"))
				x->etext = s.st_value;
			if (name && symbol_wanted(elf, &s, name, &is_static))
				add_symbol(x, &s, name, is_static);
		}
	}
	return found;
}

static int by_address(const void *a, const void *b)
{
	const struct symbol *x = a, *y = b;
	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	if (x->is_func != y->is_func)
		return y->is_func - x->is_func;
	if (x->is_static != y->is_static)
		return x->is_static - y->is_static;
	return strcmp(x->name, y->name);
}

/* Of two symbols at one address gprof keeps one: global over static,
 * function over other, then the name with fewer leading underscores. */
static bool prefer(const struct symbol *s, const struct symbol *kept)
{
	if (s->is_static != kept->is_static)
		return !s->is_static;
	if (s->is_func != kept->is_func)
		return s->is_func;
	return (s->name[0] != '_' && kept->name[0] == '_') ||
	       (s->name[0] == '_' && kept->name[0] == '_' && s->name[1] != '_' &&
		kept->name[1] == '_');
}

/* Sorts, removes duplicates and sets each symbol's end, as gprof's
 * symtab_finalize: up to the next symbol, the last to the end of .text. */
static void finalize_symbols(struct executable *x)
{
	if (x->nsyms > 1)
		qsort(x->syms, x->nsyms, sizeof(*x->syms), by_address);
	size_t out = 0;
	for (size_t i = 0; i < x->nsyms; i++) {
		struct symbol *s = &x->syms[i];
		if (out && s->addr == x->syms[out - 1].addr) {
			struct symbol *kept = &x->syms[out - 1];
			struct symbol *loser = prefer(s, kept) ? kept : s;
			char *name = loser->name;
			if (loser == kept)
				*kept = *s;
			free(name);
			continue;
		}
		x->syms[out++] = *s;
	}
	x->nsyms = out;
	for (size_t i = 0; i + 1 < out; i++)
		x->syms[i].end = x->syms[i + 1].addr - 1;
	if (out)
		x->syms[out - 1].end = x->text_end;
}

void executable_free(struct executable *x)
{
	for (size_t i = 0; i < x->nsyms; i++)
		free(x->syms[i].name);
	free(x->syms);
	free(x->segments);
}

static void read_segments(Elf *elf, struct executable *x)
{
	size_t n;
	if (elf_getphdrnum(elf, &n))
		return;
	x->segments = xcalloc(n ? n : 1, sizeof(*x->segments));
	for (size_t i = 0; i < n; i++) {
		GElf_Phdr ph;
		if (gelf_getphdr(elf, (int)i, &ph) && ph.p_type == PT_LOAD)
			x->segments[x->nsegments++] = (struct load_segment){
				ph.p_offset, ph.p_vaddr, ph.p_filesz };
	}
}

bool executable_vaddr_of_offset(const struct executable *x, uint64_t offset,
				uint64_t *vaddr)
{
	for (size_t i = 0; i < x->nsegments; i++) {
		const struct load_segment *s = &x->segments[i];
		if (offset >= s->offset && offset - s->offset < s->filesz) {
			*vaddr = offset - s->offset + s->vaddr;
			return true;
		}
	}
	return false;
}

bool read_executable(struct executable *x, struct load_error *err)
{
	int fd = open(x->path, O_RDONLY);
	if (fd < 0)
		return load_fail(err, "executable %s: %s (name it with --exe)",
				 x->path, strerror(errno));
	bool ok = false;
	elf_version(EV_CURRENT);
	Elf *elf = elf_begin(fd, ELF_C_READ, NULL);
	GElf_Ehdr eh;
	if (!elf || elf_kind(elf) != ELF_K_ELF || !gelf_getehdr(elf, &eh)) {
		load_fail(err, "executable %s is not an ELF file", x->path);
	} else if (!read_symbols(elf, x)) {
		load_fail(err, "executable %s has no symbol table (stripped?)", x->path);
	} else {
		x->is64 = eh.e_ident[EI_CLASS] == ELFCLASS64;
		x->big_endian = eh.e_ident[EI_DATA] == ELFDATA2MSB;
		x->position_independent = eh.e_type == ET_DYN;
		read_segments(elf, x);
		finalize_symbols(x);
		ok = x->nsyms > 0 ||
		     load_fail(err, "executable %s has no function symbols", x->path);
	}
	if (elf)
		elf_end(elf);
	close(fd);
	return ok;
}

struct symbol *symbol_at(struct executable *x, uint64_t pc)
{
	struct symbol *s = GREATEST_AT_OR_BELOW(x->syms, x->nsyms, addr, pc);
	return s && pc <= s->end ? s : NULL;
}
