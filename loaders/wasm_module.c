/* Reading a WebAssembly module's sections (wasm_module.h), after the
 * binary format of the WebAssembly core specification: a magic and
 * version, then sections of an id byte, a LEB128 size and a payload. */
#include "wasm_module.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "input/input.h"

#define WASM_FORMAT "wasm module"
#define MAX_MODULE (1u << 30) /* offsets are 32-bit in V8 profiles too */
#define MAX_MAP_INDEX (1u << 22) /* a symbol map's functions */

enum { SEC_CUSTOM = 0, SEC_IMPORT = 2, SEC_FUNCTION = 3, SEC_CODE = 10 };
enum { NAME_FUNCTIONS = 1 };

/* A stretch of the file being read; the first fault ends it. */
struct cursor {
	const uint8_t *b;
	size_t pos, end;
	struct load_error *err;
	bool failed;
};

static bool fail(struct cursor *c, const char *what)
{
	if (!c->failed)
		load_fail_at(c->err, WASM_FORMAT, c->pos, "%s", what);
	c->failed = true;
	return false;
}

static uint8_t byte(struct cursor *c)
{
	if (c->failed || c->pos >= c->end)
		return fail(c, "ends inside a section"), 0;
	return c->b[c->pos++];
}

/* An unsigned LEB128 of at most 32 bits. */
static uint32_t leb(struct cursor *c)
{
	uint64_t v = 0;
	for (unsigned shift = 0; shift < 35; shift += 7) {
		uint8_t x = byte(c);
		v |= (uint64_t)(x & 0x7f) << shift;
		if (!(x & 0x80))
			return v <= UINT32_MAX ? (uint32_t)v : (fail(c, "a number over 32 bits"), 0);
	}
	return fail(c, "a number longer than 5 bytes"), 0;
}

/* A length, checked to fit what is left. */
static uint32_t length(struct cursor *c)
{
	uint32_t n = leb(c);
	if (n > c->end - c->pos)
		return fail(c, "a length past the end of its section"), 0;
	return n;
}

/* A name (a length and UTF-8 bytes) as a new C string. */
static char *name(struct cursor *c)
{
	uint32_t n = length(c);
	if (c->failed)
		return NULL;
	char *s = xmalloc(n + 1);
	memcpy(s, c->b + c->pos, n);
	s[n] = '\0';
	c->pos += n;
	return s;
}

static void skip_name(struct cursor *c)
{
	c->pos += length(c);
}

static void skip_limits(struct cursor *c)
{
	uint8_t flags = byte(c);
	leb(c);
	if (flags & 1)
		leb(c);
}

/* One import's description; a function import takes the next index. */
static void import_desc(struct cursor *c, struct wasm_module *w)
{
	switch (byte(c)) {
	case 0: /* function: its type */
		leb(c);
		w->nimported++;
		break;
	case 1: /* table: element type and limits */
		byte(c);
		skip_limits(c);
		break;
	case 2: /* memory */
		skip_limits(c);
		break;
	case 3: /* global: value type and mutability */
		byte(c);
		byte(c);
		break;
	case 4: /* tag (exception handling): attribute and type */
		byte(c);
		leb(c);
		break;
	default:
		fail(c, "an import of an unknown kind");
	}
}

static void imports(struct cursor *c, struct wasm_module *w)
{
	uint32_t n = leb(c);
	for (uint32_t i = 0; i < n && !c->failed; i++) {
		skip_name(c);
		skip_name(c);
		import_desc(c, w);
	}
}

/* The function section declares the defined functions, the code
 * section gives their bodies: both must count the same. */
static void functions(struct cursor *c, uint32_t *ndefined)
{
	*ndefined = leb(c);
	if (*ndefined > c->end - c->pos)
		fail(c, "more functions than bytes to declare them");
}

static void code(struct cursor *c, struct wasm_module *w, uint32_t ndefined)
{
	if (w->funcs)
		fail(c, "a second code section");
	w->code_payload = (uint32_t)c->pos;
	if (leb(c) != ndefined)
		fail(c, "a code section whose count is not the function section's");
	if (c->failed)
		return;
	w->nfuncs = w->nimported + ndefined;
	w->funcs = xcalloc(w->nfuncs ? w->nfuncs : 1, sizeof(*w->funcs));
	for (uint32_t i = w->nimported; i < w->nfuncs && !c->failed; i++) {
		uint32_t size = length(c);
		w->funcs[i].body = (uint32_t)c->pos;
		w->funcs[i].body_size = size;
		c->pos += size;
	}
}

/* The name section's function names (subsection 1); other subsections
 * (module, locals) are skipped.  A name for an index out of range is
 * a fault of the module. */
static void names(struct cursor *c, struct wasm_module *w)
{
	while (c->pos < c->end && !c->failed) {
		uint8_t id = byte(c);
		uint32_t size = length(c);
		struct cursor sub = { c->b, c->pos, c->pos + size, c->err, c->failed };
		c->pos += size;
		if (id != NAME_FUNCTIONS)
			continue;
		uint32_t n = leb(&sub);
		for (uint32_t i = 0; i < n && !sub.failed; i++) {
			uint32_t index = leb(&sub);
			if (!sub.failed && index >= w->nfuncs)
				fail(&sub, "a name for a function the module does not have");
			char *s = name(&sub);
			if (!sub.failed) {
				free(w->funcs[index].name);
				w->funcs[index].name = s;
			}
		}
		c->failed |= sub.failed;
	}
}

static void custom(struct cursor *c, struct wasm_module *w)
{
	char *n = name(c);
	if (c->failed)
		return;
	if (!strcmp(n, "name") && w->funcs) {
		names(c, w);
	} else if (!strcmp(n, "external_debug_info")) {
		free(w->external_debug_info);
		w->external_debug_info = name(c);
	}
	w->custom = xrealloc(w->custom, (w->ncustom + 1) * sizeof(*w->custom));
	w->custom[w->ncustom++] = (struct wasm_section){
		n, (uint32_t)c->pos, (uint32_t)(c->end - c->pos) };
}

/* Each section in turn; the name section comes after the code section
 * (the specification places it so), which gives the index space. */
static bool sections(struct cursor *c, struct wasm_module *w)
{
	uint32_t ndefined = 0;
	while (c->pos < c->end && !c->failed) {
		uint8_t id = byte(c);
		uint32_t size = length(c);
		struct cursor s = { c->b, c->pos, c->pos + size, c->err, c->failed };
		if (id == SEC_IMPORT)
			imports(&s, w);
		else if (id == SEC_FUNCTION)
			functions(&s, &ndefined);
		else if (id == SEC_CODE)
			code(&s, w, ndefined);
		else if (id == SEC_CUSTOM)
			custom(&s, w);
		c->failed |= s.failed;
		c->pos += size;
	}
	if (!c->failed && !w->funcs && ndefined)
		fail(c, "functions declared but no code section");
	return !c->failed;
}

/* Emscripten's symbol map: `N:name` a line. */
static bool symbol_map(struct wasm_module *w, struct load_error *err)
{
	const char *p = (const char *)w->bytes, *end = p + w->len;
	size_t line = 1;
	for (; p < end; line++) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *eol = nl ? nl : end;
		char *colon;
		unsigned long index = strtoul(p, &colon, 10);
		if (colon == p || colon >= eol || *colon != ':' || index >= MAX_MAP_INDEX)
			return load_fail(err, "symbol map, line %zu: not N:name", line);
		if (index >= w->nfuncs) {
			w->funcs = xrealloc(w->funcs, (index + 1) * sizeof(*w->funcs));
			memset(w->funcs + w->nfuncs, 0, (index + 1 - w->nfuncs) * sizeof(*w->funcs));
			w->nfuncs = (uint32_t)index + 1;
		}
		size_t n = (size_t)(eol - colon - 1) - (eol > colon + 1 && eol[-1] == '\r');
		free(w->funcs[index].name);
		w->funcs[index].name = xmalloc(n + 1);
		memcpy(w->funcs[index].name, colon + 1, n);
		w->funcs[index].name[n] = '\0';
		p = eol + 1;
	}
	return true;
}

bool wasm_module_parse(struct wasm_module *w, uint8_t *bytes, size_t len,
		       struct load_error *err)
{
	*w = (struct wasm_module){ .bytes = bytes, .len = len };
	if (len > MAX_MODULE)
		return load_fail(err, "larger than %u bytes", MAX_MODULE);
	if (len < 8 || memcmp(bytes, "\0asm", 4)) {
		w->symbol_map = true;
		return symbol_map(w, err);
	}
	if (memcmp(bytes + 4, "\1\0\0\0", 4))
		return load_fail_at(err, WASM_FORMAT, 4, "not version 1");
	struct cursor c = { bytes, 8, len, err, false };
	return sections(&c, w);
}

bool wasm_module_read(struct wasm_module *w, const char *path, struct load_error *err)
{
	struct input in;
	uint8_t *data;
	size_t len;
	*w = (struct wasm_module){ 0 };
	if (!input_open(&in, path))
		return load_fail(err, "cannot open: %s", strerror(errno));
	bool ok = input_slurp(&in, &data, &len, MAX_MODULE + 1);
	input_close(&in);
	if (!ok)
		return load_fail(err, "cannot read: %s", *in.error ? in.error : strerror(errno));
	return wasm_module_parse(w, data, len, err);
}

void wasm_module_free(struct wasm_module *w)
{
	for (uint32_t i = 0; i < w->nfuncs; i++)
		free(w->funcs[i].name);
	for (size_t i = 0; i < w->ncustom; i++)
		free(w->custom[i].name);
	free(w->funcs);
	free(w->custom);
	free(w->external_debug_info);
	free(w->bytes);
	*w = (struct wasm_module){ 0 };
}

uint32_t wasm_module_find_name(const struct wasm_module *w, const char *name)
{
	for (uint32_t i = 0; i < w->nfuncs; i++)
		if (w->funcs[i].name && !strcmp(w->funcs[i].name, name))
			return i;
	return UINT32_MAX;
}

const struct wasm_section *wasm_module_custom(const struct wasm_module *w,
					       const char *name)
{
	for (size_t i = 0; i < w->ncustom; i++)
		if (!strcmp(w->custom[i].name, name))
			return &w->custom[i];
	return NULL;
}
