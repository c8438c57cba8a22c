/* The functions of a JavaScript source and their names, found by a scan
 * of its text (not a parser): what names a source-mapped frame whose map
 * gives no name at its position (js_source_maps.h).
 *
 * A function is found where the text has
 *   - `function NAME(...) {` (async, generators alike), named NAME;
 *   - `function (...) {`, `(...) => ...`, `x => ...` after `NAME =`,
 *     `.NAME =`, `NAME:` or `"NAME":` (const/let/var, assignments, class
 *     fields, object properties), named NAME, else anonymous;
 *   - `NAME(...) {` where NAME is not a statement keyword (methods of
 *     classes and object literals, get/set/static/async before them),
 *     named NAME; `[expr](...) {` anonymous.
 * It spans from its first token (the name where the name comes before it)
 * to its closing brace, or for an arrow without braces to the `,`, `;` or
 * closing bracket that ends its expression at its own depth.
 *
 * Limits: strings, template literals (with ${} nesting) and comments are
 * skipped; a `/` is a regular expression after an operator, an opening
 * bracket or a keyword such as return, else a division (so a regular
 * expression that starts a statement after a block's `}` is misread).  An arrow
 * without braces whose statement ends at a line break without `;` runs on
 * to the next `,`, `;` or closing bracket.  Names are a single identifier
 * (`a.b.c = function` is named c).  Positions are 0-based lines and
 * columns in UTF-16 code units, as source maps count them. */
#ifndef WPROF_JS_FUNCTIONS_H
#define WPROF_JS_FUNCTIONS_H

#include <stddef.h>
#include <stdint.h>

struct js_position {
	int32_t line, column;
};

struct js_function {
	struct js_position start, end; /* end: the last character's */
	char *name;                     /* NULL: anonymous */
};

struct js_functions {
	struct js_function *fn; /* by start */
	size_t n, cap;
};

void js_functions_scan(const char *text, struct js_functions *out);
void js_functions_free(struct js_functions *fns);

/* The innermost function whose span holds `at`, NULL when it is at the
 * top level. */
const struct js_function *js_function_at(const struct js_functions *fns,
					 struct js_position at);

#endif
