/* The one pass that gives the frames of a loaded model their real names
 * and places (JavaScript source maps, wasm symbols), run right after
 * loading, before filters, search, ranges, compare, exports and the
 * source pane see the model.
 *
 * The contract: a symbolizer fills a `struct symbols` for the model, one
 * `struct symbol` per frame id, saying what each frame really is; then
 * symbolize_model rewrites the model:
 *   - a mapped frame becomes the frame (name, url, line, column) the
 *     symbolizer gave, of the same kind; frames that become the same
 *     function (same name and place) are one frame, and sibling nodes
 *     of a call tree that become the same function one node (their
 *     values, samples, labels and line ticks summed into it);
 *   - arcs go with their frames, duplicates merged by model_finish;
 *   - every sample keeps its time and its place on the timeline, on the
 *     node that now stands for its node (node ids of a call tree may
 *     change: they are renumbered parents first; a node graph keeps its
 *     nodes one for one);
 *   - the name and place the profile gave a mapped frame stay as its
 *     origin (symbol_origin): the status line, JSON `generated` and the
 *     exports (pprof's system_name, .cpuprofile's `generated`) show it; of
 *     frames merged into one, the first (lowest id) gives it;
 *   - a frame the symbolizer could not map keeps its name and place, and
 *     the reason (`why_not`) stays as its origin's, for the status line;
 *   - the line ticks of a mapped frame's nodes move to the lines
 *     `tick_line` gives (generated line -> original line, both 1-based,
 *     -1: none, the tick is dropped); without `tick_line` they are
 *     dropped, since their lines are the generated file's; pprof's
 *     node lines of a mapped frame likewise are dropped;
 *   - `summary` ("source maps: 3 of 4 scripts") is added to the model's
 *     note of what was applied (model.symbols, "; " between passes).
 * Strings in `struct symbols` belong to the symbolizer and need only
 * live until symbolize_model returns.  The pass may run several times
 * (source maps, then wasm symbols): origins of earlier passes stay. */
#ifndef WPROF_SYMBOLIZE_H
#define WPROF_SYMBOLIZE_H

#include <stdbool.h>
#include <stdint.h>

#include "model/model.h"

/* Frame flag: the symbolizer says the frame's source is third-party
 * (a source map's x_google_ignoreList): not "my code". */
#define FRAME_THIRD_PARTY 0x2

struct symbol {
	bool mapped;          /* false: the frame stays as it is */
	const char *name;     /* the original's name */
	const char *url;      /* the original's file */
	int32_t line, column; /* as the model numbers them
			       * (model.lines_zero_based), -1 unknown */
	bool third_party;
	const char *why_not;  /* not mapped: why, NULL when the frame was
			       * no candidate (a native frame, no script) */
};

struct symbols {
	struct symbol *frames; /* one per frame id of the model */
	size_t nframes;
	int32_t (*tick_line)(void *ctx, uint32_t frame, int32_t line);
	void *ctx;
	const char *summary;   /* NULL: nothing to say */
};

/* What the user has of their code, for every symbolizer, and where
 * their warnings go (`warn` may be NULL: frames still say why). */
struct source_options;
struct symbolize_options {
	const char **source_maps; /* --source-map FILE|DIR, in order */
	size_t nsource_maps;
	const char **symbols; /* --symbols: wasm modules, symbol maps, dirs */
	size_t nsymbols;
	const struct source_options *source; /* where scripts are found */
	void (*warn)(void *ctx, const char *message);
	void *ctx;
};

/* Every symbolizer on a model just loaded, in turn: JavaScript source
 * maps (js_source_maps.h), then wasm modules (wasm_symbols.h).  False,
 * and why, when a --symbols module does not fit the profile: it is
 * refused rather than applied by guesswork. */
bool symbolize_loaded(struct model *m, const struct symbolize_options *o, char *why,
		      size_t cap);

/* The same for model after model of one session (a live one): what the
 * symbolizers read (maps, modules, DWARF) is kept from one model to the
 * next, so a refresh costs the model's rebuild, not the files again.
 * `o` and what it points to must outlive the symbolizer.  new: NULL, and
 * why, when a --symbols file cannot be read; apply: false, and why, when
 * a --symbols module does not fit this model (whose frames then stay as
 * the source maps left them). */
struct symbolizer;
struct symbolizer *symbolizer_new(const struct symbolize_options *o, char *why, size_t cap);
bool symbolizer_apply(struct symbolizer *z, struct model *m, char *why, size_t cap);
void symbolizer_free(struct symbolizer *z);

/* Zeroed symbols for every frame of m (nothing mapped). */
void symbols_init(struct symbols *s, const struct model *m);
void symbols_free(struct symbols *s);

/* Rewrites the finished model m as `s` says (see above).  A model where
 * nothing is mapped or has a reason only gains origins and summary. */
void symbolize_model(struct model *m, const struct symbols *s);
/* A copy of src into `out` (a new model) as the pass builds it with
 * nothing mapped: a call tree, origins and all. */
void symbolize_copy(const struct model *src, struct model *out);

/* Where frame f of m came from, or why it could not be mapped; NULL
 * when no pass touched it. */
static inline const struct frame_origin *symbol_origin(const struct model *m,
							 uint32_t f)
{
	if (m->range.of)
		m = m->range.of;
	if (f >= m->norigins)
		return NULL;
	const struct frame_origin *o = &m->origins[f];
	return o->url != STR_NONE || o->why_not != STR_NONE ? o : NULL;
}

/* A generated line or column as shown: 1-based (a .cpuprofile counts
 * from 0), -1 when unknown. */
static inline int32_t symbol_place_shown(const struct model *m, int32_t place)
{
	if (m->range.of)
		m = m->range.of;
	return place < 0 ? -1 : place + (m->lines_zero_based ? 1 : 0);
}

/* For the status line: "generated URL:LINE:COLUMN" (lines shown as
 * format_location shows them) or "not mapped: why", "" when frame f has
 * no origin. */
void symbol_origin_text(const struct model *m, uint32_t f, char *buf, size_t cap);

#endif
