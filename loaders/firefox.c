/* The Firefox Profiler's processed format: what profiler.firefox.com
 * uploads and downloads, and what samply and wasmtime --profile=guest
 * write (src/types/profile.ts and docs-developer/CHANGELOG-formats.md
 * upstream).  Column tables, each an object of arrays of one length:
 *
 *   { "meta": { "interval": ms, "preprocessedProfileVersion": N, ... },
 *     "shared": { "stringArray": [...],              version 56 on
 *                 "sources": { "filename": [string index] },   58 on
 *                 "stackTable", "frameTable", "funcTable" },   60 on
 *     "threads": [ { "name", "processName", "pid", "tid",
 *       "samples": { "stack": [stack | null], "time": [ms] or
 *                    "timeDeltas": [ms], "weight": [w] | null,
 *                    "weightType": "samples" | "tracing-ms" | "bytes" },
 *       "stackTable": { "frame": [frame], "prefix": [stack | null] or
 *                       "prefixOffset": [0 root | k: stack i - k] },
 *       "frameTable": { "func": [func], "line", "column" },
 *       "funcTable": { "name": [string], "fileName": [string | null] or
 *                      "source": [source | null], "lineNumber",
 *                      "columnNumber", "isJS": [bool] },
 *       "stringArray": [...] } ] }          (the tables: before 60)
 *
 * Keys come in any order, so the whole file is read before one thread
 * becomes the model: the one --thread names (its name, tid, or the
 * description the header shows), else meta.initialSelectedThreads, else
 * the busiest "GeckoMain" of a tab process, else the busiest thread, as
 * the Firefox Profiler selects.  A function is the funcTable's row:
 * name, file, line and column; a frame's own line is not part of it.
 * Durations: see docs/formats.md (the profiler's traced timing). */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../src/util.h"
#include "json.h"
#include "loaders.h"

#define FORMAT "Firefox Profiler"
#define MAX_ROWS 4294967294.0

/* A column of numbers; null is NAN, true and false 1 and 0. */
struct ff_column {
	double *v;
	size_t n, cap;
	uint64_t offset; /* where its array begins, for messages */
	bool present;
};

struct ff_tables {
	struct ff_column stack_frame, stack_prefix, stack_prefix_offset;
	struct ff_column frame_func;
	struct ff_column func_name, func_file, func_source, func_line, func_column, func_js;
	str_t *strings;
	size_t nstrings, strings_cap;
	bool have_strings;
};

struct ff_thread {
	char name[128], process[128], process_type[32], pid[32], tid[32];
	uint64_t offset;
	struct ff_column stack, time, deltas, weight;
	char weight_type[16];
	struct ff_tables t;
	double busy; /* samples with a stack, weighted */
};

struct ff_loader {
	struct json j;
	struct model *m;
	struct load_error *err;
	double interval;
	bool processed; /* meta.preprocessedProfileVersion */
	struct ff_column initial_threads;
	struct ff_tables shared;
	struct ff_column source_file; /* shared.sources.filename */
	struct ff_thread *threads;
	size_t nthreads, threads_cap;
};

bool sniff_firefox(const uint8_t *head, size_t len)
{
	size_t i = 0;
	if (len >= 3 && !memcmp(head, "\xef\xbb\xbf", 3))
		i = 3;
	while (i < len && strchr(" \t\r\n", head[i]))
		i++;
	return i < len && head[i] == '{' && memmem(head, len, "\"meta\"", 6) &&
	       (memmem(head, len, "\"preprocessedProfileVersion\"", 28) ||
		memmem(head, len, "\"interval\"", 10) || memmem(head, len, "\"threads\"", 9));
}

static bool fail(struct ff_loader *L, uint64_t at, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static bool fail(struct ff_loader *L, uint64_t at, const char *fmt, ...)
{
	char what[240];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	return load_fail(L->err, FORMAT ", byte %llu: %s", (unsigned long long)at, what);
}

static bool json_failed(struct ff_loader *L)
{
	return fail(L, L->j.error_offset, "%s", L->j.error);
}

static bool next(struct ff_loader *L, enum json_token *t)
{
	*t = json_next(&L->j);
	return *t != JSON_ERROR || json_failed(L);
}

static bool expect(struct ff_loader *L, enum json_token want, const char *what)
{
	enum json_token t;
	if (!next(L, &t))
		return false;
	return t == want || fail(L, L->j.token_offset, "expected %s", what);
}

static bool skip_value(struct ff_loader *L)
{
	return json_skip(&L->j, json_next(&L->j)) || json_failed(L);
}

/* A string or a number (pids and tids are either) as text; null is "". */
static bool text(struct ff_loader *L, const char *what, char *buf, size_t cap)
{
	enum json_token t;
	if (!next(L, &t))
		return false;
	if (t == JSON_NULL)
		buf[0] = '\0';
	else if (t == JSON_NUMBER)
		snprintf(buf, cap, "%.17g", L->j.num);
	else if (t == JSON_STRING)
		snprintf(buf, cap, "%.*s", (int)(L->j.str_len < cap ? L->j.str_len : cap - 1), L->j.str);
	else
		return fail(L, L->j.token_offset, "%s is not a string", what);
	return true;
}

static bool number(struct ff_loader *L, const char *what, double *out)
{
	enum json_token t;
	if (!next(L, &t))
		return false;
	if (t != JSON_NUMBER || !isfinite(L->j.num))
		return fail(L, L->j.token_offset, "%s is not a number", what);
	*out = L->j.num;
	return true;
}

/* ---- reading ------------------------------------------------------------ */

/* An array of numbers, nulls and booleans; a null column is absent. */
static bool read_column(struct ff_loader *L, const char *what, struct ff_column *c)
{
	enum json_token t;
	if (!next(L, &t))
		return false;
	if (t == JSON_NULL)
		return true;
	if (t != JSON_ARRAY)
		return fail(L, L->j.token_offset, "%s is not an array", what);
	c->n = 0;
	c->offset = L->j.token_offset;
	c->present = true;
	while (next(L, &t) && t != JSON_ARRAY_END) {
		double v = t == JSON_NUMBER ? L->j.num : t == JSON_TRUE ? 1
			 : t == JSON_FALSE ? 0 : t == JSON_NULL ? NAN : INFINITY;
		if (isinf(v))
			return fail(L, L->j.token_offset, "%s[%zu] is not a number", what, c->n);
		GROW(c->v, c->cap, c->n + 1);
		c->v[c->n++] = v;
	}
	return t != JSON_ERROR;
}

static bool read_strings(struct ff_loader *L, struct ff_tables *t)
{
	enum json_token tok;
	if (!expect(L, JSON_ARRAY, "an array of strings"))
		return false;
	t->nstrings = 0;
	t->have_strings = true;
	while (next(L, &tok) && tok != JSON_ARRAY_END) {
		if (tok != JSON_STRING && tok != JSON_NULL)
			return fail(L, L->j.token_offset, "string %zu is not a string", t->nstrings);
		GROW(t->strings, t->strings_cap, t->nstrings + 1);
		t->strings[t->nstrings++] = tok == JSON_NULL ? model_string(L->m, "", 0)
				: model_string(L->m, L->j.str, L->j.str_len);
	}
	return tok != JSON_ERROR;
}

struct column_key {
	const char *key;
	struct ff_column *column;
};

/* A table: an object of columns, those not named skipped. */
static bool read_table(struct ff_loader *L, const char *table,
		       const struct column_key *keys, size_t nkeys)
{
	enum json_token t;
	if (!expect(L, JSON_OBJECT, "an object of columns"))
		return false;
	while (next(L, &t) && t == JSON_KEY) {
		if (!strcmp(L->j.str, "schema"))
			return fail(L, L->j.token_offset, "%s has a \"schema\": that is the Gecko "
				    "profile format, which wprof-tui does not read (open it in "
				    "profiler.firefox.com and download it)", table);
		size_t k = 0;
		while (k < nkeys && strcmp(L->j.str, keys[k].key))
			k++;
		char what[64];
		snprintf(what, sizeof(what), "%s.%s", table, k < nkeys ? keys[k].key : "");
		if (!(k < nkeys ? read_column(L, what, keys[k].column) : skip_value(L)))
			return false;
	}
	return t == JSON_OBJECT_END;
}

/* The tables a thread holds, or (version 60 on) the shared ones. */
static bool read_tables_key(struct ff_loader *L, struct ff_tables *t, bool *done)
{
	const char *key = L->j.str;
	*done = true;
	if (!strcmp(key, "stackTable"))
		return read_table(L, "stackTable", (struct column_key[]){
			{ "frame", &t->stack_frame }, { "prefix", &t->stack_prefix },
			{ "prefixOffset", &t->stack_prefix_offset } }, 3);
	if (!strcmp(key, "frameTable"))
		return read_table(L, "frameTable", (struct column_key[]){
			{ "func", &t->frame_func } }, 1);
	if (!strcmp(key, "funcTable"))
		return read_table(L, "funcTable", (struct column_key[]){
			{ "name", &t->func_name }, { "fileName", &t->func_file },
			{ "source", &t->func_source }, { "lineNumber", &t->func_line },
			{ "columnNumber", &t->func_column }, { "isJS", &t->func_js } }, 6);
	if (!strcmp(key, "stringArray") || !strcmp(key, "stringTable"))
		return read_strings(L, t);
	*done = false;
	return true;
}

static bool read_samples(struct ff_loader *L, struct ff_thread *th)
{
	enum json_token t;
	if (!expect(L, JSON_OBJECT, "an object for \"samples\""))
		return false;
	while (next(L, &t) && t == JSON_KEY) {
		const char *key = L->j.str;
		bool ok = !strcmp(key, "stack") ? read_column(L, "samples.stack", &th->stack)
			: !strcmp(key, "time") ? read_column(L, "samples.time", &th->time)
			: !strcmp(key, "timeDeltas") ? read_column(L, "samples.timeDeltas", &th->deltas)
			: !strcmp(key, "weight") ? read_column(L, "samples.weight", &th->weight)
			: !strcmp(key, "weightType") ? text(L, "samples.weightType", th->weight_type,
							    sizeof(th->weight_type))
			: !strcmp(key, "schema") ? fail(L, L->j.token_offset, "samples have a \"schema\": "
						       "that is the Gecko profile format, which wprof-tui "
						       "does not read (open it in profiler.firefox.com and "
						       "download it)")
			: skip_value(L);
		if (!ok)
			return false;
	}
	return t == JSON_OBJECT_END;
}

static bool read_thread(struct ff_loader *L)
{
	GROW(L->threads, L->threads_cap, L->nthreads + 1);
	struct ff_thread *th = &L->threads[L->nthreads++];
	*th = (struct ff_thread){ .offset = L->j.token_offset };
	enum json_token t;
	while (next(L, &t) && t == JSON_KEY) {
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
		   : skip_value(L);
		if (!ok)
			return false;
	}
	return t == JSON_OBJECT_END;
}

static bool read_threads(struct ff_loader *L)
{
	enum json_token t;
	if (!expect(L, JSON_ARRAY, "an array of threads"))
		return false;
	while (next(L, &t) && t == JSON_OBJECT)
		if (!read_thread(L))
			return false;
	if (t != JSON_ARRAY_END)
		return t != JSON_ERROR && fail(L, L->j.token_offset, "expected a thread object");
	return true;
}

static bool read_meta(struct ff_loader *L)
{
	enum json_token t;
	if (!expect(L, JSON_OBJECT, "an object for \"meta\""))
		return false;
	while (next(L, &t) && t == JSON_KEY) {
		const char *key = L->j.str;
		double version;
		bool ok;
		if (!strcmp(key, "interval"))
			ok = number(L, "meta.interval", &L->interval);
		else if (!strcmp(key, "preprocessedProfileVersion"))
			ok = (L->processed = true) && number(L, "meta.preprocessedProfileVersion", &version);
		else if (!strcmp(key, "initialSelectedThreads"))
			ok = read_column(L, "meta.initialSelectedThreads", &L->initial_threads);
		else
			ok = skip_value(L);
		if (!ok)
			return false;
	}
	return t == JSON_OBJECT_END;
}

static bool read_sources(struct ff_loader *L)
{
	return read_table(L, "shared.sources", (struct column_key[]){
		{ "filename", &L->source_file } }, 1);
}

static bool read_shared(struct ff_loader *L)
{
	enum json_token t;
	if (!expect(L, JSON_OBJECT, "an object for \"shared\""))
		return false;
	while (next(L, &t) && t == JSON_KEY) {
		bool done, ok = read_tables_key(L, &L->shared, &done);
		if (!done)
			ok = !strcmp(L->j.str, "sources") ? read_sources(L) : skip_value(L);
		if (!ok)
			return false;
	}
	return t == JSON_OBJECT_END;
}

static bool read_file(struct ff_loader *L)
{
	enum json_token t;
	bool have_meta = false;
	if (!expect(L, JSON_OBJECT, "a JSON object"))
		return false;
	while (next(L, &t) && t == JSON_KEY) {
		bool ok;
		if (!strcmp(L->j.str, "meta"))
			ok = (have_meta = true) && read_meta(L);
		else if (!strcmp(L->j.str, "threads"))
			ok = read_threads(L);
		else if (!strcmp(L->j.str, "shared"))
			ok = read_shared(L);
		else
			ok = skip_value(L);
		if (!ok)
			return false;
	}
	if (t == JSON_ERROR)
		return false;
	if (!next(L, &t))
		return false;
	if (t != JSON_END)
		return fail(L, L->j.token_offset, "data after the end of the file's object");
	if (!have_meta)
		return fail(L, 0, "no \"meta\" object");
	/* The profiler's own test: processed profiles older than the version
	 * number have a thread with a string array. */
	for (size_t i = 0; i < L->nthreads; i++)
		L->processed |= L->threads[i].t.have_strings;
	if (!L->processed)
		return fail(L, 0, "no meta.preprocessedProfileVersion: a Gecko profile straight "
			    "from Firefox, which wprof-tui does not read (open it in "
			    "profiler.firefox.com and download it)");
	return L->nthreads || fail(L, 0, "no threads");
}

/* ---- which thread ----------------------------------------------------------- */

/* "GeckoMain (Web Content, pid 12, tid 34)" */
static void describe(const struct ff_thread *th, char *out, size_t size)
{
	snprintf(out, size, "%s (%s%spid %s, tid %s)", *th->name ? th->name : "thread",
		 th->process, *th->process ? ", " : "", *th->pid ? th->pid : "?",
		 *th->tid ? th->tid : "?");
}

/* By name, tid, or as described (the explorer's T names the next
 * thread by what the header lists). */
static bool matches(const struct ff_thread *th, const char *wanted)
{
	char text[400];
	describe(th, text, sizeof(text));
	return !strcmp(th->name, wanted) || !strcmp(th->tid, wanted) || !strcmp(text, wanted);
}

static void measure_busy(struct ff_thread *th)
{
	for (size_t i = 0; i < th->stack.n; i++)
		if (!isnan(th->stack.v[i]))
			th->busy += th->weight.present && i < th->weight.n ? fabs(th->weight.v[i]) : 1;
}

/* The busiest thread `wanted` names; without a name, the first of
 * meta.initialSelectedThreads, else the busiest GeckoMain of a tab
 * process, else the busiest thread (the Firefox Profiler scores activity
 * by samples outside idle categories; here every sample counts). */
static struct ff_thread *choose(struct ff_loader *L, const char *wanted)
{
	if (!wanted && L->initial_threads.n) {
		double i = L->initial_threads.v[0];
		if (i >= 0 && i < (double)L->nthreads)
			return &L->threads[(size_t)i];
	}
	struct ff_thread *best = NULL;
	bool best_tab = false;
	for (size_t i = 0; i < L->nthreads; i++) {
		struct ff_thread *th = &L->threads[i];
		if (!th->busy || (wanted && !matches(th, wanted)))
			continue;
		bool tab = !wanted && !strcmp(th->name, "GeckoMain") && !strcmp(th->process_type, "tab");
		if (!best || (tab && !best_tab) || (tab == best_tab && th->busy > best->busy)) {
			best = th;
			best_tab = tab;
		}
	}
	return best;
}

/* "a; b; c" of the threads with samples other than `shown` (all when
 * NULL), from the one after it round, so that the first is the next. */
static void list_others(const struct ff_loader *L, const struct ff_thread *shown,
			char *out, size_t size)
{
	size_t used = 0, first = shown ? (size_t)(shown - L->threads) + 1 : 0;
	out[0] = '\0';
	for (size_t k = 0; k < L->nthreads && used + 1 < size; k++) {
		const struct ff_thread *th = &L->threads[(first + k) % L->nthreads];
		if (th == shown || !th->busy)
			continue;
		char who[400];
		describe(th, who, sizeof(who));
		int n = snprintf(out + used, size - used, "%s%s", used ? "; " : "", who);
		if (n > 0)
			used += (size_t)n;
	}
}

/* ---- the model ----------------------------------------------------------------- */

/* The columns and strings one thread's stacks are read through: its own
 * where it has them, else the shared ones. */
struct ff_build {
	struct ff_loader *L;
	const struct ff_thread *th;
	const struct ff_column *stack_frame, *stack_prefix, *stack_prefix_offset, *frame_func;
	const struct ff_column *func_name, *func_file, *func_source, *func_line, *func_column,
		*func_js;
	const str_t *strings;
	size_t nstrings;
	uint32_t *func_frames;  /* per funcTable row, NO_ID until made */
	uint32_t *stack_nodes;  /* per stackTable row, NO_ID until made */
	uint32_t *chain;        /* scratch: stacks from a sample up */
};

static const struct ff_column *own_or_shared(const struct ff_column *own,
					     const struct ff_column *shared)
{
	return own->present ? own : shared;
}

static void pick_tables(struct ff_build *B)
{
	const struct ff_tables *t = &B->th->t, *s = &B->L->shared;
	B->stack_frame = own_or_shared(&t->stack_frame, &s->stack_frame);
	B->stack_prefix = own_or_shared(&t->stack_prefix, &s->stack_prefix);
	B->stack_prefix_offset = own_or_shared(&t->stack_prefix_offset, &s->stack_prefix_offset);
	B->frame_func = own_or_shared(&t->frame_func, &s->frame_func);
	B->func_name = own_or_shared(&t->func_name, &s->func_name);
	B->func_file = own_or_shared(&t->func_file, &s->func_file);
	B->func_source = own_or_shared(&t->func_source, &s->func_source);
	B->func_line = own_or_shared(&t->func_line, &s->func_line);
	B->func_column = own_or_shared(&t->func_column, &s->func_column);
	B->func_js = own_or_shared(&t->func_js, &s->func_js);
	const struct ff_tables *str = t->have_strings ? t : s;
	B->strings = str->strings;
	B->nstrings = str->nstrings;
}

/* column[row] as an index below `limit`; `what` names the column. */
static bool row_index(struct ff_build *B, const struct ff_column *c, const char *what,
		      size_t row, size_t limit, const char *into, uint32_t *out)
{
	if (row >= c->n)
		return fail(B->L, c->offset, "%s has %zu rows; row %zu is wanted", what, c->n, row);
	double v = c->v[row];
	if (!(v >= 0 && v < (double)limit && v <= MAX_ROWS && v == floor(v)))
		return fail(B->L, c->offset, "%s[%zu] = %g is not a row of %s (%zu rows)", what,
			    row, v, into, limit);
	*out = (uint32_t)v;
	return true;
}

static bool string_at(struct ff_build *B, const struct ff_column *c, const char *what,
		      size_t row, str_t *out)
{
	uint32_t i;
	if (!row_index(B, c, what, row, B->nstrings, "the string array", &i))
		return false;
	*out = B->strings[i];
	return true;
}

/* A number column's value, -1 when null, absent or out of range. */
static int32_t optional_int(const struct ff_column *c, size_t row)
{
	double v = row < c->n ? c->v[row] : NAN;
	return v >= 0 && v < 2147483647.0 ? (int32_t)v : -1;
}

/* The file of a function: fileName (a string, before version 58) or
 * source (a row of shared.sources); "" when null. */
static bool func_file(struct ff_build *B, size_t func, str_t *out)
{
	*out = model_string(B->L->m, "", 0);
	if (B->func_file->present && func < B->func_file->n && !isnan(B->func_file->v[func]))
		return string_at(B, B->func_file, "funcTable.fileName", func, out);
	if (!B->func_source->present || func >= B->func_source->n || isnan(B->func_source->v[func]))
		return true;
	uint32_t source;
	return row_index(B, B->func_source, "funcTable.source", func, B->L->source_file.n,
			 "shared.sources", &source) &&
	       string_at(B, &B->L->source_file, "shared.sources.filename", source, out);
}

static bool func_frame(struct ff_build *B, uint32_t func, uint32_t *out)
{
	if (B->func_frames[func] == NO_ID) {
		struct frame f = { .extra = STR_NONE, .line = optional_int(B->func_line, func),
				   .column = optional_int(B->func_column, func) };
		if (!string_at(B, B->func_name, "funcTable.name", func, &f.name) ||
		    !func_file(B, func, &f.url))
			return false;
		bool js = func < B->func_js->n && B->func_js->v[func] == 1;
		f.kind = js ? KIND_JS : KIND_NATIVE;
		B->func_frames[func] = model_intern_frame(B->L->m, &f);
	}
	*out = B->func_frames[func];
	return true;
}

/* The stack a stack row hangs under, NO_ID for a root. */
static bool stack_parent(struct ff_build *B, uint32_t stack, uint32_t *out)
{
	size_t nstacks = B->stack_frame->n;
	*out = NO_ID;
	if (B->stack_prefix->present) {
		if (stack < B->stack_prefix->n && isnan(B->stack_prefix->v[stack]))
			return true;
		return row_index(B, B->stack_prefix, "stackTable.prefix", stack, nstacks,
				 "stackTable", out);
	}
	const struct ff_column *off = B->stack_prefix_offset;
	if (!off->present)
		return fail(B->L, B->th->offset, "stackTable has neither prefix nor prefixOffset");
	uint32_t k;
	if (!row_index(B, off, "stackTable.prefixOffset", stack, (size_t)stack + 1,
		       "the stacks before it", &k))
		return false;
	*out = k ? stack - k : NO_ID;
	return true;
}

/* The model's node for a stack row: the rows from it up to a root (or
 * to one made before) are walked, then made from the top down. */
static bool stack_node(struct ff_build *B, uint32_t stack, uint32_t *out)
{
	size_t depth = 0, nstacks = B->stack_frame->n;
	uint32_t s = stack;
	while (s != NO_ID && B->stack_nodes[s] == NO_ID) {
		if (depth == nstacks)
			return fail(B->L, B->stack_prefix->offset, "stackTable.prefix runs in a cycle "
				    "through stack %u", stack);
		B->chain[depth++] = s;
		if (!stack_parent(B, s, &s))
			return false;
	}
	uint32_t node = s == NO_ID ? NO_ID : B->stack_nodes[s];
	while (depth--) {
		uint32_t row = B->chain[depth], frame, func;
		if (!row_index(B, B->stack_frame, "stackTable.frame", row, B->frame_func->n,
			       "frameTable", &frame) ||
		    !row_index(B, B->frame_func, "frameTable.func", frame, B->func_name->n,
			       "funcTable", &func) ||
		    !func_frame(B, func, &frame))
			return false;
		node = B->stack_nodes[row] = model_add_child(B->L->m, node, frame);
	}
	*out = node;
	return true;
}

enum weighting { BY_TIME_TO_NEXT, BY_WEIGHT_INTERVALS, BY_WEIGHT_MS, BY_WEIGHT_BYTES };

/* Sample times in ms, from time or from timeDeltas summed. */
static bool sample_times(struct ff_build *B, double **out)
{
	const struct ff_thread *th = B->th;
	const struct ff_column *c = th->time.present ? &th->time : &th->deltas;
	const char *what = th->time.present ? "samples.time" : "samples.timeDeltas";
	if (!c->present)
		return fail(B->L, th->offset, "samples have neither time nor timeDeltas");
	if (c->n != th->stack.n)
		return fail(B->L, c->offset, "%s has %zu entries for %zu samples", what, c->n,
			    th->stack.n);
	double *t = xmalloc((c->n ? c->n : 1) * sizeof(*t)), sum = 0;
	for (size_t i = 0; i < c->n; i++) {
		if (!isfinite(c->v[i])) {
			free(t);
			return fail(B->L, c->offset, "%s[%zu] is not a number", what, i);
		}
		t[i] = th->time.present ? c->v[i] : (sum += c->v[i]);
		if (i && t[i] < t[i - 1]) {
			fail(B->L, c->offset, "sample %zu (at %g ms) comes before sample %zu (at %g ms)",
			     i, t[i], i - 1, t[i - 1]);
			free(t);
			return false;
		}
	}
	*out = t;
	return true;
}

static bool pick_weighting(struct ff_build *B, enum weighting *out)
{
	const struct ff_thread *th = B->th;
	const char *type = *th->weight_type ? th->weight_type : "samples";
	if (!strcmp(type, "samples"))
		*out = th->weight.present ? BY_WEIGHT_INTERVALS : BY_TIME_TO_NEXT;
	else if (!strcmp(type, "tracing-ms"))
		*out = BY_WEIGHT_MS;
	else if (!strcmp(type, "bytes"))
		*out = BY_WEIGHT_BYTES;
	else
		return fail(B->L, th->offset, "samples.weightType '%s' (only \"samples\", "
			    "\"tracing-ms\" and \"bytes\" are known)", type);
	if ((*out == BY_TIME_TO_NEXT || *out == BY_WEIGHT_INTERVALS) && !(B->L->interval > 0))
		return fail(B->L, 0, "meta.interval (the sampling interval in ms) is %s",
			    isnan(B->L->interval) ? "missing" : "not above 0");
	if (!th->weight.present)
		return true;
	if (th->weight.n != th->stack.n)
		return fail(B->L, th->weight.offset, "samples.weight has %zu entries for %zu "
			    "samples", th->weight.n, th->stack.n);
	for (size_t i = 0; i < th->weight.n; i++)
		if (!(th->weight.v[i] >= 0 && isfinite(th->weight.v[i])))
			return fail(B->L, th->weight.offset, "samples.weight[%zu] = %g is not a "
				    "number of 0 or more (comparison profiles are not read)", i,
				    th->weight.v[i]);
	return true;
}

/* Sample i's value: its time to the next sample (the last lasts one
 * interval), its weight in intervals, ms or bytes. */
static double sample_value(const struct ff_build *B, enum weighting how, const double *t,
			   size_t i)
{
	const struct ff_thread *th = B->th;
	double weight = th->weight.present ? th->weight.v[i] : 1;
	switch (how) {
	case BY_TIME_TO_NEXT:
		return 1000 * (i + 1 < th->stack.n ? t[i + 1] - t[i] : B->L->interval);
	case BY_WEIGHT_INTERVALS:
		return 1000 * weight * B->L->interval;
	case BY_WEIGHT_MS:
		return 1000 * weight;
	case BY_WEIGHT_BYTES:
		return weight;
	}
	return 0;
}

static bool add_samples(struct ff_build *B, enum weighting how, const double *t)
{
	const struct ff_thread *th = B->th;
	struct model *m = B->L->m;
	double sum = 0;
	for (size_t i = 0; i < th->stack.n; i++) {
		if (isnan(th->stack.v[i])) /* no stack: the profiler leaves it out too */
			continue;
		uint32_t stack, node = NO_ID;
		if (!row_index(B, &th->stack, "samples.stack", i, B->stack_frame->n, "stackTable",
			       &stack) ||
		    !stack_node(B, stack, &node))
			return false;
		double value = sample_value(B, how, t, i);
		sum += value;
		if (how == BY_WEIGHT_BYTES)
			model_add_node_value(m, node, 0, value);
		else
			model_add_sample(m, node, value);
	}
	/* The span the profiler shows: to one interval past the last sample;
	 * weighted samples span what they weigh. */
	if (how != BY_WEIGHT_BYTES && th->stack.n) {
		m->start_time = 1000 * t[0];
		m->end_time = how == BY_TIME_TO_NEXT ? 1000 * (t[th->stack.n - 1] + B->L->interval)
						     : m->start_time + sum;
	}
	if (how != BY_WEIGHT_BYTES && isfinite(B->L->interval))
		m->period = 1000 * B->L->interval;
	return true;
}

static bool build_thread(struct ff_loader *L, const struct ff_thread *th)
{
	struct ff_build B = { .L = L, .th = th };
	pick_tables(&B);
	enum weighting how = BY_TIME_TO_NEXT;
	if (!pick_weighting(&B, &how))
		return false;
	if (how == BY_WEIGHT_BYTES)
		model_add_sample_type(L->m, "space", "bytes");
	else
		model_add_sample_type(L->m, "time", "us");
	double *t = NULL;
	if (!sample_times(&B, &t))
		return false;
	size_t nfuncs = B.func_name->n, nstacks = B.stack_frame->n;
	B.func_frames = xmalloc((nfuncs ? nfuncs : 1) * sizeof(uint32_t));
	memset(B.func_frames, 0xff, (nfuncs ? nfuncs : 1) * sizeof(uint32_t));
	B.stack_nodes = xmalloc((nstacks ? nstacks : 1) * sizeof(uint32_t));
	memset(B.stack_nodes, 0xff, (nstacks ? nstacks : 1) * sizeof(uint32_t));
	B.chain = xmalloc((nstacks ? nstacks : 1) * sizeof(uint32_t));
	bool ok = add_samples(&B, how, t);
	free(t);
	free(B.func_frames);
	free(B.stack_nodes);
	free(B.chain);
	return ok;
}

static bool build_model(struct ff_loader *L, const char *wanted)
{
	for (size_t i = 0; i < L->nthreads; i++)
		measure_busy(&L->threads[i]);
	struct ff_thread *th = choose(L, wanted);
	char all[1024];
	if (!th) {
		list_others(L, NULL, all, sizeof(all));
		if (!*all)
			return load_fail(L->err, FORMAT ": no thread has samples with a stack");
		return load_fail(L->err, FORMAT ": no thread \"%.40s\" with samples; the "
				 "profile has: %s", wanted, all);
	}
	if (!build_thread(L, th))
		return false;
	char who[400];
	describe(th, who, sizeof(who));
	list_others(L, th, all, sizeof(all));
	if (*all || L->nthreads > 1) {
		L->m->thread = model_string(L->m, who, strlen(who));
		L->m->other_threads = model_string(L->m, all, strlen(all));
	}
	uint32_t unused;
	model_finish(L->m, &unused); /* a tree made of stacks: cannot fail */
	return true;
}

static void free_tables(struct ff_tables *t)
{
	struct ff_column *columns[] = {
		&t->stack_frame, &t->stack_prefix, &t->stack_prefix_offset, &t->frame_func,
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
		free_tables(&th->t);
	}
	free(L->threads);
}

bool load_firefox(struct input *in, struct model *m, const struct load_options *opt,
		  struct load_error *err)
{
	struct ff_loader L = { .m = m, .err = err, .interval = NAN };
	model_init(m, "Firefox Profiler");
	json_init(&L.j, in);
	bool ok = read_file(&L) && build_model(&L, opt ? opt->thread : NULL);
	loader_free(&L);
	if (!ok)
		model_free(m);
	return ok;
}
