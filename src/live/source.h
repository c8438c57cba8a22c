/* One interface for every live source, so that a new source is one file:
 * XS engines and WasmProf arc streams over TCP (xs_source.c), a Go
 * service's CPU profile fetched in windows over HTTP (http_source.c), an
 * inspector target over the Chrome DevTools protocol (cdp_source.c).
 *
 * A source owns its network on a thread of its own once started, and
 * hands finished model snapshots to the explorer (src/tui/live_view.c),
 * whose keys never wait on the network.  Without a terminal, `collect`
 * profiles as the command line said and gives one model for --report
 * and --export.
 *
 * Every call but `collect` and `finish` comes from the explorer's thread.
 * Texts given back (titles, messages) are raw: the caller escapes them. */
#ifndef WPROF_LIVE_SOURCE_H
#define WPROF_LIVE_SOURCE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "model/model.h"

/* Log lines kept (per engine): the last ones. */
#define LIVE_LOG_LINES 1000

/* What a snapshot did. */
enum live_refresh {
	LIVE_NO_PROFILE, /* nothing to show (yet) */
	LIVE_NEW_MODEL,  /* a new finished model in `fresh` */
	LIVE_NEW_VALUES, /* `shown` got new numbers for the same stacks */
};

/* What happened since the last look, for the explorer's loop. */
struct live_events {
	/* In: a question waits on the status line (say nothing new), and
	 * whether the status line shows anything now. */
	bool quiet, message_shown;
	/* Out: */
	bool data;        /* a snapshot would show something new */
	bool at_once;     /* ... now, not on the refresh beat (the peer left) */
	bool changed;     /* the title changed: draw again */
	char message[1600]; /* for the status line; "" for none */
};

struct live_source;

struct live_source_ops {
	/* The thread that follows the source (sockets served, windows
	 * fetched or polled).  False with a message in err. */
	bool (*start)(struct live_source *s, char *err, size_t cap);
	/* Without a terminal: blocks until the profile the command line
	 * asked for is in (the first engine's session until it stops,
	 * --duration of an inspector target, --windows windows); *m is its
	 * model and `who` names it for the report.  False with err (which
	 * names the source). */
	bool (*collect)(struct live_source *s, struct model *m, char *who,
			size_t who_cap, char *err, size_t cap);
	/* After the report is out (NULL: nothing to do): XS serves the
	 * engines still connected until they leave, so that none dies of a
	 * socket closed under it. */
	void (*finish)(struct live_source *s);
	/* Stops the thread and frees everything. */
	void (*free)(struct live_source *s);

	void (*events)(struct live_source *s, double now_ms, struct live_events *ev);
	/* The session's model as `shown` (the model this source gave last,
	 * NULL before the first) shows it: new numbers in place where the
	 * source can tell that no stack is new, a new model in *fresh
	 * otherwise. */
	enum live_refresh (*snapshot)(struct live_source *s, struct model *shown,
				      struct model *fresh);
	/* The header: who, and what it does now ("live: NAME, profiling"). */
	void (*title)(struct live_source *s, char *out, size_t cap);
	/* The screen before the first snapshot: what is awaited, where, and
	 * how long it has been awaited (`waited` seconds since the explorer
	 * started the source: the screen changes as it counts). */
	void (*waiting)(struct live_source *s, double waited, char *out, size_t cap);

	/* Keys.  Each says what it did in `said`. */
	void (*toggle_profiling)(struct live_source *s, char *said, size_t cap); /* p */
	/* w: the session into files named after `stamp` (a date and time);
	 * `shown` is the model on screen. */
	bool (*write)(struct live_source *s, const struct model *shown,
		      const char *stamp, char *said, size_t cap);
	/* e: the next engine or target; true when the data on screen is to
	 * be replaced by the new one's at once. */
	bool (*next_target)(struct live_source *s, char *said, size_t cap);
	/* Peers that quitting would end (NULL: none ever). */
	size_t (*peers_connected)(struct live_source *s);
	/* L: the log lines of what is shown (NULL: the source has none),
	 * numbered from 0; false when line n is no longer kept. */
	uint64_t (*log_count)(struct live_source *s);
	bool (*log_line)(struct live_source *s, uint64_t n, double *when,
			 char *text, size_t cap);
	/* Whose log it is ("xst@127.0.0.1:40112"), for its heading. */
	const char *(*log_name)(struct live_source *s);
};

struct live_source {
	const struct live_source_ops *ops;
};

/* The sources.  Each only remembers what it needs; nothing is dialed or
 * bound before `start` or `collect`, except as said. */
struct load_options;
struct fetch_options;
struct cdp_options;

/* --listen ADDRESS or --connect ADDRESS (`listen` false): binds or dials
 * at once, false with err.  `log` takes the peers' news without a
 * terminal (NULL in the explorer, which says them itself). */
struct live_source *xs_source_open(const char *address, bool listen, FILE *log,
				   char *err, size_t cap);
/* --live URL: windows of `window` seconds; collect takes `windows` of
 * them and says each on `log`. */
struct live_source *http_source_open(const char *url, unsigned window,
				     unsigned windows,
				     const struct fetch_options *fetch,
				     const struct load_options *load, FILE *log);
/* --inspect / --connect ws://: `start` attaches; collect profiles for
 * `seconds`. */
struct live_source *cdp_source_open(const struct cdp_options *o, double seconds);

#endif
