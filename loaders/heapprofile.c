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

#include "../src/util.h"
#include "json.h"
#include "loaders.h"
#include "v8_frame.h"

#define MAX_SIZE 1e18     /* bytes: beyond, not a heap */

struct heap_record {
	str_t name, url;
	int32_t line, column;
	double self;
	uint32_t parent; /* NO_ID for the head */
};

struct heap_loader {
	struct json j;
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
	return load_fail(L->err, "heapprofile: %s at byte %llu", L->j.error,
			 (unsigned long long)L->j.error_offset);
}

static bool fail_here(struct heap_loader *L, const char *what)
{
	return load_fail(L->err, "heapprofile: %s at byte %llu", what,
			 (unsigned long long)L->j.token_offset);
}

static bool next_token(struct heap_loader *L, enum json_token want, const char *what)
{
	enum json_token t = json_next(&L->j);
	if (t == JSON_ERROR)
		return json_error(L);
	return t == want || fail_here(L, what);
}

static bool read_number(struct heap_loader *L, const char *what, double limit,
			bool whole, double *out)
{
	char why[96];
	if (!next_token(L, JSON_NUMBER, what))
		return false;
	*out = L->j.num;
	if (fabs(*out) > limit || (whole && *out != floor(*out))) {
		snprintf(why, sizeof(why), "%s %g is out of range", what, *out);
		return fail_here(L, why);
	}
	return true;
}

static bool skip_value(struct heap_loader *L)
{
	return json_skip(&L->j, json_next(&L->j)) || json_error(L);
}

static bool read_string(struct heap_loader *L, const char *what, str_t *out)
{
	enum json_token t = json_next(&L->j);
	if (t == JSON_ERROR)
		return json_error(L);
	if (t != JSON_STRING)
		return fail_here(L, what);
	*out = model_string(L->m, L->j.str, L->j.str_len);
	return true;
}

static bool read_call_frame(struct heap_loader *L, uint32_t slot)
{
	if (!next_token(L, JSON_OBJECT, "callFrame is not an object"))
		return false;
	for (;;) {
		enum json_token t = json_next(&L->j);
		if (t == JSON_OBJECT_END)
			return true;
		if (t != JSON_KEY)
			return json_error(L);
		struct heap_record *r = &L->records[slot];
		double v = -1;
		bool ok;
		if (!strcmp(L->j.str, "functionName")) {
			ok = read_string(L, "functionName is not a string", &r->name);
		} else if (!strcmp(L->j.str, "url")) {
			ok = read_string(L, "url is not a string", &r->url);
		} else if (!strcmp(L->j.str, "lineNumber") || !strcmp(L->j.str, "columnNumber")) {
			int32_t *field = L->j.str[0] == 'l' ? &r->line : &r->column;
			ok = read_number(L, "a line or column", 2147483647.0, true, &v);
			*field = v < -1 ? -1 : (int32_t)v;
		} else {
			ok = skip_value(L);
		}
		if (!ok)
			return false;
	}
}

static uint32_t new_record(struct heap_loader *L, uint32_t parent)
{
	GROW(L->records, L->records_cap, L->nrecords + 1);
	L->records[L->nrecords] = (struct heap_record){
		.name = model_string(L->m, "", 0), .url = model_string(L->m, "", 0),
		.line = -1, .column = -1, .parent = parent,
	};
	return (uint32_t)L->nrecords++;
}

static bool read_node_key(struct heap_loader *L, uint32_t slot)
{
	double v;
	if (!strcmp(L->j.str, "callFrame"))
		return read_call_frame(L, slot);
	if (!strcmp(L->j.str, "selfSize")) {
		if (!read_number(L, "selfSize", MAX_SIZE, false, &v))
			return false;
		if (v < 0)
			return fail_here(L, "a negative selfSize");
		L->records[slot].self = v;
		return true;
	}
	return skip_value(L);
}

/* The head and its descendants, with an explicit stack: a tree can be as
 * deep as the file is long. */
static bool read_tree(struct heap_loader *L)
{
	struct level {
		uint32_t slot;
		bool in_children;
	} *stack = NULL;
	size_t sp = 0, cap = 0;
	bool ok = false;
	if (!next_token(L, JSON_OBJECT, "head is not an object"))
		return false;
	L->have_head = true;
	GROW(stack, cap, 1);
	stack[sp++] = (struct level){ new_record(L, NO_ID), false };
	while (sp) {
		struct level *top = &stack[sp - 1];
		enum json_token t = json_next(&L->j);
		if (t == JSON_ERROR) {
			json_error(L);
			goto out;
		}
		if (top->in_children) {
			if (t == JSON_ARRAY_END) {
				top->in_children = false;
			} else if (t == JSON_OBJECT) {
				uint32_t child = new_record(L, top->slot);
				GROW(stack, cap, sp + 1);
				stack[sp++] = (struct level){ child, false };
			} else {
				fail_here(L, "a child is not a node object");
				goto out;
			}
		} else if (t == JSON_OBJECT_END) {
			sp--;
		} else if (!strcmp(L->j.str, "children")) {
			if (!next_token(L, JSON_ARRAY, "children is not an array"))
				goto out;
			top->in_children = true;
		} else if (!read_node_key(L, top->slot)) {
			goto out;
		}
	}
	ok = true;
out:
	free(stack);
	return ok;
}

static bool read_document(struct heap_loader *L)
{
	if (input_fill(L->j.in, 3) >= 3 && !memcmp(L->j.in->buf + L->j.in->pos, "\xef\xbb\xbf", 3))
		L->j.in->pos += 3;
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
	str_t anonymous = model_string(m, "(anonymous)", 11);
	for (uint32_t s = 0; s < L->nrecords; s++) {
		const struct heap_record *r = &L->records[s];
		const char *name = model_str(m, r->name);
		struct frame f = {
			.name = *name ? r->name : anonymous, .url = r->url, .extra = STR_NONE,
			.line = r->line, .column = r->column,
			.kind = (uint8_t)v8_frame_kind(name, model_str(m, r->url), r->line),
		};
		uint32_t node = model_add_node(m, model_intern_frame(m, &f)); /* == s */
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
	json_init(&L.j, in);
	bool ok = read_document(&L);
	if (ok)
		build_model(&L);
	json_free(&L.j);
	free(L.records);
	if (!ok)
		model_free(m);
	return ok;
}
