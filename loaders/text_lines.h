/* Text formats read line by line over struct input: each line is handed
 * out in place (no copy) with the byte offset where it starts, so that
 * errors can name it.  A line may end in "\n", "\r\n" or the end of the
 * data; the terminator is not part of it. */
#ifndef WPROF_TEXT_LINES_H
#define WPROF_TEXT_LINES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "input/input.h"

struct line_reader {
	struct input *in;
	size_t max_len;     /* longer lines are an error */
	const char *text;   /* the current line, not NUL-terminated */
	size_t len;
	uint64_t offset;    /* file offset of text[0] */
	unsigned long number; /* 1-based */
	bool too_long;      /* set when line_next stopped on a long line */
};

void line_reader_init(struct line_reader *r, struct input *in, size_t max_len);

/* The next line, or false at the end of the data (or on a line longer
 * than max_len: then too_long is set and offset says where it starts). */
bool line_next(struct line_reader *r);

struct load_error;

/* A fault in the current line, "FORMAT, byte N: line L: what" (N where
 * the line starts); returns false. */
bool line_fail(const struct line_reader *r, struct load_error *err, const char *format,
	       const char *what);

#endif
