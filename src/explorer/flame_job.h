/* Pane 5's graph made again on a thread of its own after a range key:
 * on a large profile the build takes hundreds of milliseconds, so the
 * pane keeps the graph it showed, says "(computing)", and app_poll puts
 * the new one in place when the thread is done. */
#ifndef WPROF_TUI_FLAME_JOB_H
#define WPROF_TUI_FLAME_JOB_H

#include "app.h"

/* Starts building pane 5 for the context in force, when it is the pane
 * on screen and the build only reads the model and totals made already;
 * false: the caller builds it at once. */
bool flame_job_start(struct app *a);
/* True when a new graph was put in place. */
bool flame_job_poll(struct app *a);
/* Waits for the thread; its graph is put in place if the context is the
 * one it was made for, else dropped.  Before anything changes or frees
 * what the thread reads. */
void flame_job_finish(struct app *a);
bool app_flame_computing(const struct app *a);
/* A thread of pane 5 still runs, wanted or not. */
bool flame_job_busy(const struct app *a);
/* x: time order or left-heavy; shows pane 5. */
void flame_toggle_order(struct app *a);

#endif
