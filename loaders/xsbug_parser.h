/* The xsbug parser's insides, shared by the files that make it up and by
 * no one else (the rest of the tree uses xsbug.h):
 *
 *   xsbug_lexer.c     bytes to tags and sample text, entities, CESU-8,
 *                     `<log>` and `<break>`; it calls the store below
 *   xsbug_session.c   the store: the records, each session's distinct
 *                     stacks and timeline, and the models made from them
 *   xsbug_follower.c  a copy of one session kept up to date for a live view
 *   xsbug_writer.c    a session written back as a capture
 *
 * A parser is fed from one thread at a time; everything here is plain
 * data, guarded by whoever feeds it. */
#ifndef WPROF_XSBUG_PARSER_H
#define WPROF_XSBUG_PARSER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/id_table.h"
#include "bounded_timeline.h"
#include "xsbug.h"

#define HOST_ID 0u
#define GC_ID 1u

struct record {
	uint32_t id;
	char *name;
	char *path; /* NULL for native functions */
	int32_t line;
};

/* Distinct stacks of one session: ids leaf first, in one pool. */
struct stack {
	uint32_t offset, depth;
	double total;   /* the durations of its samples, known so far */
	uint64_t count; /* its samples */
};

struct session {
	uint64_t start, stop;
	bool stopped;
	bool suspended;
	uint64_t suspended_at;
	uint64_t time_suspended; /* between suspends and their resumes */
	uint64_t clock;       /* the time the next delta counts from */
	uint64_t last_time;   /* t_n */
	/* A `resume` without a `suspend`: the session was started at a
	 * break, and an XS 17.9 engine then moves its sampling clock by
	 * what an unset stop time says (fxResumeProfiler), so its samples
	 * miss a stretch.  clock_skip: the stretch, found at the stop, when
	 * it is worth telling (xsbug_session.c). */
	bool started_at_break;
	uint64_t clock_skip;

	uint32_t *ids;
	size_t nids, ids_cap;
	struct stack *stacks;
	size_t nstacks, stacks_cap;
	struct id_table index; /* stacks by their ids; made at the first */

	/* The newest samples, their entries numbering stacks. */
	struct bounded_timeline timeline;
	size_t nsamples;
};

enum lex_state { IN_TEXT, IN_TAG, IN_SAMPLES };

/* Real engines write attribute values raw (a method named `q"x>` arrives
 * as is): a quote only closes a value when what follows it is the end of
 * the tag or another attribute (` name="`).  Until that is known, the
 * bytes after a quote are the value's, provisionally. */
enum value_state {
	OUTSIDE,       /* between attributes: `>` ends the tag */
	INSIDE,        /* in a value */
	AFTER_QUOTE,   /* a quote: the value may have ended */
	AFTER_SLASH,   /* quote, `/`: only `>` follows an ended value */
	AFTER_SPACE,   /* quote, spaces: a name, or the end, would say so */
	IN_NEXT_NAME,  /* quote, spaces, name characters: `=` next */
	AFTER_EQUALS,  /* … `=`: a quote opens the next value */
};

/* The text of a `<log>` (the program's trace() output) or a `<break>`
 * being read, bounded: a longer one is cut. */
#define MESSAGE_TEXT_MAX 1024

struct message_text {
	bool reading, is_break;
	char *path;
	int32_t line;
	char text[MESSAGE_TEXT_MAX];
	size_t len;
	bool cut;
};

struct xsbug_parser {
	struct xsbug_limits limits;
	enum lex_state state;
	bool failed;
	uint64_t offset; /* bytes consumed, for messages */
	uint64_t generation;

	char *tag; /* `<` … `>` of the element being read */
	size_t tag_len;
	enum value_state value; /* where the tag's attribute values stand */
	char quote;             /* the open value's quote */

	/* The sample being read: field 0 is the delta, then ids. */
	uint64_t number;
	bool digits; /* the number has at least one */
	size_t field;
	uint64_t stack_hash; /* of the ids so far (xsbug_lexer.c) */
	uint64_t delta;
	uint32_t *frames;
	bool sample_bad;

	char *login_name, *login_value;

	struct record *records;
	size_t nrecords, records_cap;
	struct id_table record_index; /* records by id; made at the first */
	uint64_t records_changed; /* grows with every record set */

	struct session *sessions;
	size_t nsessions, sessions_cap;

	struct message_text message;
	xsbug_message_fn on_message;
	void *on_message_ctx;
};

/* Times from a peer can be anything: they stop at the largest. */
static inline uint64_t add_saturated(uint64_t a, uint64_t b)
{
	return b > UINT64_MAX - a ? UINT64_MAX : a + b;
}

/* The parser fails for good: false, err saying what at which byte. */
bool xsbug_fail(struct xsbug_parser *p, struct load_error *err,
		const char *what);

/* The record of `id`, NULL when none came. */
const struct record *xsbug_find_record(const struct xsbug_parser *p,
				       uint32_t id);
/* Takes rec's strings; a record sent again (a new session) replaces the
 * old one's text. */
void xsbug_set_record(struct xsbug_parser *p, const struct record *rec);

/* The `pt` times the store acts on; TIME_OTHER only marks a change. */
enum time_event { TIME_START, TIME_STOP, TIME_SUSPEND, TIME_RESUME, TIME_OTHER };
/* A profile time at t (µs); false when it breaks a limit or the order
 * of start and stop. */
bool xsbug_time_event(struct xsbug_parser *p, enum time_event what,
		      uint64_t t, struct load_error *err);

/* One whole sample of the running session (none: it counts for
 * nothing): `delta` µs on the stack `ids`, leaf first, whose mixed hash
 * the lexer computed as the ids came. */
void xsbug_fold_sample(struct xsbug_parser *p, uint64_t delta,
		       const uint32_t *ids, size_t depth, uint64_t hash);

/* Models (xsbug_session.c): a stopped session lasts from start to stop
 * less its suspended time and its clock's skip, a running one the sum
 * of its samples. */
double xsbug_session_duration(const struct session *s);
void xsbug_set_times(const struct session *s, struct model *m);
/* Each stack's total and count on its leaf node (`leaf` per stack). */
void xsbug_set_stack_values(const struct session *s, const uint32_t *leaf,
			    struct model *m);
/* A finished model of session n, with its timeline when `timeline` is
 * asked for and it holds every sample, else each stack's totals; `leaf`
 * (nstacks entries, or NULL) receives each stack's leaf node. */
void xsbug_build_model(const struct xsbug_parser *p, size_t n,
		       struct model *m, bool timeline, uint32_t *leaf);

#endif
