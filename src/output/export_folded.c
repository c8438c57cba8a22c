/* Folded stacks ("a;b;c 42"), the input of flame graph tools
 * (export_writers.h). */
#include "export_writers.h"

#include <stdlib.h>
#include <string.h>

#include "base/escape.h"
#include "base/util.h"

/* Folded lines have no quoting: ';' would split a frame, so it becomes a
 * look-alike; newlines and every other control are spelled out (\n, \e,
 * \u202e) as on screen, since flame graph tools show the text as is. */
static void folded_name(FILE *out, const char *name)
{
	char *plain = xstrdup(name);
	for (char *c = plain; (c = strchr(c, ';')); c++)
		*c = ':';
	escape_text_to(out, plain);
	free(plain);
}

/* The stack from the root down to `node`, ';' between frames.  Without
 * recursion: a stack may be a million frames deep.  *path is scratch
 * space kept across calls. */
static void folded_path(const struct exporter *x, uint32_t node, uint32_t **path,
			size_t *cap)
{
	const struct model *m = x->m;
	size_t depth = 0;
	for (uint32_t at = node; at != NO_ID; at = m->nodes[at].parent) {
		GROW(*path, *cap, depth + 1);
		(*path)[depth++] = at;
	}
	while (depth--) {
		folded_name(x->out, model_str(m, m->frames[m->nodes[(*path)[depth]].frame].name));
		if (depth)
			fputc(';', x->out);
	}
}

void write_folded(struct exporter *x)
{
	const struct model *m = x->m;
	note_one_type(x);
	size_t negative = 0, path_cap = 0;
	uint32_t *path = NULL;
	for (uint32_t i = 0; i < item_count(x); i++) {
		double v = self_value(x, i, x->type);
		negative += v < 0;
		if (!(v > 0)) /* flame graph tools take no negative widths */
			continue;
		if (x->whole_stacks)
			folded_path(x, i, &path, &path_cap);
		else
			folded_name(x->out, model_str(m, m->frames[i].name));
		fputc(' ', x->out);
		write_number(x->out, v);
		fputc('\n', x->out);
	}
	free(path);
	if (negative)
		fprintf(x->notes, "wprof-tui: note: %zu negative self value%s cannot be "
			"expressed in folded stacks: left out\n", negative, negative == 1 ? "" : "s");
}

