/* What the loaders of V8's JSON formats (.cpuprofile, trace events,
 * .heapprofile) share about a call frame. */
#ifndef WPROF_V8_FRAME_H
#define WPROF_V8_FRAME_H

#include <stdint.h>

#include "../src/model.h"

/* The kind of a V8 (or XS) call frame: its meta names ((root), (idle),
 * (garbage collector), XS's (host) and (gc)), WebAssembly, native code
 * (no url, no line) or JavaScript. */
enum frame_kind v8_frame_kind(const char *name, const char *url, int32_t line);

#endif
