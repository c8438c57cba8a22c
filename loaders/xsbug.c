/* Saved xsbug streams (an XS engine's debugging connection written to a
 * file): the stream parser of loaders/xsbug.h fed in input chunks, then the
 * session the user asked for. */
#include <string.h>

#include "xsbug.h"
#include "loaders.h"

bool sniff_xsbug(const uint8_t *head, size_t len)
{
	return memmem(head, len, "<xsbug>", 7) != NULL;
}

bool load_xsbug(struct input *in, struct model *m,
		const struct load_options *opt, struct load_error *err)
{
	struct xsbug_parser *p = xsbug_parser_new(NULL);
	bool ok = true;
	while (ok && input_fill(in, 1)) {
		ok = xsbug_parser_feed(p, in->buf + in->pos, in->len - in->pos, err);
		in->pos = in->len;
	}
	if (ok && in->read_errno)
		ok = load_fail(err, "%s", strerror(in->read_errno));
	size_t session = 0;
	if (ok) {
		xsbug_parser_end(p);
		session = xsbug_pick_session(p, opt ? opt->session : -1, err);
		ok = session != 0;
	}
	if (ok)
		xsbug_session_model(p, session, m);
	xsbug_parser_free(p);
	return ok;
}
