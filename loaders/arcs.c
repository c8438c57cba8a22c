/* The WasmProf arc form (docs/formats.md): a line parser that keeps the
 * names and the arc table as the host calls change them, and the file
 * loader on top of it. */
#include "arcs.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/id_table.h"
#include "base/util.h"

#define FORMAT "WasmProf arcs"
#define MAX_LINE 65536
#define MAX_FIELDS 6
#define SPONTANEOUS 0u

struct arc_entry {
	uint32_t src, dst;
	double count;
	double time_ms;
	unsigned long line; /* where the arc first appeared, for messages: */
	uint64_t at;        /* its line's number and byte offset */
};

struct name_entry {
	uint32_t id;
	char *name;
	char *file; /* NULL when not given */
	int32_t line;
};

struct arc_table {
	struct arc_entry *arcs;
	size_t n, cap;
	struct id_table index; /* arcs by (src, dst); size 0 until the first */
};

struct arcs_parser {
	char *line;
	size_t line_len;
	unsigned long line_no;
	uint64_t line_at; /* byte offset where the line starts */
	uint64_t fed;     /* bytes fed so far */
	bool failed;
	unsigned long prints;
	struct name_entry *names;
	size_t nnames, names_cap;
	struct id_table name_index; /* names by id; size 0 until the first */
	struct arc_table current, printed;
};

struct arcs_parser *arcs_parser_new(void)
{
	struct arcs_parser *p = xcalloc(1, sizeof(*p));
	p->line = xmalloc(MAX_LINE + 1);
	return p;
}

static void table_free(struct arc_table *t)
{
	free(t->arcs);
	id_table_free(&t->index);
	memset(t, 0, sizeof(*t));
}

void arcs_parser_free(struct arcs_parser *p)
{
	if (!p)
		return;
	for (size_t i = 0; i < p->nnames; i++) {
		free(p->names[i].name);
		free(p->names[i].file);
	}
	free(p->names);
	id_table_free(&p->name_index);
	table_free(&p->current);
	table_free(&p->printed);
	free(p->line);
	free(p);
}

unsigned long arcs_parser_prints(const struct arcs_parser *p)
{
	return p->prints;
}

/* ---- the arc table ------------------------------------------------------- */

static struct arc_entry *table_arc(struct arc_table *t, uint32_t src,
				   uint32_t dst, unsigned long line, uint64_t at)
{
	if (!t->index.size)
		id_table_init(&t->index, 32);
	struct id_probe p = id_table_probe(&t->index, hash_mix(((uint64_t)src << 32) | dst));
	for (uint32_t k; (k = id_probe_next(&t->index, &p)) != NO_ID;)
		if (t->arcs[k].src == src && t->arcs[k].dst == dst)
			return &t->arcs[k];
	GROW(t->arcs, t->cap, t->n + 1);
	t->arcs[t->n] = (struct arc_entry){ src, dst, 0, 0, line, at };
	id_table_add(&t->index, &p, (uint32_t)t->n);
	return &t->arcs[t->n++];
}

static void table_copy(struct arc_table *to, const struct arc_table *from)
{
	table_free(to);
	to->n = to->cap = from->n;
	to->arcs = xmalloc((from->n + 1) * sizeof(*to->arcs));
	if (from->n)
		memcpy(to->arcs, from->arcs, from->n * sizeof(*to->arcs));
}

/* ---- lines ------------------------------------------------------------- */

static bool line_fail(struct arcs_parser *p, struct load_error *err,
		      const char *what)
{
	p->failed = true;
	return load_fail_at(err, FORMAT, p->line_at, "line %lu: %s", p->line_no, what);
}

/* Splits at blanks; a field starting with '#' starts a comment. */
static size_t split_fields(char *line, char **fields)
{
	size_t n = 0;
	char *s = line;
	for (;;) {
		while (*s == ' ' || *s == '\t')
			s++;
		if (!*s || *s == '#')
			return n;
		if (n == MAX_FIELDS)
			return n + 1; /* too many: the caller says so */
		fields[n++] = s;
		while (*s && *s != ' ' && *s != '\t')
			s++;
		if (*s)
			*s++ = '\0';
	}
}

static bool parse_id(const char *s, uint32_t *out)
{
	char *end;
	if (*s < '0' || *s > '9')
		return false;
	errno = 0;
	unsigned long long v = strtoull(s, &end, 10);
	if (errno || *end || v > UINT32_MAX - 1)
		return false;
	*out = (uint32_t)v;
	return true;
}

static bool parse_amount(const char *s, bool whole, double *out)
{
	char *end;
	if (!*s || *s == '-' || *s == '+')
		return false;
	errno = 0;
	double v = strtod(s, &end);
	if (errno || *end || !isfinite(v) || v < 0 || (whole && v != floor(v)))
		return false;
	*out = v;
	return true;
}

/* Names by id through a hash: a program can name a million functions. */
static struct name_entry *find_name(const struct arcs_parser *p, uint32_t id)
{
	if (!p->name_index.size)
		return NULL;
	struct id_probe probe = id_table_probe(&p->name_index, hash_mix(id));
	for (uint32_t k; (k = id_probe_next(&p->name_index, &probe)) != NO_ID;)
		if (p->names[k].id == id)
			return &p->names[k];
	return NULL;
}

/* An id find_name did not find. */
static struct name_entry *new_name(struct arcs_parser *p, uint32_t id)
{
	if (!p->name_index.size)
		id_table_init(&p->name_index, 32);
	struct id_probe probe = id_table_probe(&p->name_index, hash_mix(id));
	while (id_probe_next(&p->name_index, &probe) != NO_ID)
		;
	GROW(p->names, p->names_cap, p->nnames + 1);
	id_table_add(&p->name_index, &probe, (uint32_t)p->nnames);
	struct name_entry *e = &p->names[p->nnames++];
	e->id = id;
	return e;
}

static bool command_name(struct arcs_parser *p, char **f, size_t n,
			 struct load_error *err)
{
	uint32_t id;
	if (n < 3 || n > 4)
		return line_fail(p, err, "name needs ID NAME [FILE:LINE]");
	if (!parse_id(f[1], &id))
		return line_fail(p, err, "name: ID is not a whole number");
	if (id == SPONTANEOUS)
		return line_fail(p, err, "name: id 0 is <spontaneous> and cannot be named");
	char *file = NULL;
	int32_t line = -1;
	if (n == 4) {
		char *colon = strrchr(f[3], ':');
		uint32_t number;
		if (!colon || colon == f[3] || !parse_id(colon + 1, &number))
			return line_fail(p, err, "name: the place must be FILE:LINE");
		/* Exports shift lines by one: the rest of the program takes
		 * lines up to INT32_MAX - 1. */
		if (number >= INT32_MAX)
			return line_fail(p, err, "name: LINE is out of range");
		*colon = '\0';
		file = xstrdup(f[3]);
		line = (int32_t)number;
	}
	struct name_entry *e = find_name(p, id);
	if (!e) {
		e = new_name(p, id);
	} else {
		free(e->name);
		free(e->file);
	}
	e->name = xstrdup(f[2]);
	e->file = file;
	e->line = line;
	return true;
}

static bool command_arc(struct arcs_parser *p, char **f, size_t n,
			bool replace, struct load_error *err)
{
	uint32_t src, dst;
	double count, time_ms;
	if (n != 5)
		return line_fail(p, err, replace ? "set needs SRC DST COUNT TIME_MS"
						 : "add needs SRC DST COUNT TIME_MS");
	if (!parse_id(f[1], &src) || !parse_id(f[2], &dst))
		return line_fail(p, err, "SRC and DST must be whole numbers");
	if (dst == SPONTANEOUS)
		return line_fail(p, err, "DST 0 is <spontaneous>, which nothing calls");
	if (!parse_amount(f[3], true, &count))
		return line_fail(p, err, "COUNT must be a whole number of calls");
	if (!parse_amount(f[4], false, &time_ms))
		return line_fail(p, err, "TIME_MS must be a number of milliseconds, 0 or more");
	struct arc_entry *a = table_arc(&p->current, src, dst, p->line_no, p->line_at);
	if (replace) {
		a->count = count;
		a->time_ms = time_ms;
	} else {
		a->count += count;
		a->time_ms += time_ms;
	}
	return true;
}

static bool parse_line(struct arcs_parser *p, char *line, struct load_error *err)
{
	char *f[MAX_FIELDS];
	size_t n = split_fields(line, f);
	if (n == 0)
		return true;
	if (n > MAX_FIELDS)
		return line_fail(p, err, "too many fields");
	if (!strcmp(f[0], "name"))
		return command_name(p, f, n, err);
	if (!strcmp(f[0], "add") || !strcmp(f[0], "set"))
		return command_arc(p, f, n, f[0][0] == 's', err);
	if (!strcmp(f[0], "clear") || !strcmp(f[0], "print")) {
		if (n != 1)
			return line_fail(p, err, "clear and print take nothing after them");
		if (f[0][0] == 'c') {
			table_free(&p->current);
		} else {
			table_copy(&p->printed, &p->current);
			p->prints++;
		}
		return true;
	}
	return line_fail(p, err, "unknown command (name, add, set, clear, print)");
}

static bool finish_line(struct arcs_parser *p, struct load_error *err)
{
	p->line_no++;
	size_t len = p->line_len;
	if (len && p->line[len - 1] == '\r')
		len--;
	p->line[len] = '\0';
	p->line_len = 0;
	if (memchr(p->line, '\0', len))
		return line_fail(p, err, "a NUL byte in the line");
	return parse_line(p, p->line, err);
}

bool arcs_parser_feed(struct arcs_parser *p, const uint8_t *bytes, size_t len,
		      struct load_error *err)
{
	if (p->failed)
		return line_fail(p, err, "input after an error");
	while (len) {
		const uint8_t *nl = memchr(bytes, '\n', len);
		size_t take = nl ? (size_t)(nl - bytes) : len;
		if (!p->line_len)
			p->line_at = p->fed;
		p->fed += take + (nl != NULL);
		if (p->line_len + take > MAX_LINE) {
			p->line_no++;
			return line_fail(p, err, "longer than 64 KiB");
		}
		memcpy(p->line + p->line_len, bytes, take);
		p->line_len += take;
		if (!nl)
			break;
		if (!finish_line(p, err))
			return false;
		bytes += take + 1;
		len -= take + 1;
	}
	return true;
}

bool arcs_parser_end(struct arcs_parser *p, struct load_error *err)
{
	if (p->failed)
		return line_fail(p, err, "input after an error");
	return p->line_len == 0 || finish_line(p, err);
}

/* ---- the model ------------------------------------------------------------ */

static int by_id(const void *a, const void *b)
{
	const struct name_entry *x = *(struct name_entry *const *)a;
	const struct name_entry *y = *(struct name_entry *const *)b;
	return (x->id > y->id) - (x->id < y->id);
}

static uint32_t name_frame(struct model *m, const struct name_entry *e)
{
	struct frame f = {
		.name = model_string(m, e->name, strlen(e->name)),
		.url = e->file ? model_string(m, e->file, strlen(e->file))
			       : model_string(m, "", 0),
		.extra = STR_NONE,
		.line = e->line,
		.column = -1,
		.kind = KIND_WASM,
	};
	return model_intern_frame(m, &f);
}

/* Frames in id order; each arc's ends must be named (or <spontaneous>). */
static bool make_frames(const struct arcs_parser *p, const struct arc_table *t,
			struct model *m, uint32_t *frame_of,
			struct load_error *err)
{
	const struct name_entry **used = xmalloc((p->nnames + 1) * sizeof(*used));
	uint8_t *is_used = xcalloc(p->nnames + 1, 1);
	size_t nused = 0;
	for (size_t i = 0; i < p->nnames; i++)
		frame_of[i] = NO_ID;
	for (size_t k = 0; k < t->n; k++) {
		uint32_t ends[2] = { t->arcs[k].src, t->arcs[k].dst };
		for (int e = 0; e < 2; e++) {
			if (ends[e] == SPONTANEOUS)
				continue;
			const struct name_entry *named = find_name(p, ends[e]);
			if (!named) {
				free(used);
				free(is_used);
				return load_fail_at(err, FORMAT, t->arcs[k].at,
						    "line %lu: id %u is never named",
						    t->arcs[k].line, ends[e]);
			}
			if (!is_used[named - p->names]) {
				is_used[named - p->names] = 1;
				used[nused++] = named;
			}
		}
	}
	free(is_used);
	qsort(used, nused, sizeof(*used), by_id);
	for (size_t i = 0; i < nused; i++)
		frame_of[used[i] - p->names] = name_frame(m, used[i]);
	free(used);
	return true;
}

static uint32_t frame_for(const struct arcs_parser *p, const uint32_t *frame_of,
			  uint32_t spontaneous, uint32_t id)
{
	return id == SPONTANEOUS ? spontaneous : frame_of[find_name(p, id) - p->names];
}

bool arcs_parser_model(const struct arcs_parser *p, struct model *m,
		       struct load_error *err)
{
	const struct arc_table *t = p->prints ? &p->printed : &p->current;
	model_init(m, "wasmprof-arcs");
	model_add_sample_type(m, "time", "us");
	struct frame root = { .name = model_string(m, "<spontaneous>", 13),
			      .url = model_string(m, "", 0), .extra = STR_NONE,
			      .line = -1, .column = -1, .kind = KIND_ROOT };
	uint32_t spontaneous = model_intern_frame(m, &root);
	uint32_t *frame_of = xmalloc((p->nnames + 1) * sizeof(uint32_t));
	if (!make_frames(p, t, m, frame_of, err)) {
		free(frame_of);
		model_free(m);
		return false;
	}
	/* self = the time measured into a function minus the time measured
	 * into its callees; a function's calls to itself are in neither. */
	double *self = xcalloc(m->nframes + 1, sizeof(double));
	double started = 0;
	for (size_t k = 0; k < t->n; k++) {
		const struct arc_entry *a = &t->arcs[k];
		uint32_t from = frame_for(p, frame_of, spontaneous, a->src);
		uint32_t to = frame_for(p, frame_of, spontaneous, a->dst);
		double us = a->time_ms * 1000;
		model_add_arc(m, from, to, a->count, us);
		if (from == to)
			continue;
		self[to] += us;
		if (from == spontaneous)
			started += us;
		else
			self[from] -= us;
	}
	for (uint32_t f = 0; f < m->nframes; f++)
		model_add_frame_value(m, f, 0, self[f]);
	m->duration = started;
	free(self);
	free(frame_of);
	uint32_t unused;
	model_finish(m, &unused); /* no nodes: cannot fail */
	m->caps |= HAS_CALL_COUNTS | HAS_ARC_TIMES;
	return true;
}

/* ---- the file loader --------------------------------------------------- */

static bool is_command(const uint8_t *s, size_t len, const char *word)
{
	size_t n = strlen(word);
	return len >= n && !memcmp(s, word, n) &&
	       (len == n || s[n] == ' ' || s[n] == '\t' || s[n] == '\n' || s[n] == '\r');
}

/* The first line that is not blank or a comment starts with a command. */
bool sniff_arcs(const uint8_t *head, size_t len)
{
	size_t i = 0;
	while (i < len) {
		while (i < len && (head[i] == ' ' || head[i] == '\t' ||
				   head[i] == '\r' || head[i] == '\n'))
			i++;
		if (i < len && head[i] == '#') {
			while (i < len && head[i] != '\n')
				i++;
			continue;
		}
		break;
	}
	static const char *const commands[] = { "name", "add", "set", "clear", "print" };
	for (size_t c = 0; c < ARRAY_LEN(commands); c++)
		if (is_command(head + i, len - i, commands[c]))
			return true;
	return false;
}

bool load_arcs(struct input *in, struct model *m,
	       const struct load_options *opt, struct load_error *err)
{
	(void)opt;
	struct arcs_parser *p = arcs_parser_new();
	bool ok = true;
	size_t have;
	while (ok && (have = input_fill(in, 1)) > 0) {
		ok = arcs_parser_feed(p, in->buf + in->pos, have, err);
		in->pos += have;
	}
	if (ok && in->read_errno)
		ok = load_fail(err, "%s", strerror(in->read_errno));
	ok = ok && arcs_parser_end(p, err) && arcs_parser_model(p, m, err);
	arcs_parser_free(p);
	return ok;
}
