/* gprof's own text layout for --report flat and callgraph under the
 * gprof rule: the flat profile's columns and the call graph's blocks
 * (callers, the primary line, callees, cycles), as `gprof -b` prints
 * them, so that the numbers can be read side by side.  Times are seconds
 * for gmon.out (gprof's unit) and milliseconds for WasmProf arcs. */
#include "gprof_report.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/escape.h"
#include "base/util.h"

struct layout {
	const struct model *m;
	const struct totals *t;
	const struct gprof_graph *g;
	double divisor;       /* us per printed unit */
	int decimals;
	const char *dimension;
	uint32_t *index;      /* per frame: [index], 0 when not printed */
	uint32_t *cycle_index; /* per cycle */
};

static const char negative_mark[] = "  [negative self: callee arcs exceed its time]";

static void layout_init(struct layout *l, const struct view *v)
{
	l->m = v->ctx->model;
	l->t = v->totals;
	l->g = v->totals->gprof;
	bool seconds = !strcmp(l->m->format, "gmon");
	l->divisor = seconds ? 1e6 : 1e3;
	l->decimals = seconds ? 2 : 3;
	l->dimension = seconds ? "seconds" : "ms";
	l->index = NULL;
	l->cycle_index = NULL;
}

static const char *frame_name(const struct layout *l, uint32_t f, char *buf,
			      size_t cap)
{
	escape_text(model_str(l->m, l->m->frames[f].name), buf, cap);
	return buf;
}

static double self_of(const struct layout *l, uint32_t f)
{
	return l->t->self[f];
}

static double calls_of(const struct layout *l, uint32_t f)
{
	return l->g->calls[f];
}

/* WasmProf's <spontaneous> (id 0) is where calls start, not a function:
 * it shows as a caller only, as gprof shows it. */
static bool shown(const struct layout *l, uint32_t f)
{
	if (l->m->frames[f].kind == KIND_ROOT)
		return false;
	return self_of(l, f) != 0 || l->g->child[f] != 0 || calls_of(l, f) != 0 ||
	       l->g->self_calls[f] != 0;
}

/* The name gprof sorts by: the symbol as the object file has it (its
 * system name, when the shown name is demangled). */
static const char *sort_name(const struct model *m, uint32_t f)
{
	str_t symbol = m->frames[f].extra;
	return model_str(m, symbol != STR_NONE ? symbol : m->frames[f].name);
}

/* ---- flat profile ------------------------------------------------------ */

/* gprof's flat order: self time, then calls, both descending, then name. */
static int by_self_time(const void *a, const void *b, void *layout)
{
	const struct layout *sorting = layout;
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	double dx = self_of(sorting, x), dy = self_of(sorting, y);
	if (dx != dy)
		return dx < dy ? 1 : -1;
	double cx = calls_of(sorting, x), cy = calls_of(sorting, y);
	if (cx != cy)
		return cx < cy ? 1 : -1;
	return strcmp(sort_name(sorting->m, x), sort_name(sorting->m, y));
}

/* gprof's per-call unit: the SI prefix that puts the largest total per
 * call between 1 and 1000. */
static void per_call_scale(const struct layout *l, double *scale, char *prefix)
{
	static const struct { char prefix; double scale; } si[] = {
		{ ' ', 1 }, { 'm', 1e3 }, { 'u', 1e6 }, { 'n', 1e9 }, { 'p', 1e12 },
	};
	double top = 0;
	for (size_t f = 0; f < l->m->nframes; f++)
		if (calls_of(l, f) > 0)
			top = fmax(top, l->t->total[f] / calls_of(l, f) / 1e6);
	*scale = 1;
	*prefix = ' ';
	for (size_t i = 0; top > 0 && i < ARRAY_LEN(si); i++)
		if (si[i].scale * top >= 1.0 && si[i].scale * top < 1000.0) {
			*scale = si[i].scale;
			*prefix = si[i].prefix;
			break;
		}
}

/* gprof's flat percentages are of all the histogram's samples, some of
 * which may fall outside every function (its call graph's, and the
 * rule's, of the samples in one); in ticks, as gprof divides them,
 * where the loader kept them. */
static double flat_percent(const struct layout *l, uint32_t f)
{
	const struct model *m = l->m;
	if (m->frame_ticks && m->summed_samples)
		return 100 * m->frame_ticks[f] / (double)m->summed_samples;
	double whole = m->duration > 0 ? m->duration : l->t->profile_total;
	return whole > 0 ? 100 * self_of(l, f) / whole : 0.0;
}

void gprof_print_flat(FILE *out, const struct view *v)
{
	struct layout l;
	layout_init(&l, v);
	const struct model *m = l.m;
	uint32_t *order = xmalloc((m->nframes + 1) * sizeof(uint32_t));
	size_t n = 0;
	for (uint32_t f = 0; f < m->nframes; f++)
		if (shown(&l, f) && (self_of(&l, f) != 0 || calls_of(&l, f) != 0))
			order[n++] = f;
	qsort_r(order, n, sizeof(uint32_t), by_self_time, &l);
	double scale;
	char prefix, unit[16];
	per_call_scale(&l, &scale, &prefix);
	snprintf(unit, sizeof(unit), "%c%c/call", prefix, 's');

	fprintf(out, "Flat profile:\n\n");
	if (m->period > 0)
		fprintf(out, "Each sample counts as %g %s.\n", m->period / l.divisor,
			l.dimension);
	fprintf(out, "%5.5s %10.10s %8.8s %8.8s %8.8s %8.8s  %-8.8s\n", "%  ",
		"cumulative", "self  ", "", "self  ", "total ", "");
	fprintf(out, "%5.5s %9.9s  %8.8s %8.8s %8.8s %8.8s  %-8.8s\n", "time",
		l.dimension, l.dimension, "calls", unit, unit, "name");
	double cumulative = 0;
	for (size_t i = 0; i < n; i++) {
		uint32_t f = order[i];
		double self = self_of(&l, f), calls = calls_of(&l, f);
		char name[1024];
		cumulative += self;
		fprintf(out, "%6.2f %9.*f %8.*f", flat_percent(&l, f),
			l.decimals, cumulative / l.divisor, l.decimals, self / l.divisor);
		if (calls != 0)
			fprintf(out, " %8.0f %8.2f %8.2f  ", calls,
				scale * self / 1e6 / calls,
				scale * l.t->total[f] / 1e6 / calls);
		else
			fprintf(out, " %8.8s %8.8s %8.8s  ", "", "", "");
		fprintf(out, "%s%s\n", frame_name(&l, f, name, sizeof(name)),
			self < 0 ? negative_mark : "");
	}
	free(order);
}

/* ---- call graph ---------------------------------------------------------- */

/* An entry of the call graph: a function (frame) or a cycle as a whole. */
struct entry {
	uint32_t frame; /* NO_ID for a cycle */
	uint32_t cycle;
	double time, calls;
	const char *name;
};

static int by_total_time(const void *a, const void *b)
{
	const struct entry *x = a, *y = b;
	if (x->time != y->time)
		return x->time < y->time ? 1 : -1;
	if ((x->frame == NO_ID) != (y->frame == NO_ID))
		return x->frame == NO_ID ? -1 : 1; /* cycles first */
	if (x->frame == NO_ID)
		return (x->cycle > y->cycle) - (x->cycle < y->cycle);
	if ((x->name[0] == '_') != (y->name[0] == '_'))
		return x->name[0] == '_' ? 1 : -1;
	if (x->calls != y->calls)
		return x->calls < y->calls ? 1 : -1;
	return strcmp(x->name, y->name);
}

static size_t make_entries(struct layout *l, struct entry **out)
{
	const struct model *m = l->m;
	const struct gprof_graph *g = l->g;
	struct entry *e = xmalloc((m->nframes + g->ncycles + 1) * sizeof(*e));
	size_t n = 0;
	/* gprof numbers every function, printed or not (no time, no calls). */
	for (uint32_t f = 0; f < m->nframes; f++)
		if (m->frames[f].kind != KIND_ROOT)
			e[n++] = (struct entry){ f, g->cycle[f], l->t->total[f],
						 calls_of(l, f), sort_name(m, f) };
	for (uint32_t c = 1; c <= g->ncycles; c++)
		e[n++] = (struct entry){ NO_ID, c,
					 g->cycles[c].self + g->cycles[c].child,
					 g->cycles[c].calls, "" };
	qsort(e, n, sizeof(*e), by_total_time);
	l->index = xcalloc(m->nframes + 1, sizeof(uint32_t));
	l->cycle_index = xcalloc(g->ncycles + 1, sizeof(uint32_t));
	for (size_t i = 0; i < n; i++) {
		if (e[i].frame == NO_ID)
			l->cycle_index[e[i].cycle] = (uint32_t)i + 1;
		else
			l->index[e[i].frame] = (uint32_t)i + 1;
	}
	*out = e;
	return n;
}

static void print_name(FILE *out, const struct layout *l, uint32_t f)
{
	char name[1024];
	fputs(frame_name(l, f, name, sizeof(name)), out);
	if (l->g->cycle[f])
		fprintf(out, " <cycle %u>", l->g->cycle[f]);
	if (l->index[f])
		fprintf(out, " [%u]", l->index[f]);
	if (self_of(l, f) < 0)
		fputs(negative_mark, out);
	fputc('\n', out);
}

static double unit_calls(const struct layout *l, uint32_t f)
{
	uint32_t c = l->g->cycle[f];
	return c ? l->g->cycles[c].calls : l->g->calls[f];
}

static bool inside_cycle(const struct layout *l, const struct arc *a)
{
	return a->caller == a->callee ||
	       (l->g->cycle[a->caller] && l->g->cycle[a->caller] == l->g->cycle[a->callee]);
}

/* gprof's cmp_arc: calls to itself first, then calls inside a cycle by
 * count, then the others by the time they carry and their count. */
static int compare_arcs(const struct layout *l, uint32_t x, uint32_t y,
			bool by_caller)
{
	const struct arc *a = &l->m->arcs[x], *b = &l->m->arcs[y];
	bool self_a = a->caller == a->callee, self_b = b->caller == b->callee;
	if (self_a != self_b)
		return self_a ? -1 : 1;
	bool in_a = inside_cycle(l, a), in_b = inside_cycle(l, b);
	if (in_a != in_b)
		return in_a ? -1 : 1;
	if (!in_a) {
		double ta = l->g->arc_self[x] + l->g->arc_child[x];
		double tb = l->g->arc_self[y] + l->g->arc_child[y];
		if (ta != tb)
			return ta < tb ? -1 : 1;
	}
	if (a->count != b->count)
		return a->count < b->count ? -1 : 1;
	uint32_t fa = by_caller ? a->caller : a->callee;
	uint32_t fb = by_caller ? b->caller : b->callee;
	/* Ties by name: callers A to Z; callees, printed last to first, too. */
	int order = strcmp(sort_name(l->m, fa), sort_name(l->m, fb));
	return by_caller ? order : -order;
}

static int arcs_by_caller(const void *a, const void *b, void *layout)
{
	return compare_arcs(layout, *(const uint32_t *)a, *(const uint32_t *)b, true);
}

static int arcs_by_callee(const void *a, const void *b, void *layout)
{
	return compare_arcs(layout, *(const uint32_t *)a, *(const uint32_t *)b, false);
}

static void print_arc_line(FILE *out, const struct layout *l, uint32_t a,
			   uint32_t other)
{
	const struct arc *arc = &l->m->arcs[a];
	if (inside_cycle(l, arc))
		fprintf(out, "%6.6s %5.5s %7.7s %7.7s %7.0f %7.7s     ", "", "", "",
			"", arc->count, "");
	else
		fprintf(out, "%6.6s %5.5s %7.*f %7.*f %7.0f/%-7.0f     ", "", "",
			l->decimals, l->g->arc_self[a] / l->divisor, l->decimals,
			l->g->arc_child[a] / l->divisor, arc->count,
			unit_calls(l, arc->callee));
	print_name(out, l, other);
}

static void print_callers(FILE *out, const struct layout *l, uint32_t f)
{
	const struct model *m = l->m;
	uint32_t lo = m->callers_start[f], hi = m->callers_start[f + 1];
	if (lo == hi) {
		fprintf(out, "%6.6s %5.5s %7.7s %7.7s %7.7s %7.7s     <spontaneous>\n",
			"", "", "", "", "", "");
		return;
	}
	uint32_t *arcs = xmalloc((hi - lo) * sizeof(uint32_t));
	for (uint32_t a = lo; a < hi; a++)
		arcs[a - lo] = a;
	qsort_r(arcs, hi - lo, sizeof(uint32_t), arcs_by_caller, (void *)l);
	for (uint32_t i = 0; i < hi - lo; i++)
		print_arc_line(out, l, arcs[i], m->arcs[arcs[i]].caller);
	free(arcs);
}

static void print_callees(FILE *out, const struct layout *l, uint32_t f)
{
	const struct model *m = l->m;
	uint32_t lo = m->callees_start[f], hi = m->callees_start[f + 1];
	uint32_t *arcs = xmalloc((hi - lo + 1) * sizeof(uint32_t));
	for (uint32_t k = lo; k < hi; k++)
		arcs[k - lo] = m->callees_arcs[k];
	qsort_r(arcs, hi - lo, sizeof(uint32_t), arcs_by_callee, (void *)l);
	for (uint32_t i = hi - lo; i-- > 0;)
		print_arc_line(out, l, arcs[i], m->arcs[arcs[i]].callee);
	free(arcs);
}

static void print_calls_column(FILE *out, double calls, double self_calls)
{
	if (calls + self_calls == 0)
		fprintf(out, " %7.7s %7.7s ", "", "");
	else if (self_calls != 0)
		fprintf(out, " %7.0f+%-7.0f ", calls, self_calls);
	else
		fprintf(out, " %7.0f %7.7s ", calls, "");
}

static void print_function_block(FILE *out, const struct layout *l, uint32_t f)
{
	char index[16];
	print_callers(out, l, f);
	snprintf(index, sizeof(index), "[%u]", l->index[f]);
	fprintf(out, "%-6.6s %5.1f %7.*f %7.*f", index, l->g->percent[f], l->decimals,
		self_of(l, f) / l->divisor, l->decimals, l->g->child[f] / l->divisor);
	print_calls_column(out, calls_of(l, f), l->g->self_calls[f]);
	print_name(out, l, f);
	print_callees(out, l, f);
}

static int members_by_time(const void *a, const void *b, void *layout)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	const struct layout *l = layout;
	if (l->t->total[x] != l->t->total[y])
		return l->t->total[x] < l->t->total[y] ? 1 : -1;
	if (calls_of(l, x) != calls_of(l, y))
		return calls_of(l, x) < calls_of(l, y) ? 1 : -1;
	return (x > y) - (x < y);
}

static void print_cycle_block(FILE *out, const struct layout *l, uint32_t c)
{
	const struct gprof_cycle *cyc = &l->g->cycles[c];
	char index[16];
	snprintf(index, sizeof(index), "[%u]", l->cycle_index[c]);
	fprintf(out, "%-6.6s %5.1f %7.*f %7.*f %7.0f", index, cyc->percent, l->decimals,
		cyc->self / l->divisor, l->decimals, cyc->child / l->divisor, cyc->calls);
	if (cyc->self_calls != 0)
		fprintf(out, "+%-7.0f", cyc->self_calls);
	else
		fprintf(out, " %7.7s", "");
	fprintf(out, " <cycle %u as a whole> [%u]\n", c, l->cycle_index[c]);
	size_t n = cyc->members_end - cyc->members_start;
	uint32_t *members = xmalloc((n + 1) * sizeof(uint32_t));
	memcpy(members, l->g->members + cyc->members_start, n * sizeof(uint32_t));
	qsort_r(members, n, sizeof(uint32_t), members_by_time, (void *)l);
	for (size_t i = 0; i < n; i++) {
		uint32_t f = members[i];
		fprintf(out, "%6.6s %5.5s %7.*f %7.*f %7.0f", "", "", l->decimals,
			self_of(l, f) / l->divisor, l->decimals,
			l->g->child[f] / l->divisor, calls_of(l, f));
		if (l->g->self_calls[f] != 0)
			fprintf(out, "+%-7.0f", l->g->self_calls[f]);
		else
			fprintf(out, " %7.7s", "");
		fputs("     ", out);
		print_name(out, l, f);
	}
	free(members);
}

void gprof_print_callgraph(FILE *out, const struct view *v)
{
	struct layout l;
	layout_init(&l, v);
	struct entry *entries;
	size_t n = make_entries(&l, &entries);
	fprintf(out, "\t\t\tCall graph\n\n\n");
	fprintf(out, "index %% time    self  children    called     name\n");
	for (size_t i = 0; i < n; i++) {
		if (entries[i].frame == NO_ID)
			print_cycle_block(out, &l, entries[i].cycle);
		else if (shown(&l, entries[i].frame))
			print_function_block(out, &l, entries[i].frame);
		else
			continue;
		fprintf(out, "-----------------------------------------------\n");
	}
	free(entries);
	free(l.index);
	free(l.cycle_index);
}
