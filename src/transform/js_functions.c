/* Finding a JavaScript source's functions by a scan of its tokens
 * (js_functions.h).  One pass: the lexer keeps the brackets open (a
 * template's ${ among them), and each token is looked at once with the
 * tokens before it to see whether a function starts or ends there. */
#include "js_functions.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"

enum token_kind { TOKEN_NAME, TOKEN_STRING, TOKEN_NUMBER, TOKEN_PUNCT };

struct token {
	enum token_kind kind;
	const char *text;
	size_t len;
	struct js_position start, end;
	size_t match; /* a closing bracket: its opening token's index */
};

struct bracket {
	size_t token;    /* the opening token */
	int32_t fn;      /* a `{` that opens a function's body, else -1 */
	bool template;   /* a template literal's ${ */
};

struct arrow {
	size_t depth;    /* brackets open where its expression body is */
	int32_t fn;
};

struct scanner {
	const char *p;
	struct js_position at;
	struct token *tokens;
	size_t ntokens, tokens_cap;
	struct bracket *brackets;
	size_t nbrackets, brackets_cap;
	struct arrow *arrows;
	size_t narrows, arrows_cap;
	struct js_functions *out;
};

static void advance(struct scanner *s)
{
	unsigned char c = (unsigned char)*s->p++;
	if (c == '\n') {
		s->at.line++;
		s->at.column = 0;
	} else if ((c & 0xc0) != 0x80) {
		/* UTF-16 units: one per character, two above U+FFFF */
		s->at.column += c >= 0xf0 ? 2 : 1;
	}
}

static bool name_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '_' || c == '$' || c == '#' || (unsigned char)c >= 0x80;
}

static bool is(const struct token *t, const char *text)
{
	return t->len == strlen(text) && !memcmp(t->text, text, t->len);
}

static const struct token *token_at(const struct scanner *s, size_t i, size_t back)
{
	return i >= back && i - back < s->ntokens ? &s->tokens[i - back] : NULL;
}

static bool is_at(const struct scanner *s, size_t i, size_t back, const char *text)
{
	const struct token *t = token_at(s, i, back);
	return t && is(t, text);
}

static bool one_of(const struct token *t, const char *const *words)
{
	for (; *words; words++)
		if (is(t, *words))
			return true;
	return false;
}

/* After these a `/` starts a regular expression, not a division. */
static bool before_regex(const struct token *t)
{
	static const char *const words[] = { "return", "typeof", "instanceof", "in", "of",
					     "new", "delete", "void", "throw", "case", "do",
					     "else", "yield", "await", NULL };
	if (!t)
		return true;
	if (t->kind == TOKEN_PUNCT)
		return !is(t, ")") && !is(t, "]") && !is(t, "}");
	return t->kind == TOKEN_NAME && one_of(t, words);
}

static void skip_quoted(struct scanner *s, char quote)
{
	advance(s);
	while (*s->p && *s->p != quote && *s->p != '\n') {
		if (*s->p == '\\' && s->p[1])
			advance(s);
		advance(s);
	}
	if (*s->p == quote)
		advance(s);
}

static void skip_regex(struct scanner *s)
{
	bool in_class = false;
	advance(s);
	while (*s->p && *s->p != '\n' && (in_class || *s->p != '/')) {
		if (*s->p == '\\' && s->p[1])
			advance(s);
		else if (*s->p == '[' || *s->p == ']')
			in_class = *s->p == '[';
		advance(s);
	}
	if (*s->p == '/')
		advance(s);
	while (name_char(*s->p))
		advance(s); /* flags */
}

static void open_bracket(struct scanner *s, size_t token, int32_t fn, bool template)
{
	GROW(s->brackets, s->brackets_cap, s->nbrackets + 1);
	s->brackets[s->nbrackets++] = (struct bracket){ token, fn, template };
}

/* A template literal's text from *p up to its end or a ${, which opens
 * a bracket that its `}` closes, the text going on from there. */
static void skip_template_text(struct scanner *s)
{
	while (*s->p && *s->p != '`') {
		if (*s->p == '\\' && s->p[1]) {
			advance(s);
		} else if (*s->p == '$' && s->p[1] == '{') {
			advance(s);
			advance(s);
			open_bracket(s, s->ntokens ? s->ntokens - 1 : 0, -1, true);
			return;
		}
		advance(s);
	}
	if (*s->p == '`')
		advance(s);
}

static bool skip_comment(struct scanner *s)
{
	if (s->p[0] != '/' || (s->p[1] != '/' && s->p[1] != '*'))
		return false;
	bool block = s->p[1] == '*';
	advance(s);
	advance(s);
	while (*s->p && (block ? !(s->p[0] == '*' && s->p[1] == '/') : *s->p != '\n'))
		advance(s);
	if (block && *s->p) {
		advance(s);
		advance(s);
	}
	return true;
}

/* The length of the punctuator at p: the operators whose `=` matters
 * (`=>`, `==`, `<=`, `+=`...) whole, brackets and separators alone. */
static size_t punct_length(const char *p)
{
	if (p[0] == '=' && p[1] == '>')
		return 2;
	if (p[0] == '.' && p[1] == '.' && p[2] == '.')
		return 3;
	if (strchr("()[]{},;:.", p[0]))
		return 1;
	if (p[0] == '=')
		return strspn(p, "=");
	size_t n = strspn(p, "<>!+-*%&|^?~=/");
	return n ? n : 1;
}

static void push_token(struct scanner *s, enum token_kind kind, const char *start,
		       struct js_position from, struct js_position last)
{
	GROW(s->tokens, s->tokens_cap, s->ntokens + 1);
	s->tokens[s->ntokens++] = (struct token){ kind, start, (size_t)(s->p - start), from,
						  last, 0 };
}

/* The next token, false at the end of the text.  Strings, templates and
 * regular expressions are tokens of kind TOKEN_STRING. */
static bool lex(struct scanner *s)
{
	for (;;) {
		while (*s->p == ' ' || *s->p == '\t' || *s->p == '\n' || *s->p == '\r')
			advance(s);
		if (!skip_comment(s))
			break;
	}
	if (!*s->p)
		return false;
	const char *start = s->p;
	struct js_position from = s->at, last = s->at;
	const struct token *prev = s->ntokens ? &s->tokens[s->ntokens - 1] : NULL;
	enum token_kind kind = TOKEN_PUNCT;
	if (*s->p == '"' || *s->p == '\'') {
		skip_quoted(s, *s->p);
		kind = TOKEN_STRING;
	} else if (*s->p == '`') {
		advance(s);
		skip_template_text(s);
		kind = TOKEN_STRING;
	} else if (*s->p == '/' && before_regex(prev)) {
		skip_regex(s);
		kind = TOKEN_STRING;
	} else if (name_char(*s->p)) {
		kind = (*s->p >= '0' && *s->p <= '9') ? TOKEN_NUMBER : TOKEN_NAME;
		while (name_char(*s->p) || (kind == TOKEN_NUMBER && *s->p == '.'))
			advance(s);
	} else {
		for (size_t n = punct_length(s->p); n && *s->p; n--) {
			last = s->at;
			advance(s);
		}
	}
	if (kind != TOKEN_PUNCT)
		last = (struct js_position){ s->at.line, s->at.column - 1 };
	push_token(s, kind, start, from, last);
	return true;
}

static int32_t add_function(struct scanner *s, const struct token *name, struct js_position start)
{
	struct js_functions *out = s->out;
	GROW(out->fn, out->cap, out->n + 1);
	char *text = NULL;
	if (name) {
		/* A quoted key without its quotes; one cut short keeps its text. */
		bool quoted = name->kind == TOKEN_STRING && name->len >= 2 &&
			      name->text[name->len - 1] == name->text[0];
		size_t len = name->len - (quoted ? 2 : 0);
		text = xmalloc(len + 1);
		memcpy(text, name->text + quoted, len);
		text[len] = 0;
	}
	out->fn[out->n] = (struct js_function){ start, { -1, -1 }, text };
	return (int32_t)out->n++;
}

static bool plain_name(const struct token *t)
{
	static const char *const words[] = { "if", "for", "while", "switch", "catch", "with",
					     "function", "return", "typeof", "new", "await",
					     "yield", "async", NULL };
	return t && t->kind == TOKEN_NAME && !one_of(t, words);
}

/* A function whose first token is `first`, named by what comes before
 * it: `NAME =`, `NAME:` or `"NAME":` as an object's key; else anonymous. */
static int32_t add_by_context(struct scanner *s, size_t first)
{
	if (is_at(s, first, 1, "async"))
		first--;
	const struct token *name = token_at(s, first, 2);
	bool assigned = is_at(s, first, 1, "=") && plain_name(name);
	bool keyed = is_at(s, first, 1, ":") && name &&
		     (plain_name(name) || name->kind == TOKEN_STRING) &&
		     (is_at(s, first, 3, "{") || is_at(s, first, 3, ","));
	if (assigned || keyed)
		return add_function(s, name, name->start);
	return add_function(s, NULL, s->tokens[first].start);
}

/* A function whose body is the `{` at token i, or -1: after `=>`, or
 * after the parameters of `function`, a named function or a method. */
static int32_t body_opened(struct scanner *s, size_t i)
{
	if (is_at(s, i, 1, "=>")) {
		const struct token *params = token_at(s, i, 2);
		if (!params)
			return -1;
		return add_by_context(s, is(params, ")") ? params->match : i - 2);
	}
	if (!is_at(s, i, 1, ")"))
		return -1;
	size_t open = s->tokens[i - 1].match;
	const struct token *before = token_at(s, open, 1);
	if (!before)
		return -1;
	bool star = is(before, "*");
	size_t keyword = open - (star ? 2 : 1);
	if (is_at(s, keyword, 0, "function"))
		return add_by_context(s, keyword);
	size_t named = open - (is_at(s, open, 2, "*") ? 3 : 2);
	if (plain_name(before) && is_at(s, named, 0, "function"))
		return add_function(s, before, s->tokens[named - is_at(s, named, 1, "async")].start);
	if (plain_name(before) || before->kind == TOKEN_STRING)
		return add_function(s, before, before->start);
	if (is(before, "]"))
		return add_function(s, NULL, s->tokens[before->match].start);
	return -1;
}

static void end_function(struct scanner *s, int32_t fn, struct js_position end)
{
	if (fn >= 0)
		s->out->fn[fn].end = end;
}

/* Arrows without braces whose expression ends before a token at
 * `depth` brackets: a `,` or `;` there, or a bracket closing it. */
static void end_arrows(struct scanner *s, size_t depth, size_t token)
{
	const struct token *last = token ? &s->tokens[token - 1] : NULL;
	while (s->narrows && s->arrows[s->narrows - 1].depth >= depth) {
		end_function(s, s->arrows[s->narrows - 1].fn, last->end);
		s->narrows--;
	}
}

static void arrow_without_braces(struct scanner *s, size_t i)
{
	const struct token *params = token_at(s, i, 2);
	if (!params)
		return;
	int32_t fn = add_by_context(s, is(params, ")") ? params->match : i - 2);
	GROW(s->arrows, s->arrows_cap, s->narrows + 1);
	s->arrows[s->narrows++] = (struct arrow){ s->nbrackets, fn };
}

static void close_bracket(struct scanner *s, size_t i)
{
	struct token *t = &s->tokens[i];
	if (!s->nbrackets)
		return;
	end_arrows(s, s->nbrackets, i);
	struct bracket b = s->brackets[--s->nbrackets];
	t->match = b.token;
	if (is(t, "}"))
		end_function(s, b.fn, t->end);
	if (b.template) {
		skip_template_text(s);
		t->kind = TOKEN_STRING; /* the template goes on */
	}
}

static void look_at(struct scanner *s, size_t i)
{
	struct token *t = &s->tokens[i];
	if (is_at(s, i, 1, "=>") && !is(t, "{"))
		arrow_without_braces(s, i);
	if (t->kind != TOKEN_PUNCT)
		return;
	if (is(t, "(") || is(t, "["))
		open_bracket(s, i, -1, false);
	else if (is(t, "{"))
		open_bracket(s, i, body_opened(s, i), false);
	else if (is(t, ")") || is(t, "]") || is(t, "}"))
		close_bracket(s, i);
	else if (is(t, ",") || is(t, ";"))
		end_arrows(s, s->nbrackets, i);
}

static int by_start(const void *a, const void *b)
{
	const struct js_function *x = a, *y = b;
	if (x->start.line != y->start.line)
		return x->start.line < y->start.line ? -1 : 1;
	return x->start.column < y->start.column ? -1 : x->start.column > y->start.column;
}

void js_functions_scan(const char *text, struct js_functions *out)
{
	memset(out, 0, sizeof(*out));
	struct scanner s = { .p = text, .out = out };
	while (lex(&s))
		look_at(&s, s.ntokens - 1);
	end_arrows(&s, 0, s.ntokens);
	struct js_position end = s.ntokens ? s.tokens[s.ntokens - 1].end : s.at;
	for (size_t i = 0; i < out->n; i++)
		if (out->fn[i].end.line < 0)
			out->fn[i].end = end; /* the text ends inside it */
	if (out->n)
		qsort(out->fn, out->n, sizeof(*out->fn), by_start);
	FREE_ALL(s.tokens, s.brackets, s.arrows);
}

void js_functions_free(struct js_functions *fns)
{
	for (size_t i = 0; i < fns->n; i++)
		free(fns->fn[i].name);
	free(fns->fn);
	memset(fns, 0, sizeof(*fns));
}

static bool before_or_at(struct js_position a, struct js_position b)
{
	return a.line < b.line || (a.line == b.line && a.column <= b.column);
}

const struct js_function *js_function_at(const struct js_functions *fns,
					 struct js_position at)
{
	const struct js_function *inner = NULL;
	for (size_t i = 0; i < fns->n && before_or_at(fns->fn[i].start, at); i++)
		if (before_or_at(at, fns->fn[i].end))
			inner = &fns->fn[i];
	return inner;
}
