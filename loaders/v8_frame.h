/* What the loaders of V8's JSON formats (.cpuprofile, trace events,
 * .heapprofile) share about a node: its call frame, its position ticks,
 * a nested tree of nodes, and the frame it becomes in the model. */
#ifndef WPROF_V8_FRAME_H
#define WPROF_V8_FRAME_H

#include <stdbool.h>
#include <stdint.h>

#include "model/model.h"
#include "json.h"
#include "loaders.h"

/* A node's call frame as the file gives it. */
struct v8_frame {
	str_t name, url;      /* "" when left out or null */
	int32_t line, column; /* as written, -1 when unknown */
	uint8_t flags;        /* the model's frame flags: 0 from a file */
};

/* A node's samples by source line (positionTicks); `node` is the
 * loader's number for the node. */
struct v8_ticks {
	uint32_t node;
	int32_t line;
	double ticks;
};

/* The JSON being read, where strings go, and the format errors name
 * ("cpuprofile", "heapprofile", "trace-event JSON"). */
struct v8_reader {
	struct json_sink s; /* "FORMAT, byte N: what" */
	struct model *m;
};

/* Starts reading the JSON of `in` (past a UTF-8 byte order mark) into
 * `j`, for a reader whose errors name `format`. */
void v8_reader_start(struct v8_reader *R, struct json *j, struct input *in,
		     struct model *m, struct load_error *err, const char *format);

/* An empty frame: no name, no url, line and column unknown. */
struct v8_frame v8_frame_unknown(struct model *m);

/* Reads the value of the key just read if it is a call-frame key
 * (functionName, url, lineNumber, columnNumber), in a "callFrame" object
 * or, in the legacy format, directly in the node; *known is false
 * (nothing read) for other keys.  null is "unknown"; a line or column
 * outside -1..2147483646 or not a whole number is an error. */
bool v8_read_frame_field(struct v8_reader *R, struct v8_frame *f, bool *known);
/* The value of "callFrame": an object of frame fields, or null. */
bool v8_read_call_frame(struct v8_reader *R, struct v8_frame *f);

/* The value of "positionTicks" (null: none), appended to *ticks. */
bool v8_read_position_ticks(struct v8_reader *R, uint32_t node, struct v8_ticks **ticks,
			    size_t *n, size_t *cap);

/* What a loader does with the nodes of a nested tree. */
struct v8_tree_ops {
	/* A new node under `parent` (NO_ID: the tree's first node); returns
	 * the loader's number for it. */
	uint32_t (*node)(void *ctx, uint32_t parent);
	/* Reads the value of any key but "children". */
	bool (*key)(void *ctx, uint32_t node, const char *key);
	/* A child given by its id (the .cpuprofile form); NULL where
	 * children must be nested nodes. */
	bool (*child_id)(void *ctx, uint32_t node, double id, uint64_t offset);
};

/* A node object whose '{' has been read, and its nested children, with
 * an explicit stack: nesting can be as deep as the file is long. */
bool v8_read_tree(struct v8_reader *R, const struct v8_tree_ops *ops, void *ctx);

/* The model's frame for a call frame: "" is shown as (anonymous). */
uint32_t v8_intern_frame(struct model *m, const struct v8_frame *f);

#endif
