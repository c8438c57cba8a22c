/* The explorer: one profile on the terminal (or its keys replayed by
 * --bench-keys), or two side by side (commands.h). */
#include "commands.h"

#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "profile.h"
#include "tui/tui.h"

/* A profile read from standard input (`curl ... | wprof-tui -`) leaves
 * the explorer no keyboard there: it reads keys from the terminal. */
static void keys_from_terminal(const struct options *o)
{
	bool piped = !strcmp(o->file, "-") || (o->new_file && !strcmp(o->new_file, "-"));
	if (!piped || isatty(STDIN_FILENO))
		return;
	int tty = open("/dev/tty", O_RDONLY | O_CLOEXEC);
	if (tty < 0)
		return; /* the explorer then says it needs a terminal */
	dup2(tty, STDIN_FILENO);
	close(tty);
}

int explore_command(struct options *o, struct model *m, unsigned type)
{
	o->tui.sample_type = type;
	o->tui.filters = &o->filters;
	o->tui.load = &o->load;
	if (o->bench_keys)
		return tui_bench_keys(o->bench_keys, o->file, m, &o->tui);
	keys_from_terminal(o);
	return tui_run(o->file, m, &o->tui);
}

/* --base A1 --base A2 B1 B2 without --report: each side shows its first
 * run, the delta layout every run's statistics. */
static int explore_runs(const struct options *o)
{
	const size_t n[2] = { o->nbase_files, o->nnew_files };
	struct run_files rf;
	run_files_alloc(&rf, n);
	int status = EXIT_BAD_INPUT;
	if (load_run_files(o, &rf) && filter_run_files(o, &rf)) {
		keys_from_terminal(o);
		char labels[2][1100];
		for (int s = 0; s < 2; s++)
			snprintf(labels[s], sizeof(labels[s]), "%s (run 1 of %zu)",
				 rf.names[s][0], n[s]);
		const char *const files[2] = { labels[0], labels[1] };
		status = tui_run_compare(files, rf.models, rf.n, &o->tui);
	}
	run_files_free(&rf);
	return status;
}

int explore_two(const struct options *o, struct model *base)
{
	if (o->nbase_files)
		return explore_runs(o);
	struct model models[2];
	char names[2][1024];
	if (base)
		models[0] = *base;
	if (!load_sides(o, models, names, base != NULL))
		return EXIT_BAD_INPUT;
	if (!filter_model(o, names[0], &models[0]) || !filter_model(o, names[1], &models[1])) {
		model_free(&models[0]);
		model_free(&models[1]);
		return EXIT_BAD_INPUT;
	}
	keys_from_terminal(o);
	const char *const files[2] = { names[0], names[1] };
	struct model *sides[2] = { &models[0], &models[1] };
	const size_t one_run[2] = { 1, 1 };
	int status = tui_run_compare(files, sides, one_run, &o->tui);
	model_free(&models[0]);
	model_free(&models[1]);
	return status;
}
