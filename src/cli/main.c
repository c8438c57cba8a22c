/* wprof-tui: the command line.  Reads the options (options.c), loads
 * the profile (bytes -> loader -> model, profile.c), and hands it to a
 * command: a report or an export, a comparison, the explorer, or a live
 * source followed or collected (cmd_*.c). */
#include <locale.h>
#include <stdio.h>
#include <string.h>

#include "base/complain.h"
#include "commands.h"
#include "options.h"
#include "profile.h"
#include "tui/tui.h"

/* One profile, loaded or collected, through --range, --sample-type and
 * the filters to the command that shows it. */
static int show_profile(struct options *o, struct model *m)
{
	note_differential(o, m);
	unsigned type;
	char range[160] = "";
	if (o->range_text && !cut_to_range(o, m, range, sizeof(range)))
		return EXIT_BAD_INPUT;
	if (!choose_sample_type(o, m, &type))
		return EXIT_BAD_INPUT;
	if (!o->exporting && !o->report)
		return explore_command(o, m, type);
	if (!filter_model(o, o->file, m))
		return EXIT_BAD_INPUT;
	return report_command(o, m, type, range);
}

/* A live source's profile, for --report or --export. */
static int report_live(struct options *o)
{
	struct model m;
	char engine[4096];
	struct live_source *source = live_collect(o, &m, engine, sizeof(engine));
	if (!source)
		return EXIT_BAD_INPUT;
	o->file = engine;
	if (m.warning != STR_NONE)
		complain("%s: warning: %s", engine, model_str(&m, m.warning));
	int status = show_profile(o, &m);
	model_free(&m);
	fflush(stdout); /* the report is out before the others end */
	live_close(source);
	return status;
}

/* The command line's work; its exit status. */
static int run(struct options *o)
{
	if (o->diff)
		return diff_command(o);
	if (o->new_file)
		return explore_two(o, NULL);
	if (live_wanted(o))
		return o->report || o->exporting ? report_live(o) : live_explore(o);
	if (!o->report && !o->exporting)
		tui_keep_freed_memory();
	struct model m;
	if (!load_profile(o, o->file, &o->load, &m))
		return EXIT_BAD_INPUT;
	if (!strcmp(m.format, FORMAT_FOLDED_DIFFERENTIAL) && !o->report &&
	    !o->exporting && !o->bench_keys)
		return explore_two(o, &m);
	int status = show_profile(o, &m);
	model_free(&m);
	return status;
}

int main(int argc, char **argv)
{
	/* Only the character type: numbers are read and written the C way. */
	setlocale(LC_CTYPE, "");
	struct options o;
	parse_options(argc, argv, &o);
	int status = run(&o);
	free_options(&o);
	return status;
}
