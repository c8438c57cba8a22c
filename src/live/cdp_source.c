/* An inspector target (cdp.h) as a live source: the explorer follows it
 * through cdp_live's thread; --report profiles it for --duration. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../util.h"
#include "cdp.h"
#include "cdp_live.h"
#include "source.h"

struct cdp_source {
	struct live_source base;
	struct cdp_options options;
	double seconds;      /* --duration, for collect */
	struct cdp_live *cl; /* once started */
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
	(void)s, (void)now_ms;
	ev->data = true; /* cdp_live_refresh says whether samples came */
}

static enum live_refresh cdp_src_snapshot(struct live_source *s, struct model *shown,
					  struct model *fresh)
{
	switch (cdp_live_refresh(cdp_of(s)->cl, shown, fresh)) {
	case CDP_NEW_VALUES:
		return LIVE_NEW_VALUES;
	case CDP_NEW_MODEL:
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
	snprintf(out, cap, "live: %.*s, %s", len, name, state);
}

static void cdp_src_waiting(struct live_source *s, char *out, size_t cap)
{
	char title[900];
	cdp_src_title(s, title, sizeof(title));
	snprintf(out, cap, "%s: waiting for the first samples", title);
}

static void cdp_src_toggle_profiling(struct live_source *s, char *said, size_t cap)
{
	struct cdp_live *cl = cdp_of(s)->cl;
	bool on = !cdp_live_profiling(cl);
	cdp_live_set_profiling(cl, on);
	snprintf(said, cap, "%s", on ? "profiling again" :
		 "stopping (the samples under way are kept)");
}

static bool cdp_src_write(struct live_source *s, const struct model *shown,
			  const char *stamp, char *said, size_t cap)
{
	(void)shown; /* the session itself, node ids and all */
	char path[80], err[512];
	snprintf(path, sizeof(path), "wprof-inspect-%s.cpuprofile", stamp);
	if (!cdp_live_write(cdp_of(s)->cl, path, err, sizeof(err))) {
		snprintf(said, cap, "%s", err);
		return false;
	}
	snprintf(said, cap, "wrote %s", path);
	return true;
}

static bool cdp_src_next_target(struct live_source *s, char *said, size_t cap)
{
	(void)s;
	snprintf(said, cap, "one inspector target per run (--target picks it)");
	return false;
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
