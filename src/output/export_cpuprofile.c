/* A V8 .cpuprofile, or the same as Chrome's trace events
 * (export_writers.h). */
#include "export_writers.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/escape.h"
#include "base/util.h"

/* .cpuprofile lines and columns count from 0. */
static int32_t zero_based(const struct model *m, int32_t n)
{
	if (n < 0)
		return -1;
	return m->lines_zero_based ? n : n > 0 ? n - 1 : 0;
}

static void cpu_node(const struct exporter *x, uint32_t id, uint32_t frame,
		     double hits, const uint32_t *children, size_t nchildren,
		     uint32_t child_id_base)
{
	const struct model *m = x->m;
	const struct frame *f = &m->frames[frame];
	fprintf(x->out, "{\"id\":%u,\"callFrame\":{\"functionName\":", id);
	json_escape_to(x->out, model_str(m, f->name));
	fputs(",\"scriptId\":\"0\",\"url\":", x->out);
	json_escape_to(x->out, model_str(m, f->url));
	fprintf(x->out, ",\"lineNumber\":%d,\"columnNumber\":%d},\"hitCount\":%.0f",
		zero_based(m, f->line), zero_based(m, f->column), hits);
	if (nchildren) {
		fputs(",\"children\":[", x->out);
		for (size_t i = 0; i < nchildren; i++)
			fprintf(x->out, "%s%u", i ? "," : "", children[i] + child_id_base);
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
				 n->child_end - n->child_start, 1);
		} else {
			cpu_node(x, i + 1, i, t.hits[i], NULL, 0, 1);
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
	free(t.item);
	free(t.duration);
	free(t.hits);
}

