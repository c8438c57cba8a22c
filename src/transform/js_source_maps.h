/* JavaScript frames through their scripts' source maps: a symbolizer
 * (symbolize.h) for .cpuprofile, trace, Firefox and speedscope frames.
 *
 * Finding a script's map, first that answers:
 *   - a --source-map FILE whose `file` is the script's file name, or
 *     whose own name is the script's name with ".map" after it;
 *   - a --source-map DIR holding the script's name with ".map" after it;
 *   - the script's last `//# sourceMappingURL=` comment, the script found
 *     by its url as the source pane finds files (file:// URLs and paths,
 *     under each --source-path): an inline data: URL (base64), else a
 *     path beside the script.
 * Scripts are the distinct urls of JS frames but Node's built-ins
 * ("node:...") and Firefox's own code ("self-hosted", resource://,
 * chrome://, moz-src://), which ship no maps.
 *
 * Applying: a frame's generated start (its line and column) is looked up
 * as Mozilla's source-map library does (source_map_find).  Its place
 * becomes the original source, line and column there; its name the
 * map's `names` entry of that segment, else the name of the original
 * function that holds that place (js_functions.h: a scan of the map's
 * sourcesContent, else of the source file), "(anonymous)" for an
 * anonymous one; else, when the original is not at hand or the place is
 * at its top level, "(anonymous)" when the generated function is
 * anonymous too, else its generated name.  A script's own top level
 * (anonymous, at line 1 column 1) keeps "(anonymous)" wherever the map
 * puts it.  Sources are paths resolved against the
 * map's directory (an inline map's: the script's), after sourceRoot.
 * Sources in x_google_ignoreList are third-party (FRAME_THIRD_PARTY).
 * positionTicks lines move to original lines: the frame's own line by
 * its start, other lines by their first segment of the same source.
 * A frame of a script with a map that has no segment or no source at its
 * start keeps its name, saying why.
 *
 * Nothing happens (not even a header note) when no script has a map and
 * no --source-map is given.  A map that cannot be read or parsed is
 * warned of through `warn`, and its script's frames say so. */
#ifndef WPROF_JS_SOURCE_MAPS_H
#define WPROF_JS_SOURCE_MAPS_H

#include "model/model.h"
#include "symbolize.h"

void js_source_maps_apply(struct model *m, const struct symbolize_options *o);

/* The same for model after model of one session (live refreshes): each
 * script's map is looked for, read and its original scanned once, the
 * first time a model has the script; `o` must outlive the cache.  A
 * script whose map was not found then is not looked for again. */
struct js_source_maps;
struct js_source_maps *js_source_maps_new(const struct symbolize_options *o);
void js_source_maps_map(struct js_source_maps *js, struct model *m);
void js_source_maps_free(struct js_source_maps *js);

#endif
