/* The wasm module reader (loaders/wasm_module.h) and its DWARF
 * (loaders/wasm_dwarf.h) on testdata/wasm, against wasm-objdump and
 * llvm-dwarfdump (the values below are copied from their output:
 * hot.funcs.txt, hot.sections.txt, hot.subprograms.txt); symbol maps and
 * damaged modules by hand. */
#include <stdlib.h>
#include <string.h>

#include "tests/check.h"
#include "base/util.h"
#include "loaders/wasm_dwarf.h"
#include "loaders/wasm_module.h"

static char path[4096];

static const char *in_testdata(const char *dir, const char *name)
{
	snprintf(path, sizeof(path), "%s/wasm/%s", dir, name);
	return path;
}

/* wasm-objdump -x: Import[5] (all functions), Function[56]; -h: the code
 * section's payload at 0x197; -d: func[6] <churn> at 0x1b6, func[9]
 * <sort_work> at 0x2c0, and in the stripped copy func[6] at 0x1d7. */
static void check_layout(const char *dir)
{
	struct wasm_module w;
	struct load_error err;
	CHECK_MSG(wasm_module_read(&w, in_testdata(dir, "hot.wasm"), &err), "%s", err.message);
	CHECK(w.nimported == 5 && w.nfuncs == 61);
	CHECK(w.code_payload == 0x197);
	CHECK(w.funcs[6].body == 0x1b6 && w.funcs[9].body == 0x2c0);
	CHECK(w.funcs[6].name && !strcmp(w.funcs[6].name, "churn"));
	CHECK(wasm_module_find_name(&w, "sort_work") == 9);
	CHECK(wasm_module_custom(&w, ".debug_line") != NULL);
	CHECK(!w.external_debug_info);

	/* llvm-dwarfdump: churn's subprogram, low_pc 0x1f = 0x1b6 - 0x197,
	 * decl_file /work/material/wasm/hot.c, decl_line 12. */
	struct wasm_sources s;
	CHECK_MSG(wasm_dwarf_read(&w, &s, &err), "%s", err.message);
	const struct wasm_source *churn = wasm_dwarf_at(&s, w.funcs[6].body - w.code_payload);
	CHECK(churn && churn->low_pc == 0x1f && churn->line == 12);
	CHECK(churn && churn->file && !strcmp(churn->file, "/work/material/wasm/hot.c"));
	CHECK(churn && churn->name && !strcmp(churn->name, "churn"));
	CHECK(s.n == 106); /* subprograms with a low_pc */
	wasm_sources_free(&s);
	wasm_module_free(&w);

	CHECK_MSG(wasm_module_read(&w, in_testdata(dir, "hot.stripped.wasm"), &err), "%s",
		  err.message);
	CHECK(w.nfuncs == 61 && w.funcs[6].body == 0x1d7 && !w.funcs[6].name);
	CHECK(!wasm_module_custom(&w, ".debug_info"));
	wasm_module_free(&w);
}

static bool parse(const char *bytes, size_t len, struct wasm_module *w, struct load_error *err)
{
	uint8_t *copy = xmalloc(len + 1);
	memcpy(copy, bytes, len);
	return wasm_module_parse(w, copy, len, err);
}

/* A module cut inside its code section, a code section that counts
 * other than the function section, and a name for a function the
 * module does not have: each refused at its byte. */
static void check_damaged(void)
{
	/* header; function section: 1 function; code: 1 body of 2 bytes */
	static const char good[] = "\0asm\1\0\0\0" "\3\2\1\0" "\12\4\1\2\0\13";
	static const char miscount[] = "\0asm\1\0\0\0" "\3\2\1\0" "\12\4\2\2\0\13";
	static const char names[] = "\0asm\1\0\0\0" "\3\2\1\0" "\12\4\1\2\0\13"
				    "\0\13\4name\1\4\1\5\1f";
	struct wasm_module w;
	struct load_error err;
	CHECK(parse(good, sizeof(good) - 1, &w, &err) && w.nfuncs == 1 && w.funcs[0].body == 16);
	wasm_module_free(&w);
	CHECK(!parse(good, sizeof(good) - 2, &w, &err));
	CHECK_MSG(strstr(err.message, "wasm module, byte 14: a length past the end"), "%s", err.message);
	wasm_module_free(&w);
	CHECK(!parse(miscount, sizeof(miscount) - 1, &w, &err));
	CHECK_MSG(strstr(err.message, "wasm module, byte 15: a code section whose count"), "%s",
		  err.message);
	wasm_module_free(&w);
	CHECK(!parse(names, sizeof(names) - 1, &w, &err));
	CHECK_MSG(strstr(err.message, "a name for a function the module does not have"), "%s",
		  err.message);
	wasm_module_free(&w);
}

/* Emscripten's --emit-symbol-map: N:name lines. */
static void check_symbol_map(void)
{
	static const char map[] = "0:fd_write\n7:fib\r\n9:sort_work";
	struct wasm_module w;
	struct load_error err;
	CHECK(parse(map, sizeof(map) - 1, &w, &err) && w.symbol_map);
	CHECK(w.nfuncs == 10 && !strcmp(w.funcs[7].name, "fib") && !w.funcs[8].name);
	CHECK(!strcmp(w.funcs[9].name, "sort_work"));
	wasm_module_free(&w);
	CHECK(!parse("7 fib\n", 6, &w, &err));
	CHECK_MSG(strstr(err.message, "symbol map, line 1"), "%s", err.message);
	wasm_module_free(&w);
}

int main(int argc, char **argv)
{
	check_layout(argc > 1 ? argv[1] : "testdata");
	check_damaged();
	check_symbol_map();
	return check_done();
}
