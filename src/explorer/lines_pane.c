#include "lines_pane.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/escape.h"
#include "base/util.h"

static const struct source_options no_source_options;

static bool open_on(struct app *a, uint32_t frame)
{
	const struct model *m = a->ctx.model;
	if (frame >= m->nframes)
		return false;
	struct lines_pane *p = xcalloc(1, sizeof(*p));
	p->model = m;
	p->type = a->ctx.type;
	lines_view_open(&p->view, m, frame, a->ctx.type,
			a->source_options ? a->source_options : &no_source_options,
			NULL); /* the pane shows no function total */
	p->selected = lines_view_hottest(&p->view);
	p->top = LINES_PANE_CENTRE;
	a->lines = p;
	return true;
}

void app_open_lines(struct app *a)
{
	const struct row *r = app_selected_row(a);
	if (a->compare) {
		app_message(a, "the source pane shows one profile: wprof-tui FILE");
		return;
	}
	if (!r) {
		app_message(a, "no function selected");
		return;
	}
	app_close_lines(a);
	open_on(a, r->frame);
	if (!a->lines->view.nrows) {
		char name[256];
		app_message(a, "%s: %s", app_frame_name(a, r->frame, name, sizeof(name)),
			    a->lines->view.prof.why_no_total);
		app_close_lines(a);
	}
}

void app_close_lines(struct app *a)
{
	if (!a->lines)
		return;
	lines_view_close(&a->lines->view);
	free(a->lines);
	a->lines = NULL;
}

void lines_pane_sync(struct app *a)
{
	struct lines_pane *p = a->lines;
	if (!p || (p->model == a->ctx.model && p->type == a->ctx.type))
		return;
	uint32_t frame = p->view.frame;
	size_t selected = p->selected;
	app_close_lines(a);
	if (open_on(a, frame) && selected < a->lines->view.nrows)
		a->lines->selected = selected;
}

void lines_pane_move_to(struct app *a, size_t row)
{
	struct lines_pane *p = a->lines;
	if (!p->view.nrows)
		return;
	p->selected = row < p->view.nrows ? row : p->view.nrows - 1;
}

void lines_pane_move(struct app *a, long delta)
{
	struct lines_pane *p = a->lines;
	long row = (long)p->selected + delta;
	lines_pane_move_to(a, row < 0 ? 0 : (size_t)row);
}

void lines_pane_next_hot(struct app *a, int dir)
{
	struct lines_pane *p = a->lines;
	size_t next = lines_view_next_hot(&p->view, p->selected, dir);
	if (next == p->selected && lines_view_heat(&p->view, next) < 2)
		app_message(a, "no hot line");
	p->selected = next;
}

bool lines_pane_shift(struct app *a, long columns)
{
	struct lines_pane *p = a->lines;
	if (columns < 0 && !p->shift)
		return false;
	if (columns < 0)
		p->shift -= (size_t)-columns < p->shift ? (size_t)-columns : p->shift;
	else
		p->shift += (size_t)columns;
	return true;
}

/* The source options with the directories added from the explorer: one
 * set for the whole session, so that it outlives a granularity or
 * thread switch, which keep the app's pointer to it. */
static struct source_options added_sources;

void app_add_source_path(struct app *a, const char *dir)
{
	const struct source_options *was = a->source_options ? a->source_options
							     : &no_source_options;
	struct source_options *now = &added_sources;
	const char **dirs = xmalloc((was->ndirs + 1) * sizeof(*dirs));
	if (was->ndirs)
		memcpy(dirs, was->dirs, was->ndirs * sizeof(*dirs));
	dirs[was->ndirs] = xstrdup(dir);
	if (was != now) {
		now->trims = was->trims;
		now->ntrims = was->ntrims;
	}
	free((void *)now->dirs); /* the strings stay: the new list holds them */
	now->dirs = dirs;
	now->ndirs = was->ndirs + 1;
	a->source_options = now;
	char safe[512];
	escape_text(dir, safe, sizeof(safe));
	if (a->lines) {
		uint32_t frame = a->lines->view.frame;
		app_close_lines(a);
		open_on(a, frame);
	}
	app_message(a, "source path added: %s (%zu in all)", safe, now->ndirs);
}

void lines_pane_status(const struct app *a, char *buf, size_t cap)
{
	const struct lines_view *v = &a->lines->view;
	char safe[1024];
	if (v->source.path) {
		escape_text(v->source.path, safe, sizeof(safe));
		snprintf(buf, cap, "%s%s", safe,
			 v->prof.has_total ? "" : "   (total per line: n/a in this format)");
	} else {
		escape_text(v->source.tried ? v->source.tried : "no file name in the profile",
			    safe, sizeof(safe));
		snprintf(buf, cap, "source not found (tried %s): add a directory with "
			 ":source-path DIR or --source-path DIR", safe);
	}
}
