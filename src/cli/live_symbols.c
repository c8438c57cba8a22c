/* A live source whose models go through the symbolization pass
 * (live_symbols.h): every op forwarded to the source it wraps, snapshots
 * and collect mapped on their way out. */
#include "live_symbols.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/complain.h"
#include "base/util.h"
#include "transform/symbolize.h"

struct symbolized {
	struct live_source base;
	struct live_source_ops ops;
	struct live_source *inner;
	struct symbolize_options options;
	struct symbolizer *z;
	FILE *log;
	/* Once a model has come out mapped: the source's own model, which
	 * it updates in place, and the explorer a mapped copy of it.  Two,
	 * as the explorer keeps them: a source knows its last model by its
	 * address. */
	bool mapped;
	struct model raw[2];
	int current;
	char said[1200];  /* for the status line, "" when nothing new */
	char why[1024];   /* the last --symbols refusal said */
};

static struct symbolized *of(struct live_source *s)
{
	return (struct symbolized *)s;
}

static struct live_source *inner(struct live_source *s)
{
	return of(s)->inner;
}

/* A map's warning: on stderr without the explorer, else its status line. */
static void warn(void *ctx, const char *message)
{
	struct symbolized *y = ctx;
	if (y->log)
		complain("%s", message);
	else
		snprintf(y->said, sizeof(y->said), "%s", message);
}

/* m mapped; a --symbols module that does not fit (yet: a session's
 * first seconds may have no wasm frames) is said once per reason. */
static void apply(struct symbolized *y, struct model *m)
{
	char why[sizeof(y->why)] = "";
	if (symbolizer_apply(y->z, m, why, sizeof(why)) || !strcmp(why, y->why))
		return;
	snprintf(y->why, sizeof(y->why), "%s", why);
	char line[sizeof(y->why) + 16];
	snprintf(line, sizeof(line), "--symbols %s", why);
	warn(y, line);
}

/* A mapped copy of the source's model in `out`; false (out untouched)
 * when the pass has nothing for it. */
static bool mapped_copy(struct symbolized *y, const struct model *raw, struct model *out)
{
	struct model copy;
	symbolize_copy(raw, &copy);
	apply(y, &copy);
	if (copy.symbols == STR_NONE && !y->mapped) {
		model_free(&copy);
		return false;
	}
	*out = copy;
	return true;
}

/* Until a model needs mapping, the source's models go to the explorer
 * as they are (new numbers in place); from then on the source updates
 * its own and each refresh is a mapped copy (a new model). */
static enum live_refresh sym_snapshot(struct live_source *s, struct model *shown,
				      struct model *fresh)
{
	struct symbolized *y = of(s);
	if (!y->mapped) {
		enum live_refresh got = y->inner->ops->snapshot(y->inner, shown, fresh);
		struct model copy;
		if (got == LIVE_NEW_MODEL && mapped_copy(y, fresh, &copy)) {
			y->raw[0] = *fresh;
			y->current = 0;
			*fresh = copy;
			y->mapped = true;
		}
		return got;
	}
	int next = 1 - y->current;
	enum live_refresh got = y->inner->ops->snapshot(y->inner, &y->raw[y->current],
							&y->raw[next]);
	if (got == LIVE_NO_PROFILE)
		return got;
	if (got == LIVE_NEW_MODEL) {
		model_free(&y->raw[y->current]);
		y->current = next;
	}
	mapped_copy(y, &y->raw[y->current], fresh);
	return LIVE_NEW_MODEL;
}

static bool sym_collect(struct live_source *s, struct model *m, char *who, size_t who_cap,
			char *err, size_t cap)
{
	struct symbolized *y = of(s);
	if (!y->inner->ops->collect(y->inner, m, who, who_cap, err, cap))
		return false;
	if (symbolizer_apply(y->z, m, y->why, sizeof(y->why)))
		return true;
	snprintf(err, cap, "--symbols %s", y->why);
	model_free(m);
	return false;
}

static void sym_events(struct live_source *s, double now_ms, struct live_events *ev)
{
	struct symbolized *y = of(s);
	y->inner->ops->events(y->inner, now_ms, ev);
	if (y->said[0] && !ev->message[0] && !ev->quiet) {
		snprintf(ev->message, sizeof(ev->message), "%s", y->said);
		y->said[0] = 0;
	}
}

/* w writes the session as the source has it (mapped again when read). */
static bool sym_write(struct live_source *s, const struct model *shown, const char *stamp,
		      char *said, size_t cap)
{
	struct symbolized *y = of(s);
	return y->inner->ops->write(y->inner, y->mapped ? &y->raw[y->current] : shown, stamp,
				    said, cap);
}

static void sym_free(struct live_source *s)
{
	struct symbolized *y = of(s);
	y->inner->ops->free(y->inner);
	if (y->mapped)
		model_free(&y->raw[y->current]);
	symbolizer_free(y->z);
	free(y);
}

/* The rest as the source does them. */
static bool fwd_start(struct live_source *s, char *err, size_t cap)
{
	return inner(s)->ops->start(inner(s), err, cap);
}

static void fwd_finish(struct live_source *s)
{
	inner(s)->ops->finish(inner(s));
}

static void fwd_title(struct live_source *s, char *out, size_t cap)
{
	inner(s)->ops->title(inner(s), out, cap);
}

static void fwd_waiting(struct live_source *s, double waited, char *out,
			size_t cap)
{
	inner(s)->ops->waiting(inner(s), waited, out, cap);
}

static void fwd_toggle_profiling(struct live_source *s, char *said, size_t cap)
{
	inner(s)->ops->toggle_profiling(inner(s), said, cap);
}

static bool fwd_next_target(struct live_source *s, char *said, size_t cap)
{
	return inner(s)->ops->next_target(inner(s), said, cap);
}

static size_t fwd_peers_connected(struct live_source *s)
{
	return inner(s)->ops->peers_connected(inner(s));
}

static uint64_t fwd_log_count(struct live_source *s)
{
	return inner(s)->ops->log_count(inner(s));
}

static bool fwd_log_line(struct live_source *s, uint64_t n, double *when, char *text,
			 size_t cap)
{
	return inner(s)->ops->log_line(inner(s), n, when, text, cap);
}

static const char *fwd_log_name(struct live_source *s)
{
	return inner(s)->ops->log_name(inner(s));
}

/* Each op the source has, through its forwarder; those it has not stay
 * NULL, as callers test. */
#define FORWARD(op, fn) y->ops.op = in->op ? fn : NULL

struct live_source *live_symbolized(struct live_source *source,
				    const struct symbolize_options *o, FILE *log, char *err,
				    size_t cap)
{
	struct symbolized *y = xcalloc(1, sizeof(*y));
	y->options = *o;
	y->options.warn = warn;
	y->options.ctx = y;
	y->log = log;
	y->z = symbolizer_new(&y->options, err, cap);
	if (!y->z) {
		free(y);
		return NULL;
	}
	y->inner = source;
	const struct live_source_ops *in = source->ops;
	FORWARD(start, fwd_start);
	FORWARD(collect, sym_collect);
	FORWARD(finish, fwd_finish);
	FORWARD(free, sym_free);
	FORWARD(events, sym_events);
	FORWARD(snapshot, sym_snapshot);
	FORWARD(title, fwd_title);
	FORWARD(waiting, fwd_waiting);
	FORWARD(toggle_profiling, fwd_toggle_profiling);
	FORWARD(write, sym_write);
	FORWARD(next_target, fwd_next_target);
	FORWARD(peers_connected, fwd_peers_connected);
	FORWARD(log_count, fwd_log_count);
	FORWARD(log_line, fwd_log_line);
	FORWARD(log_name, fwd_log_name);
	y->base.ops = &y->ops;
	return &y->base;
}
