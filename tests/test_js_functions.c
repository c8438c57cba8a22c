/* The enclosing-function scanner (src/transform/js_functions.h) on
 * snippets whose functions, names and spans are read off by hand: each
 * case names a position (0-based line and column, UTF-16 units) and the
 * function a reader of the snippet says holds it. */
#include <stdbool.h>
#include <string.h>

#include "tests/check.h"
#include "transform/js_functions.h"

struct want {
	int line, column;
	const char *name; /* NULL: top level; "" anonymous */
};

static void check_case(const char *text, const struct want *w, size_t n)
{
	struct js_functions fns;
	js_functions_scan(text, &fns);
	for (size_t i = 0; i < n; i++) {
		const struct js_function *f =
			js_function_at(&fns, (struct js_position){ w[i].line, w[i].column });
		const char *got = !f ? NULL : f->name ? f->name : "";
		bool same = got && w[i].name ? !strcmp(got, w[i].name) : got == w[i].name;
		CHECK_MSG(same, "%d:%d in <<%.40s...>>: got %s, want %s", w[i].line,
			  w[i].column, text, got ? got : "(top level)",
			  w[i].name ? w[i].name : "(top level)");
	}
	js_functions_free(&fns);
}

#define CASE(text, ...)                                                     \
	do {                                                                \
		const struct want w[] = { __VA_ARGS__ };                    \
		check_case(text, w, sizeof(w) / sizeof(w[0]));              \
	} while (0)

int main(void)
{
	/* Declarations: the span runs from `function` to the closing brace. */
	CASE("let a = 1;\nfunction outer(x) {\n  return x;\n}\nouter(a);\n",
	     { 0, 4, NULL }, { 1, 0, "outer" }, { 1, 9, "outer" }, { 2, 2, "outer" },
	     { 3, 0, "outer" }, { 4, 0, NULL });
	/* async, generators, nested declarations: the innermost wins. */
	CASE("async function a() { function* b() { yield 1; } return 2; }",
	     { 0, 0, "a" }, { 0, 21, "b" }, { 0, 38, "b" }, { 0, 50, "a" });
	/* Arrows and function expressions named by what they are given to. */
	CASE("const f = (x) => { return x; };\nlet g = async y => y * 2, h = 3;\n"
	     "obj.prop = function () {};\nvar k = function named() {};\n",
	     { 0, 6, "f" }, { 0, 10, "f" }, { 0, 19, "f" }, { 0, 31, NULL },
	     { 1, 8, "g" }, { 1, 20, "g" }, { 1, 23, "g" }, { 1, 24, NULL },
	     { 2, 4, "prop" }, { 2, 11, "prop" }, { 3, 8, "named" });
	/* Methods of classes and object literals, properties, computed keys. */
	CASE("class C {\n  static make(n) { return n; }\n  get size() { return 0; }\n"
	     "  [key](z) { return z; }\n  field = () => 1;\n}\n",
	     { 0, 6, NULL }, { 1, 9, "make" }, { 1, 20, "make" }, { 2, 6, "size" },
	     { 3, 2, "" }, { 3, 14, "" }, { 4, 2, "field" }, { 4, 16, "field" });
	CASE("const o = {\n  a: function () { return 1; },\n  'b': () => 2,\n  c(q) { return q; },\n};\n",
	     { 1, 2, "a" }, { 1, 20, "a" }, { 2, 2, "b" }, { 2, 13, "b" }, { 3, 4, "c" });
	/* Anonymous callbacks are functions of their own, not their caller. */
	CASE("function sortIt(items) {\n  return items.sort((p, q) => p - q);\n}\n",
	     { 1, 2, "sortIt" }, { 1, 20, "" }, { 1, 29, "" }, { 1, 36, "sortIt" });
	/* A ternary's `:` names nothing; an object key after `{` or `,` does. */
	CASE("const pick = c ? x : function () {};", { 0, 22, "" });
	/* Braces, parentheses and `=>` inside strings, templates, comments and
	 * regular expressions do not count. */
	CASE("function s() { return '}' + \"{(\" + `}${ {a: 1}.a }{` + /[}]\\/{/.source; }\n"
	     "// function fake() {\n/* => { */ function t() {}\n",
	     { 0, 60, "s" }, { 1, 5, NULL }, { 2, 12, "t" });
	/* Divisions are not regular expressions. */
	CASE("function d(a, b) { return (a) / 2 / (b); }\nfunction e() {}\n",
	     { 0, 30, "d" }, { 1, 10, "e" });
	/* Columns count UTF-16 units: é is one, 😀 (above U+FFFF) two. */
	CASE("const s = 'é😀'; const u = () => 1;", { 0, 23, "u" }, { 0, 20, NULL });
	/* A quote cut short by the line's end, before a method's parameters
	 * (found by fuzzing): named by its text. */
	CASE("'\n(x) { return x; }", { 1, 8, "'" });
	/* Text that ends inside a function: it runs to the end. */
	CASE("function cut() { if (x) {", { 0, 24, "cut" });
	return check_done();
}
