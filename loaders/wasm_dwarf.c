/* A wasm module's DWARF through libdwarf (wasm_dwarf.h).  Section 0 is
 * an empty one, as an ELF file's is: libdwarf looks from 1 on. */
#include "wasm_dwarf.h"

#include <libdwarf/dwarf.h>
#include <libdwarf/libdwarf.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"

#define MAX_DEPTH 64 /* namespaces and classes around a subprogram */

/* The module's .debug_* custom sections, as libdwarf asks for them. */
struct dwarf_object {
	const struct wasm_module *w;
	const struct wasm_section **sections; /* [0] NULL: the empty one */
	Dwarf_Half n;
};

static int section_info(void *obj, Dwarf_Half i, Dwarf_Obj_Access_Section *out, int *error)
{
	const struct dwarf_object *o = obj;
	(void)error;
	if (i >= o->n)
		return DW_DLV_NO_ENTRY;
	*out = (Dwarf_Obj_Access_Section){ .name = i ? o->sections[i]->name : "",
					   .size = i ? o->sections[i]->size : 0 };
	return DW_DLV_OK;
}

static Dwarf_Endianness byte_order(void *obj)
{
	(void)obj;
	return DW_OBJECT_LSB;
}

static Dwarf_Small four(void *obj)
{
	(void)obj;
	return 4; /* wasm32: 32-bit DWARF, 4-byte addresses */
}

static Dwarf_Unsigned section_count(void *obj)
{
	return ((const struct dwarf_object *)obj)->n;
}

static int load_section(void *obj, Dwarf_Half i, Dwarf_Small **data, int *error)
{
	const struct dwarf_object *o = obj;
	(void)error;
	if (i == 0 || i >= o->n)
		return DW_DLV_NO_ENTRY;
	/* libdwarf only reads the bytes, though its interface is not const */
	*data = (Dwarf_Small *)(uintptr_t)(o->w->bytes + o->sections[i]->offset);
	return DW_DLV_OK;
}

static const Dwarf_Obj_Access_Methods methods = {
	.get_section_info = section_info,
	.get_byte_order = byte_order,
	.get_length_size = four,
	.get_pointer_size = four,
	.get_section_count = section_count,
	.load_section = load_section,
};

static int32_t attr_number(Dwarf_Debug dbg, Dwarf_Die die, Dwarf_Half at)
{
	Dwarf_Attribute attr;
	Dwarf_Unsigned v;
	if (dwarf_attr(die, at, &attr, NULL) != DW_DLV_OK)
		return -1;
	int ok = dwarf_formudata(attr, &v, NULL);
	dwarf_dealloc(dbg, attr, DW_DLA_ATTR);
	return ok == DW_DLV_OK && v <= INT32_MAX ? (int32_t)v : -1;
}

/* The CU's file names, numbered as decl_file numbers them. */
struct cu_files {
	char **names;
	Dwarf_Signed n;
	int first; /* DWARF 5 numbers from 0, earlier versions from 1 */
};

static void add_subprogram(Dwarf_Debug dbg, Dwarf_Die die, const struct cu_files *files,
			   struct wasm_sources *out, size_t *cap)
{
	Dwarf_Addr low;
	if (dwarf_lowpc(die, &low, NULL) != DW_DLV_OK)
		return;
	char *name = NULL;
	int32_t file = attr_number(dbg, die, DW_AT_decl_file) - files->first;
	GROW(out->funcs, *cap, out->n + 1);
	struct wasm_source *s = &out->funcs[out->n++];
	*s = (struct wasm_source){ .low_pc = low, .line = attr_number(dbg, die, DW_AT_decl_line) };
	if (dwarf_diename(die, &name, NULL) == DW_DLV_OK)
		s->name = xstrdup(name);
	if (file >= 0 && file < files->n)
		s->file = xstrdup(files->names[file]);
}

static void walk(Dwarf_Debug dbg, Dwarf_Die die, const struct cu_files *files,
		 struct wasm_sources *out, size_t *cap, int depth)
{
	while (die) {
		Dwarf_Half tag = 0;
		Dwarf_Die child = NULL, next = NULL;
		dwarf_tag(die, &tag, NULL);
		if (tag == DW_TAG_subprogram)
			add_subprogram(dbg, die, files, out, cap);
		else if (depth < MAX_DEPTH && dwarf_child(die, &child, NULL) == DW_DLV_OK)
			walk(dbg, child, files, out, cap, depth + 1);
		if (dwarf_siblingof_b(dbg, die, true, &next, NULL) != DW_DLV_OK)
			next = NULL;
		dwarf_dealloc(dbg, die, DW_DLA_DIE);
		die = next;
	}
}

static bool read_units(Dwarf_Debug dbg, struct wasm_sources *out, struct load_error *err)
{
	size_t cap = 0;
	for (;;) {
		Dwarf_Half version, cu_type;
		Dwarf_Unsigned next;
		Dwarf_Error e = NULL;
		int r = dwarf_next_cu_header_d(dbg, true, NULL, &version, NULL, NULL, NULL,
					       NULL, NULL, NULL, &next, &cu_type, &e);
		if (r == DW_DLV_NO_ENTRY)
			return true;
		Dwarf_Die cu = NULL;
		if (r == DW_DLV_OK)
			r = dwarf_siblingof_b(dbg, NULL, true, &cu, &e);
		if (r == DW_DLV_ERROR)
			return load_fail(err, "DWARF: %s", dwarf_errmsg(e));
		if (r != DW_DLV_OK)
			return true;
		struct cu_files files = { .first = version >= 5 ? 0 : 1 };
		if (dwarf_srcfiles(cu, &files.names, &files.n, NULL) != DW_DLV_OK)
			files = (struct cu_files){ 0 };
		Dwarf_Die child;
		if (dwarf_child(cu, &child, NULL) == DW_DLV_OK)
			walk(dbg, child, &files, out, &cap, 0);
		for (Dwarf_Signed i = 0; i < files.n; i++)
			dwarf_dealloc(dbg, files.names[i], DW_DLA_STRING);
		if (files.names)
			dwarf_dealloc(dbg, files.names, DW_DLA_LIST);
		dwarf_dealloc(dbg, cu, DW_DLA_DIE);
	}
}

static int by_low_pc(const void *a, const void *b)
{
	const struct wasm_source *x = a, *y = b;
	return (x->low_pc > y->low_pc) - (x->low_pc < y->low_pc);
}

bool wasm_dwarf_read(const struct wasm_module *w, struct wasm_sources *out,
		     struct load_error *err)
{
	*out = (struct wasm_sources){ 0 };
	struct dwarf_object o = { .w = w };
	o.sections = xcalloc(w->ncustom + 1, sizeof(*o.sections));
	o.n = 1;
	for (size_t i = 0; i < w->ncustom && o.n < UINT16_MAX; i++)
		if (!strncmp(w->custom[i].name, ".debug_", 7))
			o.sections[o.n++] = &w->custom[i];
	bool ok = true;
	if (wasm_module_custom(w, ".debug_info")) {
		Dwarf_Obj_Access_Interface iface = { &o, &methods };
		Dwarf_Debug dbg;
		Dwarf_Error e = NULL;
		int r = dwarf_object_init_b(&iface, NULL, NULL, DW_GROUPNUMBER_ANY, &dbg, &e);
		if (r == DW_DLV_OK) {
			ok = read_units(dbg, out, err);
			dwarf_object_finish(dbg, NULL);
		} else if (r == DW_DLV_ERROR) {
			ok = load_fail(err, "DWARF: %s", dwarf_errmsg(e));
			dwarf_dealloc(NULL, e, DW_DLA_ERROR);
		}
	}
	free(o.sections);
	if (out->n)
		qsort(out->funcs, out->n, sizeof(*out->funcs), by_low_pc);
	return ok;
}

const struct wasm_source *wasm_dwarf_at(const struct wasm_sources *s, uint64_t low_pc)
{
	size_t lo = 0, hi = s->n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (s->funcs[mid].low_pc < low_pc)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < s->n && s->funcs[lo].low_pc == low_pc ? &s->funcs[lo] : NULL;
}

void wasm_sources_free(struct wasm_sources *s)
{
	for (size_t i = 0; i < s->n; i++) {
		free(s->funcs[i].name);
		free(s->funcs[i].file);
	}
	free(s->funcs);
	*s = (struct wasm_sources){ 0 };
}
