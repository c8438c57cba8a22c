/* The long arrays at the end of a .cpuprofile, read on a thread of their
 * own while the loader reads the nodes before them.
 *
 * V8 writes "samples" and "timeDeltas" last: millions of numbers, half
 * the bytes of a big profile, independent of the nodes until a sample's
 * node id is looked up.  The thread finds the first "samples" key after
 * the byte its first work ends at (V8 writes it a few keys after the
 * nodes), else the last one from the end of the data (a quote cannot
 * occur unescaped inside a JSON string, so `"samples"` then `:` is
 * always a key), and reads the arrays from there, as the JSON reader
 * would, until anything unusual.  The loader asks for an array when its
 * own reading reaches that array's key: it takes the thread's reading
 * only when the key is at the same byte and the thread read the whole
 * array; else it reads the array itself.  The model is the same either
 * way, and so is any message: what the thread cannot read the loader
 * reads again and says what is wrong at its place. */
#ifndef WPROF_CPUPROFILE_TAIL_H
#define WPROF_CPUPROFILE_TAIL_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "input/input.h"

enum tail_kind { TAIL_SAMPLES, TAIL_DELTAS, TAIL_KINDS };

struct tail_array {
	uint64_t key_at; /* the byte of its key's opening quote */
	uint64_t end;    /* the byte after its ']' */
	bool whole;      /* read to its end, every element valid */
	bool settled;    /* the thread is done with it (under the lock) */
	size_t n, cap;
	/* samples: node ids as written, each a whole number from 0 to
	 * 2^32 - 2 (others are left to the loader) */
	uint32_t *ids;
	/* timeDeltas: the values, and the largest magnitude among them */
	double *values;
	double largest;
};

/* Work for the thread before it looks for the arrays: `in` is its
 * reader, which the work may share (input_share) but not move.  Returns
 * the byte after which the arrays are looked for first (0: none). */
typedef uint64_t tail_first_fn(void *ctx, const struct input *in);

struct cpuprofile_tail {
	struct input in; /* the thread's own reader of the same bytes */
	tail_first_fn *first;
	void *first_ctx;
	pthread_t thread;
	bool running, joined;
	/* How far the thread has gone: flags set under `lock`, each change
	 * told by `moved`. */
	pthread_mutex_t lock;
	pthread_cond_t moved;
	bool first_done, ended;
	atomic_bool stop;
	struct tail_array arrays[TAIL_KINDS];
};

/* Starts the thread when `in` can be read at any place (input_share:
 * a regular file or memory, not gzip); otherwise nothing happens and
 * the loader reads everything.  `t` is zeroed first; `first` (may be
 * NULL) runs on the thread before the arrays are read. */
void tail_start(struct cpuprofile_tail *t, const struct input *in, tail_first_fn *first,
		void *first_ctx);

/* Waits for `first` to end, while the thread goes on to the arrays (at
 * once when no thread was started); what `first` wrote may be read
 * after. */
void tail_wait_first(struct cpuprofile_tail *t);

/* Waits for the thread to end (at once when none was started). */
void tail_wait(struct cpuprofile_tail *t);

/* The array of `kind` whose key the loader has just read at byte
 * `key_at`, once the thread is done with that array (it may go on to
 * the next); NULL unless the thread read that very array whole.  The
 * caller may take its buffer (leaving NULL) and change its elements. */
struct tail_array *tail_array_at(struct cpuprofile_tail *t, enum tail_kind kind,
				 uint64_t key_at);

/* Stops the thread if it still runs, waits for it, and frees what the
 * loader did not take. */
void tail_free(struct cpuprofile_tail *t);

#endif
