/* The flame graph as data: frames with an offset and a width in the
 * profile's units, laid out on a grid of cells by whoever draws them (the
 * TUI pane, --report flame, the SVG export).  No curses here, so tests
 * check widths, zoom, search share and merging on their own.
 *
 * Left-heavy: the top-down pane's tree, every row open, siblings largest
 * first; a frame's width is its top-down total, so the two panes agree
 * under every rule.  Time order (DevTools' flame chart): the samples in
 * time order, consecutive samples through the same node merged into one
 * block per depth. */
#ifndef WPROF_FLAME_H
#define WPROF_FLAME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "view.h"

enum flame_order { FLAME_LEFT_HEAVY, FLAME_TIME_ORDER };

struct flame_frame {
	uint32_t frame;   /* the model's frame */
	uint32_t parent;  /* index in flame.frames, NO_ID at the top */
	uint32_t next_sibling; /* NO_ID for the last */
	uint32_t end;     /* one past the last frame of its subtree */
	uint32_t depth;
	double x;         /* from the start of the graph, in value units */
	double width;     /* its total */
	double self;
};

struct flame {
	struct flame_frame *frames; /* pre-order: a subtree follows its frame */
	size_t nframes;
	double whole;     /* the width of the graph: the top frames' sum */
	double profile_total; /* the base of every % */
	enum flame_order order;
	const char *note; /* what the graph draws instead, or NULL */
	const char *why_not; /* why there is no graph (nframes is 0) */
	unsigned long serial; /* a new number for every graph built */
};

/* Builds the flame graph under the context's rule and sample type. */
void flame_build(struct flame *f, struct view_context *ctx,
		 enum flame_order order);
void flame_free(struct flame *f);
/* Whether the data has samples in time order for this sample type. */
bool flame_has_time_order(const struct model *m, unsigned type);

/* What is shown whole: siblings first..last (first == last: one frame)
 * with their subtrees, their ancestors above at full width; first
 * NO_ID: the whole graph. */
struct flame_zoom {
	uint32_t first, last;
};
#define FLAME_WHOLE ((struct flame_zoom){ NO_ID, NO_ID })
#define FLAME_ZOOM_FRAME(i) ((struct flame_zoom){ (i), (i) })

/* Laid out on a grid: spans of one screen line each, in eighths of a
 * cell so that a frame's edge can fall inside a cell. */
#define FLAME_SPAN_REMAINDER 0x1 /* narrow frames merged into one */
#define FLAME_SPAN_ANCESTOR 0x2  /* above the zoomed frame: full width */

struct flame_span {
	uint32_t index;  /* the frame (the first of a remainder) */
	uint32_t level;  /* 0: the top line (the root, or the zoom path's top) */
	uint32_t start, stop; /* in eighths of a cell */
	uint32_t flags;
	uint32_t merged; /* frames in a remainder */
	uint32_t last;   /* the last of them (index for a single frame) */
	uint32_t named;  /* time order: the function (model frame) with the
			  * most time in a remainder, NO_ID otherwise */
};

/* A function's time among merged frames. */
struct flame_share {
	uint32_t frame; /* the model's */
	double width;
};

struct flame_layout {
	struct flame_span *spans; /* by level, then left to right */
	size_t nspans, spans_cap;
	uint32_t levels;
	struct flame_share *shares; /* scratch for flame_shares */
	size_t shares_cap;
};

/* Lays out `zoom` on `cols` cells and at most `max_levels` lines.
 * Narrow frames are merged with their narrow neighbours into a
 * remainder span, their subtrees left out: in left-heavy those under
 * one cell (the tail of small calls); in time order, where the
 * fragments of calls interleave, those under three cells, into blocks
 * that close once eight cells wide, so that a block is wide enough to
 * be named and zooming into it spreads its fragments out.  A block is
 * as wide as the time of its frames (gaps between them, the caller's
 * own time, follow it), and a gap of a cell ends it. */
void flame_lay_out(const struct flame *f, struct flame_zoom zoom, unsigned cols,
		   uint32_t max_levels, struct flame_layout *out);
void flame_layout_free(struct flame_layout *l);
/* The span that draws frame i (its own, or the remainder it is in or
 * under), NULL when the layout leaves it out. */
const struct flame_span *flame_span_of(const struct flame *f,
				       const struct flame_layout *l, uint32_t i);
/* How many siblings first..last are; *time: their widths' sum. */
uint32_t flame_run_size(const struct flame *f, uint32_t first, uint32_t last,
			double *time);
/* Siblings first..last by function: each function's time among them,
 * most first (ties in frame order), in *shares (grown as needed).
 * Returns how many functions. */
size_t flame_shares(const struct flame *f, uint32_t first, uint32_t last,
		    struct flame_share **shares, size_t *cap);

/* Search: marks each frame whose function matches and returns the share
 * of the profile they cover, each sample counted once (a match nested in
 * a match adds nothing), as flamegraph.pl counts it. */
double flame_match(const struct flame *f, const bool *frame_matches,
		   uint8_t *matched);

/* Moving between frames; each returns `from` when there is nowhere to go. */
uint32_t flame_parent(const struct flame *f, uint32_t from);
uint32_t flame_first_child(const struct flame *f, uint32_t from);
/* The frame on the same depth just left (-1) or right (+1) of `from`. */
uint32_t flame_neighbour(const struct flame *f, uint32_t from, int direction);

/* Differential flame graph (flamegraph.pl's difffolded): for each frame
 * of `now`, the width of the same call path in `base`, its functions
 * paired through match[now's frame] (base's frame or NO_ID); NAN where
 * base has no such path. */
void flame_base_widths(const struct flame *now, const struct flame *base,
		       const uint32_t *match, double *base_width);
/* The same pairing: for each frame of `now`, its frame in `base` or
 * NO_ID (malloc'd, now->nframes entries). */
uint32_t *flame_base_counterparts(const struct flame *now, const struct flame *base,
				  const uint32_t *match);
/* The other way (difffolded's `-`): base_only[j] (base->nframes entries)
 * set for each frame of `base` whose call path `now` lacks and whose
 * parent's it has (or a root): the first frame of each path gone from
 * NEW, which NEW's graph cannot show at zero width.  Returns how many. */
size_t flame_base_only(const struct flame *now, const struct flame *base,
		       const uint32_t *in_base, uint8_t *base_only);

/* The pane (flame_ops): one row per frame, in the frames' order, so that
 * a row's index is its frame's index; the graph is the view's state. */
const struct flame *flame_of_view(const struct view *v);

#endif
