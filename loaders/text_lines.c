#include "text_lines.h"

#include <string.h>

#include "loaders.h"

void line_reader_init(struct line_reader *r, struct input *in, size_t max_len)
{
	memset(r, 0, sizeof(*r));
	r->in = in;
	r->max_len = max_len;
}

bool line_next(struct line_reader *r)
{
	struct input *in = r->in;
	size_t have = input_fill(in, 1);
	if (!have)
		return false;
	const uint8_t *start = in->buf + in->pos;
	const uint8_t *newline = memchr(start, '\n', have);
	/* Ask for more until the line's end is in the buffer: input_fill
	 * keeps the unread bytes and grows its chunk when asked for more. */
	while (!newline && !in->eof) {
		if (have > r->max_len)
			break;
		size_t more = input_fill(in, have * 2 + 1);
		start = in->buf + in->pos;
		newline = memchr(start + have, '\n', more - have);
		have = more;
	}
	size_t len = newline ? (size_t)(newline - start) : have;
	r->offset = input_offset(in);
	r->number++;
	if (len > r->max_len) {
		r->too_long = true;
		return false;
	}
	in->pos += newline ? len + 1 : len;
	if (len && start[len - 1] == '\r')
		len--;
	r->text = (const char *)start;
	r->len = len;
	return true;
}

bool line_fail(const struct line_reader *r, struct load_error *err, const char *format,
	       const char *what)
{
	return load_fail_at(err, format, r->offset, "line %lu: %s", r->number, what);
}
