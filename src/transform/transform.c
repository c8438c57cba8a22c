#include "transform.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/escape.h"
#include "transform_lines.h"
#include "base/util.h"
#include "symbolize.h"

/* ---- the stack ------------------------------------------------------------ */

static const char *const kind_names[TF_COUNT] = {
	[TF_FOCUS] = "focus",
	[TF_IGNORE] = "ignore",
	[TF_HIDE] = "hide",
	[TF_SHOW] = "show",
	[TF_PRUNE_FROM] = "prune_from",
	[TF_MERGE] = "merge",
	[TF_COLLAPSE_RECURSION] = "collapse_recursion",
	[TF_COLLAPSE_FILE] = "collapse",
	[TF_MINE] = "mine",
	[TF_TAGFOCUS] = "tagfocus",
	[TF_TAGIGNORE] = "tagignore",
	[TF_TAGROOT] = "tagroot",
};

ENUM_NAME_FN(transform_name, enum transform_kind, kind_names)
static ENUM_PARSE_FN(parse_underscored, enum transform_kind, kind_names)

/* "prune-from" as the command line spells it, "prune_from" as pprof. */
bool transform_kind_parse(const char *name, enum transform_kind *out)
{
	char plain[64];
	snprintf(plain, sizeof(plain), "%s", name);
	for (char *c = plain; *c; c++)
		if (*c == '-')
			*c = '_';
	return parse_underscored(plain, out);
}

bool transform_takes_text(enum transform_kind kind)
{
	return kind != TF_COLLAPSE_RECURSION && kind != TF_MINE;
}

static bool is_tag_filter(enum transform_kind kind)
{
	return kind == TF_TAGFOCUS || kind == TF_TAGIGNORE;
}

/* pprof: "key=re1,re2" matches a sample whose `key` label matches any of
 * the expressions; a bare "re" is matched against "key:value".  A value
 * that reads as a number or a range ("1", "1:12", "64kb:") is instead a
 * range of numeric labels' values (tag_range.h). */
static bool compile_pattern(struct transform *t, char *err, size_t cap)
{
	const char *re = t->text;
	char *alternatives = NULL;
	if (is_tag_filter(t->kind)) {
		const char *eq = strchr(t->text, '=');
		if (eq) {
			t->tag_key = xstrdup(t->text);
			t->tag_key[eq - t->text] = 0;
			re = eq + 1;
		}
		if (!*re) {
			snprintf(err, cap, "%s needs key=value or a value", transform_name(t->kind));
			return false;
		}
		if (tag_range_parse(re, &t->range)) {
			t->numeric = true;
			return true;
		}
		if (eq) {
			alternatives = xmalloc(3 * strlen(re) + 3);
			char *o = alternatives;
			*o++ = '(';
			for (const char *c = re; *c; c++)
				o += *c == ',' ? sprintf(o, ")|(") : (*o = *c, 1);
			strcpy(o, ")");
			re = alternatives;
		}
	}
	/* collapse names its frame by what matched */
	int flags = t->kind == TF_COLLAPSE_FILE ? REG_EXTENDED : REG_EXTENDED | REG_NOSUB;
	int rc = regcomp(&t->regex, re, flags);
	free(alternatives);
	if (rc) {
		char why[128];
		regerror(rc, &t->regex, why, sizeof(why));
		snprintf(err, cap, "%s: bad regular expression: %s", transform_name(t->kind), why);
		return false;
	}
	t->has_regex = true;
	return true;
}

static void transform_free(struct transform *t)
{
	if (t->has_regex)
		regfree(&t->regex);
	free(t->text);
	free(t->tag_key);
}

/* "My code" is under the root, the current directory when none is given. */
static char *default_root(void)
{
	char *cwd = getcwd(NULL, 0);
	return cwd ? cwd : xstrdup(".");
}

bool transform_push(struct transform_stack *s, enum transform_kind kind,
		    uint32_t frame, const char *text, char *err, size_t cap)
{
	struct transform t = { .kind = kind, .frame = frame };
	if (kind == TF_MINE)
		t.text = text ? xstrdup(text) : default_root();
	else if (text)
		t.text = xstrdup(text);
	bool needs_regex = text && kind != TF_MINE && kind != TF_TAGROOT &&
			   kind != TF_COLLAPSE_RECURSION;
	if (needs_regex && !compile_pattern(&t, err, cap)) {
		transform_free(&t);
		return false;
	}
	if (kind == TF_TAGROOT && (!text || !*text)) {
		snprintf(err, cap, "tagroot needs a label key");
		transform_free(&t);
		return false;
	}
	GROW(s->items, s->cap, s->n + 1);
	s->items[s->n++] = t;
	return true;
}

void transform_pop(struct transform_stack *s)
{
	if (s->n)
		transform_free(&s->items[--s->n]);
}

void transform_stack_free(struct transform_stack *s)
{
	while (s->n)
		transform_pop(s);
	free(s->items);
	memset(s, 0, sizeof(*s));
}

void transform_describe(const struct model *m, const struct transform *t,
			char *buf, size_t cap)
{
	char safe[256];
	const char *what = NULL;
	if (t->frame != NO_ID && t->frame < m->nframes)
		what = t->kind == TF_COLLAPSE_FILE ? model_str(m, m->frames[t->frame].url)
						   : model_str(m, m->frames[t->frame].name);
	else
		what = t->text;
	if (!what) {
		snprintf(buf, cap, "%s", transform_name(t->kind));
		return;
	}
	escape_text(what, safe, sizeof(safe));
	snprintf(buf, cap, "%s=%s", transform_name(t->kind), safe);
}

/* ---- one transform ------------------------------------------------------------- */

/* A transform is worked out on a scratch model of the new stacks (`tmp`,
 * built with model_add_child, so parents come before their children);
 * the stacks that received no value are left out when it is copied into
 * the result. */
struct step {
	const struct model *src;
	const struct transform *t;
	struct model tmp;
	uint32_t *at;    /* per node of src: its stack's node in tmp, or NO_ID */
	uint8_t *flag;   /* per node of src: focus/ignore matched on the way */
	uint32_t *cut;   /* per node of src: prune_from's deepest match */
	uint8_t *hit;    /* per frame of src: the transform applies to it */
	uint32_t *into;  /* per frame of src: collapse's frame in tmp */
	double *kept;    /* per node of src and type: tag filters' values */
	uint8_t *row_kept; /* per label row: the sample stays (tag filters) */
};

static uint32_t tmp_frame(const struct step *s, uint32_t node)
{
	return s->tmp.nodes[node].frame;
}

/* pprof matches the function's name as the file gives it, without the
 * "(inline)" mark wprof-tui adds. */
static bool name_matches(const struct model *m, const struct frame *f,
			 const regex_t *re)
{
	const char *name = model_str(m, f->name);
	size_t len = strlen(name);
	static const char mark[] = " (inline)";
	if ((f->flags & FRAME_INLINED) && len >= sizeof(mark) - 1 &&
	    !strcmp(name + len - (sizeof(mark) - 1), mark)) {
		char *plain = xmalloc(len + 1);
		memcpy(plain, name, len - (sizeof(mark) - 1));
		plain[len - (sizeof(mark) - 1)] = 0;
		bool hit = !regexec(re, plain, 0, NULL, 0);
		free(plain);
		return hit;
	}
	return !regexec(re, name, 0, NULL, 0);
}

/* "C:" at the start of a path: a Windows drive. */
static bool drive_path(const char *path)
{
	return isalpha((unsigned char)path[0]) && path[1] == ':';
}

/* One character of two paths: `\` and `/` alike, and on Windows, whose
 * paths ignore case, either case. */
static bool same_path_char(char a, char b, bool windows)
{
	if ((a == '/' || a == '\\') && (b == '/' || b == '\\'))
		return true;
	return windows ? tolower((unsigned char)a) == tolower((unsigned char)b) : a == b;
}

/* A file URL as a path: file:///C:/app/x.js is C:/app/x.js. */
static const char *url_path(const char *file)
{
	if (!strncmp(file, "file://", 7))
		file += 7;
	return file[0] == '/' && drive_path(file + 1) ? file + 1 : file;
}

static bool path_under(const char *file, const char *root)
{
	file = url_path(file);
	bool windows = drive_path(file) || drive_path(root);
	size_t n = strlen(root);
	while (n > 1 && (root[n - 1] == '/' || root[n - 1] == '\\'))
		n--;
	for (size_t i = 0; i < n; i++)
		if (!file[i] || !same_path_char(file[i], root[i], windows))
			return false;
	return file[n] == '/' || file[n] == '\\' || !file[n];
}

/* Go's standard library: GOROOT, else where Debian and the Go installer
 * put it. */
static bool in_goroot(const char *file)
{
	const char *goroot = getenv("GOROOT");
	if (goroot && *goroot && path_under(file, goroot))
		return true;
	return path_under(file, "/usr/local/go") || path_under(file, "/usr/lib/go") ||
	       !strncmp(file, "/usr/lib/go-", 12) || !strncmp(file, "/usr/share/go-", 14);
}

static bool frame_is_mine(const struct model *m, const struct frame *f,
			  const char *root)
{
	const char *file = model_str(m, f->url), *name = model_str(m, f->name);
	/* Node's own files: node:internal/timers since Node 16, before that
	 * internal/timers.js */
	if (!*file || !strncmp(file, "node:", 5) || !strncmp(file, "internal/", 9) ||
	    strstr(file, "node_modules") || (f->flags & FRAME_THIRD_PARTY) ||
	    !strncmp(name, "runtime.", 8) || in_goroot(file))
		return false;
	bool relative = file[0] != '/' && strncmp(file, "file://", 7) && !drive_path(file);
	return relative ? !strstr(file, "://") : path_under(file, root);
}

bool transform_mine_in(const struct model *m, const char *root)
{
	char *cwd = root ? NULL : default_root();
	bool absolute = false, any = false;
	for (uint32_t f = 0; f < m->nframes && !any; f++) {
		const char *file = model_str(m, m->frames[f].url);
		bool is_absolute = file[0] == '/' || !strncmp(file, "file://", 7) ||
				   drive_path(file);
		absolute |= is_absolute;
		any = is_absolute && frame_is_mine(m, &m->frames[f], root ? root : cwd);
	}
	free(cwd);
	/* relative files are mine wherever the profile was made */
	return any || !absolute;
}

static bool frame_matches(const struct model *src, const struct transform *t, uint32_t id)
{
	const struct frame *f = &src->frames[id];
	if (t->kind == TF_MINE)
		return !frame_is_mine(src, f, t->text);
	if (t->frame != NO_ID)
		return id == t->frame;
	if (!t->has_regex)
		return true; /* collapse recursion of every function */
	return name_matches(src, f, &t->regex) ||
	       !regexec(&t->regex, model_str(src, f->url), 0, NULL, 0);
}

uint8_t *transform_frame_hits(const struct model *src, const struct transform *t)
{
	uint8_t *hit = xcalloc(src->nframes + 1, 1);
	for (size_t f = 0; f < src->nframes; f++)
		hit[f] = frame_matches(src, t, (uint32_t)f);
	return hit;
}

/* A file matching the pattern becomes one frame named by what matched
 * ("node_modules/react"); the frames of one collapse share it. */
uint32_t *transform_collapse_frames(const struct model *src, const struct transform *t,
				    struct model *out, uint8_t *hit)
{
	uint32_t *into = xmalloc((src->nframes + 1) * sizeof(uint32_t));
	for (size_t i = 0; i < src->nframes; i++) {
		into[i] = NO_ID;
		const char *file = model_str(src, src->frames[i].url);
		regmatch_t match;
		if (!*file) /* frames without a file are no file's */
			continue;
		if (t->frame != NO_ID) {
			if (i != t->frame && strcmp(file, model_str(src, src->frames[t->frame].url)))
				continue;
			match = (regmatch_t){ 0, (regoff_t)strlen(file) };
		} else if (regexec(&t->regex, file, 1, &match, 0) || match.rm_eo == match.rm_so) {
			continue;
		}
		struct frame f = { .line = -1, .column = -1, .kind = src->frames[i].kind };
		f.name = model_string(out, file + match.rm_so, (size_t)(match.rm_eo - match.rm_so));
		f.url = f.name;
		f.extra = STR_NONE;
		into[i] = model_intern_frame(out, &f);
		hit[i] = 1;
	}
	return into;
}

static bool on_stack(const struct step *s, uint32_t node, uint32_t frame)
{
	for (; node != NO_ID; node = s->tmp.nodes[node].parent)
		if (tmp_frame(s, node) == frame)
			return true;
	return false;
}

/* Where node v's stack goes, given its parent's: the heart of each
 * transform. */
static void place_node(struct step *s, uint32_t v)
{
	const struct model *src = s->src;
	uint32_t p = src->nodes[v].parent, f = src->nodes[v].frame;
	uint32_t up = p == NO_ID ? NO_ID : s->at[p];
	bool hit = s->hit[f];
	switch (s->t->kind) {
	case TF_FOCUS:
	case TF_IGNORE:
		s->flag[v] = hit || (p != NO_ID && s->flag[p]);
		s->at[v] = model_add_child(&s->tmp, up, f);
		break;
	case TF_HIDE:
	case TF_MERGE:
		s->at[v] = hit ? up : model_add_child(&s->tmp, up, f);
		break;
	case TF_SHOW:
		s->at[v] = hit ? model_add_child(&s->tmp, up, f) : up;
		break;
	case TF_MINE:
		/* A frame outside with nothing of mine above it stays, so that
		 * its time is never dropped. */
		s->at[v] = hit && up != NO_ID ? up : model_add_child(&s->tmp, up, f);
		break;
	case TF_PRUNE_FROM: {
		/* at: the full stack; cut: where v's own time goes. */
		uint32_t above = p == NO_ID ? NO_ID : s->cut[p];
		s->at[v] = model_add_child(&s->tmp, up, f);
		s->cut[v] = hit ? s->at[v] : above;
		break;
	}
	case TF_COLLAPSE_RECURSION:
		s->at[v] = hit && on_stack(s, up, f) ? up : model_add_child(&s->tmp, up, f);
		break;
	case TF_COLLAPSE_FILE:
		if (!hit)
			s->at[v] = model_add_child(&s->tmp, up, f);
		else if (up != NO_ID && tmp_frame(s, up) == s->into[f])
			s->at[v] = up;
		else
			s->at[v] = model_add_child(&s->tmp, up, s->into[f]);
		break;
	default: /* tag filters keep the stacks as they are */
		s->at[v] = model_add_child(&s->tmp, up, f);
		break;
	}
}

/* The node v's self value goes to, NO_ID when it is dropped. */
static uint32_t destination(const struct step *s, uint32_t v)
{
	switch (s->t->kind) {
	case TF_FOCUS:
		return s->flag[v] ? s->at[v] : NO_ID;
	case TF_IGNORE:
		return s->flag[v] ? NO_ID : s->at[v];
	case TF_PRUNE_FROM:
		return s->cut[v] != NO_ID ? s->cut[v] : s->at[v];
	default:
		return s->at[v];
	}
}

/* ---- labels ------------------------------------------------------------------- */

double transform_label_row_value(const struct model *m, uint32_t row, unsigned type)
{
	/* A count type added after loading counts each sample once. */
	return type < m->label_stride ? m->label_values[(size_t)row * m->label_stride + type] : 1;
}

void transform_label_text(const struct model *m, const struct sample_label *l,
			  char *buf, size_t cap)
{
	if (l->str != STR_NONE)
		snprintf(buf, cap, "%s", model_str(m, l->str));
	else if (l->num_unit != STR_NONE)
		snprintf(buf, cap, "%lld%s", (long long)l->num, model_str(m, l->num_unit));
	else
		snprintf(buf, cap, "%lld", (long long)l->num);
}

static bool label_matches(const struct model *m, const struct transform *t,
			  const struct sample_label *l)
{
	char value[512], keyed[1024];
	const char *key = model_str(m, l->key);
	if (t->numeric) {
		const char *unit = l->num_unit != STR_NONE ? model_str(m, l->num_unit) : "";
		return l->str == STR_NONE && (!t->tag_key || !strcmp(key, t->tag_key)) &&
		       tag_range_contains(&t->range, l->num, *unit ? unit : tag_label_unit(key));
	}
	transform_label_text(m, l, value, sizeof(value));
	if (t->tag_key)
		return !strcmp(key, t->tag_key) && !regexec(&t->regex, value, 0, NULL, 0);
	snprintf(keyed, sizeof(keyed), "%s:%s", key, value);
	return !regexec(&t->regex, keyed, 0, NULL, 0);
}

double *transform_tag_values(const struct model *src, const struct transform *t,
			     uint8_t **row_kept)
{
	unsigned nt = src->ntypes;
	bool focus = t->kind == TF_TAGFOCUS;
	uint8_t *matched = xcalloc(src->nlabel_rows + 1, 1);
	for (size_t i = 0; i < src->nlabels; i++)
		if (label_matches(src, t, &src->labels[i]))
			matched[src->labels[i].row] = 1;
	double *kept = xmalloc(((size_t)src->nnodes * nt + 1) * sizeof(double));
	for (size_t v = 0; v < src->nnodes; v++)
		for (unsigned k = 0; k < nt; k++)
			kept[v * nt + k] = focus ? 0 : node_value(src, (uint32_t)v, k);
	*row_kept = xcalloc(src->nlabel_rows + 1, 1);
	uint8_t *counted = xcalloc(src->nlabel_rows + 1, 1);
	for (size_t i = 0; i < src->nlabels; i++) {
		const struct sample_label *l = &src->labels[i];
		(*row_kept)[l->row] = focus == matched[l->row];
		if (counted[l->row] || !matched[l->row])
			continue;
		counted[l->row] = 1;
		for (unsigned k = 0; k < nt; k++)
			kept[(size_t)l->node * nt + k] += (focus ? 1 : -1) * transform_label_row_value(src, l->row, k);
	}
	free(counted);
	free(matched);
	return kept;
}

/* ---- the scratch model into the result ------------------------------------------ */

static void add_values(struct step *s, double *values)
{
	const struct model *src = s->src;
	unsigned nt = src->ntypes;
	for (size_t v = 0; v < src->nnodes; v++) {
		uint32_t to = destination(s, (uint32_t)v);
		if (to == NO_ID)
			continue;
		for (unsigned t = 0; t < nt; t++)
			values[(size_t)to * nt + t] += s->kept ? s->kept[v * nt + t]
							       : node_value(src, (uint32_t)v, t);
	}
}

/* needed[k]: tmp node k or one below it holds a value. */
static uint8_t *needed_nodes(const struct model *tmp, const double *values)
{
	uint8_t *needed = xcalloc(tmp->nnodes + 1, 1);
	for (size_t k = tmp->nnodes; k-- > 0;) {
		for (unsigned t = 0; t < tmp->ntypes && !needed[k]; t++)
			needed[k] = values[k * tmp->ntypes + t] != 0;
		uint32_t p = tmp->nodes[k].parent;
		if (needed[k] && p != NO_ID)
			needed[p] = 1;
	}
	return needed;
}

static void copy_labels(const struct step *s, const uint32_t *final, struct model *out)
{
	const struct model *src = s->src;
	for (size_t i = 0; i < src->nlabels; i++) {
		struct sample_label l = src->labels[i];
		uint32_t to = destination(s, l.node);
		if ((s->row_kept && !s->row_kept[l.row]) || to == NO_ID || final[to] == NO_ID)
			continue;
		l.node = final[to];
		l.key = model_copy_string(src, out, l.key);
		l.str = model_copy_string(src, out, l.str);
		l.num_unit = model_copy_string(src, out, l.num_unit);
		model_add_label(out, &l);
	}
}

/* Focus, ignore, prune_from and the tag filters keep the stacks as
 * they are: the result is made straight from src, the stacks left
 * without a value left out, in one pass rather than two. */
static bool keeps_shape(enum transform_kind kind)
{
	return kind == TF_FOCUS || kind == TF_IGNORE || kind == TF_PRUNE_FROM ||
	       is_tag_filter(kind);
}

static double kept_value(const struct step *s, uint32_t v, unsigned t)
{
	if (s->kept)
		return s->kept[(size_t)v * s->src->ntypes + t];
	return destination(s, v) == NO_ID ? 0 : node_value(s->src, v, t);
}

/* The node standing for v's stack: an inner call of a collapsed
 * recursion is its outer call's. */
static uint32_t stack_node(const struct step *s, uint32_t v, const struct model *out)
{
	uint32_t at = s->at[v], f = s->src->nodes[v].frame;
	if (s->t->kind != TF_COLLAPSE_RECURSION)
		return at;
	/* The scratch model, or the result when it became that (emit). */
	const struct model *tree = s->tmp.nnodes ? &s->tmp : out;
	while (at != NO_ID && tree->nodes[at].frame != f)
		at = tree->nodes[at].parent;
	return at;
}

/* pprof's lines (transform_lines.h): focus and ignore keep a node's
 * lines where they keep its whole subtree; the tag filters in the share
 * of the values they keep. */
static void copy_node_lines(const struct step *s, const uint32_t *final, struct model *out)
{
	const struct model *src = s->src;
	if (!src->nnode_lines)
		return;
	size_t n = src->nnodes;
	unsigned nt = src->ntypes;
	uint32_t *self_to = xmalloc((n + 1) * sizeof(uint32_t));
	uint32_t *stack_to = xmalloc((n + 1) * sizeof(uint32_t));
	double *kept = NULL;
	if (s->t->kind == TF_FOCUS || s->t->kind == TF_IGNORE) {
		kept = xmalloc((n * nt + 1) * sizeof(double));
		for (uint32_t v = 0; v < n; v++)
			for (unsigned t = 0; t < nt; t++)
				kept[(size_t)v * nt + t] = kept_value(s, v, t);
	}
	for (uint32_t v = 0; v < n; v++) {
		uint32_t to = destination(s, v), stack = stack_node(s, v, out);
		self_to[v] = to == NO_ID ? NO_ID : final[to];
		stack_to[v] = stack == NO_ID ? NO_ID : final[stack];
	}
	struct line_moves mv = { src, self_to, stack_to, s->kept ? s->kept : kept,
				 s->kept != NULL };
	transform_move_node_lines(&mv, out);
	free(kept);
	free(stack_to);
	free(self_to);
}

static void copy_extras(const struct step *s, const uint32_t *final, struct model *out)
{
	const struct model *src = s->src;
	if (src->first_leaves) {
		out->first_leaves = xmalloc((src->nfirst_leaves + 1) * sizeof(uint32_t));
		for (size_t i = 0; i < src->nfirst_leaves; i++) {
			uint32_t to = destination(s, src->first_leaves[i]);
			if (to != NO_ID && final[to] != NO_ID)
				out->first_leaves[out->nfirst_leaves++] = final[to];
		}
	}
	for (size_t i = 0; i < src->nline_ticks; i++) {
		const struct line_ticks *lt = &src->line_ticks[i];
		uint32_t to = destination(s, lt->node);
		if (to != NO_ID && final[to] != NO_ID &&
		    out->nodes[final[to]].frame == src->nodes[lt->node].frame)
			model_add_line_ticks(out, final[to], lt->line, lt->ticks);
	}
	copy_labels(s, final, out);
	copy_node_lines(s, final, out);
}

/* Every stack kept (hide, merge, collapse, my code): the scratch model
 * is the result, and is not copied. */
static bool all_needed(const uint8_t *needed, size_t n)
{
	for (size_t k = 0; k < n; k++)
		if (!needed[k])
			return false;
	return true;
}

static void emit(struct step *s, struct model *out)
{
	struct model *tmp = &s->tmp;
	unsigned nt = tmp->ntypes;
	double *values = xcalloc((size_t)tmp->nnodes * nt + 1, sizeof(double));
	add_values(s, values);
	uint8_t *needed = needed_nodes(tmp, values);
	uint32_t *final = xmalloc((tmp->nnodes + 1) * sizeof(uint32_t));
	if (all_needed(needed, tmp->nnodes)) {
		*out = *tmp;
		memset(tmp, 0, sizeof(*tmp));
		if (out->nnodes) /* node_self is NULL without nodes */
			memcpy(out->node_self, values, (size_t)out->nnodes * nt * sizeof(double));
		for (size_t k = 0; k < out->nnodes; k++)
			final[k] = (uint32_t)k;
	} else {
		model_init(out, s->src->format);
		model_copy_header(s->src, out);
		model_copy_frames(tmp, out);
		for (size_t k = 0; k < tmp->nnodes; k++) {
			uint32_t p = tmp->nodes[k].parent;
			final[k] = !needed[k] ? NO_ID
				 : model_add_child(out, p == NO_ID ? NO_ID : final[p],
						   tmp->nodes[k].frame);
			if (final[k] != NO_ID)
				for (unsigned t = 0; t < nt; t++)
					model_add_node_value(out, final[k], t, values[k * nt + t]);
		}
	}
	copy_extras(s, final, out);
	free(final);
	free(needed);
	free(values);
	uint32_t cycle;
	model_finish(out, &cycle); /* stacks make a tree: no cycle */
}

static void filter_in_place(struct step *s, struct model *out)
{
	const struct model *src = s->src;
	size_t n = src->nnodes;
	unsigned nt = src->ntypes;
	for (size_t k = 0; k < n; k++) {
		uint32_t v = src->node_order[k], p = src->nodes[v].parent;
		bool hit = s->hit[src->nodes[v].frame];
		s->flag[v] = hit || (p != NO_ID && s->flag[p]);
		s->cut[v] = hit ? v : p != NO_ID ? s->cut[p] : NO_ID;
		s->at[v] = v;
	}
	double *values = xcalloc((size_t)n * nt + 1, sizeof(double));
	add_values(s, values);
	uint8_t *needed = xcalloc(n + 1, 1);
	for (size_t k = n; k-- > 0;) {
		uint32_t v = src->node_order[k], p = src->nodes[v].parent;
		for (unsigned t = 0; t < nt && !needed[v]; t++)
			needed[v] = values[(size_t)v * nt + t] != 0;
		if (needed[v] && p != NO_ID)
			needed[p] = 1;
	}
	/* Nodes in src's order, children in theirs, as a view keeps them
	 * (filter_view.h): the divided rule walks callees in the order the
	 * data shows them. */
	uint32_t *final = xmalloc((n + 1) * sizeof(uint32_t));
	model_init(out, src->format);
	model_copy_header(src, out);
	model_copy_frames(src, out);
	for (uint32_t v = 0; v < n; v++) {
		final[v] = needed[v] ? model_add_node(out, src->nodes[v].frame) : NO_ID;
		for (unsigned t = 0; final[v] != NO_ID && t < nt; t++)
			model_add_node_value(out, final[v], t, values[(size_t)v * nt + t]);
	}
	for (uint32_t v = 0; v < n; v++) {
		const struct node *node = &src->nodes[v];
		for (uint32_t i = node->child_start; needed[v] && i < node->child_end; i++)
			if (needed[src->child_ids[i]])
				model_add_edge(out, final[v], final[src->child_ids[i]]);
	}
	copy_extras(s, final, out);
	free(final);
	free(values);
	free(needed);
	uint32_t cycle;
	model_finish(out, &cycle);
}

/* ---- tagroot ----------------------------------------------------------------------- */

/* pprof's -tagroot: each sample's stack gets a root frame named by its
 * values of the label (joined by ","; "<unknown>" without it, as pprof), file = key.
 * By files, pprof shows that frame by its file: one root, the key. */
static uint32_t tag_frame(struct step *s, const char *value)
{
	struct frame f = { .line = -1, .column = -1, .kind = KIND_ROOT };
	const char *key = s->t->text;
	if (s->src->frames_are_files)
		value = key;
	f.name = model_string(&s->tmp, value, strlen(value));
	f.url = s->src->frames_are_files ? STR_NONE : model_string(&s->tmp, key, strlen(key));
	f.extra = STR_NONE;
	return model_intern_frame(&s->tmp, &f);
}

/* v's stack under `root`; `copy[n]` (NO_ID until then) is set to the
 * first copy made of each node n on it.  `path` is scratch space. */
static uint32_t stack_under(struct step *s, uint32_t root, uint32_t v, uint32_t **path,
			    size_t *cap, uint32_t *copy)
{
	size_t depth = 0;
	for (uint32_t n = v; n != NO_ID; n = s->src->nodes[n].parent) {
		GROW(*path, *cap, depth + 1);
		(*path)[depth++] = n;
	}
	uint32_t at = model_add_child(&s->tmp, NO_ID, root);
	while (depth) {
		uint32_t n = (*path)[--depth];
		at = model_add_child(&s->tmp, at, s->src->nodes[n].frame);
		if (copy[n] == NO_ID)
			copy[n] = at;
	}
	return at;
}

/* tagroot keeps every sample: a node's lines all go to one of its
 * copies, the untagged one when it is kept, so that each function's
 * lines stay whole. */
static void tag_root_lines(const struct step *s, const uint8_t *needed, const uint32_t *copy,
			   const uint32_t *final, struct model *out)
{
	const struct model *src = s->src;
	uint32_t *to = xmalloc((src->nnodes + 1) * sizeof(uint32_t));
	for (uint32_t v = 0; v < src->nnodes; v++) {
		uint32_t home = needed[s->at[v]] || copy[v] == NO_ID ? s->at[v] : copy[v];
		to[v] = final[home];
	}
	struct line_moves mv = { src, to, to, NULL, false };
	transform_move_node_lines(&mv, out);
	free(to);
}

/* One label row's value for the key, "" when the sample has none. */
static void row_tag_text(const struct model *m, const char *key, size_t first,
			 char *buf, size_t cap)
{
	buf[0] = 0;
	uint32_t row = m->labels[first].row;
	for (size_t i = first; i < m->nlabels && m->labels[i].row == row; i++) {
		if (strcmp(model_str(m, m->labels[i].key), key))
			continue;
		char value[256];
		transform_label_text(m, &m->labels[i], value, sizeof(value));
		size_t n = strlen(buf);
		snprintf(buf + n, cap - n, "%s%s", n ? "," : "", value);
	}
}

static void tag_root(struct step *s, struct model *out)
{
	const struct model *src = s->src;
	unsigned nt = src->ntypes;
	/* Untagged remainder per node; the rows go under their own roots. */
	double *rest = xmalloc(((size_t)src->nnodes * nt + 1) * sizeof(double));
	memcpy(rest, src->node_self, (size_t)src->nnodes * nt * sizeof(double));
	struct { uint32_t node; double v[MAX_SAMPLE_TYPES]; } *adds = NULL;
	size_t nadds = 0, adds_cap = 0, path_cap = 16;
	uint32_t *path = xmalloc(path_cap * sizeof(uint32_t));
	uint32_t *copy = xmalloc((src->nnodes + 1) * sizeof(uint32_t));
	memset(copy, 0xff, (src->nnodes + 1) * sizeof(uint32_t));
	for (size_t i = 0; i < src->nlabels;) {
		uint32_t row = src->labels[i].row, node = src->labels[i].node;
		char text[1024];
		row_tag_text(src, s->t->text, i, text, sizeof(text));
		while (i < src->nlabels && src->labels[i].row == row)
			i++;
		if (!text[0])
			continue;
		GROW(adds, adds_cap, nadds + 1);
		adds[nadds].node = stack_under(s, tag_frame(s, text), node, &path, &path_cap, copy);
		for (unsigned t = 0; t < nt; t++) {
			adds[nadds].v[t] = transform_label_row_value(src, row, t);
			rest[(size_t)node * nt + t] -= adds[nadds].v[t];
		}
		nadds++;
	}
	uint32_t none = tag_frame(s, "<unknown>");
	s->at = xmalloc((src->nnodes + 1) * sizeof(uint32_t));
	for (size_t k = 0; k < src->nnodes; k++) {
		uint32_t v = src->node_order[k], p = src->nodes[v].parent;
		s->at[v] = model_add_child(&s->tmp, p == NO_ID ? model_add_child(&s->tmp, NO_ID, none)
							     : s->at[p], src->nodes[v].frame);
	}
	double *values = xcalloc((size_t)s->tmp.nnodes * nt + 1, sizeof(double));
	for (size_t v = 0; v < src->nnodes; v++)
		for (unsigned t = 0; t < nt; t++)
			values[(size_t)s->at[v] * nt + t] += rest[v * nt + t];
	for (size_t a = 0; a < nadds; a++)
		for (unsigned t = 0; t < nt; t++)
			values[(size_t)adds[a].node * nt + t] += adds[a].v[t];
	free(adds);
	free(path);
	free(rest);
	/* Emitted as the other transforms are, with these values. */
	s->kept = NULL;
	uint8_t *needed = needed_nodes(&s->tmp, values);
	uint32_t *final = xmalloc((s->tmp.nnodes + 1) * sizeof(uint32_t));
	model_init(out, src->format);
	model_copy_header(src, out);
	model_copy_frames(&s->tmp, out);
	for (size_t k = 0; k < s->tmp.nnodes; k++) {
		uint32_t p = s->tmp.nodes[k].parent;
		final[k] = !needed[k] ? NO_ID
			 : model_add_child(out, p == NO_ID ? NO_ID : final[p], s->tmp.nodes[k].frame);
		if (final[k] != NO_ID)
			for (unsigned t = 0; t < nt; t++)
				model_add_node_value(out, final[k], t, values[k * nt + t]);
	}
	tag_root_lines(s, needed, copy, final, out);
	free(copy);
	free(final);
	free(needed);
	free(values);
	uint32_t cycle;
	model_finish(out, &cycle);
}

/* ---- the whole stack ------------------------------------------------------------------ */

static void apply_one(const struct model *src, const struct transform *t, struct model *out)
{
	struct step s = { .src = src, .t = t };
	/* The scratch model of new stacks, for transforms that change them. */
	model_init(&s.tmp, src->format);
	if (!keeps_shape(t->kind)) {
		model_copy_header(src, &s.tmp);
		model_copy_frames(src, &s.tmp);
	}
	size_t n = src->nnodes;
	if (t->kind == TF_TAGROOT) {
		tag_root(&s, out);
	} else {
		if (t->kind == TF_COLLAPSE_FILE) {
			s.hit = xcalloc(src->nframes + 1, 1);
			s.into = transform_collapse_frames(src, t, &s.tmp, s.hit);
		} else if (!is_tag_filter(t->kind)) {
			s.hit = transform_frame_hits(src, t);
		} else {
			s.hit = xcalloc(src->nframes + 1, 1);
			s.kept = transform_tag_values(src, t, &s.row_kept);
		}
		s.at = xmalloc((n + 1) * sizeof(uint32_t));
		s.flag = xcalloc(n + 1, 1);
		s.cut = xmalloc((n + 1) * sizeof(uint32_t));
		if (keeps_shape(t->kind)) {
			filter_in_place(&s, out);
		} else {
			for (size_t k = 0; k < n; k++)
				place_node(&s, src->node_order[k]);
			emit(&s, out);
		}
	}
	free(s.at);
	free(s.flag);
	free(s.cut);
	free(s.hit);
	free(s.into);
	free(s.kept);
	free(s.row_kept);
	model_free(&s.tmp);
}

bool model_transform(const struct model *src, const struct transform *t,
		     size_t n, struct model *out, const char **why_not)
{
	if (!(src->caps & HAS_STACKS) || (src->caps & HAS_NODE_GRAPH)) {
		*why_not = "this profile has no whole stacks to filter";
		return false;
	}
	struct model a, b;
	const struct model *from = src;
	struct model *to = &a;
	for (size_t i = 0; i < n; i++) {
		to = i + 1 == n ? out : (from == &a ? &b : &a);
		apply_one(from, &t[i], to);
		if (from != src)
			model_free((struct model *)from);
		from = to;
	}
	return true;
}
