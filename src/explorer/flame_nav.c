/* Pane 5's selection and zoom (flame_nav.h). */
#include "flame_nav.h"

#include <string.h>

#include "base/util.h"

const struct flame *flame_pane_graph(struct app *a)
{
	struct pane *p = &a->panes[VIEW_FLAME];
	return p->open ? flame_of_view(&p->view) : NULL;
}

bool flame_nav_active(struct app *a)
{
	const struct flame *f = flame_pane_graph(a);
	return a->current == VIEW_FLAME && !a->show_help && f && f->nframes;
}

/* Zoom belongs to one graph: a rebuilt one (other rule, order, filter)
 * starts whole. */
struct flame_zoom flame_zoom_of(struct flame_ui *ui, const struct flame *f)
{
	if (ui->serial != f->serial) {
		ui->serial = f->serial;
		ui->nzoom = 0;
	}
	return ui->nzoom ? ui->zoom[ui->nzoom - 1] : FLAME_WHOLE;
}

void flame_nav_lay_out(struct app *a, unsigned cols, uint32_t levels)
{
	const struct flame *f = flame_pane_graph(a);
	struct flame_ui *ui = &a->flame;
	flame_lay_out(f, flame_zoom_of(ui, f), cols, levels, &ui->layout);
	ui->layout_serial = f->serial;
}

static uint32_t selected_frame(struct app *a, const struct flame *f)
{
	size_t selected = a->panes[VIEW_FLAME].selected;
	return selected < f->nframes ? (uint32_t)selected : 0;
}

struct flame_zoom flame_selected_block(struct app *a, const struct flame *f)
{
	uint32_t at = selected_frame(a, f);
	const struct flame_ui *ui = &a->flame;
	const struct flame_span *sp = ui->layout_serial == f->serial
		? flame_span_of(f, &ui->layout, at) : NULL;
	if (sp && (sp->flags & FLAME_SPAN_REMAINDER) && sp->merged > 1)
		return (struct flame_zoom){ sp->index, sp->last };
	return FLAME_ZOOM_FRAME(at);
}

static bool shown(const struct flame *f, struct flame_zoom zoom, uint32_t i)
{
	if (zoom.first == NO_ID || (i >= zoom.first && i < f->frames[zoom.last].end))
		return true;
	for (uint32_t a = f->frames[zoom.first].parent; a != NO_ID; a = f->frames[a].parent)
		if (a == i)
			return true;
	return false;
}

void flame_move(struct app *a, enum flame_move move)
{
	const struct flame *f = flame_pane_graph(a);
	struct flame_ui *ui = &a->flame;
	struct flame_zoom zoom = flame_zoom_of(ui, f), block = flame_selected_block(a, f);
	uint32_t at = selected_frame(a, f), to = at;
	/* a block's callees are not drawn: down stays on it */
	uint32_t below = block.first == block.last ? flame_first_child(f, at) : at;
	switch (move) {
	case FLAME_TO_CALLER:
		to = ui->root_below ? below : flame_parent(f, block.first);
		break;
	case FLAME_TO_CALLEE:
		to = ui->root_below ? flame_parent(f, block.first) : below;
		break;
	case FLAME_TO_LEFT:
		to = flame_neighbour(f, block.first, -1);
		break;
	case FLAME_TO_RIGHT:
		to = flame_neighbour(f, block.last, 1);
		break;
	case FLAME_TO_TOP:
		to = zoom.first == NO_ID ? 0 : zoom.first;
		break;
	}
	if (shown(f, zoom, to))
		a->panes[VIEW_FLAME].selected = to;
}

void flame_zoom_in(struct app *a)
{
	const struct flame *f = flame_pane_graph(a);
	struct flame_ui *ui = &a->flame;
	struct flame_zoom block = flame_selected_block(a, f), zoom = flame_zoom_of(ui, f);
	if (block.first == zoom.first && block.last == zoom.last)
		return;
	if (ui->nzoom == FLAME_ZOOM_DEPTH)
		memmove(ui->zoom, ui->zoom + 1, (FLAME_ZOOM_DEPTH - 1) * sizeof(ui->zoom[0]));
	else
		ui->nzoom++;
	ui->zoom[ui->nzoom - 1] = block;
}

void flame_zoom_out(struct app *a)
{
	flame_zoom_of(&a->flame, flame_pane_graph(a));
	if (a->flame.nzoom)
		a->flame.nzoom--;
	else if (a->filters.applied.n) /* as the filter's message promises */
		app_undo_filter(a);
	else
		app_message(a, "the whole graph is shown");
}

void flame_zoom_reset(struct app *a)
{
	a->flame.nzoom = 0;
}

void flame_flip(struct app *a)
{
	a->flame.root_below = !a->flame.root_below;
}

void flame_toggle_colours(struct app *a)
{
	struct flame_ui *ui = &a->flame;
	ui->by_file = !ui->by_file;
	app_message(a, "flame colours: %s", ui->by_file ? "by file or package"
		    : "by kind (JS, native, Wasm, GC, idle, program)");
}
