#include "v8_frame.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"

/* Lines and columns are shown (and exported) one higher than a 0-based
 * file gives them: the largest the rest of the program can take. */
#define MAX_LINE 2147483646.0
#define MAX_TICKS 1e12

/* The kind of a V8 (or XS) call frame: its meta names ((root), (idle),
 * (garbage collector), XS's (host) and (gc)), WebAssembly, native code
 * (no url, no line) or JavaScript. */
static enum frame_kind v8_frame_kind(const char *name, const char *url, int32_t line)
{
	static const struct {
		const char *name;
		enum frame_kind kind;
	} meta[] = {
		{ "(root)", KIND_ROOT },	  { "(host)", KIND_ROOT },
		{ "(program)", KIND_PROGRAM },	  { "(idle)", KIND_IDLE },
		{ "(garbage collector)", KIND_GC }, { "(gc)", KIND_GC },
	};
	for (size_t i = 0; name[0] == '(' && i < ARRAY_LEN(meta); i++)
		if (!strcmp(name, meta[i].name))
			return meta[i].kind;
	if (!strncmp(url, "wasm://", 7) || strstr(name, "wasm-function"))
		return KIND_WASM;
	if (!*url && line < 0)
		return KIND_NATIVE;
	return KIND_JS;
}

void v8_reader_start(struct v8_reader *R, struct json *j, struct input *in,
		     struct model *m, struct load_error *err, const char *format)
{
	json_init(j, in);
	*R = (struct v8_reader){ .s = { .j = j, .err = err, .format = format }, .m = m };
	if (input_fill(in, 3) >= 3 && !memcmp(in->buf + in->pos, "\xef\xbb\xbf", 3))
		in->pos += 3;
}

/* The next token, which must be `want` or null; else "WHAT is not
 * A" (the message is made only then: these run for every node). */
static bool next_or_null(struct v8_reader *R, enum json_token want, const char *what,
			 const char *a, bool *present)
{
	enum json_token t = json_next(R->s.j);
	if (t == JSON_ERROR)
		return json_sink_error(&R->s);
	*present = t != JSON_NULL;
	return t == want || t == JSON_NULL ||
	       json_sink_fail_here(&R->s, "%s is not %s", what, a);
}

struct v8_frame v8_frame_unknown(struct model *m)
{
	return (struct v8_frame){
		.name = model_string(m, "", 0),
		.url = model_string(m, "", 0),
		.line = -1,
		.column = -1,
	};
}

static bool read_string(struct v8_reader *R, const char *what, str_t *out)
{
	bool present;
	if (!next_or_null(R, JSON_STRING, what, "a string", &present))
		return false;
	*out = present ? model_string(R->m, R->s.j->str, R->s.j->str_len)
		       : model_string(R->m, "", 0);
	return true;
}

/* A number, or null (*present false); beyond `limit` is an error. */
static bool read_number(struct v8_reader *R, const char *what, double limit,
			double *out, bool *present)
{
	if (!next_or_null(R, JSON_NUMBER, what, "a number", present))
		return false;
	if (!*present)
		return true;
	*out = R->s.j->num;
	return fabs(*out) <= limit ||
	       json_sink_fail_here(&R->s, "%s %.15g is out of range", what, *out);
}

/* A line or column: null is unknown (-1), as is anything below -1. */
static bool read_line(struct v8_reader *R, const char *what, int32_t *out)
{
	double v = -1;
	bool present;
	if (!read_number(R, what, MAX_LINE, &v, &present))
		return false;
	if (present && v != floor(v))
		return json_sink_fail_here(&R->s, "%s %g is not a whole number", what, v);
	*out = present && v >= -1 ? (int32_t)v : -1;
	return true;
}

bool v8_read_frame_field(struct v8_reader *R, struct v8_frame *f, bool *known)
{
	*known = true;
	if (json_key_is(R->s.j, "functionName"))
		return read_string(R, "functionName", &f->name);
	if (json_key_is(R->s.j, "url"))
		return read_string(R, "url", &f->url);
	if (json_key_is(R->s.j, "lineNumber"))
		return read_line(R, "lineNumber", &f->line);
	if (json_key_is(R->s.j, "columnNumber"))
		return read_line(R, "columnNumber", &f->column);
	*known = false;
	return true;
}

/* Whether `word` comes next in p[..end), which it then passes. */
static bool passes(const uint8_t **p, const uint8_t *end, const char *word)
{
	size_t len = strlen(word);
	if ((size_t)(end - *p) < len || memcmp(*p, word, len))
		return false;
	*p += len;
	return true;
}

/* A string that needs no unescaping next in p[..end), which it then
 * passes: its bytes in *text. */
static bool passes_plain_string(const uint8_t **p, const uint8_t *end, const char **text,
				size_t *len)
{
	if (*p == end || **p != '"')
		return false;
	const uint8_t *from = *p + 1;
	size_t stop = json_plain_run_end(from, 0, (size_t)(end - from));
	if (from + stop == end || from[stop] != '"')
		return false;
	*text = (const char *)from;
	*len = stop;
	*p = from + stop + 1;
	return true;
}

/* A line or column as read_line reads the usual ones: -1, or a whole
 * number of up to nine digits. */
static bool passes_line(const uint8_t **p, const uint8_t *end, int32_t *line)
{
	uint32_t v;
	if (passes(p, end, "-1")) {
		*line = -1;
		return true;
	}
	if (!json_passes_small_whole(p, end, &v))
		return false;
	*line = (int32_t)v;
	return true;
}

/* The usual callFrame, as V8 writes it: :{"functionName":"…","scriptId":
 * "…","url":"…","lineNumber":N,"columnNumber":N} with strings that need
 * no unescaping and no white space, all in the bytes at hand after the
 * key.  Read at once rather than token by token (every node has one);
 * false, nothing read, for anything else, which the general reading
 * takes: both give the same frame, its strings interned in the same
 * order. */
static bool usual_call_frame(struct v8_reader *R, struct v8_frame *f)
{
	const struct input *in = R->s.j->in;
	const uint8_t *start = in->buf + in->pos, *p = start, *end = in->buf + in->len;
	const char *name, *script, *url;
	size_t name_len, script_len, url_len;
	int32_t line, column;
	if (!(passes(&p, end, ":{\"functionName\":") &&
	      passes_plain_string(&p, end, &name, &name_len) &&
	      passes(&p, end, ",\"scriptId\":") &&
	      passes_plain_string(&p, end, &script, &script_len) &&
	      passes(&p, end, ",\"url\":") && passes_plain_string(&p, end, &url, &url_len) &&
	      passes(&p, end, ",\"lineNumber\":") && passes_line(&p, end, &line) &&
	      passes(&p, end, ",\"columnNumber\":") && passes_line(&p, end, &column) &&
	      passes(&p, end, "}")))
		return false;
	/* Interned while the bytes are at hand, should moving on refill them
	 * (it cannot: they are at hand); were it to fail, the general reading
	 * interns the same strings in the same order. */
	str_t name_here = model_string(R->m, name, name_len);
	str_t url_here = model_string(R->m, url, url_len);
	if (!json_skip_value_to(R->s.j, input_offset(in) + (uint64_t)(p - start)))
		return false;
	f->name = name_here;
	f->url = url_here;
	f->line = line;
	f->column = column;
	return true;
}

bool v8_read_call_frame(struct v8_reader *R, struct v8_frame *f)
{
	if (usual_call_frame(R, f))
		return true;
	bool present;
	if (!next_or_null(R, JSON_OBJECT, "callFrame", "an object", &present))
		return false;
	if (!present)
		return true;
	enum json_token t;
	while ((t = json_each_key(&R->s)) == JSON_KEY) {
		bool known;
		if (!v8_read_frame_field(R, f, &known) ||
		    (!known && !json_sink_skip(&R->s)))
			return false;
	}
	return t != JSON_ERROR;
}

static bool read_tick(struct v8_reader *R, struct v8_ticks *tk)
{
	enum json_token t;
	while ((t = json_each_key(&R->s)) == JSON_KEY) {
		bool ok, present = true;
		if (json_key_is(R->s.j, "line"))
			ok = read_line(R, "positionTicks line", &tk->line);
		else if (json_key_is(R->s.j, "ticks"))
			ok = read_number(R, "positionTicks ticks", MAX_TICKS, &tk->ticks, &present) &&
			     (present || json_sink_fail_here(&R->s, "positionTicks ticks is not a number"));
		else
			ok = json_sink_skip(&R->s);
		if (!ok)
			return false;
	}
	return t != JSON_ERROR;
}

/* The usual positionTicks, as V8 writes them: :[{"line":N,"ticks":M},
 * ...] with whole numbers and no white space, all in the bytes at hand
 * after the key.  Read at once rather than token by token (hundreds of
 * thousands of nodes have them); false, nothing read, for anything else,
 * which the general reading takes: both give the same ticks. */
static bool usual_position_ticks(struct v8_reader *R, uint32_t node, struct v8_ticks **ticks,
				 size_t *n, size_t *cap)
{
	const struct input *in = R->s.j->in;
	const uint8_t *start = in->buf + in->pos, *p = start, *end = in->buf + in->len;
	size_t first = *n;
	bool usual = passes(&p, end, ":[") && p < end && *p != ']', closed = false;
	while (usual && !closed) {
		uint32_t line, count;
		usual = passes(&p, end, "{\"line\":") && json_passes_small_whole(&p, end, &line) &&
			passes(&p, end, ",\"ticks\":") && json_passes_small_whole(&p, end, &count) &&
			passes(&p, end, "}") && p < end;
		if (!usual)
			break;
		GROW(*ticks, *cap, *n + 1);
		(*ticks)[(*n)++] = (struct v8_ticks){ node, (int32_t)line, (double)count };
		closed = *p == ']';
		usual = closed || *p == ',';
		p++;
	}
	if (usual && json_skip_value_to(R->s.j, input_offset(in) + (uint64_t)(p - start)))
		return true;
	*n = first;
	return false;
}

bool v8_read_position_ticks(struct v8_reader *R, uint32_t node, struct v8_ticks **ticks,
			    size_t *n, size_t *cap)
{
	if (usual_position_ticks(R, node, ticks, n, cap))
		return true;
	bool present;
	if (!next_or_null(R, JSON_ARRAY, "positionTicks", "an array", &present))
		return false;
	if (!present)
		return true;
	for (;;) {
		enum json_token t = json_next(R->s.j);
		if (t == JSON_ARRAY_END)
			return true;
		if (t == JSON_ERROR)
			return json_sink_error(&R->s);
		if (t != JSON_OBJECT)
			return json_sink_fail_here(&R->s, "a positionTicks entry is not an object");
		struct v8_ticks tk = { node, -1, 0 };
		if (!read_tick(R, &tk))
			return false;
		GROW(*ticks, *cap, *n + 1);
		(*ticks)[(*n)++] = tk;
	}
}

/* One entry of a "children" array: a nested node (pushed), or an id. */
static bool read_child(struct v8_reader *R, const struct v8_tree_ops *ops, void *ctx,
		       enum json_token t, uint32_t parent, uint32_t *pushed)
{
	*pushed = NO_ID;
	if (t == JSON_OBJECT) {
		*pushed = ops->node(ctx, parent);
		return true;
	}
	if (!ops->child_id)
		return json_sink_fail_here(&R->s, "a child is not a node object");
	if (t != JSON_NUMBER)
		return json_sink_fail_here(&R->s, "a child is neither a node id nor a node");
	return ops->child_id(ctx, parent, R->s.j->num, R->s.j->token_offset);
}

bool v8_read_tree(struct v8_reader *R, const struct v8_tree_ops *ops, void *ctx)
{
	struct level {
		uint32_t node;
		bool in_children;
	} *stack = NULL;
	size_t sp = 0, cap = 0;
	bool ok = false;
	GROW(stack, cap, 1);
	stack[sp++] = (struct level){ ops->node(ctx, NO_ID), false };
	while (sp) {
		struct level *top = &stack[sp - 1];
		enum json_token t = json_next(R->s.j);
		uint32_t child;
		if (t == JSON_ERROR) {
			json_sink_error(&R->s);
			goto out;
		}
		if (top->in_children) {
			top->in_children = t != JSON_ARRAY_END;
			if (top->in_children && !read_child(R, ops, ctx, t, top->node, &child))
				goto out;
			if (top->in_children && child != NO_ID) {
				GROW(stack, cap, sp + 1);
				stack[sp++] = (struct level){ child, false };
			}
		} else if (t == JSON_OBJECT_END) {
			sp--;
		} else if (json_key_is(R->s.j, "children")) {
			bool present;
			if (!next_or_null(R, JSON_ARRAY, "children", "an array", &present))
				goto out;
			top->in_children = present;
		} else if (!ops->key(ctx, top->node, R->s.j->str)) {
			goto out;
		}
	}
	ok = true;
out:
	free(stack);
	return ok;
}

uint32_t v8_intern_frame(struct model *m, const struct v8_frame *f)
{
	const char *name = model_str(m, f->name);
	struct frame frame = {
		.name = f->name,
		.url = f->url,
		.extra = STR_NONE,
		.line = f->line,
		.column = f->column,
		.kind = (uint8_t)v8_frame_kind(name, model_str(m, f->url), f->line),
		.flags = f->flags,
	};
	if (!*name) /* after the kind: a new string may move the others */
		frame.name = model_string(m, "(anonymous)", 11);
	return model_intern_frame(m, &frame);
}
