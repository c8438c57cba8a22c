/* Profiles over HTTP: `wprof-tui http://host:6060/debug/pprof/profile`
 * fetches the body, as `go tool pprof URL` does, and hands the bytes to
 * the usual loaders (load_memory).  libcurl does the HTTP and TLS. */
#ifndef WPROF_FETCH_H
#define WPROF_FETCH_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The largest body kept, as it comes: a profile server that sends more
 * is refused, not followed into swap.  A gzipped body inflates in the
 * input layer, under its own limit (--max-size). */
#define FETCH_MAX_BYTES ((size_t)1 << 30)
/* Added to a CPU profile's `seconds=N` for the whole request; a URL
 * without `seconds` gets this alone. */
#define FETCH_MARGIN_SECONDS 30

struct fetch_options {
	double timeout;   /* seconds for the whole request; 0: from the URL */
	size_t max_bytes; /* 0: FETCH_MAX_BYTES */
	/* The live explorer's quit: a transfer under way ends soon after
	 * *cancel becomes true (NULL: never). */
	const _Atomic bool *cancel;
	/* Told about once a second while a transfer waits, with the
	 * seconds waited and those the profile lasts (0 when the URL does
	 * not say), and once with `done` at the end (NULL: nothing told). */
	void (*progress)(double waited, long seconds, bool done);
};

/* Does `name` name a URL wprof-tui fetches (http:// or https://)? */
bool fetch_is_url(const char *name);

/* The `seconds=N` of a URL's query, or -1 when it has none. */
long fetch_url_seconds(const char *url);

/* Go's CPU profile lasts this long when the URL does not say. */
#define FETCH_GO_PROFILE_SECONDS 30

/* A profile address as go tool pprof takes it, as a URL (free it):
 * `HOST:PORT` (no file of that name) and a URL without a path name
 * Go's CPU profile, http://HOST:PORT/debug/pprof/profile.  NULL when
 * `name` is neither (a file, or a URL with a path, used as typed). */
char *fetch_pprof_address(const char *name);

/* Fetches url; on success *data (free it) holds the body as it came
 * (gzipped or not: load_memory tells and inflates).  False with a message in err: an HTTP error status,
 * an HTML page, a body cut short or too large, a timeout. */
bool fetch_url(const char *url, const struct fetch_options *opt,
	       uint8_t **data, size_t *len, char *err, size_t cap);

#endif
