/* The xsbug debugging protocol, as an XS engine built with mxInstrument
 * streams it (docs/live.md, spec formats.md): `\r\n<xsbug>…</xsbug>\r\n`
 * messages carrying `login`, profile times (`pt`), profile records (`pr`)
 * and samples (`ps`).  One streaming parser serves files and sockets:
 * bytes may arrive split anywhere, even inside a base-36 number.
 *
 * Samples are folded as they arrive into the distinct stacks of their
 * profile session, each with its summed duration and sample count, plus a
 * timeline of the newest max_timeline samples (older ones leave it); the
 * raw text is never kept.  A session's memory is thus
 * bounded by its distinct stacks plus a fixed timeline.  A finished model
 * of any session can be made at any time (a live view asks for
 * snapshots).
 *
 * Made of loaders/xsbug_lexer.c, xsbug_session.c, xsbug_follower.c and
 * xsbug_writer.c; xsbug_parser.h, theirs only, says which does what. */
#ifndef WPROF_XSBUG_H
#define WPROF_XSBUG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "loaders.h"
#include "model/model.h"

/* What a peer may make the parser hold; hitting one is an error that
 * names the limit. */
struct xsbug_limits {
	size_t max_element;   /* bytes of one tag, `<` to `>` */
	size_t max_attribute; /* bytes of one attribute value */
	uint32_t max_id;      /* largest profile record id */
	size_t max_depth;     /* frames in one sample */
	size_t max_records;   /* distinct profile records */
	size_t max_sessions;  /* start…stop profiles in one stream */
	/* Timeline entries of one session (1 at least): the newest this many
	 * samples are kept in order, older ones leave the window.  Stacks'
	 * totals stay exact. */
	size_t max_timeline;
};

extern const struct xsbug_limits xsbug_default_limits;

struct xsbug_parser;

/* limits NULL: the defaults. */
struct xsbug_parser *xsbug_parser_new(const struct xsbug_limits *limits);
void xsbug_parser_free(struct xsbug_parser *p);

/* Reads more bytes.  Anything that is not a well-formed element is
 * skipped up to the next `<`.  False, with what was hit and the byte
 * offset in err, when a limit is exceeded; the parser then takes nothing
 * more (what it folded so far stays usable). */
bool xsbug_parser_feed(struct xsbug_parser *p, const uint8_t *bytes,
		       size_t len, struct load_error *err);

/* The stream has ended.  True when it ended between messages; false when
 * a message was cut short (what arrived before it is kept). */
bool xsbug_parser_end(struct xsbug_parser *p);

/* The engine's login name, NULL before it. */
const char *xsbug_login_name(const struct xsbug_parser *p);

/* Profile sessions seen so far (each begun by a `start` time). */
size_t xsbug_session_count(const struct xsbug_parser *p);
/* Has session n (1-based) received its `stop`? */
bool xsbug_session_stopped(const struct xsbug_parser *p, size_t n);
/* Samples folded into session n (1-based). */
size_t xsbug_session_samples(const struct xsbug_parser *p, size_t n);
/* µs of session n's time that its samples miss because the engine's
 * clock skipped (a profile started at a break, XS 17.9); 0 when none.
 * Known at the stop; the session's duration leaves it out. */
double xsbug_session_clock_skip(const struct xsbug_parser *p, size_t n);
/* Is a session running (started, not stopped)? */
bool xsbug_profiling(const struct xsbug_parser *p);

/* Grows whenever something that changes a model arrives: a live view
 * takes a new snapshot when it differs from the one it last saw. */
uint64_t xsbug_generation(const struct xsbug_parser *p);

/* Which session `session` means: n >= 1 that one, -1 the last stopped
 * one (or, when none has stopped, the last one).  0 when there is none;
 * err says why. */
size_t xsbug_pick_session(const struct xsbug_parser *p, int session,
			  struct load_error *err);

/* A finished model of session n (1-based).  A session still running ends
 * at its last sample.  Its values are the stacks' exact totals; it has
 * the timeline of every sample while the session's timeline holds every
 * one, and none once samples have left it (the values are then each
 * stack's duration, "time", and sample count, "samples"). */
void xsbug_session_model(const struct xsbug_parser *p, size_t n,
			 struct model *m);

/* Bytes session n holds (its stacks, their index and its timeline), for
 * tests of the bound. */
size_t xsbug_session_bytes(const struct xsbug_parser *p, size_t n);

/* Following the last session of a parser that grows (a live view): the
 * follower keeps its own copy of the session's distinct stacks and the
 * records, brought up to date by xsbug_follow with only what is new plus
 * each stack's total and count (a few bytes a stack), so that a caller
 * whose parser another thread feeds holds its lock only that long; models
 * are then made from the copy alone.  The values are each stack's summed
 * duration ("time", us) and sample count ("samples", count); the samples
 * are the session's timeline, its newest max_timeline samples (the strip
 * and ranges), model.live.samples_before and time_before saying how many and
 * how long came before them. */
struct xsbug_follower;

struct xsbug_follower *xsbug_follower_new(void);
void xsbug_follower_free(struct xsbug_follower *f);

/* Copies what is new of p's last session; false when p has no session
 * yet.  Another parser or another session is copied whole. */
bool xsbug_follow(struct xsbug_follower *f, const struct xsbug_parser *p);
/* The same for session n (1-based); false when there is none. */
bool xsbug_follow_session(struct xsbug_follower *f,
			  const struct xsbug_parser *p, size_t n);

/* When `shown` is the model this follower built last and no stack or
 * record came since, its values and times change and new samples are
 * appended (those that left the window removed), in place, and the
 * result is false: its nodes, frames and arcs stay, so what depends on
 * them alone stays valid (rules_values_changed).  Otherwise builds a new
 * finished model into `fresh` and returns true. */
bool xsbug_follower_model(struct xsbug_follower *f, struct model *shown,
			  struct model *fresh);

/* `<log>` (the program's trace() output, the engine's warnings) and
 * `<break>` (a `debugger` statement, a breakpoint, an exception the
 * engine was told to stop at: it then waits for `<go/>`), told as they
 * end.  The text is decoded, without its trailing white space, and cut
 * at 1 KiB (cut true). */
struct xsbug_message {
	bool is_break;
	const char *text;
	bool cut;
	const char *path; /* NULL when the engine names none */
	int32_t line;     /* -1 when none */
};
typedef void (*xsbug_message_fn)(void *ctx, const struct xsbug_message *m);

/* fn is called from xsbug_parser_feed; NULL: messages are skipped. */
void xsbug_parser_on_message(struct xsbug_parser *p, xsbug_message_fn fn,
			     void *ctx);

/* Writes session n as an xsbug capture that loads to the same numbers:
 * login, start, the records it uses, its samples, stop.  Once samples
 * have left the timeline's window, each stack's samples are written
 * together in the order the stacks first came, their deltas summing to
 * its total. */
bool xsbug_write_session(const struct xsbug_parser *p, size_t n, FILE *out);

#endif
