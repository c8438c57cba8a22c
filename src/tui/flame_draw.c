#include "flame_draw.h"

#include <curses.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include "views/flame.h"
#include "base/escape.h"
#include "base/units.h"
#include "base/util.h"
#include "explorer/flame_job.h"
#include "explorer/flame_nav.h"

/* ---- colours ------------------------------------------------------------- */

/* Palette entries; each becomes a terminal colour by what it can show. */
enum {
	PAL_DEFAULT,
	PAL_TEXT,
	PAL_KIND,                     /* + enum frame_kind */
	PAL_FILE = PAL_KIND + KIND_COUNT, /* + hash % FILE_COLOURS */
	PAL_DIFF = PAL_FILE + PALETTE_MAX, /* + 0..10: faster .. slower */
	PAL_REMAINDER = PAL_DIFF + PALETTE_DIFF_STEPS,
	PAL_COUNT
};
#define FILE_COLOURS PALETTE_MAX
#define DIFF_STEPS (PALETTE_DIFF_STEPS / 2)

/* Colour `index` of one of the screen's palettes (from its theme), from
 * its 256-colour line where the terminal has them, else from its -8 line
 * (the next one). */
static short palette_colour(const struct theme_colours *palettes,
			    enum theme_palette rich, int index)
{
	bool use_rich = COLORS >= 256 && palettes[rich].n;
	const struct theme_colours *p = &palettes[use_rich ? rich : rich + 1];
	if (!p->n)
		return -1;
	short c = p->colour[(unsigned)index % p->n];
	return c < COLORS ? c : -1;
}

static short terminal_colour(const struct theme_colours *palettes, int entry)
{
	if (entry == PAL_DEFAULT)
		return -1;
	if (entry == PAL_TEXT)
		return palette_colour(palettes, PALETTE_TEXT, 0);
	if (entry < PAL_FILE)
		return palette_colour(palettes, PALETTE_KIND, entry - PAL_KIND);
	if (entry < PAL_DIFF)
		return palette_colour(palettes, PALETTE_FILE, entry - PAL_FILE);
	if (entry < PAL_REMAINDER)
		return palette_colour(palettes, PALETTE_DIFF, entry - PAL_DIFF);
	return palette_colour(palettes, PALETTE_REMAINDER, 0);
}

/* Colour pairs made as they are needed, after the theme's. */
#define FIRST_FLAME_PAIR 32
static short pairs[PAL_COUNT][PAL_COUNT];
static short next_pair = FIRST_FLAME_PAIR;

static short pair_for(const struct theme_colours *palettes, int fg, int bg)
{
	if (!pairs[fg][bg]) {
		if (next_pair >= COLOR_PAIRS)
			return 0;
		init_pair(next_pair, terminal_colour(palettes, fg), terminal_colour(palettes, bg));
		pairs[fg][bg] = next_pair++;
	}
	return pairs[fg][bg];
}

static uint64_t hash_text(const char *s)
{
	uint64_t h = 1469598103934665603ull; /* FNV-1a: the same every run */
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ull;
	return h;
}

/* The package of a file: its directory (a URL's path without the file). */
static uint64_t package_hash(const char *url)
{
	const char *slash = strrchr(url, '/');
	size_t n = slash ? (size_t)(slash - url) : strlen(url);
	char buf[512];
	snprintf(buf, sizeof(buf), "%.*s", (int)(n < sizeof(buf) - 1 ? n : sizeof(buf) - 1), url);
	return hash_text(buf);
}

struct paint {
	const struct app *a;
	const struct flame *f;
	const double *base; /* differential: base widths, or NULL */
	/* with base: each frame's call path's test over the runs */
	const struct path_verdict *verdicts;
	bool normalize;
	double base_whole;
};

/* A frame's change against BASE, in colour only where it is more than
 * its path's noise (runs_colours_change); the rest in the unchanged
 * colour. */
static int diff_entry(const struct paint *p, uint32_t i)
{
	double now = p->f->frames[i].width, was = p->base[i];
	const struct path_verdict *v = &p->verdicts[i];
	if (!runs_colours_change(v->significant, v->delta, isnan(was) ? now : now - was))
		return PAL_DIFF + DIFF_STEPS;
	if (isnan(was))
		return PAL_DIFF + 2 * DIFF_STEPS; /* new here: the strongest red */
	if (p->normalize && p->f->whole > 0 && p->base_whole > 0) {
		now /= p->f->whole;
		was /= p->base_whole;
	}
	double big = fmax(now, was), change = big > 0 ? (now - was) / big : 0;
	int step = (int)ceil(fabs(change) * DIFF_STEPS);
	if (fabs(change) < 0.01)
		step = 0;
	step = step > DIFF_STEPS ? DIFF_STEPS : step;
	return PAL_DIFF + DIFF_STEPS + (change < 0 ? -step : step);
}

static int frame_entry(const struct paint *p, const struct flame_span *sp)
{
	if (sp->flags & FLAME_SPAN_REMAINDER)
		return PAL_REMAINDER;
	if (p->base)
		return diff_entry(p, sp->index);
	const struct model *m = p->a->ctx.model;
	const struct frame *fr = &m->frames[p->f->frames[sp->index].frame];
	if (!p->a->flame.by_file)
		return PAL_KIND + fr->kind;
	const char *url = model_str(m, fr->url);
	return PAL_FILE + (int)((url[0] ? package_hash(url) : hash_text(frame_kind_name(fr->kind)))
				% FILE_COLOURS);
}

/* ---- drawing ------------------------------------------------------------- */

struct canvas {
	const struct screen *s;
	int top, left, lines, cols;
	/* Frames in colour: a colour terminal, colours wanted (no NO_COLOR)
	 * and a theme that has some (not mono); else shading characters. */
	bool colour;
};

/* Up to `cols` columns of an escaped name, ending in an ellipsis when it
 * does not fit (*cut then, when asked); returns the wide characters
 * written. */
static size_t fit_name(const char *name, int cols, bool utf8, wchar_t *out, size_t cap,
		       bool *cut)
{
	size_t n = 0;
	int used = 0;
	mbstate_t st;
	memset(&st, 0, sizeof(st));
	const char *s = name;
	while (*s && n + 1 < cap) {
		wchar_t wc;
		size_t len = mbrtowc(&wc, s, MB_CUR_MAX, &st);
		if (len == (size_t)-1 || len == (size_t)-2 || len == 0) {
			memset(&st, 0, sizeof(st));
			wc = L'?';
			len = 1;
		}
		int w = wcwidth(wc);
		w = w < 0 ? 1 : w;
		if (used + w > cols)
			break;
		out[n++] = wc;
		used += w;
		s += len;
	}
	if (cut)
		*cut = *s;
	if (*s) { /* cut: room for the mark */
		while (n && used > cols - 1) {
			int w = wcwidth(out[--n]);
			used -= w < 0 ? 1 : w;
		}
		if (cols >= 1)
			out[n++] = utf8 ? L'\u2026' : L'~';
	}
	return n;
}

static const wchar_t *const left_blocks[8] = {
	L" ", L"\u258f", L"\u258e", L"\u258d", L"\u258c", L"\u258b", L"\u258a", L"\u2589",
};

static wchar_t shade(const struct screen *s, int entry)
{
	static const wchar_t utf8[] = { L'\u2591', L'\u2592', L'\u2593' };
	static const wchar_t ascii[] = { L'.', L':', L'#' };
	if (entry == PAL_REMAINDER)
		return s->utf8 ? L'\u2573' : L'+';
	return (s->utf8 ? utf8 : ascii)[entry % 3];
}

struct span_look {
	int entry;        /* palette entry */
	attr_t attr;      /* set instead of the palette's pair, when not 0 */
	bool selected, matched;
};

static void set_look(const struct canvas *c, const struct span_look *look, bool text)
{
	if (look->attr)
		attrset(look->attr);
	else if (c->colour) /* dark text on the frame's colour */
		attr_set(A_NORMAL, pair_for(c->s->flame, PAL_TEXT, look->entry), NULL);
	else
		attrset(text ? A_REVERSE : A_NORMAL);
}

static void put_cells(const struct canvas *c, int y, int x, const wchar_t *w,
		      size_t n, const struct span_look *look, bool text)
{
	set_look(c, look, text);
	mvaddnwstr(c->top + y, c->left + x, w, (int)n);
}

static struct span_look look_of(const struct paint *p, const struct canvas *c,
				const struct flame_span *sp, uint32_t selected,
				const uint8_t *matched)
{
	const struct screen *s = c->s;
	struct span_look l = { .entry = frame_entry(p, sp) };
	bool remainder = sp->flags & FLAME_SPAN_REMAINDER;
	l.selected = remainder ? selected >= sp->index &&
		selected < p->f->frames[sp->last].end : sp->index == selected;
	l.matched = matched && matched[sp->index];
	if (l.selected)
		l.attr = s->attr[EL_SELECTED] | A_BOLD;
	else if (l.matched)
		l.attr = s->attr[EL_MATCH];
	else if (sp->flags & FLAME_SPAN_ANCESTOR)
		l.attr = s->attr[EL_DIM] | (c->colour ? 0 : A_UNDERLINE);
	return l;
}

/* A time-order block by its function with the most time and how many
 * other fragments it holds ("walk +11"); a left-heavy remainder by its
 * count ("+40"). */
static void block_label(const struct app *a, uint32_t named, uint32_t merged,
			char *buf, size_t cap)
{
	if (named == NO_ID) {
		snprintf(buf, cap, "+%u", merged);
		return;
	}
	char name[512];
	app_frame_name(a, named, name, sizeof(name));
	snprintf(buf, cap, "%s +%u", name, merged - 1);
}

static void span_label(const struct paint *p, const struct flame_span *sp,
		       char *buf, size_t cap)
{
	if (sp->flags & FLAME_SPAN_REMAINDER) {
		block_label(p->a, sp->named, sp->merged, buf, cap);
		return;
	}
	char name[512];
	app_frame_name(p->a, p->f->frames[sp->index].frame, name, sizeof(name));
	bool one_sided = p->base && isnan(p->base[sp->index]);
	snprintf(buf, cap, "%s%s", one_sided ? "+" : "", name);
}

/* What a span shows in `room` cells: its label where it fits whole,
 * else its name cut with an ellipsis; a remainder's "+N" only whole
 * (the mark alone says it).  Time order names a block by its main
 * function alone where "name +K" does not fit, and cuts a name only
 * from four cells on: its slivers of "l…" said nothing. */
static size_t span_text(const struct paint *p, const struct flame_span *sp, int room,
			bool utf8, wchar_t *line, size_t cap)
{
	char label[600];
	bool cut;
	span_label(p, sp, label, sizeof(label));
	size_t n = fit_name(label, room, utf8, line, cap, &cut);
	if (cut && (sp->flags & FLAME_SPAN_REMAINDER)) {
		if (sp->named == NO_ID)
			return 0;
		app_frame_name(p->a, sp->named, label, sizeof(label));
		n = fit_name(label, room, utf8, line, cap, &cut);
	}
	return cut && p->f->order == FLAME_TIME_ORDER && room < 4 ? 0 : n;
}

/* One span: its whole cells, then the cell its right edge falls in, a
 * left block in its colour over the colour of what follows. */
static void draw_span(const struct paint *p, const struct canvas *c, int y,
		      const struct flame_span *sp, const struct flame_span *next,
		      bool joined_left, int alternate, uint32_t selected,
		      const uint8_t *matched)
{
	const struct screen *s = c->s;
	struct span_look look = look_of(p, c, sp, selected, matched);
	int first = (int)(joined_left ? (sp->start + 7) / 8 : sp->start / 8);
	int last = (int)(sp->stop / 8); /* one past the whole cells */
	if (last > c->cols)
		last = c->cols;
	int cells = last - first;
	if (cells > 0) {
		wchar_t line[1024];
		int room = cells < 1000 ? cells : 1000;
		size_t n = span_text(p, sp, room, s->utf8, line, sizeof(line) / sizeof(line[0]));
		int used = 0;
		for (size_t k = 0; k < n; k++)
			used += wcwidth(line[k]) > 0 ? wcwidth(line[k]) : 1;
		if (n)
			put_cells(c, y, first, line, n, &look, true);
		/* without colour, neighbours of one kind differ by their shade */
		wchar_t fill = c->colour || look.attr ? L' '
			: shade(s, look.entry + alternate);
		if (sp->flags & FLAME_SPAN_REMAINDER)
			fill = shade(s, PAL_REMAINDER);
		for (int x = first + used; x < last; x++)
			put_cells(c, y, x, &fill, 1, &look, false);
	}
	unsigned part = sp->stop % 8;
	int edge = (int)(sp->stop / 8);
	if (!part || edge >= c->cols || edge < first)
		return;
	bool next_here = next && next->start < (uint32_t)(edge + 1) * 8 && next->start >= sp->start;
	if (s->utf8) {
		int bg = next_here ? frame_entry(p, next) : PAL_DEFAULT;
		if (look.attr || !c->colour)
			attrset(look.attr ? look.attr : A_NORMAL);
		else
			attr_set(A_NORMAL, pair_for(s->flame, look.entry, bg), NULL);
		mvaddnwstr(c->top + y, c->left + edge, left_blocks[part], 1);
	} else if (part >= 4 || !next_here) {
		wchar_t fill = c->colour ? L' ' : shade(s, look.entry + alternate);
		put_cells(c, y, edge, &fill, 1, &look, false);
	}
}

static int line_of(const struct app *a, const struct canvas *c, uint32_t level)
{
	return a->flame.root_below ? c->lines - 1 - (int)level : 1 + (int)level;
}

static void draw_levels(const struct paint *p, const struct canvas *c,
			const struct flame_layout *l, uint32_t selected,
			const uint8_t *matched)
{
	int rank = 0; /* on its line: neighbours alternate shades */
	for (size_t i = 0; i < l->nspans; i++) {
		const struct flame_span *sp = &l->spans[i];
		rank = i && l->spans[i - 1].level == sp->level ? rank + 1 : 0;
		const struct flame_span *next = i + 1 < l->nspans &&
			l->spans[i + 1].level == sp->level ? &l->spans[i + 1] : NULL;
		bool joined_left = i > 0 && l->spans[i - 1].level == sp->level &&
				   l->spans[i - 1].stop == sp->start;
		draw_span(p, c, line_of(p->a, c, sp->level), sp, next, joined_left,
			  rank % 2, selected, matched);
	}
}

/* ---- the top line: order, zoom path, search share ----------------------- */

/* The label of frames first..last merged (as their span shows it). */
static void zoomed_block_label(const struct app *a, const struct flame *f,
			       struct flame_zoom zoom, char *buf, size_t cap)
{
	double time;
	uint32_t merged = flame_run_size(f, zoom.first, zoom.last, &time);
	struct flame_share *shares = NULL;
	size_t shares_cap = 0;
	uint32_t named = f->order == FLAME_TIME_ORDER &&
		flame_shares(f, zoom.first, zoom.last, &shares, &shares_cap) ? shares[0].frame : NO_ID;
	free(shares);
	block_label(a, named, merged, buf, cap);
}

static void breadcrumb(const struct app *a, const struct flame *f, struct flame_zoom zoom,
		       bool utf8, char *buf, size_t cap)
{
	const char *sep = utf8 ? " \u203a " : " > ";
	bool time_order = f->order == FLAME_TIME_ORDER;
	/* While `x`'s graph is made, the other order is still shown. */
	const char *computing = !app_flame_computing(a) ? ""
		: a->ctx.time_order == time_order ? " (computing)"
		: time_order ? " (computing left-heavy)" : " (computing time order)";
	int n = snprintf(buf, cap, "%s%s", time_order ? "time order" : "left-heavy", computing);
	if (a->range.cut) { /* what the root stands for */
		char range[128];
		app_describe_range(a, !utf8, range, sizeof(range));
		n += snprintf(buf + n, cap - (size_t)n, "%s(%s)", sep, range);
	} else if (zoom.first == NO_ID) {
		n += snprintf(buf + n, cap - (size_t)n, "%s(whole profile)", sep);
	}
	if (zoom.first == NO_ID)
		return;
	bool block = zoom.first != zoom.last;
	uint32_t path[64];
	size_t depth = 0;
	uint32_t z = block ? f->frames[zoom.first].parent : zoom.first;
	for (; z != NO_ID && depth < 64; z = f->frames[z].parent)
		path[depth++] = z;
	if (depth == 64)
		n += snprintf(buf + n, cap - (size_t)n, "%s%s", sep, utf8 ? "\u2026" : "...");
	while (depth-- && (size_t)n < cap) {
		char name[256];
		app_frame_name(a, f->frames[path[depth]].frame, name, sizeof(name));
		n += snprintf(buf + n, cap - (size_t)n, "%s%s", sep, name);
	}
	if (block && (size_t)n < cap) {
		char label[600];
		zoomed_block_label(a, f, zoom, label, sizeof(label));
		snprintf(buf + n, cap - (size_t)n, "%s%s", sep, label);
	}
}

static void update_matches(struct app *a, const struct flame *f)
{
	struct flame_ui *ui = &a->flame;
	if (ui->matched_serial == f->serial && !strcmp(ui->matched_for, a->prompts.search))
		return;
	bool *wanted = app_search_hits(a, NULL);
	GROW(ui->matched, ui->matched_cap, f->nframes + 1);
	ui->matched_share = flame_match(f, wanted, ui->matched);
	free(wanted);
	ui->matched_serial = f->serial;
	snprintf(ui->matched_for, sizeof(ui->matched_for), "%s", a->prompts.search);
}

static void draw_top_line(struct app *a, const struct canvas *c, const struct flame *f,
			  struct flame_zoom zoom)
{
	const struct screen *s = c->s;
	char text[2048], right[64] = "";
	breadcrumb(a, f, zoom, s->utf8, text, sizeof(text));
	if (a->prompts.search[0])
		snprintf(right, sizeof(right), " matched %.1f %% ", 100 * a->flame.matched_share);
	int rw = (int)strlen(right), room = c->cols - rw - 1;
	wchar_t w[2048];
	/* A long path keeps its end: where the zoom is. */
	const char *shown = text;
	while (room > 4 && (int)strlen(shown) > room && shown[1]) {
		shown++;
		while ((*shown & 0xc0) == 0x80)
			shown++;
	}
	attrset(s->attr[EL_COLUMNS]);
	mvhline(c->top, c->left, ' ', c->cols);
	size_t n = fit_name(shown, room > 0 ? room : 0, s->utf8, w, 2048, NULL);
	mvaddnwstr(c->top, c->left + 1, w, (int)n);
	if (rw && rw < c->cols) {
		attrset(s->attr[EL_MATCH]);
		mvaddstr(c->top, c->left + c->cols - rw, right);
	}
}

/* ---- the status line ---------------------------------------------------- */

/* Against BASE, the frame's BASE width; comparing shares (`n`), its share
 * of BASE, to read beside the frame's share of NEW. */
static int describe_base(const struct app *a, const struct paint *paint, uint32_t i,
			 char *note, size_t cap)
{
	char was[32];
	double width = paint->base[i];
	if (isnan(width))
		return snprintf(note, cap, "  (+ not in base)");
	if (paint->normalize) {
		format_percent(width, paint->base_whole, was, sizeof(was));
		return snprintf(note, cap, "  base %s (shares)", was);
	}
	format_value(a->ctx.model, a->ctx.type, width, was, sizeof(was));
	return snprintf(note, cap, "  base %s", was);
}

static void describe(struct app *a, const struct flame *f, uint32_t i,
		     const struct paint *paint, char *note, size_t cap)
{
	const struct model *m = a->ctx.model;
	const struct flame_frame *fr = &f->frames[i];
	char name[512], self[32], total[32], pct[32], where[512];
	app_frame_name(a, fr->frame, name, sizeof(name));
	format_value(m, a->ctx.type, fr->self, self, sizeof(self));
	format_value(m, a->ctx.type, fr->width, total, sizeof(total));
	format_percent(fr->width, f->profile_total, pct, sizeof(pct));
	char loc[400];
	format_location(m, fr->frame, loc, sizeof(loc));
	escape_text(loc, where, sizeof(where));
	int n = snprintf(note, cap, "%s  self %s  total %s  %s%s%s", name, self, total,
			 pct, where[0] ? "  " : "", where);
	if (paint->base && (size_t)n < cap)
		n += describe_base(a, paint, i, note + n, cap - (size_t)n);
	if (f->note && (size_t)n < cap)
		snprintf(note + n, cap - (size_t)n, "  [%s]", f->note);
}

/* A merged block: what it stands for, its time and share, and the way
 * into it ("12 fragments merged: walk 61.2%, c 22.0%, b 9.1%, 1 more"). */
static void describe_block(struct app *a, const struct flame *f, struct flame_zoom block,
			   char *note, size_t cap)
{
	struct flame_share *shares = NULL;
	size_t shares_cap = 0;
	size_t nfunctions = flame_shares(f, block.first, block.last, &shares, &shares_cap);
	double time;
	uint32_t merged = flame_run_size(f, block.first, block.last, &time);
	int n = snprintf(note, cap, "%u %s merged:", merged,
			 f->order == FLAME_TIME_ORDER ? "fragments" : "frames");
	for (size_t k = 0; k < nfunctions && k < 3 && (size_t)n < cap; k++) {
		char name[256], share[32];
		app_frame_name(a, shares[k].frame, name, sizeof(name));
		format_percent(shares[k].width, time, share, sizeof(share));
		n += snprintf(note + n, cap - (size_t)n, "%s %s %s", k ? "," : "", name, share);
	}
	if (nfunctions > 3 && (size_t)n < cap)
		n += snprintf(note + n, cap - (size_t)n, ", %zu more", nfunctions - 3);
	char total[32], pct[32];
	format_value(a->ctx.model, a->ctx.type, time, total, sizeof(total));
	format_percent(time, f->profile_total, pct, sizeof(pct));
	if ((size_t)n < cap)
		snprintf(note + n, cap - (size_t)n, "  total %s  %s  Enter: zoom in",
			 total, pct);
	free(shares);
}

/* ---- differential: base widths, kept while both graphs are the same --- */

/* NEW's frames' widths in BASE, and BASE's frames gone from NEW. */
struct base_pairing {
	double *widths;     /* per frame of NEW, NAN: not in BASE */
	uint32_t *in_base;  /* per frame of NEW, NO_ID: not in BASE */
	uint8_t *gone;      /* per frame of BASE: its path is not in NEW */
	struct path_verdict *verdicts; /* per frame of NEW (runs_paths_of) */
	const struct flame *base;
	const struct app *base_app;
};

static const struct base_pairing *pair_with_base(struct compare *cmp, const struct flame *now,
						 double *base_whole)
{
	static struct base_pairing pairing;
	static unsigned long serials[3];
	struct app *base = &cmp->side[DIFF_BASE];
	struct pane *bp = &base->panes[VIEW_FLAME];
	if (!bp->open) {
		view_open(&bp->view, VIEW_FLAME, &base->ctx);
		bp->open = true;
	}
	const struct flame *was = flame_of_view(&bp->view);
	if (!was || !was->nframes || !cmp->diff.match[DIFF_NEW])
		return NULL;
	*base_whole = was->whole;
	const struct runs_paths *paths = compare_paths(cmp);
	if (serials[0] != was->serial || serials[1] != now->serial ||
	    serials[2] != paths->graph.serial) {
		free(pairing.widths);
		free(pairing.in_base);
		free(pairing.gone);
		free(pairing.verdicts);
		pairing.widths = xmalloc((now->nframes + 1) * sizeof(double));
		flame_base_widths(now, was, cmp->diff.match[DIFF_NEW], pairing.widths);
		pairing.in_base = flame_base_counterparts(now, was, cmp->diff.match[DIFF_NEW]);
		pairing.gone = xmalloc(was->nframes + 1);
		flame_base_only(now, was, pairing.in_base, pairing.gone);
		pairing.verdicts = xmalloc((now->nframes + 1) * sizeof(*pairing.verdicts));
		runs_paths_of(paths, now, pairing.verdicts);
		serials[0] = was->serial;
		serials[1] = now->serial;
		serials[2] = paths->graph.serial;
	}
	pairing.base = was;
	pairing.base_app = base;
	return &pairing;
}

/* flamegraph.pl's `-`: the calls under the frame at `i` that BASE made
 * and NEW no longer does, largest first as BASE's graph has them. */
static void describe_gone(const struct app *a, const struct base_pairing *pb, uint32_t i,
			  char *note, size_t cap)
{
	uint32_t c = pb->in_base[i];
	if (c == NO_ID)
		return;
	const struct flame *was = pb->base;
	size_t n = strlen(note), listed = 0, more = 0;
	for (uint32_t j = c + 1; j < was->frames[c].end; j = was->frames[j].end) {
		if (!pb->gone[j])
			continue;
		if (listed == 3) {
			more++;
			continue;
		}
		char name[256], width[32];
		app_frame_name(pb->base_app, was->frames[j].frame, name, sizeof(name));
		format_value(a->ctx.model, a->ctx.type, was->frames[j].width, width, sizeof(width));
		if (n < cap)
			n += (size_t)snprintf(note + n, cap - n, "%s-%s %s", listed ? ", " : "  (",
					      name, width);
		listed++;
	}
	if (more && n < cap)
		n += (size_t)snprintf(note + n, cap - n, ", %zu more", more);
	if (listed && n < cap)
		snprintf(note + n, cap - n, " only in base)");
}

void flame_draw(struct app *a, const struct screen *s, int top, int left,
		int lines, int cols, struct compare *diff, char *note, size_t cap)
{
	struct canvas c = { s, top, left, lines, cols, screen_in_colour(s) };
	note[0] = 0;
	attrset(s->attr[EL_NORMAL]);
	for (int y = 0; y < lines; y++)
		mvhline(top + y, left, ' ', cols);
	const struct flame *f = flame_pane_graph(a);
	if (!f || lines < 2 || cols < 1)
		return;
	if (!f->nframes) {
		mvaddnstr(top + 1, left + 2, f->why_not ? f->why_not : "(no samples)", cols - 2);
		snprintf(note, cap, "no flame graph: %s", f->why_not ? f->why_not : "no samples");
		return;
	}
	struct flame_zoom zoom = flame_zoom_of(&a->flame, f);
	update_matches(a, f);
	draw_top_line(a, &c, f, zoom);
	struct paint paint = { .a = a, .f = f };
	const struct base_pairing *pb = NULL;
	if (diff && a == &diff->side[DIFF_NEW]) {
		pb = pair_with_base(diff, f, &paint.base_whole);
		paint.base = pb ? pb->widths : NULL;
		paint.verdicts = pb ? pb->verdicts : NULL;
		paint.normalize = diff->diff.normalize;
	}
	flame_nav_lay_out(a, (unsigned)cols, (uint32_t)(lines - 1));
	struct pane *p = app_pane(a);
	uint32_t selected = p->selected < f->nframes ? (uint32_t)p->selected : 0;
	draw_levels(&paint, &c, &a->flame.layout, selected,
		    a->prompts.search[0] ? a->flame.matched : NULL);
	attrset(A_NORMAL);
	struct flame_zoom block = flame_selected_block(a, f);
	if (block.first != block.last) {
		describe_block(a, f, block, note, cap);
		return;
	}
	describe(a, f, selected, &paint, note, cap);
	if (pb)
		describe_gone(a, pb, selected, note, cap);
}
