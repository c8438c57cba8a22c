/* Bytes in: a file or standard input read in fixed chunks (so a 200 MB
 * profile never sits in memory whole) or a buffer already in memory
 * (fuzzers, tests, sockets).  gzip data is told by its magic bytes, never
 * by the name, and inflated here as it streams, so every loader reads the
 * uncompressed bytes and its byte offsets count those.  Loaders read
 * through this and report errors with its byte offsets. */
#ifndef WPROF_INPUT_H
#define WPROF_INPUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define INPUT_CHUNK (1u << 20)

/* What gzip data may inflate to unless --max-size says otherwise: at most
 * INPUT_GZIP_RATIO times the compressed size (but always INPUT_GZIP_FLOOR,
 * as small files inflate far), and never more than INPUT_GZIP_MAX. */
#define INPUT_GZIP_RATIO 100
#define INPUT_GZIP_FLOOR ((uint64_t)64 << 20)
#define INPUT_GZIP_MAX ((uint64_t)2 << 30)

struct input_gzip;

struct input {
	const char *name;   /* for messages: the path as the user gave it */
	int fd;             /* -1 when reading from memory */
	const uint8_t *buf; /* bytes buf[pos..len) are unread */
	size_t len, pos;
	uint64_t base;      /* offset of buf[0] in the (uncompressed) data */
	uint64_t size;      /* total uncompressed size when known, else 0 */
	uint8_t *chunk;     /* our buffer when reading a file */
	size_t chunk_cap;
	bool eof;
	int read_errno;
	/* The inflater when the bytes are gzip, else NULL. */
	struct input_gzip *gzip;
	/* Largest uncompressed size gzip data may have; 0: the default. */
	uint64_t max_size;
	/* Why the bytes stopped early (gzip corrupt, truncated or too large,
	 * a read error); empty while all is well.  A loader's own complaint
	 * about the cut data gives way to this. */
	char error[256];
	/* The bytes as stored (compressed or not): read so far, and in all
	 * when known; for progress lines. */
	uint64_t raw_done, raw_size;
	/* Called after each chunk, for a progress line on big files. */
	void (*on_progress)(const struct input *in);
	/* A regular file read at offsets of its own (pread), so that it
	 * can move (input_seek) and be shared (input_share). */
	bool positional;
};

/* Opens path ("-": standard input) for reading; returns false with errno
 * set. */
bool input_open(struct input *in, const char *path);
/* `data` stays the caller's; gzip data is inflated into buffers of the
 * input's own, so memory inputs are closed too. */
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

/* A second reader of the same bytes for another thread, at byte
 * `offset`: over the same memory, or the same regular file through a
 * descriptor of its own.  Only where the bytes can be read at any place
 * (not gzip, not a pipe): false otherwise, with `to` untouched. */
bool input_share(struct input *to, const struct input *from, uint64_t offset);

/* Goes on reading at byte `offset`: within the bytes at hand, for any
 * input (a reader passing what it matched where it lies); before or past
 * them (a reader skipping what another thread has read), false where
 * input_share would be, or past the end. */
bool input_seek(struct input *in, uint64_t offset);

/* Reads everything that is left into one malloc'd buffer (for formats that
 * must be whole, like protobuf); fails past `limit` bytes. */
bool input_slurp(struct input *in, uint8_t **data, size_t *len, size_t limit);

#endif
