/* w in the explorer: what is on screen, written to a file.  The profile
 * as the panes show it (its filters and time range applied) as a V8
 * .cpuprofile, gzipped pprof (.pb.gz, .pprof) or folded stacks
 * (.folded), through output/export.h; or the current pane's rows, as
 * they are open, as a report (.txt, .csv, .json) through output/report.h.
 * The file's ending chooses; an existing file is never written over. */
#ifndef WPROF_EXPLORER_SAVE_VIEW_H
#define WPROF_EXPLORER_SAVE_VIEW_H

#include "explorer/app.h"

/* Opens the prompt for the file's name, with a default: the profile in
 * its own format where it is a .cpuprofile, else pprof. */
void app_save_start(struct app *a);
/* Writes `path`; the message line says what was written, or why not. */
void app_save_view(struct app *a, const char *path);

#endif
