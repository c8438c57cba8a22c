/* An inspector target (cdp.h) as a live source: the explorer follows it
 * through cdp_live's thread; --report profiles it for --duration. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "loaders/loaders.h"
#include "output/export.h"
#include "base/util.h"
#include "cdp.h"
#include "cdp_live.h"
#include "source.h"

struct cdp_source {
	struct live_source base;
	struct cdp_options options;
	double seconds;      /* --duration, for collect */
	struct cdp_live *cl; /* once started */
	char target[256];    /* e: the target switched to (options.target) */
	bool switched;       /* e: no window from the new target yet */
};

static struct cdp_source *cdp_of(struct live_source *s)
{
	return (struct cdp_source *)s;
}

static bool cdp_src_start(struct live_source *s, char *err, size_t cap)
{
	struct cdp_source *c = cdp_of(s);
	c->cl = cdp_live_start(&c->options, err, cap);
	return c->cl != NULL;
}

static bool cdp_src_collect(struct live_source *s, struct model *m, char *who,
			    size_t who_cap, char *err, size_t cap)
{
	struct cdp_source *c = cdp_of(s);
	char why[600];
	who[0] = '\0';
	if (cdp_profile_for(&c->options, c->seconds, m, who, who_cap, stderr, why, sizeof(why)))
		return true;
	snprintf(err, cap, "%s%s%s", who, *who ? ": " : "", why);
	return false;
}

static void cdp_src_free(struct live_source *s)
{
	struct cdp_source *c = cdp_of(s);
	if (c->cl)
		cdp_live_free(c->cl);
	free(c);
}

static void cdp_src_events(struct live_source *s, double now_ms, struct live_events *ev)
{
	(void)now_ms;
	ev->data = true; /* cdp_live_refresh says whether samples came */
	if (!ev->quiet)
		cdp_live_news(cdp_of(s)->cl, ev->message, sizeof(ev->message));
}

static enum live_refresh cdp_src_snapshot(struct live_source *s, struct model *shown,
					  struct model *fresh)
{
	struct cdp_source *c = cdp_of(s);
	switch (cdp_live_refresh(c->cl, shown, fresh)) {
	case CDP_NEW_VALUES:
		return LIVE_NEW_VALUES;
	case CDP_NEW_MODEL:
		c->switched = false;
		return LIVE_NEW_MODEL;
	case CDP_NOTHING:
		break;
	}
	return LIVE_NO_PROFILE;
}

static void cdp_src_title(struct live_source *s, char *out, size_t cap)
{
	struct cdp_source *c = cdp_of(s);
	char state[700];
	cdp_live_state(c->cl, state, sizeof(state));
	/* "TITLE (ws://…)": the title alone, so that the state fits. */
	const char *name = cdp_live_name(c->cl), *url = strstr(name, " (ws://");
	int len = url ? (int)(url - name) : (int)strlen(name);
	snprintf(out, cap, "live: %.*s, %s%s", len, name, state,
		 c->switched ? ", no profile yet (the numbers are another target's)" : "");
}

/* Samples come when a window ends (or a trace batch comes). */
static void cdp_src_waiting(struct live_source *s, double waited, char *out, size_t cap)
{
	char title[900];
	cdp_src_title(s, title, sizeof(title));
	snprintf(out, cap, "%s: waiting for the first samples (a window ends each %.0f s)… "
		 "%.1f s", title, CDP_WINDOW_SECONDS, waited);
}

static void cdp_src_toggle_profiling(struct live_source *s, char *said, size_t cap)
{
	struct cdp_live *cl = cdp_of(s)->cl;
	bool on = !cdp_live_profiling(cl);
	cdp_live_set_profiling(cl, on);
	snprintf(said, cap, "%s", on ? "profiling again" :
		 "stopping (the samples under way are kept)");
}

/* The trace-event form of the .cpuprofile just written: the same nodes,
 * samples and times, for tools that read traces (DevTools' Performance
 * panel, Perfetto). */
static bool write_trace(const char *cpuprofile, const char *path, char *err, size_t cap)
{
	struct load_options opt = { .session = -1 };
	struct load_error why;
	struct model m;
	if (!load_file(cpuprofile, &opt, &m, &why, NULL)) {
		snprintf(err, cap, "%s: %s", cpuprofile, why.message);
		return false;
	}
	FILE *notes = fopen("/dev/null", "w"); /* a .cpuprofile loses nothing */
	bool ok = notes && export_model(&m, 0, EXPORT_TRACE, path, notes, err, cap);
	if (!notes)
		snprintf(err, cap, "no /dev/null");
	if (notes)
		fclose(notes);
	model_free(&m);
	return ok;
}

static bool cdp_src_write(struct live_source *s, const struct model *shown,
			  const char *stamp, char *said, size_t cap)
{
	(void)shown; /* the session itself, node ids and all */
	char path[80], trace[80], err[512];
	snprintf(path, sizeof(path), "wprof-inspect-%s.cpuprofile", stamp);
	snprintf(trace, sizeof(trace), "wprof-inspect-%s.trace.json", stamp);
	if (!cdp_live_write(cdp_of(s)->cl, path, err, sizeof(err))) {
		snprintf(said, cap, "%s", err);
		return false;
	}
	if (!write_trace(path, trace, err, sizeof(err))) {
		snprintf(said, cap, "wrote %s; cannot write %s: %s", path, trace, err);
		return false;
	}
	snprintf(said, cap, "wrote %s and %s", path, trace);
	return true;
}

/* e: attaches to the next target the inspector lists, then lets the
 * last one go; its session goes with it (written first with w if
 * wanted).  The numbers on screen stay until the new target's first
 * window. */
static bool cdp_src_next_target(struct live_source *s, char *said, size_t cap)
{
	struct cdp_source *c = cdp_of(s);
	char err[600];
	if (!cdp_next_target(&c->options, cdp_live_url(c->cl), c->target,
			     sizeof(c->target), err, sizeof(err))) {
		snprintf(said, cap, "%s", err);
		return false;
	}
	struct cdp_options next = c->options;
	next.target = c->target;
	struct cdp_live *cl = cdp_live_start(&next, err, sizeof(err));
	if (!cl) {
		snprintf(said, cap, "cannot attach to target %s: %s", c->target, err);
		return false;
	}
	cdp_live_set_profiling(cl, cdp_live_profiling(c->cl));
	cdp_live_free(c->cl);
	c->cl = cl;
	c->options.target = c->target;
	c->switched = true;
	snprintf(said, cap, "profiling %s (a new session; the numbers are the last "
		 "target's until its first window)", cdp_live_name(cl));
	return true;
}

static const struct live_source_ops cdp_ops = {
	.start = cdp_src_start,
	.collect = cdp_src_collect,
	.free = cdp_src_free,
	.events = cdp_src_events,
	.snapshot = cdp_src_snapshot,
	.title = cdp_src_title,
	.waiting = cdp_src_waiting,
	.toggle_profiling = cdp_src_toggle_profiling,
	.write = cdp_src_write,
	.next_target = cdp_src_next_target,
};

struct live_source *cdp_source_open(const struct cdp_options *o, double seconds)
{
	struct cdp_source *c = xcalloc(1, sizeof(*c));
	c->base.ops = &cdp_ops;
	c->options = *o;
	c->seconds = seconds;
	return &c->base;
}
