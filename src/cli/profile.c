/* Reading the profiles the command line names and making them ready for
 * a command (profile.h). */
#include "profile.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/complain.h"
#include "base/util.h"
#include "input/fetch.h"
#include "transform/symbolize.h"

/* A progress line for files that take more than a moment to read. */
static void show_progress(const struct input *in)
{
	static int last = -1;
	if (in->raw_size < (64u << 20) || !isatty(STDERR_FILENO))
		return;
	int percent = (int)(100.0 * (double)in->raw_done / (double)in->raw_size);
	if (percent == last)
		return;
	last = percent;
	fprintf(stderr, "\rwprof-tui: reading %d%%", percent);
	if (percent >= 100)
		fprintf(stderr, "\r\033[K");
}

/* A fetch that waits for a profile being taken: how long, on a
 * terminal ("fetching 30 s profile… 12 s"), then the line cleared. */
static void show_fetch_progress(double waited, long seconds, bool done)
{
	if (!isatty(STDERR_FILENO))
		return;
	if (done) {
		fprintf(stderr, "\r\033[K");
		return;
	}
	if (seconds)
		fprintf(stderr, "\rwprof-tui: fetching %ld s profile… %.0f s", seconds, waited);
	else
		fprintf(stderr, "\rwprof-tui: fetching… %.0f s", waited);
}

/* A URL (http://, https://) is fetched whole, then read like a file. */
static bool load_url_or_file(const char *file, const struct fetch_options *fetch,
			     const struct load_options *opt, struct model *m,
			     struct load_error *err)
{
	if (!fetch_is_url(file))
		return load_file(file, opt, m, err, show_progress);
	uint8_t *data;
	size_t len;
	struct fetch_options told = *fetch;
	told.progress = show_fetch_progress;
	if (!fetch_url(file, &told, &data, &len, err->message, sizeof(err->message)))
		return false;
	bool ok = load_memory(data, len, file, opt, m, err);
	free(data);
	return ok;
}

static void warn_of_map(void *ctx, const char *message)
{
	(void)ctx;
	complain("%s", message);
}

/* Frames renamed and placed by what the user has of their code, before
 * anything else sees the model (transform/symbolize.h). */
static bool symbolize_profile(const struct options *o, struct model *m)
{
	struct symbolize_options with = o->tui.symbolize;
	with.source = &o->tui.source;
	with.warn = warn_of_map;
	char why[1024];
	if (symbolize_loaded(m, &with, why, sizeof(why)))
		return true;
	complain("--symbols %s", why);
	model_free(m);
	return false;
}

bool load_profile(const struct options *o, const char *file,
		  const struct load_options *opt, struct model *m)
{
	struct load_error err;
	if (!load_url_or_file(file, &o->fetch, opt, m, &err)) {
		complain("%s: %s", file, err.message);
		return false;
	}
	if (m->warning != STR_NONE)
		complain("%s: warning: %s", file, model_str(m, m->warning));
	return symbolize_profile(o, m);
}

bool load_sides(const struct options *o, struct model sides[2],
		char names[2][1024], bool base_loaded)
{
	if (!base_loaded && !load_profile(o, o->file, &o->load, &sides[0]))
		return false;
	bool differential = !strcmp(sides[0].format, FORMAT_FOLDED_DIFFERENTIAL);
	if (o->new_file && differential) {
		model_free(&sides[0]);
		complain("%s: holds BASE and NEW already (two counts per stack): "
			 "give it alone", o->file);
		return false;
	}
	if (!o->new_file && !differential) {
		model_free(&sides[0]);
		usage_error("%s", "--diff needs two profiles: BASE NEW (or one "
			    "differential folded file)");
	}
	struct load_options second = o->load;
	second.count_column = 1;
	const char *other = o->new_file ? o->new_file : o->file;
	if (!load_profile(o, other, o->new_file ? &o->load : &second, &sides[1])) {
		model_free(&sides[0]);
		return false;
	}
	snprintf(names[0], sizeof(names[0]), "%s%s", o->file, differential ? " (BASE)" : "");
	snprintf(names[1], sizeof(names[1]), "%s%s", other, differential ? " (NEW)" : "");
	return true;
}

/* --granularity files, or lines where the loader has not read the
 * profile by line (load_options.by_line: pprof); addresses only the
 * loader reads (load_options.by_address). */
static bool granular_model(const struct options *o, const char *file, struct model *m)
{
	if (o->granularity == GRANULARITY_FUNCTIONS ||
	    (o->granularity == GRANULARITY_LINES && o->load.by_line && !strcmp(m->format, "pprof")) ||
	    (o->granularity == GRANULARITY_ADDRESSES && o->load.by_address && model_has_addresses(m)))
		return true;
	struct model by;
	const char *why;
	if (!model_by_granularity(m, o->granularity, &by, &why)) {
		complain("%s: --granularity %s: %s", file, granularity_name(o->granularity), why);
		return false;
	}
	/* m goes: what `by` borrowed of its timeline becomes its own. */
	model_own_timeline(&by);
	model_free(m);
	*m = by;
	return true;
}

bool filter_model(const struct options *o, const char *file, struct model *m)
{
	if (!granular_model(o, file, m))
		return false;
	if (!o->filters.n)
		return true;
	struct model out;
	const char *why;
	if (!model_transform(m, o->filters.items, o->filters.n, &out, &why)) {
		complain("%s: %s", file, why);
		return false;
	}
	model_free(m);
	*m = out;
	return true;
}

bool cut_to_range(const struct options *o, struct model *m, char *described,
		  size_t cap)
{
	char why[256];
	struct sample_range r;
	const char *why_not = why;
	struct model cut;
	bool ok = range_resolve(m, &o->range, &r, why, sizeof(why)) &&
		  model_cut_range(m, r, true, &cut, &why_not);
	if (!ok) {
		complain("%s: %s", o->file, why_not);
		return false;
	}
	range_describe(m, r, true, described, cap);
	snprintf(described + strlen(described), cap - strlen(described),
		 " (samples #%zu-#%zu)", r.first + 1, r.end);
	model_free(m);
	*m = cut;
	return true;
}

/* --sample-type: a name, else an index; any format may be asked. */
static bool pick_sample_type(const struct model *m, const char *wanted,
			     unsigned *out)
{
	if (!wanted || m->type_chosen_at_load) {
		*out = m->default_type;
		return true;
	}
	for (unsigned t = 0; t < m->ntypes; t++)
		if (!strcmp(model_str(m, m->types[t].name), wanted)) {
			*out = t;
			return true;
		}
	char *end;
	errno = 0;
	unsigned long index = strtoul(wanted, &end, 10);
	if (*wanted && !*end && !errno && index < m->ntypes) {
		*out = (unsigned)index;
		return true;
	}
	return false;
}

bool choose_sample_type(const struct options *o, const struct model *m,
			unsigned *type)
{
	if (pick_sample_type(m, o->load.sample_type, type))
		return true;
	char types[512] = "";
	for (unsigned t = 0; t < m->ntypes; t++)
		snprintf(types + strlen(types), sizeof(types) - strlen(types), "%s%u=%s",
			 t ? ", " : "", t, model_str(m, m->types[t].name));
	complain("%s: no sample type '%s' (it has %s)", o->file, o->load.sample_type, types);
	return false;
}

void note_differential(const struct options *o, const struct model *m)
{
	if (strcmp(m->format, FORMAT_FOLDED_DIFFERENTIAL))
		return;
	complain("note: %s holds two counts per stack: this is the first (BASE); "
		 "--report flat --diff or the explorer compares them", o->file);
}

void run_files_alloc(struct run_files *rf, const size_t n[2])
{
	for (int s = 0; s < 2; s++) {
		rf->n[s] = n[s];
		rf->models[s] = xcalloc(n[s], sizeof(struct model));
		rf->names[s] = xcalloc(n[s], sizeof(char *));
	}
}

void run_files_free(struct run_files *rf)
{
	for (int s = 0; s < 2; s++) {
		for (size_t i = 0; i < rf->n[s]; i++)
			model_free(&rf->models[s][i]);
		FREE_ALL(rf->models[s], rf->names[s]);
	}
}

bool load_run_files(const struct options *o, struct run_files *rf)
{
	const char *const *files[2] = { o->base_files, o->new_files };
	for (int s = 0; s < 2; s++)
		for (size_t i = 0; i < rf->n[s]; i++) {
			struct model m;
			rf->names[s][i] = files[s][i];
			if (!load_profile(o, files[s][i], &o->load, &m))
				return false;
			rf->models[s][i] = m; /* the others stay zero: freed as none */
			if (!strcmp(m.format, FORMAT_FOLDED_DIFFERENTIAL)) {
				complain("%s: holds BASE and NEW already (two counts per stack): "
					 "give it alone", files[s][i]);
				return false;
			}
		}
	return true;
}

bool filter_run_files(const struct options *o, struct run_files *rf)
{
	for (int s = 0; s < 2; s++)
		for (size_t i = 0; i < rf->n[s]; i++)
			if (!filter_model(o, rf->names[s][i], &rf->models[s][i]))
				return false;
	return true;
}
