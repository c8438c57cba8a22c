#include "input.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../src/util.h"

bool input_open(struct input *in, const char *path)
{
	memset(in, 0, sizeof(*in));
	in->name = path;
	in->fd = open(path, O_RDONLY | O_CLOEXEC);
	if (in->fd < 0)
		return false;
	struct stat st;
	if (fstat(in->fd, &st) == 0 && S_ISDIR(st.st_mode)) {
		close(in->fd);
		in->fd = -1;
		errno = EISDIR;
		return false;
	}
	if (S_ISREG(st.st_mode))
		in->size = (uint64_t)st.st_size;
	in->chunk_cap = INPUT_CHUNK;
	in->chunk = xmalloc(in->chunk_cap);
	in->buf = in->chunk;
	return true;
}

void input_from_memory(struct input *in, const void *data, size_t len,
		       const char *name)
{
	memset(in, 0, sizeof(*in));
	in->name = name;
	in->fd = -1;
	in->buf = data;
	in->len = len;
	in->size = len;
	in->eof = true;
}

void input_close(struct input *in)
{
	if (in->fd >= 0)
		close(in->fd);
	free(in->chunk);
	in->fd = -1;
	in->chunk = NULL;
}

size_t input_fill(struct input *in, size_t want)
{
	while (in->len - in->pos < want && !in->eof) {
		size_t keep = in->len - in->pos;
		if (want > in->chunk_cap) {
			in->chunk_cap = want + INPUT_CHUNK;
			uint8_t *bigger = xmalloc(in->chunk_cap);
			memcpy(bigger, in->buf + in->pos, keep);
			free(in->chunk);
			in->chunk = bigger;
		} else {
			memmove(in->chunk, in->buf + in->pos, keep);
		}
		in->base += in->pos;
		in->buf = in->chunk;
		in->pos = 0;
		in->len = keep;
		ssize_t got;
		do
			got = read(in->fd, in->chunk + keep, in->chunk_cap - keep);
		while (got < 0 && errno == EINTR);
		if (got <= 0) {
			if (got < 0)
				in->read_errno = errno;
			in->eof = true;
			break;
		}
		in->len += (size_t)got;
		if (in->on_progress)
			in->on_progress(in);
	}
	return in->len - in->pos;
}

bool input_slurp(struct input *in, uint8_t **data, size_t *len, size_t limit)
{
	size_t cap = in->len - in->pos + (in->size > input_offset(in)
					  ? (size_t)(in->size - input_offset(in)) : 0);
	if (cap > limit)
		return false;
	uint8_t *out = xmalloc(cap + 1);
	size_t used = 0;
	for (;;) {
		size_t have = input_fill(in, 1);
		if (!have)
			break;
		if (used + have > limit) {
			free(out);
			return false;
		}
		if (used + have > cap) {
			cap = (used + have) * 2 < limit ? (used + have) * 2 : limit;
			out = xrealloc(out, cap + 1);
		}
		memcpy(out + used, in->buf + in->pos, have);
		used += have;
		in->pos += have;
	}
	*data = out;
	*len = used;
	return true;
}
