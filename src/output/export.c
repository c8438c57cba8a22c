/* --export (see export.h).  The model's stacks are its tree: a node's
 * stack is the path from its root down to it, and its self value is the
 * value of the samples that ended there.  Data without whole stacks (an
 * XS node graph, gprof's per-function times) is written as one-frame
 * stacks of each function's self value, and the user is told; but a
 * .cpuprofile holds an XS node graph as the engine writes it. */
#include "export.h"
#include "export_writers.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/escape.h"
#include "base/util.h"

static const char *const format_names[EXPORT_FORMAT_COUNT] = {
	[EXPORT_PPROF] = "pprof",
	[EXPORT_CPUPROFILE] = "cpuprofile",
	[EXPORT_FOLDED] = "folded",
	[EXPORT_TRACE] = "trace",
};

ENUM_PARSE_FN(export_format_parse, enum export_format, format_names)


double self_value(const struct exporter *x, uint32_t item, unsigned type)
{
	return x->whole_stacks ? node_value(x->m, item, type)
			       : x->frame_self[(size_t)item * x->m->ntypes + type];
}

size_t item_count(const struct exporter *x)
{
	return x->whole_stacks ? x->m->nnodes : x->m->nframes;
}

/* What every format loses the same way, said once. */
static void note_common_losses(const struct exporter *x)
{
	const struct model *m = x->m;
	if (!x->whole_stacks && (m->caps & HAS_NODES))
		fprintf(x->notes, "wprof-tui: note: the profile has no whole stacks (a "
			"function graph): %s gets each function's self value as a "
			"one-frame stack; callers and totals are not in it\n", x->format);
	else if (!x->whole_stacks)
		fprintf(x->notes, "wprof-tui: note: the profile has no call tree: %s "
			"gets each function's self value as a one-frame stack\n", x->format);
	if (m->caps & HAS_CALL_COUNTS)
		fprintf(x->notes, "wprof-tui: note: call counts cannot be expressed in "
			"%s: left out\n", x->format);
	if (m->nlabels)
		fprintf(x->notes, "wprof-tui: note: sample labels are not exported (%s "
			"gets one sample per stack)\n", x->format);
}

void note_one_type(const struct exporter *x)
{
	const struct model *m = x->m;
	char name[256];
	escape_text(model_str(m, m->types[x->type].name), name, sizeof(name));
	if (m->ntypes > 1)
		fprintf(x->notes, "wprof-tui: note: %s holds one value per sample: "
			"writing sample type '%s' (--sample-type picks another)\n",
			x->format, name);
}

/* A value as the text formats write it: the shortest that reads back
 * the same double. */
void write_number(FILE *out, double v)
{
	char buf[40];
	snprintf(buf, sizeof(buf), "%.15g", v);
	if (strtod(buf, NULL) != v)
		snprintf(buf, sizeof(buf), "%.17g", v);
	fputs(buf, out);
}

static double *frame_self_values(const struct model *m)
{
	double *self = xcalloc((size_t)m->nframes * m->ntypes + 1, sizeof(double));
	for (size_t v = 0; v < m->nnodes; v++)
		for (unsigned t = 0; t < m->ntypes; t++)
			self[(size_t)m->nodes[v].frame * m->ntypes + t] += node_value(m, (uint32_t)v, t);
	if (m->frame_self)
		for (size_t i = 0; i < (size_t)m->nframes * m->ntypes; i++)
			self[i] += m->frame_self[i];
	return self;
}

bool export_model(const struct model *m, unsigned type, enum export_format format,
		  const char *path, FILE *notes, char *err, size_t err_cap)
{
	FILE *out = fopen(path, "wb");
	if (!out) {
		snprintf(err, err_cap, "%s", strerror(errno));
		return false;
	}
	struct exporter x = {
		.m = m, .type = type, .out = out, .notes = notes,
		.format = format == EXPORT_PPROF ? "pprof"
			: format == EXPORT_CPUPROFILE ? ".cpuprofile"
			: format == EXPORT_TRACE ? "trace events" : "folded stacks",
		.whole_stacks = (m->caps & HAS_STACKS) && !m->frame_self,
	};
	/* The engine's .cpuprofile holds an XS node graph as it is. */
	if (format == EXPORT_CPUPROFILE && xs_data(m) && !m->frame_self)
		x.whole_stacks = true;
	if (!x.whole_stacks)
		x.frame_self = frame_self_values(m);
	note_common_losses(&x);
	bool ok = true;
	switch (format) {
	case EXPORT_PPROF:
		ok = write_pprof(&x);
		break;
	case EXPORT_CPUPROFILE:
	case EXPORT_TRACE:
		write_cpuprofile(&x, format == EXPORT_TRACE);
		break;
	default:
		write_folded(&x);
		break;
	}
	free(x.frame_self);
	ok = !ferror(out) && ok;
	if (fclose(out) != 0 || !ok) {
		snprintf(err, err_cap, "cannot write: %s", errno ? strerror(errno) : "zlib failed");
		return false;
	}
	return true;
}
