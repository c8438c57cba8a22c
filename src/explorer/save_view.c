#include "save_view.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/escape.h"
#include "output/export.h"
#include "output/report.h"

void app_save_start(struct app *a)
{
	struct line_edit *e = &a->prompts.save;
	line_edit_start(e);
	const char *name = strcmp(a->ctx.model->format, "cpuprofile")
		? "wprof-view.pb.gz" : "wprof-view.cpuprofile";
	for (const char *c = name; *c; c++)
		line_edit_insert(e, *c);
	a->prompts.saving = true;
}

static bool ends_with(const char *s, const char *end)
{
	size_t n = strlen(s), m = strlen(end);
	return n >= m && !strcmp(s + n - m, end);
}

/* The pane's rows as they are open, with the range and filters in the
 * report's header. */
static bool write_rows(struct app *a, const char *path, enum report_format format,
		       char *err, size_t cap)
{
	FILE *out = fopen(path, "w");
	if (!out) {
		snprintf(err, cap, "cannot write it");
		return false;
	}
	char range[160] = "", crumb[900];
	if (a->range.cut)
		app_describe_range(a, true, range, sizeof(range));
	app_breadcrumb(a, crumb, sizeof(crumb));
	char *filters[] = { crumb };
	struct pane *p = app_pane(a);
	struct report rep = { a->file, a->current, format, &p->view, NULL,
			      range[0] ? range : NULL, filters, crumb[0] ? 1 : 0 };
	report_print(out, &rep);
	if (fclose(out) != 0) {
		snprintf(err, cap, "the disk refused it");
		return false;
	}
	return true;
}

/* The profile itself; a note on what the format could not hold is kept
 * for the message line. */
static bool write_profile(struct app *a, const char *path, enum export_format format,
			  char *note, size_t note_cap, char *err, size_t cap)
{
	char *notes = NULL;
	size_t len = 0;
	FILE *said = open_memstream(&notes, &len);
	/* A filter's level is a view that keeps the nodes it hides (filter_view.h):
	 * the file gets the copy, which holds only what the filters leave. */
	struct model copy;
	const char *why_not;
	bool copied = a->filters.nlevels && a->filters.nlevels == a->filters.applied.n &&
		      model_transform(a->original, a->filters.applied.items, a->filters.applied.n,
				      &copy, &why_not);
	bool ok = export_model(copied ? &copy : a->ctx.model, a->ctx.type, format, path, said,
			       err, cap);
	if (copied)
		model_free(&copy);
	if (said)
		fclose(said);
	if (notes && *notes) {
		const char *text = strncmp(notes, "wprof-tui: ", 11) ? notes : notes + 11;
		snprintf(note, note_cap, " (%.*s)", (int)strcspn(text, "\n"), text);
	}
	free(notes);
	return ok;
}

void app_save_view(struct app *a, const char *path)
{
	char safe[300], err[256] = "", note[200] = "";
	escape_text(path, safe, sizeof(safe));
	if (!*path) {
		app_message(a, "nothing written: no file name");
		return;
	}
	if (access(path, F_OK) == 0) {
		app_message(a, "%s exists: nothing written (w again, another name)", safe);
		return;
	}
	bool ok;
	if (ends_with(path, ".cpuprofile"))
		ok = write_profile(a, path, EXPORT_CPUPROFILE, note, sizeof(note), err, sizeof(err));
	else if (ends_with(path, ".pb.gz") || ends_with(path, ".pprof"))
		ok = write_profile(a, path, EXPORT_PPROF, note, sizeof(note), err, sizeof(err));
	else if (ends_with(path, ".folded"))
		ok = write_profile(a, path, EXPORT_FOLDED, note, sizeof(note), err, sizeof(err));
	else if (ends_with(path, ".txt"))
		ok = write_rows(a, path, REPORT_TEXT, err, sizeof(err));
	else if (ends_with(path, ".csv"))
		ok = write_rows(a, path, REPORT_CSV, err, sizeof(err));
	else if (ends_with(path, ".json"))
		ok = write_rows(a, path, REPORT_JSON, err, sizeof(err));
	else {
		app_message(a, "%s: end it in .cpuprofile .pb.gz .pprof .folded .txt .csv .json",
			    safe);
		return;
	}
	if (ok)
		app_message(a, "wrote %s%s", safe, note);
	else
		app_message(a, "%s: %s", safe, err);
}
