#include "input.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "base/util.h"

/* zlib takes at most this much input at a time (its counts are 32-bit). */
#define GZIP_FEED (1u << 30)

struct input_gzip {
	z_stream z;
	uint8_t *raw;             /* compressed bytes read from the file */
	const uint8_t *mem;       /* or compressed bytes in memory, not yet fed */
	size_t mem_left;
	bool member_ended;        /* a gzip member ended: another may follow */
	uint64_t inflated;        /* bytes given out so far */
};

static bool is_gzip(const uint8_t *bytes, size_t len)
{
	return len >= 2 && bytes[0] == 0x1f && bytes[1] == 0x8b;
}

static void start_gzip(struct input *in, const uint8_t *first, size_t len)
{
	struct input_gzip *gz = xcalloc(1, sizeof(*gz));
	/* 16 + MAX_WBITS: gzip headers only.  zlib fails here only when
	 * memory runs out, which xmalloc treats the same way. */
	if (inflateInit2(&gz->z, 16 + MAX_WBITS) != Z_OK) {
		fputs("wprof-tui: out of memory (zlib cannot start)\n", stderr);
		exit(3);
	}
	gz->z.next_in = (Bytef *)first;
	gz->z.avail_in = (uInt)len;
	in->gzip = gz;
	in->size = 0;
}

static ssize_t read_some(int fd, uint8_t *to, size_t cap)
{
	ssize_t got;
	do
		got = read(fd, to, cap);
	while (got < 0 && errno == EINTR);
	return got;
}

static void fail_read(struct input *in, int error)
{
	in->read_errno = error;
	snprintf(in->error, sizeof(in->error), "read error: %s", strerror(error));
}

/* The first bytes of a file, to tell gzip by its magic: at least two of
 * them unless the file is shorter (a pipe may give one at a time). */
static void read_first(struct input *in)
{
	while (in->len < 2) {
		ssize_t got = read_some(in->fd, in->chunk + in->len, in->chunk_cap - in->len);
		if (got <= 0) {
			if (got < 0)
				fail_read(in, errno);
			in->eof = true;
			break;
		}
		in->len += (size_t)got;
	}
	in->raw_done = in->len;
	if (!is_gzip(in->chunk, in->len)) {
		in->positional = in->size > 0;
		return;
	}
	/* The chunk read so far is compressed: it becomes the first input of
	 * the inflater, and a fresh chunk takes what comes out. */
	uint8_t *raw = in->chunk;
	start_gzip(in, raw, in->len);
	in->gzip->raw = raw;
	in->chunk = xmalloc(in->chunk_cap);
	in->buf = in->chunk;
	in->len = 0;
	in->eof = false;
}

bool input_open(struct input *in, const char *path)
{
	memset(in, 0, sizeof(*in));
	in->name = path;
	/* Our own descriptor for standard input, so that closing the input
	 * leaves fd 0 alone. */
	in->fd = !strcmp(path, "-") ? fcntl(STDIN_FILENO, F_DUPFD_CLOEXEC, 0)
				    : open(path, O_RDONLY | O_CLOEXEC);
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
		in->size = in->raw_size = (uint64_t)st.st_size;
	in->chunk_cap = INPUT_CHUNK;
	in->chunk = xmalloc(in->chunk_cap);
	in->buf = in->chunk;
	read_first(in);
	return true;
}

void input_from_memory(struct input *in, const void *data, size_t len,
		       const char *name)
{
	memset(in, 0, sizeof(*in));
	in->name = name;
	in->fd = -1;
	in->size = in->raw_size = in->raw_done = len;
	if (is_gzip(data, len)) {
		start_gzip(in, NULL, 0);
		in->gzip->mem = data;
		in->gzip->mem_left = len;
		in->chunk_cap = INPUT_CHUNK;
		in->chunk = xmalloc(in->chunk_cap);
		in->buf = in->chunk;
		return;
	}
	in->buf = data;
	in->len = len;
	in->eof = true;
}

void input_close(struct input *in)
{
	if (in->fd >= 0)
		close(in->fd);
	if (in->gzip) {
		inflateEnd(&in->gzip->z);
		free(in->gzip->raw);
		free(in->gzip);
		in->gzip = NULL;
	}
	free(in->chunk);
	in->fd = -1;
	in->chunk = NULL;
}

/* More compressed bytes for the inflater; false at their end or on a read
 * error (then in->error says so). */
static bool feed_gzip(struct input *in)
{
	struct input_gzip *gz = in->gzip;
	if (in->fd < 0) {
		if (!gz->mem_left)
			return false;
		size_t n = gz->mem_left < GZIP_FEED ? gz->mem_left : GZIP_FEED;
		gz->z.next_in = (Bytef *)gz->mem;
		gz->z.avail_in = (uInt)n;
		gz->mem += n;
		gz->mem_left -= n;
		return true;
	}
	ssize_t got = read_some(in->fd, gz->raw, in->chunk_cap);
	if (got <= 0) {
		if (got < 0)
			fail_read(in, errno);
		return false;
	}
	in->raw_done += (uint64_t)got;
	gz->z.next_in = gz->raw;
	gz->z.avail_in = (uInt)got;
	return true;
}

/* How far gzip data may inflate: --max-size, else a ratio to the
 * compressed size (what has been read, where the whole is not known, as
 * on a pipe) within a floor and a ceiling. */
static uint64_t gzip_limit(const struct input *in)
{
	if (in->max_size)
		return in->max_size;
	uint64_t compressed = in->raw_size ? in->raw_size : in->raw_done;
	uint64_t limit = compressed * INPUT_GZIP_RATIO;
	if (limit < INPUT_GZIP_FLOOR)
		limit = INPUT_GZIP_FLOOR;
	return limit < INPUT_GZIP_MAX ? limit : INPUT_GZIP_MAX;
}

/* 64 MiB, 69.7 KiB, 100 bytes: for messages. */
static void format_size(uint64_t bytes, char *out, size_t cap)
{
	static const char *const units[] = { "bytes", "KiB", "MiB", "GiB", "TiB" };
	unsigned u = 0;
	while (u + 1 < ARRAY_LEN(units) && bytes >> (10 * (u + 1)))
		u++;
	if (u == 0 || bytes % ((uint64_t)1 << (10 * u)) == 0)
		snprintf(out, cap, "%llu %s", (unsigned long long)(bytes >> (10 * u)), units[u]);
	else
		snprintf(out, cap, "%.1f %s", (double)bytes / (double)((uint64_t)1 << (10 * u)),
			 units[u]);
}

static void fail_too_large(struct input *in, uint64_t limit)
{
	char size[32], compressed[32], floor[32];
	format_size(limit, size, sizeof(size));
	if (in->max_size) {
		snprintf(in->error, sizeof(in->error),
			 "the gzip data inflates to more than %s (--max-size); a larger "
			 "--max-size SIZE lifts the limit", size);
		return;
	}
	format_size(in->raw_size ? in->raw_size : in->raw_done, compressed,
		    sizeof(compressed));
	format_size(INPUT_GZIP_FLOOR, floor, sizeof(floor));
	snprintf(in->error, sizeof(in->error),
		 "the gzip data inflates to more than %s (the limit is %d times its "
		 "%s%s, at least %s, at most %llu GiB); --max-size SIZE lifts it",
		 size, INPUT_GZIP_RATIO, compressed, in->raw_size ? "" : " read so far", floor,
		 (unsigned long long)(INPUT_GZIP_MAX >> 30));
}

/* Up to cap inflated bytes into `to`; 0 at the end of the data or when it
 * cannot go on (in->error says why). */
static size_t inflate_some(struct input *in, uint8_t *to, size_t cap)
{
	struct input_gzip *gz = in->gzip;
	for (;;) {
		if (!gz->z.avail_in && !feed_gzip(in)) {
			if (!gz->member_ended && !in->error[0])
				snprintf(in->error, sizeof(in->error),
					 "the gzip data is truncated: it stops after %llu "
					 "compressed bytes, before its end",
					 (unsigned long long)in->raw_done);
			return 0;
		}
		/* Members back to back are one stream, as gzip and Go read them. */
		if (gz->member_ended) {
			inflateReset(&gz->z);
			gz->member_ended = false;
		}
		gz->z.next_out = to;
		gz->z.avail_out = (uInt)(cap < GZIP_FEED ? cap : GZIP_FEED);
		uInt room = gz->z.avail_out;
		int status = inflate(&gz->z, Z_NO_FLUSH);
		size_t got = room - gz->z.avail_out;
		if (status == Z_STREAM_END) {
			gz->member_ended = true;
		} else if (status != Z_OK && status != Z_BUF_ERROR) {
			uint64_t at = in->raw_done - gz->z.avail_in - (in->fd < 0 ? gz->mem_left : 0);
			snprintf(in->error, sizeof(in->error),
				 "corrupt gzip data at byte %llu of the compressed data%s%s",
				 (unsigned long long)at, gz->z.msg ? ": " : "",
				 gz->z.msg ? gz->z.msg : "");
			return 0;
		}
		gz->inflated += got;
		uint64_t limit = gzip_limit(in);
		if (gz->inflated > limit) {
			fail_too_large(in, limit);
			return 0;
		}
		if (got)
			return got;
	}
}

static size_t read_plain(struct input *in, uint8_t *to, size_t cap)
{
	ssize_t got;
	if (in->positional) {
		do
			got = pread(in->fd, to, cap, (off_t)(in->base + in->len));
		while (got < 0 && errno == EINTR);
	} else {
		got = read_some(in->fd, to, cap);
	}
	if (got < 0)
		fail_read(in, errno);
	if (got <= 0)
		return 0;
	in->raw_done += (uint64_t)got;
	return (size_t)got;
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
		size_t got = in->gzip ? inflate_some(in, in->chunk + keep, in->chunk_cap - keep)
				      : read_plain(in, in->chunk + keep, in->chunk_cap - keep);
		if (!got) {
			in->eof = true;
			break;
		}
		in->len += got;
		if (in->on_progress)
			in->on_progress(in);
	}
	return in->len - in->pos;
}

static bool can_move(const struct input *in)
{
	return !in->gzip && (in->fd < 0 || in->positional);
}

bool input_share(struct input *to, const struct input *from, uint64_t offset)
{
	if (!can_move(from))
		return false;
	int fd = -1;
	if (from->fd >= 0 && (fd = fcntl(from->fd, F_DUPFD_CLOEXEC, 0)) < 0)
		return false;
	*to = (struct input){ .name = from->name, .fd = fd, .size = from->size,
			      .raw_size = from->raw_size, .positional = from->positional };
	if (fd < 0) { /* memory: buf holds all of it from byte 0 */
		to->buf = from->buf;
		to->len = from->len;
		to->eof = true;
	} else {
		to->chunk_cap = INPUT_CHUNK;
		to->chunk = xmalloc(to->chunk_cap);
		to->buf = to->chunk;
	}
	return input_seek(to, offset);
}

bool input_seek(struct input *in, uint64_t offset)
{
	if (offset >= in->base && offset <= in->base + in->len) {
		in->pos = (size_t)(offset - in->base);
		return true;
	}
	if (!can_move(in) || in->fd < 0 || (in->size && offset > in->size))
		return false;
	in->buf = in->chunk;
	in->base = offset;
	in->pos = in->len = 0;
	in->eof = false;
	in->raw_done = offset;
	return true;
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
