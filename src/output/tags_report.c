#include "tags_report.h"

#include <stdlib.h>
#include <string.h>

#include "base/escape.h"
#include "transform/transform.h"
#include "base/units.h"
#include "base/util.h"

struct tag_value {
	str_t key;
	char text[128];
	double value;
};

static int by_key_then_value(const void *pa, const void *pb)
{
	const struct tag_value *a = pa, *b = pb;
	if (a->key != b->key)
		return a->key < b->key ? -1 : 1;
	if (a->value != b->value)
		return a->value > b->value ? -1 : 1;
	return strcmp(a->text, b->text);
}

/* One entry per (key, value), with the value of every sample carrying
 * it; a sample counts once per distinct value. */
static struct tag_value *collect(const struct model *m, unsigned type, size_t *n)
{
	struct tag_value *out = NULL;
	size_t count = 0, cap = 0;
	for (size_t i = 0; i < m->nlabels; i++) {
		const struct sample_label *l = &m->labels[i];
		struct tag_value tv = { .key = l->key };
		transform_label_text(m, l, tv.text, sizeof(tv.text));
		size_t k = 0;
		while (k < count && (out[k].key != tv.key || strcmp(out[k].text, tv.text)))
			k++;
		if (k == count) {
			GROW(out, cap, count + 1);
			out[count++] = tv;
		}
		out[k].value += transform_label_row_value(m, l->row, type);
	}
	qsort(out, count, sizeof(*out), by_key_then_value);
	*n = count;
	return out;
}

static double key_total(const struct tag_value *v, size_t n, size_t first)
{
	double total = 0;
	for (size_t i = first; i < n && v[i].key == v[first].key; i++)
		total += v[i].value;
	return total;
}

static void print_text(FILE *out, const struct model *m, unsigned type,
		       const struct tag_value *v, size_t n)
{
	for (size_t i = 0; i < n;) {
		double total = key_total(v, n, i);
		char key[128], amount[32], percent[16], text[256];
		escape_text(model_str(m, v[i].key), key, sizeof(key));
		format_value(m, type, total, amount, sizeof(amount));
		fprintf(out, " %s: Total %s\n", key, amount);
		str_t this_key = v[i].key;
		for (; i < n && v[i].key == this_key; i++) {
			format_value(m, type, v[i].value, amount, sizeof(amount));
			format_percent(v[i].value, total, percent, sizeof(percent));
			escape_text(v[i].text, text, sizeof(text));
			fprintf(out, "%15s (%7s): %s\n", amount, percent, text);
		}
		fprintf(out, "\n");
	}
}

void tags_report_print(FILE *out, const char *file, const struct model *m,
		       unsigned type, enum report_format format)
{
	size_t n;
	struct tag_value *v = collect(m, type, &n);
	if (format == REPORT_TEXT) {
		char safe[1024];
		escape_text(file, safe, sizeof(safe));
		fprintf(out, "# wprof-tui tags report\n# file: %s   sample type: %s (%s)\n", safe,
			model_str(m, m->types[type].name), model_str(m, m->types[type].unit));
		if (!n)
			fprintf(out, "# this profile has no labels\n");
		print_text(out, m, type, v, n);
	} else if (format == REPORT_CSV) {
		fputs("key,value,total\n", out);
		for (size_t i = 0; i < n; i++) {
			csv_field(out, model_str(m, v[i].key));
			fputc(',', out);
			csv_field(out, v[i].text);
			fputc(',', out);
			csv_number(out, v[i].value);
			fputc('\n', out);
		}
	} else {
		fputs("{\"file\":", out);
		json_string(out, file);
		fputs(",\"tags\":[", out);
		for (size_t i = 0; i < n; i++) {
			fputs(i ? ",{\"key\":" : "{\"key\":", out);
			json_string(out, model_str(m, v[i].key));
			fputs(",\"value\":", out);
			json_string(out, v[i].text);
			fputs(",\"total\":", out);
			json_number(out, v[i].value);
			fputs("}", out);
		}
		fputs("]}\n", out);
	}
	free(v);
}
