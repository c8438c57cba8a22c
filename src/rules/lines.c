#include "lines.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"

static const char INLINE_MARK[] = " (inline)";

size_t lines_plain_name_length(const char *name)
{
	size_t n = strlen(name), mark = sizeof(INLINE_MARK) - 1;
	if (n > mark && !strcmp(name + n - mark, INLINE_MARK))
		return n - mark;
	return n;
}

bool lines_same_function(const struct model *m, uint32_t f, uint32_t g)
{
	const struct frame *x = &m->frames[f], *y = &m->frames[g];
	if (f == g)
		return true;
	if (x->url != y->url || x->line != y->line || x->column != y->column)
		return false;
	const char *a = model_str(m, x->name), *b = model_str(m, y->name);
	size_t n = lines_plain_name_length(a);
	return lines_plain_name_length(b) == n && !strncmp(a, b, n);
}

/* Values per line gathered in a table indexed by line - lo. */
struct line_sums {
	double *self, *total;
	int32_t lo, hi; /* lines held: [lo, hi) */
};

static void sums_reserve(struct line_sums *s, int32_t line)
{
	if (s->self && line >= s->lo && line < s->hi)
		return;
	int32_t lo = s->self ? (line < s->lo ? line : s->lo) : line;
	int32_t hi = s->self ? (line >= s->hi ? line + 1 : s->hi) : line + 1;
	size_t n = (size_t)(hi - lo);
	double *self = xcalloc(n, sizeof(double)), *total = xcalloc(n, sizeof(double));
	for (int32_t l = s->lo; s->self && l < s->hi; l++) {
		self[l - lo] = s->self[l - s->lo];
		total[l - lo] = s->total[l - s->lo];
	}
	free(s->self);
	free(s->total);
	*s = (struct line_sums){ self, total, lo, hi };
}

static void sums_add(struct line_sums *s, int32_t line, double self, double total)
{
	sums_reserve(s, line);
	s->self[line - s->lo] += self;
	s->total[line - s->lo] += total;
}

static bool from_node_lines(const struct model *m, const bool *member,
			    unsigned type, struct line_sums *s)
{
	bool any = false;
	for (uint32_t k = 0; k < m->nnode_lines; k++) {
		const struct node_line *nl = &m->node_lines[k];
		if (!member[m->nodes[nl->node].frame])
			continue;
		sums_add(s, nl->line, node_line_self(m, k)[type], node_line_total(m, k)[type]);
		any = true;
	}
	return any;
}

static int by_node(const void *a, const void *b)
{
	const struct line_ticks *x = a, *y = b;
	return x->node < y->node ? -1 : x->node > y->node;
}

/* Samples of each member node, from the timeline: NULL without one. */
static uint32_t *member_samples(const struct model *m, const bool *member)
{
	if (!m->nsamples || m->live.samples_before) /* a live window: not every sample */
		return NULL;
	uint32_t *count = xcalloc(m->nnodes + 1, sizeof(uint32_t));
	for (size_t i = 0; i < m->nsamples; i++) {
		uint32_t v = m->sample_node[i];
		if (member[m->nodes[v].frame])
			count[v]++;
	}
	return count;
}

/* A node's self value over its lines in proportion to their ticks.  V8's
 * ticks of a node count all its samples; a trace's per-sample `lines` may
 * leave samples without a line (0), whose share stays unattributed rather
 * than being spread over the lines that are known. */
static bool from_line_ticks(const struct model *m, const bool *member,
			    unsigned type, struct line_sums *s)
{
	struct line_ticks *mine = NULL;
	size_t n = 0, cap = 0;
	for (size_t i = 0; i < m->nline_ticks; i++) {
		const struct line_ticks *lt = &m->line_ticks[i];
		if (!member[m->nodes[lt->node].frame] || lt->line <= 0 || !(lt->ticks > 0))
			continue;
		GROW(mine, cap, n + 1);
		mine[n++] = *lt;
	}
	if (n)
		qsort(mine, n, sizeof(*mine), by_node);
	/* Only traces need the count: V8's positionTicks of a node add up to
	 * its samples, and counting 7 million samples would cost a key ms. */
	bool uncounted = !strcmp(m->format, "trace");
	uint32_t *samples = n && uncounted ? member_samples(m, member) : NULL;
	for (size_t i = 0, j; i < n; i = j) {
		double ticks = 0;
		for (j = i; j < n && mine[j].node == mine[i].node; j++)
			ticks += mine[j].ticks;
		if (samples && samples[mine[i].node] > ticks)
			ticks = samples[mine[i].node];
		double self = node_value(m, mine[i].node, type);
		for (size_t k = i; k < j; k++)
			sums_add(s, mine[k].line, self * mine[k].ticks / ticks, 0);
	}
	free(samples);
	free(mine);
	return n > 0;
}

static int32_t shown_line(const struct model *m, uint32_t frame)
{
	if (model_wasm_offset(m, frame) >= 0) /* wasm: line 1 is a placeholder */
		return -1;
	return model_shown_place(m, m->frames[frame].line);
}

/* No lines inside the function: its whole self at its own line. */
static bool from_function_line(const struct model *m, const bool *member,
			       unsigned type, struct line_sums *s)
{
	bool any = false;
	for (uint32_t v = 0; v < m->nnodes; v++) {
		uint32_t f = m->nodes[v].frame;
		if (member[f] && shown_line(m, f) > 0) {
			sums_add(s, shown_line(m, f), node_value(m, v, type), 0);
			any = true;
		}
	}
	if (m->frame_self)
		for (uint32_t f = 0; f < m->nframes; f++)
			if (member[f] && shown_line(m, f) > 0) {
				sums_add(s, shown_line(m, f),
					 m->frame_self[(size_t)f * m->ntypes + type], 0);
				any = true;
			}
	return any;
}

static void collect_rows(const struct line_sums *s, struct line_profile *out)
{
	for (int32_t l = s->lo; s->self && l < s->hi; l++) {
		double self = s->self[l - s->lo], total = s->total[l - s->lo];
		if (self == 0 && (!out->has_total || total == 0))
			continue;
		GROW(out->rows, out->rows_cap, out->nrows + 1);
		out->rows[out->nrows++] = (struct line_row){
			l, self, out->has_total ? total : NAN };
		out->self += self;
	}
}

void lines_of_frames(const struct model *m, const bool *member, unsigned type,
		     struct line_profile *out)
{
	memset(out, 0, sizeof(*out));
	out->start_line = -1;
	for (uint32_t f = 0; f < m->nframes; f++)
		if (member[f] && shown_line(m, f) > 0 &&
		    (out->start_line < 0 || shown_line(m, f) < out->start_line))
			out->start_line = shown_line(m, f);
	struct line_sums s = { 0 };
	if (from_node_lines(m, member, type, &s)) {
		out->origin = LINES_SAMPLED;
		out->has_total = true;
	} else if (from_line_ticks(m, member, type, &s)) {
		out->origin = LINES_SAMPLED;
		out->why_no_total = "the profile does not say at which line a function "
				    "called another";
	} else if (from_function_line(m, member, type, &s)) {
		out->origin = LINES_FUNCTION;
		out->why_no_total = "the profile has only the function's own line";
	} else {
		out->why_no_total = "the profile has no line numbers";
	}
	collect_rows(&s, out);
	free(s.self);
	free(s.total);
}

void lines_of_frame(const struct model *m, uint32_t frame, unsigned type,
		    struct line_profile *out)
{
	bool *member = xcalloc(m->nframes + 1, sizeof(bool));
	member[frame] = true;
	lines_of_frames(m, member, type, out);
	free(member);
}

void line_profile_free(struct line_profile *p)
{
	free(p->rows);
	memset(p, 0, sizeof(*p));
}

void lines_window(const struct line_profile *p, int32_t *first, int32_t *last)
{
	enum { MARGIN = 5 };
	if (!p->nrows) {
		*first = *last = p->start_line > 0 ? p->start_line : 1;
		return;
	}
	int32_t start = p->start_line > 0 ? p->start_line : p->rows[0].line - MARGIN;
	int32_t end = p->rows[0].line + MARGIN;
	for (size_t i = 0; i < p->nrows; i++) {
		int32_t node_start = p->start_line > 0 ? p->start_line
						       : p->rows[i].line - MARGIN;
		int32_t node_end = p->rows[i].line + MARGIN;
		if (node_start < start)
			start = node_start;
		else if (node_end > end)
			end = node_end;
	}
	*first = start < 1 ? 1 : start;
	*last = end;
}
