/* A V8 .cpuprofile, or the same as Chrome's trace events
 * (export_writers.h). */
#include "export_writers.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/escape.h"
#include "base/util.h"
#include "transform/symbolize.h"

/* .cpuprofile lines and columns count from 0. */
static int32_t zero_based(const struct model *m, int32_t n)
{
	if (n < 0)
		return -1;
	return m->lines_zero_based ? n : n > 0 ? n - 1 : 0;
}

/* A symbolized frame's callFrame keeps the profile's own in "generated"
 * (functionName, url, lineNumber, columnNumber, as V8 gave them), a
 * field V8's and DevTools' readers pass over. */
static void cpu_generated(const struct exporter *x, uint32_t frame)
{
	const struct model *m = x->m;
	const struct model *of = m->range.of ? m->range.of : m;
	const struct frame_origin *o = symbol_origin(m, frame);
	if (!o || o->url == STR_NONE)
		return;
	fputs(",\"generated\":{\"functionName\":", x->out);
	json_escape_to(x->out, o->name == STR_NONE ? "" : model_str(of, o->name));
	fputs(",\"url\":", x->out);
	json_escape_to(x->out, model_str(of, o->url));
	fprintf(x->out, ",\"lineNumber\":%d,\"columnNumber\":%d}", zero_based(of, o->line),
		zero_based(of, o->column));
}

/* A node; its children's ids are id_of[child], or child + 1 without it. */
static void cpu_node(const struct exporter *x, uint32_t id, uint32_t frame,
		     double hits, const uint32_t *children, size_t nchildren,
		     const uint32_t *id_of)
{
	const struct model *m = x->m;
	const struct frame *f = &m->frames[frame];
	fprintf(x->out, "{\"id\":%u,\"callFrame\":{\"functionName\":", id);
	json_escape_to(x->out, model_str(m, f->name));
	fputs(",\"scriptId\":\"0\",\"url\":", x->out);
	json_escape_to(x->out, model_str(m, f->url));
	fprintf(x->out, ",\"lineNumber\":%d,\"columnNumber\":%d", zero_based(m, f->line),
		zero_based(m, f->column));
	cpu_generated(x, frame);
	fprintf(x->out, "},\"hitCount\":%.0f", hits);
	if (nchildren) {
		fputs(",\"children\":[", x->out);
		for (size_t i = 0; i < nchildren; i++)
			fprintf(x->out, "%s%u", i ? "," : "",
				id_of ? id_of[children[i]] : children[i] + 1);
		fputc(']', x->out);
	}
	fputc('}', x->out);
}

/* Do the model's samples carry the exported values: the first type's,
 * every sample kept (a live window that let older ones go does not)? */
static bool real_timeline(const struct exporter *x)
{
	return x->whole_stacks && model_holds_every_sample(x->m) && x->type == 0;
}

/* The timeline the model has (samples in time order with their
 * durations), or one made up: a sample per stack lasting its self value,
 * which is what keeps every total. */
struct timeline {
	uint32_t *item;
	double *duration;
	size_t n;
	double *hits; /* per item */
};

static void free_timeline(struct timeline *t)
{
	free(t->item);
	free(t->duration);
	free(t->hits);
}

static void make_timeline(const struct exporter *x, struct timeline *t)
{
	const struct model *m = x->m;
	size_t items = item_count(x);
	t->hits = xcalloc(items + 1, sizeof(double));
	bool real = real_timeline(x);
	size_t cap = real ? m->nsamples : items;
	t->item = xmalloc((cap + 1) * sizeof(uint32_t));
	t->duration = xmalloc((cap + 1) * sizeof(double));
	t->n = 0;
	if (real) {
		for (size_t i = 0; i < m->nsamples; i++) {
			t->item[t->n] = m->sample_node[i];
			t->duration[t->n++] = m->sample_duration[i];
			t->hits[m->sample_node[i]]++;
		}
		return;
	}
	size_t negative = 0;
	for (uint32_t i = 0; i < items; i++) {
		double v = self_value(x, i, x->type);
		negative += v < 0;
		if (!(v > 0))
			continue;
		t->item[t->n] = i;
		t->duration[t->n++] = v;
		t->hits[i] = 1;
	}
	/* A sample cannot last less than nothing. */
	if (negative)
		fprintf(x->notes, "wprof-tui: note: %zu negative self value%s cannot be "
			"expressed in .cpuprofile: left out, so its total is larger\n",
			negative, negative == 1 ? "" : "s");
}

static bool node_named(const struct model *m, uint32_t v, const char *name)
{
	return !strcmp(model_str(m, m->frames[m->nodes[v].frame].name), name);
}

bool xs_data(const struct model *m)
{
	return m->nnodes && !m->nodes[0].nparents && node_named(m, 0, "(host)");
}

/* The engine's numbering: (host) 0, its first (gc) node 1 (NO_ID in
 * *gc when it has none), the other nodes from 2 in order. */
static uint32_t *xs_ids(const struct model *m, uint32_t *gc)
{
	uint32_t *id_of = xmalloc((m->nnodes + 1) * sizeof(uint32_t));
	*gc = NO_ID;
	uint32_t next = 2;
	id_of[0] = 0;
	for (uint32_t v = 1; v < m->nnodes; v++) {
		if (*gc == NO_ID && node_named(m, v, "(gc)")) {
			*gc = v;
			id_of[v] = 1;
		} else {
			id_of[v] = next++;
		}
	}
	return id_of;
}

static void xs_node(const struct exporter *x, const struct timeline *t,
		    const uint32_t *id_of, uint32_t v)
{
	const struct node *n = &x->m->nodes[v];
	cpu_node(x, id_of[v], n->frame, t->hits[v], x->m->child_ids + n->child_start,
		 n->child_end - n->child_start, id_of);
}

/* XS data (a stream, or the XS file profiler's file) as the engine writes
 * it (time-rules.md): node 0 (host), node 1 (gc) (an unsampled one when
 * the data has none), the node graph or tree as it is, and each sample
 * with its own delta, which the loader reads back as it reads the
 * engine's files. */
static void write_xs_cpuprofile(struct exporter *x, const struct timeline *t)
{
	const struct model *m = x->m;
	uint32_t gc;
	uint32_t *id_of = xs_ids(m, &gc);
	fputs("{\"nodes\":[", x->out);
	xs_node(x, t, id_of, 0);
	fputc(',', x->out);
	if (gc == NO_ID)
		fputs("{\"id\":1,\"callFrame\":{\"functionName\":\"(gc)\",\"scriptId\":\"0\","
		      "\"url\":\"\",\"lineNumber\":-1,\"columnNumber\":-1},\"hitCount\":0}", x->out);
	else
		xs_node(x, t, id_of, gc);
	for (uint32_t v = 1; v < m->nnodes; v++) {
		if (v == gc)
			continue;
		fputc(',', x->out);
		xs_node(x, t, id_of, v);
	}
	bool real = real_timeline(x);
	double start = t->n && real ? m->start_time : 0, end = start;
	fputs("],\"startTime\":", x->out);
	write_number(x->out, start);
	fputs(",\"samples\":[", x->out);
	for (size_t i = 0; i < t->n; i++)
		fprintf(x->out, "%s%u", i ? "," : "", id_of[t->item[i]]);
	fputs("],\"timeDeltas\":[", x->out);
	for (size_t i = 0; i < t->n; i++) {
		fputs(i ? "," : "", x->out);
		write_number(x->out, t->duration[i]);
		end += t->duration[i];
	}
	/* The profile's own end where it has one: its duration reads back. */
	fputs("],\"endTime\":", x->out);
	write_number(x->out, real && m->end_time > end ? m->end_time : end);
	fputs("}\n", x->out);
	free(id_of);
}

/* The trace-event form (loaders/trace.c reads it back): one Profile
 * event and one ProfileChunk holding the whole .cpuprofile, as Chrome's
 * Performance panel saves a V8 CPU profile, in pieces around it. */
/* startTime, endTime (and the trace's ts) as integers, as V8 writes
 * them and as readers of the format expect: microseconds since the
 * epoch are past where %g turns to an exponent (1.79529795496375e+15).
 * A time that is not whole (after durations with fractions, from perf or
 * pprof) keeps its fraction: the last sample lasts until endTime. */
static void write_time(FILE *out, double us)
{
	if (us == floor(us))
		fprintf(out, "%.0f", us);
	else
		write_number(out, us);
}

#define TRACE_EVENT "\"cat\":\"disabled-by-default-v8.cpu_profiler\",\"ph\":\"P\"," \
	"\"pid\":1,\"tid\":1,\"id\":\"0x1\",\"ts\":"

void write_cpuprofile(struct exporter *x, bool trace)
{
	const struct model *m = x->m;
	note_one_type(x);
	char name[256], unit[64];
	escape_text(model_str(m, m->types[x->type].name), name, sizeof(name));
	escape_text(model_str(m, m->types[x->type].unit), unit, sizeof(unit));
	if (unit_is_time(m, x->type) == false)
		fprintf(x->notes, "wprof-tui: note: .cpuprofile holds times: the values "
			"of '%s' (%s) are written as microseconds\n", name, unit);
	struct timeline t;
	make_timeline(x, &t);
	if (!real_timeline(x))
		fprintf(x->notes, "wprof-tui: note: the profile has no timeline for "
			"this type: .cpuprofile gets one sample per stack, lasting its "
			"self value, so every total is kept\n");
	if (!trace && xs_data(m)) {
		write_xs_cpuprofile(x, &t);
		free_timeline(&t);
		return;
	}

	/* Items are ids 1..n; one (root) above several roots, id n + 1. */
	size_t items = item_count(x);
	uint32_t *roots = xmalloc((items + 1) * sizeof(uint32_t));
	size_t nroots = 0;
	for (uint32_t i = 0; i < items; i++)
		if (!x->whole_stacks || m->nodes[i].nparents == 0)
			roots[nroots++] = i;
	bool own_root = nroots != 1;
	/* Sample i lasts until sample i + 1 starts (the loader's reading);
	 * the made-up timeline starts at 0, where small durations stay exact. */
	double start = t.n && real_timeline(x) ? m->start_time : 0;
	if (trace) {
		fputs("{\"traceEvents\":[{\"name\":\"Profile\"," TRACE_EVENT, x->out);
		write_time(x->out, start);
		fputs(",\"args\":{\"data\":{\"startTime\":", x->out);
		write_time(x->out, start);
		fputs("}}},\n{\"name\":\"ProfileChunk\"," TRACE_EVENT, x->out);
		write_time(x->out, start);
		fputs(",\"args\":{\"data\":{\"cpuProfile\":", x->out);
	}
	fputs("{\"nodes\":[", x->out);
	if (own_root) {
		fprintf(x->out, "{\"id\":%zu,\"callFrame\":{\"functionName\":\"(root)\","
			"\"scriptId\":\"0\",\"url\":\"\",\"lineNumber\":-1,"
			"\"columnNumber\":-1},\"hitCount\":0", items + 1);
		if (nroots) {
			fputs(",\"children\":[", x->out);
			for (size_t i = 0; i < nroots; i++)
				fprintf(x->out, "%s%u", i ? "," : "", roots[i] + 1);
			fputc(']', x->out);
		}
		fputs("}", x->out);
	}
	for (uint32_t i = 0; i < items; i++) {
		fputs(own_root || i ? "," : "", x->out);
		if (x->whole_stacks) {
			const struct node *n = &m->nodes[i];
			cpu_node(x, i + 1, n->frame, t.hits[i], m->child_ids + n->child_start,
				 n->child_end - n->child_start, NULL);
		} else {
			cpu_node(x, i + 1, i, t.hits[i], NULL, 0, NULL);
		}
	}
	double end = start;
	if (!trace) {
		fprintf(x->out, "],\"startTime\":");
		write_time(x->out, start);
		fputs(",\"samples\":[", x->out);
	} else {
		fputs("],\"samples\":[", x->out);
	}
	for (size_t i = 0; i < t.n; i++)
		fprintf(x->out, "%s%u", i ? "," : "", t.item[i] + 1);
	fputs(trace ? "]},\"timeDeltas\":[" : "],\"timeDeltas\":[", x->out);
	for (size_t i = 0; i < t.n; i++) {
		fputs(i ? "," : "", x->out);
		write_number(x->out, i ? t.duration[i - 1] : 0);
		end += t.duration[i];
	}
	fputs("],\"endTime\":", x->out);
	write_time(x->out, end);
	fputs(trace ? "}}}]}\n" : "}\n", x->out);
	free(roots);
	free_timeline(&t);
}

