/* Sampling heap profiles (.heapprofile): the Chrome DevTools Protocol's
 * HeapProfiler.SamplingHeapProfile, as `node --heap-prof` and Chrome's
 * Memory panel write it: a `head` tree of nodes (`callFrame`, `selfSize`
 * in bytes, `id`, `children`) and optionally `samples` ({size, nodeId,
 * ordinal}).  The bytes are the tree's selfSize, what DevTools shows.
 * The samples are not read: Node writes samples of nodes that are not in
 * the tree (allocated after the tree was taken), and their sizes are
 * scaled differently from selfSize. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "json.h"
#include "loaders.h"
#include "v8_frame.h"

#define MAX_SIZE 1e18     /* bytes: beyond, not a heap */

struct heap_record {
	struct v8_frame frame;
	double self;
	uint32_t parent; /* NO_ID for the head */
};

struct heap_loader {
	struct json j;
	struct v8_reader reader;
	struct model *m;
	struct load_error *err;
	struct heap_record *records;
	size_t nrecords, records_cap;
	bool have_head;
};

static bool skip_space(const uint8_t *head, size_t len, size_t *i)
{
	while (*i < len && strchr(" \t\r\n", head[*i]))
		(*i)++;
	return *i < len;
}

static bool contains(const uint8_t *head, size_t len, const char *text)
{
	return memmem(head, len, text, strlen(text)) != NULL;
}

/* A JSON object whose first node shows a callFrame with a selfSize (a
 * legacy .cpuprofile's "head" has hitCount instead). */
bool sniff_heapprofile(const uint8_t *head, size_t len)
{
	size_t i = len >= 3 && !memcmp(head, "\xef\xbb\xbf", 3) ? 3 : 0;
	if (!skip_space(head, len, &i) || head[i] != '{')
		return false;
	return contains(head, len, "\"head\"") && contains(head, len, "\"selfSize\"") &&
	       contains(head, len, "\"callFrame\"") && !contains(head, len, "\"hitCount\"");
}

static bool json_error(struct heap_loader *L)
{
	return v8_json_error(&L->reader);
}

static bool fail_here(struct heap_loader *L, const char *what)
{
	return v8_fail_here(&L->reader, what);
}

static bool next_token(struct heap_loader *L, enum json_token want, const char *what)
{
	enum json_token t = json_next(&L->j);
	if (t == JSON_ERROR)
		return json_error(L);
	return t == want || fail_here(L, what);
}

static bool read_number(struct heap_loader *L, const char *what, double limit,
			double *out)
{
	char why[96];
	if (!next_token(L, JSON_NUMBER, what))
		return false;
	*out = L->j.num;
	if (fabs(*out) > limit) {
		snprintf(why, sizeof(why), "%s %g is out of range", what, *out);
		return fail_here(L, why);
	}
	return true;
}

static bool skip_value(struct heap_loader *L)
{
	return json_skip(&L->j, json_next(&L->j)) || json_error(L);
}

static uint32_t new_record(void *ctx, uint32_t parent)
{
	struct heap_loader *L = ctx;
	GROW(L->records, L->records_cap, L->nrecords + 1);
	L->records[L->nrecords] = (struct heap_record){
		.frame = v8_frame_unknown(L->m), .parent = parent,
	};
	return (uint32_t)L->nrecords++;
}

static bool read_node_key(void *ctx, uint32_t slot, const char *key)
{
	struct heap_loader *L = ctx;
	double v;
	if (!strcmp(key, "callFrame"))
		return v8_read_call_frame(&L->reader, &L->records[slot].frame);
	if (!strcmp(key, "selfSize")) {
		if (!read_number(L, "selfSize", MAX_SIZE, &v))
			return false;
		if (v < 0)
			return fail_here(L, "a negative selfSize");
		L->records[slot].self = v;
		return true;
	}
	return skip_value(L);
}

/* The head and its descendants: children are nested nodes. */
static bool read_tree(struct heap_loader *L)
{
	static const struct v8_tree_ops ops = { new_record, read_node_key, NULL };
	if (!next_token(L, JSON_OBJECT, "head is not an object"))
		return false;
	L->have_head = true;
	return v8_read_tree(&L->reader, &ops, L);
}

static bool read_document(struct heap_loader *L)
{
	if (!next_token(L, JSON_OBJECT, "expected a JSON object"))
		return false;
	for (;;) {
		enum json_token t = json_next(&L->j);
		if (t == JSON_OBJECT_END)
			break;
		if (t != JSON_KEY)
			return json_error(L);
		bool ok;
		if (!strcmp(L->j.str, "head"))
			ok = !L->have_head ? read_tree(L) : fail_here(L, "a second \"head\"");
		else
			ok = skip_value(L);
		if (!ok)
			return false;
	}
	if (json_next(&L->j) != JSON_END)
		return json_error(L);
	if (!L->have_head)
		return load_fail(L->err, "heapprofile: no \"head\" node tree");
	return true;
}

/* ---- the model -------------------------------------------------------- */

static void build_model(struct heap_loader *L)
{
	struct model *m = L->m;
	unsigned space = model_add_sample_type(m, "space", "bytes");
	for (uint32_t s = 0; s < L->nrecords; s++) {
		const struct heap_record *r = &L->records[s];
		uint32_t frame = v8_intern_frame(m, &r->frame);
		uint32_t node = model_add_node(m, frame); /* == s */
		if (r->parent != NO_ID)
			model_add_edge(m, r->parent, node);
		model_add_node_value(m, node, space, r->self);
	}
	uint32_t cycle;
	model_finish(m, &cycle); /* nested objects make a tree: no cycle */
}

bool load_heapprofile(struct input *in, struct model *m,
		      const struct load_options *opt, struct load_error *err)
{
	(void)opt;
	struct heap_loader L = { .m = m, .err = err };
	model_init(m, "heapprofile");
	m->lines_zero_based = true;
	v8_reader_start(&L.reader, &L.j, in, m, err, "heapprofile: ");
	bool ok = read_document(&L);
	if (ok)
		build_model(&L);
	json_free(&L.j);
	free(L.records);
	if (!ok)
		model_free(m);
	return ok;
}
