/* Pane 5's way through its graph, without curses: the selection moving
 * between frames and the zoom (a stack of frames shown whole), which
 * belong to one graph, and the look keys (flip, colours).  keys.c maps
 * keys to these; flame_draw.c draws what they leave. */
#ifndef WPROF_FLAME_NAV_H
#define WPROF_FLAME_NAV_H

#include "app.h"
#include "views/flame.h"

enum flame_move {
	FLAME_TO_CALLER,  /* towards the root */
	FLAME_TO_CALLEE,  /* the first child */
	FLAME_TO_LEFT,    /* the neighbour on the same level */
	FLAME_TO_RIGHT,
	FLAME_TO_TOP,     /* the zoomed frame, or the root */
};

/* Pane 5's graph, or NULL when the pane was never opened. */
const struct flame *flame_pane_graph(struct app *a);
/* Pane 5 is on screen with frames to move between (and no help over it):
 * its keys mean these actions. */
bool flame_nav_active(struct app *a);
/* The zoom of `f` (FLAME_WHOLE: none); a zoom made on an older graph
 * is forgotten first. */
struct flame_zoom flame_zoom_of(struct flame_ui *ui, const struct flame *f);
/* Lays pane 5's graph out as it is drawn, on `cols` cells and `levels`
 * lines, into a->flame.layout, which the keys below read. */
void flame_nav_lay_out(struct app *a, unsigned cols, uint32_t levels);
/* What the selection stands for as drawn: the merged block it is in or
 * under, or the selected frame itself. */
struct flame_zoom flame_selected_block(struct app *a, const struct flame *f);

/* The actions below want flame_nav_active. */
/* Up and down follow the picture: with the root below (v), up is the
 * callee.  A move into a frame the zoom hides does nothing; a merged
 * block is one step, with no callee drawn. */
void flame_move(struct app *a, enum flame_move move);
/* On the selected frame, or on the merged block it is in: its frames
 * over the whole width. */
void flame_zoom_in(struct app *a);
/* One zoom step back; with none left, undoes the last filter, as
 * Backspace does in the other panes. */
void flame_zoom_out(struct app *a);
void flame_zoom_reset(struct app *a);
void flame_flip(struct app *a);      /* the root above or below */
void flame_toggle_colours(struct app *a); /* by kind or by file */

#endif
