/* Live profiles: XS engines (--listen, --connect), an inspector target
 * (--inspect, --connect ws://…) and a Go service's pprof URL (--live),
 * followed by the explorer or collected for a report (commands.h). */
#include "commands.h"

#include <stdio.h>

#include "base/complain.h"
#include "live/cdp.h"
#include "live/source.h"
#include "live_symbols.h"
#include "transform/symbolize.h"
#include "tui/tui.h"

bool live_wanted(const struct options *o)
{
	return o->live_url || o->inspect || o->listen || o->connect;
}

/* The live source the command line names, or NULL when it cannot be set
 * up (said on stderr).  Without the explorer, the peers' news goes to
 * stderr. */
static struct live_source *open_plain_source(const struct options *o, bool explorer)
{
	FILE *log = explorer ? NULL : stderr;
	if (o->live_url)
		return http_source_open(o->live_url, o->window, o->windows, &o->fetch,
					&o->load, log);
	char err[512];
	if (o->inspect && o->cdp.pid) {
		/* The address lives as long as the run: one source a run. */
		static char found[64];
		struct cdp_options cdp = o->cdp;
		if (!cdp_find_inspector(cdp.pid, cdp.wait_seconds, found, sizeof(found), err,
					sizeof(err))) {
			complain("--pid %ld: %s", cdp.pid, err);
			return NULL;
		}
		cdp.inspect = found;
		return cdp_source_open(&cdp, o->duration > 0 ? o->duration : 10);
	}
	if (o->inspect)
		return cdp_source_open(&o->cdp, o->duration > 0 ? o->duration : 10);
	const char *address = o->listen ? o->listen : o->connect;
	struct live_source *source = xs_source_open(address, o->listen != NULL, log,
						    err, sizeof(err));
	if (!source)
		complain("%s", err);
	return source;
}

/* The source, its models through source maps and --symbols as a file's
 * are (live_symbols.h): every source but a Go service's pprof URL, whose
 * frames are neither JavaScript nor wasm unless the user says so. */
static struct live_source *open_source(const struct options *o, bool explorer)
{
	struct live_source *source = open_plain_source(o, explorer);
	const struct symbolize_options *given = &o->tui.symbolize;
	if (!source || (o->live_url && !given->nsymbols && !given->nsource_maps))
		return source;
	struct symbolize_options with = *given;
	with.source = &o->tui.source;
	char err[1200];
	struct live_source *mapped = live_symbolized(source, &with, explorer ? NULL : stderr,
						     err, sizeof(err));
	if (!mapped) {
		complain("--symbols %s", err);
		source->ops->free(source);
	}
	return mapped;
}

int live_explore(const struct options *o)
{
	struct live_source *source = open_source(o, true);
	if (!source)
		return EXIT_BAD_INPUT;
	int status = tui_run_live(source, &o->tui);
	source->ops->free(source);
	return status;
}

/* Without a terminal: the profile the source was asked for (the first
 * engine's session, --duration of a target, --windows windows). */
struct live_source *live_collect(const struct options *o, struct model *m,
				 char *who, size_t cap)
{
	struct live_source *source = open_source(o, false);
	if (!source)
		return NULL;
	char err[1300];
	if (source->ops->collect(source, m, who, cap, err, sizeof(err)))
		return source;
	complain("%s", err);
	live_close(source);
	return NULL;
}

/* After the report: the source lets its peers go, then ends. */
void live_close(struct live_source *source)
{
	if (source->ops->finish)
		source->ops->finish(source);
	source->ops->free(source);
}
