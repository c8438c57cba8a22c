/* Bytes in: a file read in fixed chunks (so a 200 MB profile never sits in
 * memory whole) or a buffer already in memory (fuzzers, tests, sockets).
 * Loaders read through this and report errors with its byte offsets. */
#ifndef WPROF_INPUT_H
#define WPROF_INPUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define INPUT_CHUNK (1u << 20)

struct input {
	const char *name;   /* for messages: the path as the user gave it */
	int fd;             /* -1 when reading from memory */
	const uint8_t *buf; /* bytes buf[pos..len) are unread */
	size_t len, pos;
	uint64_t base;      /* file offset of buf[0] */
	uint64_t size;      /* total size when known, else 0 */
	uint8_t *chunk;     /* our buffer when reading a file */
	size_t chunk_cap;
	bool eof;
	int read_errno;
	/* Called after each chunk, for a progress line on big files. */
	void (*on_progress)(const struct input *in);
};

/* Opens path for reading; returns false with errno set. */
bool input_open(struct input *in, const char *path);
void input_from_memory(struct input *in, const void *data, size_t len,
		       const char *name);
void input_close(struct input *in);

/* Makes at least `want` unread bytes available if the data has them;
 * returns how many are (fewer only at the end). */
size_t input_fill(struct input *in, size_t want);

static inline uint64_t input_offset(const struct input *in)
{
	return in->base + in->pos;
}

/* Reads everything that is left into one malloc'd buffer (for formats that
 * must be whole, like protobuf); fails past `limit` bytes. */
bool input_slurp(struct input *in, uint8_t **data, size_t *len, size_t limit);

#endif
