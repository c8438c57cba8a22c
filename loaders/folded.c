/* Folded stacks: one line per distinct stack, its frames from the root
 * down separated by ';', then a count (Brendan Gregg's stackcollapse
 * scripts, async-profiler's collapsed output, py-spy, wprof-tui's own
 * --export folded).  Two counts per line are flamegraph's differential
 * form (difffolded.pl): the first is BASE, the second NEW; the loader
 * keeps the column load_options.count_column asks for, and names the
 * format FORMAT_FOLDED_DIFFERENTIAL so that the caller can load the
 * other one and compare (docs/formats.md). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "text_lines.h"
#include "loaders.h"

#define FORMAT "folded stacks"
#define MAX_LINE (64u << 20) /* a deep stack of long C++ names fits */
#define MAX_COUNT 1e17       /* beyond, sums lose whole units */
#define MAX_NUMBER_LEN 64

struct folded_line {
	const char *stack;
	size_t stack_len;
	double counts[2];
	int ncounts;
};

/* A count: digits, an optional fraction and exponent (what %g writes);
 * never negative, NaN or infinite. */
static bool parse_count(const char *s, size_t n, double *out)
{
	char buf[MAX_NUMBER_LEN + 1];
	if (n == 0 || n > MAX_NUMBER_LEN || !(s[0] >= '0' && s[0] <= '9'))
		return false;
	for (size_t i = 0; i < n; i++)
		if (!strchr("0123456789.eE+-", s[i]))
			return false;
	memcpy(buf, s, n);
	buf[n] = '\0';
	char *end;
	*out = strtod(buf, &end);
	return *end == '\0' && isfinite(*out);
}

static bool is_blank(char c)
{
	return c == ' ' || c == '\t';
}

/* The last blank-separated field of s[0..*n): its start, and *n cut to
 * what precedes it (blanks included). */
static const char *last_field(const char *s, size_t *n, size_t *field_len)
{
	size_t end = *n;
	while (end && is_blank(s[end - 1]))
		end--;
	size_t start = end;
	while (start && !is_blank(s[start - 1]))
		start--;
	*field_len = end - start;
	*n = start;
	return s + start;
}

/* Splits "STACK COUNT" or "STACK COUNT COUNT".  `want` is the number of
 * counts the file has (0: not known yet, take what the line gives). */
static bool split_line(const char *s, size_t n, int want, struct folded_line *out)
{
	size_t len, rest = n;
	const char *field = last_field(s, &rest, &len);
	if (!parse_count(field, len, &out->counts[0]) || !rest)
		return false;
	out->ncounts = 1;
	size_t before = rest, len2;
	const char *field2 = last_field(s, &before, &len2);
	double second;
	if (want != 1 && before && parse_count(field2, len2, &second)) {
		out->counts[1] = out->counts[0];
		out->counts[0] = second;
		out->ncounts = 2;
		rest = before;
	}
	while (rest && is_blank(s[rest - 1]))
		rest--;
	out->stack = s;
	out->stack_len = rest;
	return rest > 0;
}

/* Printable text whose first line reads as a folded line.  A first
 * line longer than the bytes sniffed must at least look like a stack. */
bool sniff_folded(const uint8_t *head, size_t len)
{
	if (!len || is_blank((char)head[0]) || strchr("{[<#\r\n", head[0]))
		return false;
	for (size_t i = 0; i < len; i++)
		if (head[i] < 0x20 && head[i] != '\t' && head[i] != '\r' && head[i] != '\n')
			return false;
	const uint8_t *newline = memchr(head, '\n', len);
	size_t line = newline ? (size_t)(newline - head) : len;
	if (line && head[line - 1] == '\r')
		line--;
	struct folded_line fl = { 0 };
	if (split_line((const char *)head, line, 0, &fl))
		return true;
	return !newline && len >= 256 && memchr(head, ';', len);
}

struct folded_loader {
	struct line_reader lines;
	struct model *m;
	struct load_error *err;
	int columns;  /* counts per line, from the first line */
	int column;   /* the one kept, 0-based */
	str_t empty, anonymous;
};

static bool fail_line(struct folded_loader *L, const char *what)
{
	return line_fail(&L->lines, L->err, FORMAT, what);
}

/* "name (FILE:LINE)" (py-spy) or "name [FILE:LINE]": the place goes to
 * url and line.  Returns the length of the name before it. */
static size_t split_place(struct folded_loader *L, const char *s, size_t n,
			  struct frame *f)
{
	if (n < 6 || (s[n - 1] != ')' && s[n - 1] != ']'))
		return n;
	char open = s[n - 1] == ')' ? '(' : '[';
	size_t colon = n - 1;
	while (colon && s[colon - 1] >= '0' && s[colon - 1] <= '9')
		colon--;
	if (colon == n - 1 || n - 1 - colon > 9 || !colon || s[colon - 1] != ':')
		return n;
	colon--;
	size_t start = colon;
	while (start && s[start - 1] != open)
		start--;
	if (start < 2 || start == colon || s[start - 2] != ' ')
		return n;
	f->url = model_string(L->m, s + start, colon - start);
	f->line = (int32_t)strtol(s + colon + 1, NULL, 10);
	return start - 2;
}

/* A frame's text: the name, with flamegraph's type suffix (_[k] kernel,
 * _[j] JIT, _[i] inlined, _[w] WebAssembly) and a place split off. */
static uint32_t frame_of(struct folded_loader *L, const char *s, size_t n)
{
	struct frame f = {
		.url = L->empty, .extra = STR_NONE, .line = -1, .column = -1,
		.kind = KIND_NATIVE,
	};
	if (n > 4 && s[n - 4] == '_' && s[n - 3] == '[' && s[n - 1] == ']' &&
	    strchr("kjiw", s[n - 2])) {
		char type = s[n - 2];
		f.kind = type == 'j' ? KIND_JS : type == 'w' ? KIND_WASM : KIND_NATIVE;
		f.flags = type == 'i' ? FRAME_INLINED : 0;
		n -= 4;
	}
	n = split_place(L, s, n, &f);
	f.name = n ? model_string(L->m, s, n) : L->anonymous;
	return model_intern_frame(L->m, &f);
}

static bool read_line(struct folded_loader *L, const char *s, size_t n)
{
	struct folded_line fl = { 0 };
	if (!split_line(s, n, L->columns, &fl))
		return fail_line(L, "expected 'frame;frame;... COUNT' (a stack, a blank, "
				 "a count that is a number)");
	if (!L->columns) {
		L->columns = fl.ncounts;
		if (L->column >= L->columns)
			return fail_line(L, "no second count to read (not the differential "
					 "form 'STACK BASE NEW')");
	}
	if (fl.ncounts != L->columns)
		return fail_line(L, L->columns == 2 ? "one count where the first line has two"
				 : "two counts where the first line has one");
	double count = fl.counts[L->column];
	if (count > MAX_COUNT || fl.counts[1 - L->column] > MAX_COUNT)
		return fail_line(L, "a count beyond 1e17");
	uint32_t node = NO_ID;
	const char *frame = fl.stack, *end = fl.stack + fl.stack_len;
	for (;;) {
		const char *semi = memchr(frame, ';', (size_t)(end - frame));
		const char *stop = semi ? semi : end;
		node = model_add_child(L->m, node, frame_of(L, frame, (size_t)(stop - frame)));
		if (!semi)
			break;
		frame = semi + 1;
	}
	model_add_node_value(L->m, node, 0, count);
	return true;
}

static bool read_lines(struct folded_loader *L)
{
	while (line_next(&L->lines)) {
		const char *s = L->lines.text;
		size_t n = L->lines.len;
		size_t i = 0;
		while (i < n && is_blank(s[i]))
			i++;
		if (i == n)
			continue;
		if (memchr(s, '\0', n))
			return fail_line(L, "a NUL byte (not text)");
		if (!read_line(L, s, n))
			return false;
	}
	if (L->lines.too_long)
		return fail_line(L, "a line longer than 64 MiB");
	if (L->lines.in->read_errno)
		return load_fail_at(L->err, FORMAT, input_offset(L->lines.in), "read error");
	if (!L->columns)
		return load_fail(L->err, FORMAT ": no stack in the file");
	return true;
}

bool load_folded(struct input *in, struct model *m,
		 const struct load_options *opt, struct load_error *err)
{
	struct folded_loader L = { .m = m, .err = err, .column = opt->count_column };
	model_init(m, "folded stacks");
	/* The counts are whatever the tool counted: samples, most often. */
	model_add_sample_type(m, "samples", "count");
	L.empty = model_string(m, "", 0);
	L.anonymous = model_string(m, "(anonymous)", 11);
	line_reader_init(&L.lines, in, MAX_LINE);
	if (!read_lines(&L)) {
		model_free(m);
		return false;
	}
	if (L.columns == 2)
		m->format = FORMAT_FOLDED_DIFFERENTIAL;
	uint32_t cycle;
	model_finish(m, &cycle); /* stacks make a tree: no cycle */
	return true;
}
