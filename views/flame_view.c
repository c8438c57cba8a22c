/* The flame graph as a pane: rows for what every pane shares (search,
 * selection, the status line, --report csv/json), the graph itself as the
 * view's state for the drawing. */
#include <math.h>
#include <stdlib.h>

#include "base/util.h"
#include "flame.h"

static void flame_view_build(struct view *v)
{
	struct flame *f = xcalloc(1, sizeof(*f));
	v->state = f;
	flame_build(f, v->ctx, v->ctx->time_order ? FLAME_TIME_ORDER : FLAME_LEFT_HEAVY);
	v->rows_cap = f->nframes;
	free(v->rows); /* a rebuild's: its room is made at once, not grown */
	v->rows = xmalloc((v->rows_cap + 1) * sizeof(*v->rows));
	for (size_t i = 0; i < f->nframes; i++) {
		const struct flame_frame *fr = &f->frames[i];
		v->rows[i] = (struct row){
			.frame = fr->frame, .item = (uint32_t)i, .depth = fr->depth,
			.self = fr->self, .total = fr->width, .calls = NAN,
		};
	}
	v->nrows = f->nframes;
}

static void flame_view_free(struct view *v)
{
	if (v->state)
		flame_free(v->state);
	free(v->state);
	v->state = NULL;
}

/* The frames' order is the graph's: left-heavy or by time. */
static void flame_view_keep_order(struct view *v)
{
	(void)v;
}

const struct flame *flame_of_view(const struct view *v)
{
	return v->ops == &flame_ops ? v->state : NULL;
}

const struct view_ops flame_ops = {
	.name = "flame",
	.build = flame_view_build,
	.free_state = flame_view_free,
	.sort = flame_view_keep_order,
	.keeps_every_row = true,
};
