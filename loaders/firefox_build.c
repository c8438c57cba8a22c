/* One thread of a Firefox Profiler file made the model: which thread,
 * its stacks through the tables, and the samples' durations. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "firefox.h"
#include "gecko_location.h"

#define MAX_ROWS 4294967294.0

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

/* The profiler's activity score (computeThreadActivityScore): the sum
 * of threadCPUDelta where the samples have that column, else the samples
 * with a stack times the interval (the profiler leaves out samples of
 * its Idle category, which is not read here). */
static void measure_busy(struct ff_thread *th, double interval)
{
	for (size_t i = 0; i < th->stack.n; i++)
		if (!isnan(th->stack.v[i]))
			th->busy += th->weight.present && i < th->weight.n ? fabs(th->weight.v[i]) : 1;
	if (!th->cpu_delta.present) {
		th->activity = th->busy * (interval > 0 ? interval : 1);
		return;
	}
	for (size_t i = 0; i < th->cpu_delta.n; i++)
		if (!isnan(th->cpu_delta.v[i]))
			th->activity += th->cpu_delta.v[i];
}

/* The most active thread `wanted` names; without a name, the first of
 * meta.initialSelectedThreads, else the most active GeckoMain of a tab
 * process (the first of them in the profiler's order of threads, where
 * threads of one name go by activity, the earlier first on a tie), else
 * the most active thread.  A thread without samples is never chosen. */
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
		if (!best || (tab && !best_tab) || (tab == best_tab && th->activity > best->activity)) {
			best = th;
			best_tab = tab;
		}
	}
	return best;
}

/* The threads with samples other than `shown` (all when NULL) into the
 * model's other threads, from the one after it round, so that the first
 * is the next. */
static void list_others(const struct ff_loader *L, const struct ff_thread *shown)
{
	size_t first = shown ? (size_t)(shown - L->threads) + 1 : 0;
	for (size_t k = 0; k < L->nthreads; k++) {
		const struct ff_thread *th = &L->threads[(first + k) % L->nthreads];
		if (th == shown || !th->busy)
			continue;
		char who[400];
		describe(th, who, sizeof(who));
		model_add_other_thread(L->m, who);
	}
}

/* ---- the model ----------------------------------------------------------------- */

/* A sample's line in its leaf function (frameTable.line), as the
 * profiler's source view counts it: the key is node << 32 | line. */
struct line_tick {
	uint64_t key;
	double ticks;
};

/* The columns and strings one thread's stacks are read through: its own
 * where it has them, else the shared ones. */
struct ff_build {
	struct ff_loader *L;
	const struct ff_thread *th;
	const struct ff_column *stack_frame, *stack_prefix, *stack_prefix_offset, *frame_func,
		*frame_location, *frame_line;
	const struct ff_column *func_name, *func_file, *func_source, *func_line, *func_column,
		*func_js;
	const str_t *strings;
	size_t nstrings;
	uint32_t *func_frames;  /* per funcTable row, NO_ID until made */
	uint32_t *location_frames; /* Gecko: per string, NO_ID until made */
	uint32_t *stack_nodes;  /* per stackTable row, NO_ID until made */
	uint32_t *chain;        /* scratch: stacks from a sample up */
	struct line_tick *ticks; /* per sample with a line: its leaf's */
	size_t nticks, ticks_cap;
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
	B->frame_location = &t->frame_location;
	B->frame_line = own_or_shared(&t->frame_line, &s->frame_line);
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
		return json_sink_fail(&B->L->sink, c->offset, "%s has %zu rows; row %zu is wanted", what, c->n, row);
	double v = c->v[row];
	if (!(v >= 0 && v < (double)limit && v <= MAX_ROWS && v == floor(v)))
		return json_sink_fail(&B->L->sink, c->offset, "%s[%zu] = %g is not a row of %s (%zu rows)", what,
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

static str_t text_of(struct model *m, const char *s, size_t len)
{
	return s ? model_string(m, s, len) : model_string(m, "", 0);
}

/* Gecko: the function a location string names, as the profiler reads it. */
static uint32_t location_frame(struct ff_build *B, uint32_t string)
{
	if (B->location_frames[string] == NO_ID) {
		struct model *m = B->L->m;
		/* A copy: interning the parts may move the model's strings. */
		char *s = xstrdup(model_str(m, B->strings[string]));
		struct gecko_location loc;
		gecko_location_parse(s, strlen(s), &loc);
		struct frame f = { .line = loc.line, .column = loc.column,
				   .kind = loc.js ? KIND_JS : KIND_NATIVE,
				   .url = text_of(m, loc.file, loc.file_len),
				   .extra = loc.library ? text_of(m, loc.library, loc.library_len) : STR_NONE };
		if (loc.root_scope) {
			char name[512];
			snprintf(name, sizeof(name), "(root scope) %.*s", (int)loc.file_len, loc.file);
			f.name = model_string(m, name, strlen(name));
		} else {
			f.name = text_of(m, loc.name, loc.name_len);
		}
		B->location_frames[string] = model_intern_frame(m, &f);
		free(s);
	}
	return B->location_frames[string];
}

static size_t frame_rows(const struct ff_build *B)
{
	return B->frame_func->present ? B->frame_func->n : B->frame_location->n;
}

/* The model's frame of a frameTable row: its function's, or (Gecko) its
 * location string's. */
static bool model_frame(struct ff_build *B, uint32_t row, uint32_t *out)
{
	uint32_t i;
	if (!B->frame_func->present && B->frame_location->present) {
		if (!row_index(B, B->frame_location, "frameTable.location", row, B->nstrings,
			       "the string table", &i))
			return false;
		*out = location_frame(B, i);
		return true;
	}
	return row_index(B, B->frame_func, "frameTable.func", row, B->func_name->n, "funcTable",
			 &i) &&
	       func_frame(B, i, out);
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
		return json_sink_fail(&B->L->sink, B->th->offset, "stackTable has neither prefix nor prefixOffset");
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
			return json_sink_fail(&B->L->sink, B->stack_prefix->offset, "stackTable.prefix runs in a cycle "
					      "through stack %u", stack);
		B->chain[depth++] = s;
		if (!stack_parent(B, s, &s))
			return false;
	}
	uint32_t node = s == NO_ID ? NO_ID : B->stack_nodes[s];
	while (depth--) {
		uint32_t row = B->chain[depth], frame;
		if (!row_index(B, B->stack_frame, "stackTable.frame", row, frame_rows(B), "frameTable",
			       &frame) ||
		    !model_frame(B, frame, &frame))
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
		return json_sink_fail(&B->L->sink, th->offset, "samples have neither time nor timeDeltas");
	if (c->n != th->stack.n)
		return json_sink_fail(&B->L->sink, c->offset, "%s has %zu entries for %zu samples", what, c->n,
				      th->stack.n);
	double *t = xmalloc((c->n ? c->n : 1) * sizeof(*t)), sum = 0;
	for (size_t i = 0; i < c->n; i++) {
		if (!isfinite(c->v[i])) {
			free(t);
			return json_sink_fail(&B->L->sink, c->offset, "%s[%zu] is not a number", what, i);
		}
		t[i] = th->time.present ? c->v[i] : (sum += c->v[i]);
		if (i && t[i] < t[i - 1]) {
			json_sink_fail(&B->L->sink, c->offset, "sample %zu (at %g ms) comes before sample %zu (at %g ms)",
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
		return json_sink_fail(&B->L->sink, th->offset, "samples.weightType '%s' (only \"samples\", "
				      "\"tracing-ms\" and \"bytes\" are known)", type);
	if ((*out == BY_TIME_TO_NEXT || *out == BY_WEIGHT_INTERVALS) && !(B->L->interval > 0))
		return json_sink_fail(&B->L->sink, 0, "meta.interval (the sampling interval in ms) is %s",
				      isnan(B->L->interval) ? "missing" : "not above 0");
	if (!th->weight.present)
		return true;
	if (th->weight.n != th->stack.n)
		return json_sink_fail(&B->L->sink, th->weight.offset, "samples.weight has %zu entries for %zu "
				      "samples", th->weight.n, th->stack.n);
	for (size_t i = 0; i < th->weight.n; i++)
		if (!(th->weight.v[i] >= 0 && isfinite(th->weight.v[i])))
			return json_sink_fail(&B->L->sink, th->weight.offset, "samples.weight[%zu] = %g is not a "
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

static void note_line(struct ff_build *B, uint32_t stack, uint32_t node, double ticks)
{
	size_t frame = (size_t)B->stack_frame->v[stack]; /* checked by stack_node */
	double line = frame < B->frame_line->n ? B->frame_line->v[frame] : NAN;
	if (!(line >= 1 && line < 2147483647.0))
		return;
	GROW(B->ticks, B->ticks_cap, B->nticks + 1);
	B->ticks[B->nticks++] = (struct line_tick){ (uint64_t)node << 32 | (uint32_t)line, ticks };
}

static int by_key(const void *a, const void *b)
{
	uint64_t x = ((const struct line_tick *)a)->key, y = ((const struct line_tick *)b)->key;
	return (x > y) - (x < y);
}

/* The lines noted, summed per node and line, become the model's ticks. */
static void add_line_ticks(struct ff_build *B)
{
	if (!B->nticks)
		return;
	qsort(B->ticks, B->nticks, sizeof(*B->ticks), by_key);
	for (size_t i = 0, next; i < B->nticks; i = next) {
		double ticks = 0;
		for (next = i; next < B->nticks && B->ticks[next].key == B->ticks[i].key; next++)
			ticks += B->ticks[next].ticks;
		model_add_line_ticks(B->L->m, (uint32_t)(B->ticks[i].key >> 32),
				     (int32_t)(uint32_t)B->ticks[i].key, ticks);
	}
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
		note_line(B, stack, node, th->weight.present ? th->weight.v[i] : 1);
		double value = sample_value(B, how, t, i);
		sum += value;
		if (how == BY_WEIGHT_BYTES)
			model_add_node_value(m, node, 0, value);
		else
			model_add_sample(m, node, value);
	}
	add_line_ticks(B);
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
	B.location_frames = xmalloc((B.nstrings ? B.nstrings : 1) * sizeof(uint32_t));
	memset(B.location_frames, 0xff, (B.nstrings ? B.nstrings : 1) * sizeof(uint32_t));
	B.stack_nodes = xmalloc((nstacks ? nstacks : 1) * sizeof(uint32_t));
	memset(B.stack_nodes, 0xff, (nstacks ? nstacks : 1) * sizeof(uint32_t));
	B.chain = xmalloc((nstacks ? nstacks : 1) * sizeof(uint32_t));
	bool ok = add_samples(&B, how, t);
	free(t);
	free(B.func_frames);
	free(B.location_frames);
	free(B.ticks);
	free(B.stack_nodes);
	free(B.chain);
	return ok;
}

bool ff_build_model(struct ff_loader *L, const char *wanted)
{
	for (size_t i = 0; i < L->nthreads; i++)
		measure_busy(&L->threads[i], L->interval);
	struct ff_thread *th = choose(L, wanted);
	if (!th) {
		char all[1024];
		list_others(L, NULL);
		model_join_other_threads(L->m, all, sizeof(all));
		if (!*all)
			return load_fail(L->sink.err, FF_FORMAT ": no thread has samples with a stack");
		return load_fail(L->sink.err, FF_FORMAT ": no thread \"%.40s\" with samples; the "
				 "profile has: %s", wanted, all);
	}
	if (!build_thread(L, th))
		return false;
	char who[400];
	describe(th, who, sizeof(who));
	list_others(L, th);
	if (L->m->nother_threads || L->nthreads > 1)
		L->m->thread = model_string(L->m, who, strlen(who));
	uint32_t unused;
	model_finish(L->m, &unused); /* a tree made of stacks: cannot fail */
	return true;
}
