/* The Firefox Profiler's formats read into columns (firefox.h says
 * which); firefox_build.c makes one thread of them the model. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "firefox.h"

static bool blank(uint8_t c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

/* An object whose first key is "meta"; or that has "meta" and one of
 * its keys in the head; or (Gecko profiles that list their libraries
 * first) whose first key is "libs", with a breakpadId. */
bool sniff_firefox(const uint8_t *head, size_t len)
{
	size_t i = 0;
	if (len >= 3 && !memcmp(head, "\xef\xbb\xbf", 3))
		i = 3;
	while (i < len && blank(head[i]))
		i++;
	if (i == len || head[i] != '{')
		return false;
	i++;
	while (i < len && blank(head[i]))
		i++;
	if (len - i >= 6 && !memcmp(head + i, "\"meta\"", 6))
		return true;
	if (len - i >= 6 && !memcmp(head + i, "\"libs\"", 6))
		return memmem(head, len, "\"breakpadId\"", 12);
	return memmem(head, len, "\"meta\"", 6) &&
	       (memmem(head, len, "\"preprocessedProfileVersion\"", 28) ||
		memmem(head, len, "\"interval\"", 10) || memmem(head, len, "\"threads\"", 9));
}

/* A string or a number (pids and tids are either) as text; null is "". */
static bool text(struct ff_loader *L, const char *what, char *buf, size_t cap)
{
	enum json_token t;
	if (!json_sink_next(&L->sink, &t))
		return false;
	if (t == JSON_NULL)
		buf[0] = '\0';
	else if (t == JSON_NUMBER)
		snprintf(buf, cap, "%.17g", L->j.num);
	else if (t == JSON_STRING)
		snprintf(buf, cap, "%.*s", (int)(L->j.str_len < cap ? L->j.str_len : cap - 1), L->j.str);
	else
		return json_sink_fail_here(&L->sink, "%s is not a string", what);
	return true;
}

/* ---- reading ------------------------------------------------------------ */

/* An array of numbers, nulls and booleans; a null column is absent. */
static bool read_column(struct ff_loader *L, const char *what, struct ff_column *c)
{
	enum json_token t;
	if (!json_sink_next(&L->sink, &t))
		return false;
	if (t == JSON_NULL)
		return true;
	if (t != JSON_ARRAY)
		return json_sink_fail_here(&L->sink, "%s is not an array", what);
	c->n = 0;
	c->offset = L->j.token_offset;
	c->present = true;
	while (json_sink_next(&L->sink, &t) && t != JSON_ARRAY_END) {
		double v = t == JSON_NUMBER ? L->j.num : t == JSON_TRUE ? 1
			 : t == JSON_FALSE ? 0 : t == JSON_NULL ? NAN : INFINITY;
		if (isinf(v))
			return json_sink_fail_here(&L->sink, "%s[%zu] is not a number", what, c->n);
		GROW(c->v, c->cap, c->n + 1);
		c->v[c->n++] = v;
	}
	return t != JSON_ERROR;
}

static bool read_strings(struct ff_loader *L, struct ff_tables *t)
{
	enum json_token tok;
	if (!json_sink_expect(&L->sink, JSON_ARRAY, "an array of strings"))
		return false;
	t->nstrings = 0;
	t->have_strings = true;
	while (json_sink_next(&L->sink, &tok) && tok != JSON_ARRAY_END) {
		if (tok != JSON_STRING && tok != JSON_NULL)
			return json_sink_fail_here(&L->sink, "string %zu is not a string", t->nstrings);
		GROW(t->strings, t->strings_cap, t->nstrings + 1);
		t->strings[t->nstrings++] = tok == JSON_NULL ? model_string(L->m, "", 0)
				: model_string(L->m, L->j.str, L->j.str_len);
	}
	return tok != JSON_ERROR;
}

/* A table's key: a column, or (column NULL) a string into text. */
struct column_key {
	const char *key;
	struct ff_column *column;
	char *text;
	size_t text_cap;
};

#define COL(name, where) { .key = (name), .column = (where) }

#define MAX_SCHEMA_PLACES 64

/* A Gecko table's "schema": the place of each column in a row. */
static bool read_schema(struct ff_loader *L, const char *table, const struct column_key *keys,
			size_t nkeys, struct ff_column **places)
{
	enum json_token t;
	if (!json_sink_expect(&L->sink, JSON_OBJECT, "an object for the schema"))
		return false;
	while ((t = json_each_key(&L->sink)) == JSON_KEY) {
		size_t k = 0;
		while (k < nkeys && (!keys[k].column || strcmp(L->j.str, keys[k].key)))
			k++;
		if (k == nkeys) {
			if (!json_sink_skip(&L->sink))
				return false;
			continue;
		}
		double place = 0;
		char what[64];
		snprintf(what, sizeof(what), "%s.schema.%s", table, keys[k].key);
		if (!json_sink_number(&L->sink, what, &place))
			return false;
		if (!(place >= 0 && place < MAX_SCHEMA_PLACES && place == floor(place)))
			return json_sink_fail_here(&L->sink, "%s = %g is not a place in a row (0..%d)",
						   what, place, MAX_SCHEMA_PLACES - 1);
		places[(size_t)place] = keys[k].column;
	}
	return t == JSON_OBJECT_END;
}

/* A Gecko table's "data" as it comes (before or after its schema): the
 * rows' values end to end, INFINITY where a value is not a number. */
struct gecko_rows {
	double *values;
	size_t nvalues, values_cap;
	size_t *starts; /* row i is values[starts[i]..starts[i + 1]) */
	size_t nrows, starts_cap;
	uint64_t offset;
	bool present;
};

static bool read_rows(struct ff_loader *L, const char *table, struct gecko_rows *r)
{
	enum json_token t;
	r->present = true;
	if (!json_sink_expect(&L->sink, JSON_ARRAY, "an array of rows"))
		return false;
	r->offset = L->j.token_offset;
	while (json_sink_next(&L->sink, &t) && t == JSON_ARRAY) {
		GROW(r->starts, r->starts_cap, r->nrows + 2);
		r->starts[r->nrows++] = r->nvalues;
		while (json_sink_next(&L->sink, &t) && t != JSON_ARRAY_END) {
			double v = t == JSON_NUMBER ? L->j.num : t == JSON_TRUE ? 1
				 : t == JSON_FALSE ? 0 : t == JSON_NULL ? NAN : INFINITY;
			if (isinf(v) && !json_skip(&L->j, t))
				return json_sink_error(&L->sink);
			GROW(r->values, r->values_cap, r->nvalues + 1);
			r->values[r->nvalues++] = v;
		}
		if (t == JSON_ERROR)
			return false;
	}
	if (r->starts)
		r->starts[r->nrows] = r->nvalues;
	if (t != JSON_ARRAY_END)
		return t != JSON_ERROR && json_sink_fail_here(&L->sink, "%s.data[%zu] is not a row "
							      "(an array)", table, r->nrows);
	return true;
}

/* Each column the schema places, from the rows; a row that ends early
 * leaves its last columns null. */
static bool place_rows(struct ff_loader *L, const char *table, const struct gecko_rows *r,
		       struct ff_column **places)
{
	for (size_t p = 0; p < MAX_SCHEMA_PLACES; p++) {
		struct ff_column *c = places[p];
		if (!c)
			continue;
		*c = (struct ff_column){ .v = c->v, .cap = c->cap, .offset = r->offset, .present = true };
		GROW(c->v, c->cap, r->nrows);
		for (size_t i = 0; i < r->nrows; i++) {
			size_t at = r->starts[i] + p;
			double v = at < r->starts[i + 1] ? r->values[at] : NAN;
			if (isinf(v))
				return json_sink_fail(&L->sink, r->offset, "%s.data[%zu][%zu] is not a number", table, i, p);
			c->v[c->n++] = v;
		}
	}
	return true;
}

/* A table: an object of columns (those not named skipped), or in a
 * Gecko profile a "schema" and rows of "data", in either order. */
static bool read_table(struct ff_loader *L, const char *table,
		       const struct column_key *keys, size_t nkeys)
{
	struct ff_column *places[MAX_SCHEMA_PLACES] = { 0 };
	struct gecko_rows rows = { 0 };
	bool have_schema = false, ok = true;
	enum json_token t;
	if (!json_sink_expect(&L->sink, JSON_OBJECT, "an object of columns"))
		return false;
	while (ok && (t = json_each_key(&L->sink)) == JSON_KEY) {
		size_t k = 0;
		while (k < nkeys && strcmp(L->j.str, keys[k].key))
			k++;
		char what[64];
		snprintf(what, sizeof(what), "%s.%s", table, k < nkeys ? keys[k].key : "");
		if (!strcmp(L->j.str, "schema"))
			ok = (have_schema = true) && read_schema(L, table, keys, nkeys, places);
		else if (!strcmp(L->j.str, "data") && k == nkeys)
			ok = read_rows(L, table, &rows);
		else if (k == nkeys)
			ok = json_sink_skip(&L->sink);
		else if (keys[k].column)
			ok = read_column(L, what, keys[k].column);
		else
			ok = text(L, what, keys[k].text, keys[k].text_cap);
	}
	ok = ok && t == JSON_OBJECT_END;
	if (ok && rows.present && !have_schema)
		ok = json_sink_fail(&L->sink, rows.offset, "%s.data without a schema", table);
	if (ok && have_schema)
		ok = place_rows(L, table, &rows, places);
	free(rows.values);
	free(rows.starts);
	return ok;
}

/* The tables a thread holds, or (version 60 on) the shared ones. */
static bool read_tables_key(struct ff_loader *L, struct ff_tables *t, bool *done)
{
	const char *key = L->j.str;
	*done = true;
	if (!strcmp(key, "stackTable"))
		return read_table(L, "stackTable", (struct column_key[]){
			COL("frame", &t->stack_frame), COL("prefix", &t->stack_prefix),
			COL("prefixOffset", &t->stack_prefix_offset) }, 3);
	if (!strcmp(key, "frameTable"))
		return read_table(L, "frameTable", (struct column_key[]){
			COL("func", &t->frame_func), COL("location", &t->frame_location),
			COL("line", &t->frame_line) }, 3);
	if (!strcmp(key, "funcTable"))
		return read_table(L, "funcTable", (struct column_key[]){
			COL("name", &t->func_name), COL("fileName", &t->func_file),
			COL("source", &t->func_source), COL("lineNumber", &t->func_line),
			COL("columnNumber", &t->func_column), COL("isJS", &t->func_js) }, 6);
	if (!strcmp(key, "stringArray") || !strcmp(key, "stringTable"))
		return read_strings(L, t);
	*done = false;
	return true;
}

static bool read_samples(struct ff_loader *L, struct ff_thread *th)
{
	return read_table(L, "samples", (struct column_key[]){
		COL("stack", &th->stack), COL("time", &th->time), COL("timeDeltas", &th->deltas),
		COL("weight", &th->weight), COL("threadCPUDelta", &th->cpu_delta),
		{ .key = "weightType", .text = th->weight_type,
		  .text_cap = sizeof(th->weight_type) } }, 6);
}

static bool read_thread(struct ff_loader *L)
{
	GROW(L->threads, L->threads_cap, L->nthreads + 1);
	struct ff_thread *th = &L->threads[L->nthreads++];
	*th = (struct ff_thread){ .offset = L->j.token_offset };
	enum json_token t;
	while ((t = json_each_key(&L->sink)) == JSON_KEY) {
		const char *key = L->j.str;
		bool done, ok = read_tables_key(L, &th->t, &done);
		if (done) {
			if (!ok)
				return false;
			continue;
		}
		ok = !strcmp(key, "name") ? text(L, "thread name", th->name, sizeof(th->name))
		   : !strcmp(key, "processName") ? text(L, "processName", th->process, sizeof(th->process))
		   : !strcmp(key, "processType") ? text(L, "processType", th->process_type,
							sizeof(th->process_type))
		   : !strcmp(key, "pid") ? text(L, "pid", th->pid, sizeof(th->pid))
		   : !strcmp(key, "tid") ? text(L, "tid", th->tid, sizeof(th->tid))
		   : !strcmp(key, "samples") ? read_samples(L, th)
		   : json_sink_skip(&L->sink);
		if (!ok)
			return false;
	}
	return t == JSON_OBJECT_END;
}

static bool read_one_thread(void *L)
{
	return read_thread(L);
}

static bool read_threads(struct ff_loader *L)
{
	return json_read_objects(&L->sink, "an array of threads", "expected a thread object",
				 read_one_thread, L);
}

static bool read_meta(struct ff_loader *L)
{
	enum json_token t;
	if (!json_sink_expect(&L->sink, JSON_OBJECT, "an object for \"meta\""))
		return false;
	while ((t = json_each_key(&L->sink)) == JSON_KEY) {
		const char *key = L->j.str;
		bool ok;
		if (!strcmp(key, "interval"))
			ok = json_sink_number(&L->sink, "meta.interval", &L->interval);
		else if (!strcmp(key, "initialSelectedThreads"))
			ok = read_column(L, "meta.initialSelectedThreads", &L->initial_threads);
		else
			ok = json_sink_skip(&L->sink);
		if (!ok)
			return false;
	}
	return t == JSON_OBJECT_END;
}

static bool read_sources(struct ff_loader *L)
{
	return read_table(L, "shared.sources", (struct column_key[]){
		COL("filename", &L->source_file) }, 1);
}

static bool read_shared(struct ff_loader *L)
{
	enum json_token t;
	if (!json_sink_expect(&L->sink, JSON_OBJECT, "an object for \"shared\""))
		return false;
	while ((t = json_each_key(&L->sink)) == JSON_KEY) {
		bool done, ok = read_tables_key(L, &L->shared, &done);
		if (!done)
			ok = !strcmp(L->j.str, "sources") ? read_sources(L) : json_sink_skip(&L->sink);
		if (!ok)
			return false;
	}
	return t == JSON_OBJECT_END;
}

#define MAX_PROCESS_DEPTH 16

static bool read_processes(struct ff_loader *L, int depth);

/* The keys of the file's object, or (Gecko) of a child process's
 * profile among "processes": its threads join the others. */
static bool read_profile(struct ff_loader *L, int depth, bool *have_meta)
{
	enum json_token t;
	while ((t = json_each_key(&L->sink)) == JSON_KEY) {
		bool ok;
		if (!strcmp(L->j.str, "meta"))
			ok = (*have_meta = true) && read_meta(L);
		else if (!strcmp(L->j.str, "threads"))
			ok = read_threads(L);
		else if (!strcmp(L->j.str, "shared"))
			ok = read_shared(L);
		else if (!strcmp(L->j.str, "processes"))
			ok = read_processes(L, depth + 1);
		else
			ok = json_sink_skip(&L->sink);
		if (!ok)
			return false;
	}
	return t == JSON_OBJECT_END;
}

static bool read_processes(struct ff_loader *L, int depth)
{
	enum json_token t;
	if (depth > MAX_PROCESS_DEPTH)
		return json_sink_fail_here(&L->sink, "processes nested more than %d deep",
					   MAX_PROCESS_DEPTH);
	if (!json_sink_expect(&L->sink, JSON_ARRAY, "an array of processes"))
		return false;
	bool have_meta;
	while ((t = json_each_object(&L->sink, "expected a process's profile (an object)")) ==
	       JSON_OBJECT)
		if (!read_profile(L, depth, &have_meta))
			return false;
	return t == JSON_ARRAY_END;
}

static bool read_file(struct ff_loader *L)
{
	bool have_meta = false;
	if (!json_sink_expect(&L->sink, JSON_OBJECT, "a JSON object") || !read_profile(L, 0, &have_meta))
		return false;
	if (!json_sink_end(&L->sink))
		return false;
	if (!have_meta)
		return json_sink_fail(&L->sink, 0, "no \"meta\" object");
	return L->nthreads || json_sink_fail(&L->sink, 0, "no threads");
}

static void free_tables(struct ff_tables *t)
{
	struct ff_column *columns[] = {
		&t->stack_frame, &t->stack_prefix, &t->stack_prefix_offset, &t->frame_func,
		&t->frame_location, &t->frame_line,
		&t->func_name, &t->func_file, &t->func_source, &t->func_line, &t->func_column,
		&t->func_js,
	};
	for (size_t i = 0; i < ARRAY_LEN(columns); i++)
		free(columns[i]->v);
	free(t->strings);
}

static void loader_free(struct ff_loader *L)
{
	json_free(&L->j);
	free(L->initial_threads.v);
	free(L->source_file.v);
	free_tables(&L->shared);
	for (size_t i = 0; i < L->nthreads; i++) {
		struct ff_thread *th = &L->threads[i];
		free(th->stack.v);
		free(th->time.v);
		free(th->deltas.v);
		free(th->weight.v);
		free(th->cpu_delta.v);
		free_tables(&th->t);
	}
	free(L->threads);
}

bool load_firefox(struct input *in, struct model *m, const struct load_options *opt,
		  struct load_error *err)
{
	struct ff_loader L = { .m = m, .interval = NAN };
	L.sink = (struct json_sink){ .j = &L.j, .err = err, .format = FF_FORMAT };
	model_init(m, "Firefox Profiler");
	json_init(&L.j, in);
	bool ok = read_file(&L) && ff_build_model(&L, opt ? opt->thread : NULL);
	loader_free(&L);
	if (!ok)
		model_free(m);
	return ok;
}
