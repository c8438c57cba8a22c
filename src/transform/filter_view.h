/* A filter (transform.h) as a view of the model below it, for the
 * explorer: the same numbers and rows as model_transform's copy, made in
 * a few passes over the nodes, without interning a string, a frame or a
 * stack again.
 *
 *   focus, ignore, prune_from, tagfocus, tagignore keep the tree's
 *       shape: the view has its own values and hides the nodes no value
 *       is left under (as a time range's view, range.h);
 *   hide, show, merge, mine, collapse_recursion, collapse merge stacks:
 *       the view has nodes of its own, found by walking the tree below
 *       each new node with its function's stamp per frame (no hash of
 *       (parent, frame)), numbered in the order the copy makes them, and
 *       shares the strings and frames (collapse copies them to add its
 *       frames);
 *   tagroot copies every stack under its label's root: no view
 *       (filter_view_applies), the copy is made instead.
 *
 * Like the copy, a view has no timeline and keeps the percentages of the
 * whole (model.type_total). */
#ifndef WPROF_FILTER_VIEW_H
#define WPROF_FILTER_VIEW_H

#include <stdbool.h>

#include "model/model.h"
#include "transform/transform.h"

bool filter_view_applies(enum transform_kind kind);

/* Fills `out` with the view of `src` after `t` (a kind the view applies
 * to).  `src` (a loaded model or another view) must outlive `out` and
 * not change.  Needs whole stacks; otherwise false and *why_not. */
bool filter_view_make(const struct model *src, const struct transform *t,
		      struct model *out, const char **why_not);

#endif
