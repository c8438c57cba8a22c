#include "report_flame.h"

#include <stdlib.h>
#include <string.h>

#include "base/escape.h"
#include "base/units.h"
#include "base/util.h"

/* Cells of a text line: bytes, so that a name's UTF-8 stays whole, one
 * cell each (escape_text gives one column per character). */
struct text_line {
	char **cells;
	unsigned width;
};

static void put_cell(struct text_line *l, unsigned x, const char *s, size_t n)
{
	if (x >= l->width)
		return;
	free(l->cells[x]);
	l->cells[x] = xmalloc(n + 1);
	memcpy(l->cells[x], s, n);
	l->cells[x][n] = 0;
}

static size_t char_len(const char *s)
{
	size_t n = 1;
	while ((s[n] & 0xc0) == 0x80)
		n++;
	return n;
}

/* `|name.....` over cells [from, to); a name that does not fit ends in
 * the ellipsis. */
static void put_span(struct text_line *l, unsigned from, unsigned to,
		     const char *label, char fill, bool utf8)
{
	if (to <= from)
		return;
	put_cell(l, from, "|", 1);
	unsigned room = to - from - 1, x = from + 1;
	size_t chars = 0;
	for (const char *p = label; *p; p += char_len(p))
		chars++;
	const char *p = label;
	for (unsigned k = 0; k < room && *p; k++) {
		if (chars > room && k == room - 1) {
			put_cell(l, x++, utf8 ? "\u2026" : "~", utf8 ? 3 : 1);
			break;
		}
		size_t n = char_len(p);
		put_cell(l, x++, p, n);
		p += n;
	}
	for (; x < to; x++)
		put_cell(l, x, &fill, 1);
}

static void span_text(const struct flame_report *rep, const struct flame_span *sp,
		      char *buf, size_t cap)
{
	const struct model *m = rep->ctx->model;
	uint32_t frame = rep->flame->frames[sp->index].frame;
	escape_text(model_str(m, m->frames[frame].name), buf, cap);
}

static void print_line(FILE *out, struct text_line *l)
{
	unsigned last = l->width;
	while (last && (!l->cells[last - 1] || !strcmp(l->cells[last - 1], " ")))
		last--;
	for (unsigned x = 0; x < last; x++)
		fputs(l->cells[x] ? l->cells[x] : " ", out);
	fputc('\n', out);
	for (unsigned x = 0; x < l->width; x++) {
		free(l->cells[x]);
		l->cells[x] = NULL;
	}
}

static void print_header(FILE *out, const struct flame_report *rep)
{
	const struct view_context *ctx = rep->ctx;
	const struct flame *f = rep->flame;
	char cell[32], whole[32];
	format_value(ctx->model, ctx->type, f->whole / rep->width, cell, sizeof(cell));
	format_value(ctx->model, ctx->type, f->whole, whole, sizeof(whole));
	fprintf(out, "# wprof-tui flame report: %s\n", rep->file);
	fprintf(out, "# rule: %s  %s  %s (%s)  width %s, one column %s\n",
		rule_name(ctx->rule),
		f->order == FLAME_TIME_ORDER ? "time order" : "left-heavy",
		model_str(ctx->model, ctx->model->types[ctx->type].name),
		model_str(ctx->model, ctx->model->types[ctx->type].unit), whole, cell);
	if (f->note)
		fprintf(out, "# %s\n", f->note);
	fprintf(out, "# |name starts a frame; +: frames narrower than a column, merged\n");
}

void flame_report_print(FILE *out, const struct flame_report *rep)
{
	const struct flame *f = rep->flame;
	if (!f->nframes) {
		fprintf(out, "# wprof-tui flame report: %s\n# no flame graph: %s\n",
			rep->file, f->why_not ? f->why_not : "no samples");
		return;
	}
	print_header(out, rep);
	struct flame_layout layout = { 0 };
	flame_lay_out(f, FLAME_WHOLE, rep->width, UINT32_MAX, &layout);
	struct text_line line = { xcalloc(rep->width + 1, sizeof(char *)), rep->width };
	for (uint32_t k = 0; k < layout.levels; k++) {
		uint32_t level = rep->root_below ? layout.levels - 1 - k : k;
		for (size_t i = 0; i < layout.nspans; i++) {
			const struct flame_span *sp = &layout.spans[i];
			if (sp->level != level)
				continue;
			char label[1024];
			span_text(rep, sp, label, sizeof(label));
			unsigned from = (sp->start + 4) / 8, to = (sp->stop + 4) / 8;
			bool remainder = sp->flags & FLAME_SPAN_REMAINDER;
			if (remainder && to == from && from < rep->width && !line.cells[from])
				to = from + 1; /* a sliver: one column, if free */
			if (remainder)
				for (unsigned x = from; x < to; x++)
					put_cell(&line, x, "+", 1);
			else
				put_span(&line, from, to, label, '.', rep->utf8);
		}
		print_line(out, &line);
	}
	free(line.cells);
	flame_layout_free(&layout);
}
