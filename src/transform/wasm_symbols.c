/* --symbols for wasm frames (wasm_symbols.h). */
#include "wasm_symbols.h"

#include <dirent.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "loaders/wasm_dwarf.h"
#include "loaders/wasm_module.h"
#include "symbolize.h"

#define NONE UINT32_MAX

/* A symbol file, the profile module (url) it fits, and its DWARF. */
struct symbol_file {
	char *path;
	bool named; /* on the command line, not found in a directory */
	struct wasm_module w;
	str_t url;  /* STR_NONE until it fits one */
	struct wasm_sources sources;
	bool sources_read;
	bool used_names, used_dwarf;
};

struct wasm_symbols {
	struct symbol_file *f;
	size_t n, cap;
};

static bool is_wrapper(const char *name)
{
	return !strncmp(name, "wasm-to-js", 10) || !strncmp(name, "js-to-wasm", 10);
}

/* The N of "wasm-function[N]", NONE for any other name. */
static uint32_t profile_index(const char *name)
{
	unsigned long n;
	int end = 0;
	if (sscanf(name, "wasm-function[%lu]%n", &n, &end) != 1 || name[end] || n >= NONE)
		return NONE;
	return (uint32_t)n;
}

/* A frame of a module's own functions, which a symbol file speaks of. */
static bool is_module_frame(const struct model *m, uint32_t i, str_t url)
{
	const struct frame *f = &m->frames[i];
	return f->kind == KIND_WASM && f->url == url && !is_wrapper(model_str(m, f->name));
}

static uint32_t function_at_body(const struct wasm_module *w, int64_t offset)
{
	for (uint32_t k = w->nimported; k < w->nfuncs && !w->symbol_map; k++)
		if (w->funcs[k].body == offset)
			return k;
	return NONE;
}

/* Which function of w frame i is: by index, by name, else (a name the
 * file does not give) by its body's offset; NONE when w has none. */
static uint32_t function_of(const struct model *m, uint32_t i, const struct wasm_module *w)
{
	const char *name = model_str(m, m->frames[i].name);
	uint32_t n = profile_index(name);
	if (n != NONE)
		return n < w->nfuncs && (w->symbol_map || n >= w->nimported) ? n : NONE;
	n = wasm_module_find_name(w, name);
	if (n != NONE)
		return n;
	n = function_at_body(w, model_wasm_offset(m, i));
	return n != NONE && !w->funcs[n].name ? n : NONE;
}

/* Does w hold every function the profile shows of url, its bodies
 * where the profile's are, all moved alike?  If not, why. */
static bool fits(const struct model *m, str_t url, const struct wasm_module *w,
		 char *why, size_t cap)
{
	int64_t delta = 0;
	bool have_delta = false;
	for (uint32_t i = 0; i < m->nframes; i++) {
		if (!is_module_frame(m, i, url))
			continue;
		const char *name = model_str(m, m->frames[i].name);
		uint32_t n = function_of(m, i, w);
		if (n == NONE) {
			snprintf(why, cap, "it has no function %s of %s", name, model_str(m, url));
			return false;
		}
		int64_t offset = model_wasm_offset(m, i);
		if (offset < 0 || w->symbol_map)
			continue;
		int64_t d = offset - (int64_t)w->funcs[n].body;
		if (have_delta && d != delta) {
			snprintf(why, cap, "its function bodies do not lie as those of %s "
				 "(%s at 0x%" PRIx64 ", in it at 0x%" PRIx32 ")",
				 model_str(m, url), name, (uint64_t)offset, w->funcs[n].body);
			return false;
		}
		delta = d;
		have_delta = true;
	}
	return true;
}

static void add_file(struct wasm_symbols *fs, const char *path, bool named)
{
	GROW(fs->f, fs->cap, fs->n + 1);
	fs->f[fs->n++] = (struct symbol_file){ .path = xstrdup(path), .named = named,
					       .url = STR_NONE };
}

/* dir (its first len bytes) / name, malloc'd. */
static char *path_join(const char *dir, size_t len, const char *name)
{
	size_t n = len + strlen(name) + 2;
	char *path = xmalloc(n);
	snprintf(path, n, "%.*s/%s", (int)len, dir, name);
	return path;
}

static bool has_suffix(const char *s, const char *suffix)
{
	size_t n = strlen(s), k = strlen(suffix);
	return n >= k && !strcmp(s + n - k, suffix);
}

/* A directory's modules (.wasm) and symbol maps (.symbols), in name
 * order, so that which one fits first does not depend on the disk. */
static bool add_directory(struct wasm_symbols *fs, const char *dir)
{
	struct dirent **list;
	int n = scandir(dir, &list, NULL, alphasort);
	if (n < 0)
		return false;
	for (int i = 0; i < n; i++) {
		const char *name = list[i]->d_name;
		if (has_suffix(name, ".wasm") || has_suffix(name, ".symbols")) {
			char *path = path_join(dir, strlen(dir), name);
			add_file(fs, path, false);
			free(path);
		}
		free(list[i]);
	}
	free(list);
	return true;
}

/* The file -gseparate-dwarf names, beside the module unless absolute. */
static char *debug_file_path(const struct symbol_file *f)
{
	const char *name = f->w.external_debug_info;
	const char *slash = strrchr(f->path, '/');
	if (name[0] == '/' || !slash)
		return xstrdup(name);
	return path_join(f->path, (size_t)(slash - f->path), name);
}

/* The functions' sources, from the module's DWARF or the separate
 * file it names; DWARF addresses are offsets in the code section, the
 * same in both. */
static bool read_sources(struct symbol_file *f, char *why, size_t cap)
{
	struct load_error err;
	if (f->w.symbol_map)
		return true;
	if (wasm_module_custom(&f->w, ".debug_info") || !f->w.external_debug_info) {
		if (wasm_dwarf_read(&f->w, &f->sources, &err))
			return true;
		snprintf(why, cap, "%s: %s", f->path, err.message);
		return false;
	}
	char *path = debug_file_path(f);
	struct wasm_module debug;
	bool ok = wasm_module_read(&debug, path, &err) &&
		  wasm_dwarf_read(&debug, &f->sources, &err);
	if (!ok)
		snprintf(why, cap, "%s (external_debug_info of %s): %s", path, f->path,
			 err.message);
	wasm_module_free(&debug);
	free(path);
	return ok;
}

/* The symbol file for frame i's module, NULL when none fits it. */
static struct symbol_file *file_for(struct wasm_symbols *fs, str_t url)
{
	for (size_t k = 0; k < fs->n; k++)
		if (fs->f[k].url == url)
			return &fs->f[k];
	return NULL;
}

/* A line as the model numbers them. */
static int32_t model_line(const struct model *m, int32_t line)
{
	return line < 0 ? -1 : m->lines_zero_based ? line - 1 : line;
}

static void resolve(const struct model *m, uint32_t i, struct symbol_file *sf,
		    struct symbol *sym)
{
	const struct frame *f = &m->frames[i];
	uint32_t n = function_of(m, i, &sf->w);
	const struct wasm_function *fn = &sf->w.funcs[n];
	const struct wasm_source *src = sf->w.symbol_map ? NULL
		: wasm_dwarf_at(&sf->sources, fn->body - sf->w.code_payload);
	bool renamed = fn->name && profile_index(model_str(m, f->name)) != NONE;
	*sym = (struct symbol){ .name = renamed ? fn->name : NULL, .url = model_str(m, f->url),
				.line = f->line, .column = f->column };
	if (src && src->file) {
		*sym = (struct symbol){ .name = sym->name, .url = src->file,
					.line = model_line(m, src->line), .column = -1 };
		sf->used_dwarf = true;
	}
	sf->used_names |= renamed;
	sym->mapped = renamed || (src && src->file);
	if (!sym->mapped)
		sym->why_not = sf->w.symbol_map ? "the symbol map does not name it"
			     : "no DWARF for this function in the --symbols module";
}

static void describe(const struct wasm_symbols *fs, char *buf, size_t cap)
{
	size_t len = (size_t)snprintf(buf, cap, "symbols:");
	for (size_t k = 0; k < fs->n && len < cap; k++) {
		const struct symbol_file *f = &fs->f[k];
		if (f->url == STR_NONE)
			continue;
		const char *base = strrchr(f->path, '/');
		len += (size_t)snprintf(buf + len, cap - len, "%s %s (%s%s%s)",
					len > 8 ? "," : "", base ? base + 1 : f->path,
					f->w.symbol_map ? "symbol map" : f->used_names ? "name section" : "",
					f->used_names && f->used_dwarf ? ", " : "",
					f->used_dwarf ? "DWARF" : f->used_names ? "" : "nothing found");
	}
}

/* Does the file say anything of its functions: names or DWARF? */
static bool has_symbols(const struct wasm_module *w)
{
	for (uint32_t i = w->nimported; i < w->nfuncs; i++)
		if (w->funcs[i].name)
			return true;
	return w->symbol_map || w->external_debug_info || wasm_module_custom(w, ".debug_info");
}

/* Binds each file to the first module of the profile it fits; a file
 * of a directory without names or DWARF (a stripped copy) is passed
 * over, so that it does not take the place of its unstripped twin. */
static bool bind_files(const struct model *m, struct wasm_symbols *fs, char *why, size_t cap)
{
	for (size_t k = 0; k < fs->n; k++) {
		struct symbol_file *f = &fs->f[k];
		f->url = STR_NONE;
		f->used_names = f->used_dwarf = false;
	}
	for (size_t k = 0; k < fs->n; k++) {
		struct symbol_file *f = &fs->f[k];
		char reason[512] = "the profile has no WebAssembly frames";
		if (!f->named && !has_symbols(&f->w))
			continue;
		for (uint32_t i = 0; i < m->nframes && f->url == STR_NONE; i++) {
			const struct frame *fr = &m->frames[i];
			if (fr->kind == KIND_WASM && *model_str(m, fr->url) &&
			    !file_for(fs, fr->url) && fits(m, fr->url, &f->w, reason, sizeof(reason)))
				f->url = fr->url;
		}
		if (f->url == STR_NONE && f->named) {
			snprintf(why, cap, "%s: does not fit the profile: %s", f->path, reason);
			return false;
		}
		if (f->url != STR_NONE && !f->sources_read && !read_sources(f, why, cap))
			return false;
		f->sources_read |= f->url != STR_NONE;
	}
	return true;
}

static void symbolize(struct model *m, struct wasm_symbols *fs)
{
	struct symbols s;
	char summary[1024];
	symbols_init(&s, m);
	for (uint32_t i = 0; i < m->nframes; i++) {
		const struct frame *f = &m->frames[i];
		if (f->kind != KIND_WASM || !*model_str(m, f->url) || is_wrapper(model_str(m, f->name)))
			continue;
		struct symbol_file *sf = file_for(fs, f->url);
		if (sf)
			resolve(m, i, sf, &s.frames[i]);
		else
			s.frames[i].why_not = "no --symbols module fits this module";
	}
	describe(fs, summary, sizeof(summary));
	s.summary = summary;
	symbolize_model(m, &s);
	symbols_free(&s);
}

struct wasm_symbols *wasm_symbols_open(const char *const *paths, size_t npaths, char *why,
				       size_t cap)
{
	struct wasm_symbols *fs = xcalloc(1, sizeof(*fs));
	for (size_t k = 0; k < npaths; k++)
		if (!add_directory(fs, paths[k]))
			add_file(fs, paths[k], true);
	for (size_t k = 0; k < fs->n; k++) {
		struct load_error err;
		if (!wasm_module_read(&fs->f[k].w, fs->f[k].path, &err)) {
			snprintf(why, cap, "%s: %s", fs->f[k].path, err.message);
			wasm_symbols_free(fs);
			return NULL;
		}
	}
	return fs;
}

bool wasm_symbols_map(struct wasm_symbols *fs, struct model *m, char *why, size_t cap)
{
	if (!bind_files(m, fs, why, cap))
		return false;
	symbolize(m, fs);
	return true;
}

void wasm_symbols_free(struct wasm_symbols *fs)
{
	for (size_t k = 0; k < fs->n; k++) {
		wasm_module_free(&fs->f[k].w);
		wasm_sources_free(&fs->f[k].sources);
		free(fs->f[k].path);
	}
	free(fs->f);
	free(fs);
}

bool wasm_symbols_apply(struct model *m, const char *const *paths, size_t npaths,
			char *why, size_t cap)
{
	struct wasm_symbols *fs = wasm_symbols_open(paths, npaths, why, cap);
	bool ok = fs && wasm_symbols_map(fs, m, why, cap);
	if (fs)
		wasm_symbols_free(fs);
	return ok;
}
