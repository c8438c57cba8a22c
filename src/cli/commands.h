/* The commands of wprof-tui, one file each; main.c picks one from the
 * options.  Each returns the exit status and says what went wrong on
 * stderr. */
#ifndef WPROF_CLI_COMMANDS_H
#define WPROF_CLI_COMMANDS_H

#include "model/model.h"
#include "options.h"

struct live_source;

/* cmd_report.c: --report VIEW and --export FORMAT of one profile, made
 * ready (profile.h); `range` describes --range's cut ("" without). */
int report_command(const struct options *o, struct model *m, unsigned type,
		   const char *range);

/* cmd_diff.c: --report flat --diff BASE NEW. */
int diff_command(struct options *o);

/* cmd_explore.c: the explorer on one profile (or --bench-keys), and on
 * two side by side (`base` loaded already, or NULL), or the runs of
 * --base A1 --base A2 B1 B2. */
int explore_command(struct options *o, struct model *m, unsigned type);
int explore_two(const struct options *o, struct model *base);

/* cmd_live.c: --listen, --connect, --inspect, --live URL.  On a terminal
 * the explorer follows the source; for a report, live_collect() waits
 * for the profile asked for (`who` names it) and returns the source,
 * which live_close() lets go after the report; NULL when it failed. */
bool live_wanted(const struct options *o);
int live_explore(const struct options *o);
struct live_source *live_collect(const struct options *o, struct model *m,
				 char *who, size_t cap);
void live_close(struct live_source *source);

#endif
