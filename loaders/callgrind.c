/* callgrind.out: valgrind's callgrind (and the tools that write its
 * format: kcachegrind's converters, php's xdebug), read as
 * callgrind_annotate reads it.  A function is its file and its name
 * ("file:fn" in callgrind_annotate), its self cost the cost lines under
 * its fn=, and each calls= line a call arc with its count and the
 * inclusive cost of those calls: the data of the gprof rule, with
 * measured arc costs (docs/formats.md). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/escape.h"
#include "base/util.h"
#include "demangle.h"
#include "text_lines.h"
#include "loaders.h"

#define FORMAT "callgrind"
#define MAX_LINE (1u << 20)
#define MAX_EVENTS 64
#define MAX_COST 1e18          /* beyond, sums lose whole units */
#define MAX_NAME_ID (1u << 24) /* (id) of name compression */

/* The three spaces of compressed names: files (fl, fi, fe, cfi, cfl,
 * jfi), functions (fn, cfn, jfn) and objects (ob, cob). */
enum name_space { SPACE_FILE, SPACE_FN, SPACE_OBJECT, SPACE_COUNT };

struct name_table {
	str_t *by_id; /* STR_NONE where the id is not defined yet */
	size_t cap;
};

struct cg_loader {
	struct model *m;
	struct load_error *err;
	struct line_reader lines;
	struct name_table names[SPACE_COUNT];
	char events[MAX_EVENTS][64];
	int nevents, event; /* the event read (its column) */
	int positions;      /* position columns: 1 (line or instr), 2 (instr line) */
	bool have_events;
	/* summary: and totals:, per event (0 where not given) */
	double summary[MAX_EVENTS], totals[MAX_EVENTS];
	str_t file, fn;     /* current fl/fi/fe and fn */
	str_t home_file;    /* fl's file, which fi/fe leave and come back to */
	uint32_t frame;     /* the current function, NO_ID before fn= */
	uint32_t home;      /* fl's file:fn, which code inlined from fi/fe is in */
	double inlined_cost; /* the cost of frame != home since the last switch */
	bool inlined_seen;
	str_t call_file;    /* cfi/cfl for the next cfn= (STR_NONE: the current file) */
	uint32_t called;    /* the function cfn= named last, else NO_ID */
	uint32_t callee;    /* frame of the calls= line being read, else NO_ID */
	double call_count;
	double *self;       /* per frame */
	size_t self_cap;
};

/* A header of `word: ...` lines up to "events:" (comments and blank
 * lines allowed), or callgrind's own first line. */
bool sniff_callgrind(const uint8_t *head, size_t len)
{
	static const char magic[] = "# callgrind format";
	if (len >= sizeof(magic) - 1 && !memcmp(head, magic, sizeof(magic) - 1))
		return true;
	size_t i = 0;
	while (i < len) {
		size_t end = i;
		while (end < len && head[end] != '\n')
			end++;
		if (end == len)
			return false; /* a line cut by the head: not known */
		if (end - i >= 7 && !memcmp(head + i, "events:", 7))
			return true;
		size_t k = i;
		while (k < end && head[k] >= 'a' && head[k] <= 'z')
			k++;
		bool header = k > i && k < end && head[k] == ':';
		bool blank = end == i || (end == i + 1 && head[i] == '\r');
		if (!header && !blank && head[i] != '#')
			return false;
		i = end + 1;
	}
	return false;
}

static bool fail_line(struct cg_loader *L, const char *what)
{
	return line_fail(&L->lines, L->err, FORMAT, what);
}

static bool starts(const char *s, size_t n, const char *prefix)
{
	size_t k = strlen(prefix);
	return n >= k && !memcmp(s, prefix, k);
}

/* A function's name as the file gives it, demangled when callgrind ran
 * with --demangle=no; its recursion level ("'2") stays after it. */
static str_t function_name(struct cg_loader *L, const char *s, size_t n)
{
	size_t plain = n;
	while (plain && s[plain - 1] >= '0' && s[plain - 1] <= '9')
		plain--;
	if (plain == n || !plain || s[plain - 1] != '\'')
		plain = n + 1;
	plain--; /* the name without "'N" */
	char *symbol = xmalloc(n + 1);
	memcpy(symbol, s, plain);
	symbol[plain] = '\0';
	char *readable = demangle_symbol(symbol);
	str_t name = model_string(L->m, s, n);
	if (readable) {
		size_t len = strlen(readable);
		symbol = xrealloc(symbol, len + n - plain + 1);
		memcpy(symbol, readable, len);
		memcpy(symbol + len, s + plain, n - plain);
		name = model_string(L->m, symbol, len + n - plain);
		free(readable);
	}
	free(symbol);
	return name;
}

static str_t name_string(struct cg_loader *L, enum name_space space, const char *s,
			 size_t n)
{
	return space == SPACE_FN ? function_name(L, s, n) : model_string(L->m, s, n);
}

/* "(id) name" defines id, "(id)" uses it, "name" is not compressed. */
static bool name_value(struct cg_loader *L, enum name_space space, const char *s,
		       size_t n, str_t *out)
{
	struct name_table *t = &L->names[space];
	if (!n || s[0] != '(') {
		*out = name_string(L, space, s, n);
		return true;
	}
	size_t i = 1;
	unsigned long id = 0;
	while (i < n && s[i] >= '0' && s[i] <= '9' && id < MAX_NAME_ID)
		id = id * 10 + (unsigned long)(s[i++] - '0');
	if (i == 1 || i >= n || s[i] != ')' || id >= MAX_NAME_ID)
		return fail_line(L, "a compressed name that is not \"(number) name\"");
	for (i++; i < n && (s[i] == ' ' || s[i] == '\t'); i++)
		;
	if (id >= t->cap) {
		size_t old = t->cap;
		GROW(t->by_id, t->cap, id + 1);
		for (size_t k = old; k < t->cap; k++)
			t->by_id[k] = STR_NONE;
	}
	if (i < n)
		t->by_id[id] = name_string(L, space, s + i, n - i);
	else if (t->by_id[id] == STR_NONE)
		return fail_line(L, "a compressed name used before it is defined");
	*out = t->by_id[id];
	return true;
}

static uint32_t function_frame(struct cg_loader *L, str_t file, str_t fn)
{
	struct frame f = { .name = fn, .url = file, .extra = STR_NONE,
			   .line = -1, .column = -1, .kind = KIND_NATIVE };
	uint32_t frame = model_intern_frame(L->m, &f);
	if (frame >= L->self_cap) {
		size_t old = L->self_cap;
		GROW(L->self, L->self_cap, frame + 1);
		memset(L->self + old, 0, (L->self_cap - old) * sizeof(double));
	}
	return frame;
}

/* A whole number of `n` bytes (a cost or a call count). */
static bool whole_number(const char *s, size_t n, double *out)
{
	if (!n || n > 19)
		return false;
	double v = 0;
	for (size_t i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return false;
		v = v * 10 + (s[i] - '0');
	}
	*out = v;
	return v <= MAX_COST;
}

/* The next blank-separated field of s[*i..n). */
static bool next_field(const char *s, size_t n, size_t *i, const char **field,
		       size_t *len)
{
	while (*i < n && (s[*i] == ' ' || s[*i] == '\t'))
		(*i)++;
	*field = s + *i;
	while (*i < n && s[*i] != ' ' && s[*i] != '\t')
		(*i)++;
	*len = (size_t)(s + *i - *field);
	return *len > 0;
}

/* A position: a number (decimal or 0x hex), +N or -N from the last, or
 * "*" for the same.  Only their form matters here: costs are summed per
 * function, not per line. */
static bool all_of(const char *s, size_t n, const char *set)
{
	for (size_t i = 0; i < n; i++)
		if (!strchr(set, s[i]) || !s[i])
			return false;
	return n > 0;
}

static bool is_position(const char *s, size_t n)
{
	if (n == 1 && s[0] == '*')
		return true;
	if (n > 2 && s[0] == '0' && s[1] == 'x')
		return all_of(s + 2, n - 2, "0123456789abcdefABCDEF");
	size_t sign = s[0] == '+' || s[0] == '-';
	return all_of(s + sign, n - sign, "0123456789");
}

/* A cost line: the positions, then one cost per event (fewer: the rest
 * are 0).  The event read goes to the function, or, after calls=, to
 * the arc as the inclusive cost of those calls. */
static bool cost_line(struct cg_loader *L, const char *s, size_t n)
{
	size_t i = 0, len;
	const char *field;
	if (!L->have_events)
		return fail_line(L, "a cost line before \"events:\"");
	if (L->frame == NO_ID)
		return fail_line(L, "a cost line before any fn=");
	for (int p = 0; p < L->positions; p++)
		if (!next_field(s, n, &i, &field, &len) || !is_position(field, len))
			return fail_line(L, "a cost line without its position");
	double cost = 0, v;
	for (int e = 0; next_field(s, n, &i, &field, &len); e++) {
		if (e >= L->nevents)
			return fail_line(L, "more costs than events");
		if (!whole_number(field, len, &v))
			return fail_line(L, "a cost that is not a whole number up to 1e18");
		if (e == L->event)
			cost = v;
	}
	if (L->callee != NO_ID) {
		model_add_arc(L->m, L->frame, L->callee, L->call_count, cost);
		L->callee = NO_ID;
	} else {
		L->self[L->frame] += cost;
	}
	L->inlined_cost += cost;
	L->inlined_seen |= L->frame != L->home;
	return true;
}

/* Code inlined from another file (fi=, fe=) is the function file:fn, as
 * callgrind_annotate lists it, inside fl's file:fn: an arc of no calls
 * from that function, with the cost measured in the inlined code (its
 * lines and its calls), which callgrind counts in the calls to fn.  So
 * it has a caller, and fn's total is callgrind_annotate's inclusive. */
static void end_inlined_code(struct cg_loader *L)
{
	if (L->inlined_seen)
		model_add_arc(L->m, L->home, L->frame, 0, L->inlined_cost);
	L->inlined_cost = 0;
	L->inlined_seen = false;
}

static bool calls_line(struct cg_loader *L, const char *s, size_t n)
{
	size_t i = 0, len;
	const char *field;
	if (L->called == NO_ID)
		return fail_line(L, "calls= without a cfn= before it");
	if (L->frame == NO_ID)
		return fail_line(L, "calls= before any fn=");
	if (!next_field(s, n, &i, &field, &len) || !whole_number(field, len, &L->call_count))
		return fail_line(L, "calls= without a whole number of calls");
	L->callee = L->called;
	return true;
}

/* "events: Ir Dr ...": the event read is --sample-type's (its name or its
 * number from 0), else the first. */
static bool events_line(struct cg_loader *L, const char *s, size_t n,
			const char *wanted)
{
	size_t i = 0, len;
	const char *field;
	if (L->have_events)
		return fail_line(L, "a second \"events:\" line");
	L->have_events = true;
	while (next_field(s, n, &i, &field, &len)) {
		if (L->nevents == MAX_EVENTS || len >= sizeof(L->events[0]))
			return fail_line(L, "more than 64 events, or an event name over 63 bytes");
		memcpy(L->events[L->nevents], field, len);
		L->events[L->nevents++][len] = '\0';
	}
	if (!L->nevents)
		return fail_line(L, "\"events:\" names no event");
	L->event = 0;
	if (!wanted)
		return true;
	for (int e = 0; e < L->nevents; e++)
		if (!strcmp(L->events[e], wanted)) {
			L->event = e;
			return true;
		}
	char *end;
	long index = strtol(wanted, &end, 10);
	if (*wanted >= '0' && *wanted <= '9' && !*end && index < L->nevents) {
		L->event = (int)index;
		return true;
	}
	char list[512] = "", safe[256];
	for (int e = 0; e < L->nevents; e++) {
		escape_text(L->events[e], safe, sizeof(safe)); /* names from the file */
		snprintf(list + strlen(list), sizeof(list) - strlen(list), " %d=%s", e, safe);
	}
	char what[700];
	snprintf(what, sizeof(what), "no event '%.100s' (events:%s)", wanted, list);
	return fail_line(L, what);
}

/* "positions: line", "instr", or "instr line". */
static bool positions_line(struct cg_loader *L, const char *s, size_t n)
{
	size_t i = 0, len;
	const char *field;
	L->positions = 0;
	while (next_field(s, n, &i, &field, &len)) {
		bool known = (len == 4 && !memcmp(field, "line", 4)) ||
			     (len == 5 && !memcmp(field, "instr", 5)) ||
			     (len == 4 && !memcmp(field, "addr", 4));
		if (!known || ++L->positions > 2)
			return fail_line(L, "positions other than instr and line");
	}
	return L->positions || fail_line(L, "\"positions:\" names none");
}

/* summary: and totals: give the whole cost per event. */
static bool total_line(struct cg_loader *L, const char *s, size_t n, double *out)
{
	size_t i = 0, len;
	const char *field;
	for (int e = 0; next_field(s, n, &i, &field, &len); e++)
		if (e >= MAX_EVENTS || !whole_number(field, len, &out[e]))
			return fail_line(L, "a total that is not a whole number up to 1e18");
	return true;
}

/* fl= fi= fe= fn= cfi= cfl= cfn= ob= cob= jfi= jfn=: names. */
static bool name_line(struct cg_loader *L, const char *key, const char *s, size_t n)
{
	str_t name = STR_NONE;
	bool fn = !strcmp(key, "fn") || !strcmp(key, "cfn") || !strcmp(key, "jfn");
	bool object = !strcmp(key, "ob") || !strcmp(key, "cob");
	if (!name_value(L, fn ? SPACE_FN : object ? SPACE_OBJECT : SPACE_FILE, s, n, &name))
		return false;
	if (!strcmp(key, "fl")) {
		L->file = L->home_file = name;
	} else if (!strcmp(key, "fi") || !strcmp(key, "fe")) {
		if (L->frame == NO_ID)
			return fail_line(L, "fi= or fe= before any fn=");
		end_inlined_code(L);
		L->file = name; /* inlined code: counted to file:fn */
		L->frame = function_frame(L, L->file, L->fn);
	} else if (!strcmp(key, "fn")) {
		if (L->frame != NO_ID)
			end_inlined_code(L);
		L->fn = name;
		L->file = L->home_file;
		L->frame = L->home = function_frame(L, L->file, L->fn);
	} else if (!strcmp(key, "cfi") || !strcmp(key, "cfl")) {
		L->call_file = name;
	} else if (!strcmp(key, "cfn")) {
		/* As callgrind_annotate: cfi= holds for this cfn= only. */
		str_t file = L->call_file != STR_NONE ? L->call_file : L->file;
		L->called = function_frame(L, file, name);
		L->call_file = STR_NONE;
	}
	return true; /* ob=, cob=, jfi=, jfn=: only their compressed names */
}

static bool read_line(struct cg_loader *L, const char *wanted)
{
	static const char *const names[] = { "fl", "fi", "fe", "fn", "cfi", "cfl",
					     "cfn", "ob", "cob", "jfi", "jfn" };
	static const char *const skipped[] = { "version:", "creator:", "pid:", "cmd:",
					       "part:", "desc:", "thread:", "event:",
					       "jump=", "jcnd=" };
	const char *s = L->lines.text;
	size_t n = L->lines.len;
	bool cost = n && strchr("0123456789+-*", s[0]);
	if (L->callee != NO_ID && !cost)
		return fail_line(L, "calls= not followed by its cost line");
	if (!n || s[0] == '#')
		return true;
	if (memchr(s, '\0', n))
		return fail_line(L, "a NUL byte");
	if (cost)
		return cost_line(L, s, n);
	for (size_t k = 0; k < ARRAY_LEN(names); k++) {
		size_t kl = strlen(names[k]);
		if (n > kl && !memcmp(s, names[k], kl) && s[kl] == '=')
			return name_line(L, names[k], s + kl + 1, n - kl - 1);
	}
	if (starts(s, n, "calls="))
		return calls_line(L, s + 6, n - 6);
	if (starts(s, n, "events:"))
		return events_line(L, s + 7, n - 7, wanted);
	if (starts(s, n, "positions:"))
		return positions_line(L, s + 10, n - 10);
	if (starts(s, n, "summary:"))
		return total_line(L, s + 8, n - 8, L->summary);
	if (starts(s, n, "totals:"))
		return total_line(L, s + 7, n - 7, L->totals);
	for (size_t k = 0; k < ARRAY_LEN(skipped); k++)
		if (starts(s, n, skipped[k]))
			return true;
	return fail_line(L, "a line that is not callgrind's");
}

static bool read_file(struct cg_loader *L, const char *wanted)
{
	while (line_next(&L->lines))
		if (!read_line(L, wanted))
			return false;
	if (L->lines.too_long)
		return fail_line(L, "a line longer than 1 MiB");
	if (L->callee != NO_ID)
		return fail_line(L, "the file ends after calls=, without its cost line");
	if (L->frame != NO_ID)
		end_inlined_code(L);
	if (!L->have_events)
		return load_fail(L->err, FORMAT ": no \"events:\" line");
	if (!L->m->nframes)
		return load_fail(L->err, FORMAT ": no function (no fn= line)");
	return true;
}

static void build_model(struct cg_loader *L)
{
	struct model *m = L->m;
	model_add_sample_type(m, L->events[L->event], "count");
	m->type_chosen_at_load = true;
	double sum = 0;
	for (uint32_t f = 0; f < m->nframes; f++) {
		model_add_frame_value(m, f, 0, L->self[f]);
		sum += L->self[f];
	}
	/* callgrind_annotate's PROGRAM TOTALS: summary:, else totals:. */
	double summary = L->summary[L->event], totals = L->totals[L->event];
	m->duration = summary > 0 ? summary : totals > 0 ? totals : sum;
	uint32_t unused;
	model_finish(m, &unused); /* no nodes: cannot fail */
	m->caps |= HAS_CALL_COUNTS | HAS_ARC_TIMES;
}

bool load_callgrind(struct input *in, struct model *m, const struct load_options *opt,
		    struct load_error *err)
{
	struct cg_loader L = {
		.m = m, .err = err, .positions = 1, .frame = NO_ID, .home = NO_ID,
		.call_file = STR_NONE, .called = NO_ID, .callee = NO_ID,
	};
	model_init(m, "callgrind");
	line_reader_init(&L.lines, in, MAX_LINE);
	L.file = L.home_file = L.fn = model_string(m, "", 0);
	bool ok = read_file(&L, opt ? opt->sample_type : NULL);
	if (ok)
		build_model(&L);
	for (int k = 0; k < SPACE_COUNT; k++)
		free(L.names[k].by_id);
	free(L.self);
	if (!ok)
		model_free(m);
	return ok;
}
