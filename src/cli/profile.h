/* The profiles the command line names, read and made ready for a
 * command: loaded from a file or a URL, cut to --range, by --granularity,
 * filtered, their sample type chosen.  What goes wrong is said on stderr
 * (complain()) and returned as false; the model is then freed. */
#ifndef WPROF_CLI_PROFILE_H
#define WPROF_CLI_PROFILE_H

#include <stdbool.h>
#include <stddef.h>

#include "model/model.h"
#include "options.h"

/* `file` (a path, `-` or an http(s):// URL) read with `opt`; its
 * loader's warning, if any, said on stderr. */
bool load_profile(const struct options *o, const char *file,
		  const struct load_options *opt, struct model *m);

/* The two sides of a comparison: BASE and NEW files, or the two count
 * columns of one differential folded file (side names in `names`).
 * With `base_loaded`, sides[0] holds the first file already. */
bool load_sides(const struct options *o, struct model sides[2],
		char names[2][1024], bool base_loaded);

/* Several runs a side (--base A1 --base A2 B1 B2): models[s] holds n[s]
 * runs, named by names[s]. */
struct run_files {
	struct model *models[2];
	const char **names[2];
	size_t n[2];
};

/* Room for n[s] runs a side, none loaded (zero models, which model_free
 * takes). */
void run_files_alloc(struct run_files *rf, const size_t n[2]);
void run_files_free(struct run_files *rf);
/* The --base files and the others, every run read on its own (a
 * differential folded file holds two sides already and is no run), then
 * each by the granularity and the filters (filter_model). */
bool load_run_files(const struct options *o, struct run_files *rf);
bool filter_run_files(const struct options *o, struct run_files *rf);

/* `m` by the command line's granularity and after its filters, in place
 * of the one read; `file` names it in a complaint. */
bool filter_model(const struct options *o, const char *file, struct model *m);

/* --range: `m` becomes the profile cut to the range, and `described`
 * says which part of the whole it is. */
bool cut_to_range(const struct options *o, struct model *m, char *described,
		  size_t cap);

/* --sample-type, by name or index, else the profile's default. */
bool choose_sample_type(const struct options *o, const struct model *m,
			unsigned *type);

/* A differential folded file read as one profile is its BASE column:
 * a note on stderr says so. */
void note_differential(const struct options *o, const struct model *m);

#endif
