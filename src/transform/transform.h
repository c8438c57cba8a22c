/* Filters as a stack of transforms (pprof's -focus, -ignore, -hide,
 * -show, -prune_from, -tagfocus, -tagignore, -tagroot, and the Firefox
 * Profiler's merge, collapse and "my code"), applied in order to make one
 * derived model, so that rules, views, reports and exports stay pure:
 * they simply see a smaller or changed profile.  Frame ids are the same
 * in the derived model as in the original; frames a transform makes (a
 * collapsed file, a label at the root) come after them. */
#ifndef WPROF_TRANSFORM_H
#define WPROF_TRANSFORM_H

#include <regex.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/model.h"
#include "transform/tag_range.h"

enum transform_kind {
	TF_FOCUS,       /* keep samples with a matching frame */
	TF_IGNORE,      /* drop samples with a matching frame */
	TF_HIDE,        /* remove matching frames from stacks */
	TF_SHOW,        /* keep only matching frames in stacks */
	TF_PRUNE_FROM,  /* cut each stack after its deepest match */
	TF_MERGE,       /* a function's self time goes to its callers */
	TF_COLLAPSE_RECURSION, /* inner occurrences of a frame removed */
	TF_COLLAPSE_FILE,      /* a run of frames of matching files: one frame */
	TF_MINE,        /* frames outside the root folded into their callers */
	TF_TAGFOCUS,    /* keep samples with a matching label */
	TF_TAGIGNORE,   /* drop samples with a matching label */
	TF_TAGROOT,     /* a label's values as the roots of the tree */
	TF_COUNT
};

struct transform {
	enum transform_kind kind;
	uint32_t frame; /* one function chosen in the explorer, or NO_ID */
	char *text;     /* the regular expression, key=value, key or root */
	char *tag_key;  /* tag filters: the key, NULL for any (key:value) */
	bool has_regex;
	regex_t regex;  /* POSIX extended, of the value part for tags */
	bool numeric;   /* tag filters: a value that reads as a range */
	struct tag_range range; /* of numeric labels (pprof's meaning) */
};

struct transform_stack {
	struct transform *items;
	size_t n, cap;
};

/* pprof's option names ("focus", "prune_from", ...) and the long
 * options' ("prune-from", "collapse-recursion", ...). */
const char *transform_name(enum transform_kind kind);
bool transform_kind_parse(const char *name, enum transform_kind *out);
/* Whether the kind takes a value (a regex, key=value, a directory). */
bool transform_takes_text(enum transform_kind kind);

/* Pushes a transform of a pattern or directory (frame NO_ID), or of one
 * function (text NULL).  False, with the reason in err, for a regular
 * expression regcomp cannot read or a tag filter without a value. */
bool transform_push(struct transform_stack *s, enum transform_kind kind,
		    uint32_t frame, const char *text, char *err, size_t cap);
void transform_pop(struct transform_stack *s);
void transform_stack_free(struct transform_stack *s);

/* "focus=main\.run", "hide=<name>" for a function, as pprof lists its
 * Active filters; the name goes through escape_text. */
void transform_describe(const struct model *m, const struct transform *t,
			char *buf, size_t cap);

/* Fills `out` (a new model) with `src` after transforms [0, n) of the
 * stack (n > 0), in order: nodes and their values, labels, line ticks, without
 * the timeline.  Needs whole stacks; otherwise false and *why_not. */
bool model_transform(const struct model *src, const struct transform *t,
		     size_t n, struct model *out, const char **why_not);

/* What a transform picks out, shared by the copy (model_transform) and
 * the explorer's view (filter_view.h).  Per frame of src, 1 where the
 * transform applies: its pattern or function matches, for mine the
 * frame is not "mine" (not for collapse, tag filters and tagroot). */
uint8_t *transform_frame_hits(const struct model *src, const struct transform *t);
/* Collapse: per frame of src, the frame of its file's match, interned in
 * `out` (whose frames are src's), or NO_ID; `hit` (per frame) marks
 * the frames collapsed. */
uint32_t *transform_collapse_frames(const struct model *src, const struct transform *t,
				    struct model *out, uint8_t *hit);
/* Tag filters: per node of src and type, the value its kept samples
 * leave it; *row_kept (per label row) says which samples stay. */
double *transform_tag_values(const struct model *src, const struct transform *t,
			     uint8_t **row_kept);

/* A label's value as text ("main", "1024bytes"), and the value of the
 * sample it belongs to (1 for a count type added after loading). */
void transform_label_text(const struct model *m, const struct sample_label *l,
			  char *buf, size_t cap);
double transform_label_row_value(const struct model *m, uint32_t row, unsigned type);

/* Whether some function with an absolute file is "mine" under `root`
 * (NULL: the current directory), as TF_MINE decides, or no file is
 * absolute: a profile made on another machine has none under the
 * default root. */
bool transform_mine_in(const struct model *m, const char *root);

#endif
