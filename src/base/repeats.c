#include "repeats.h"

#include <stdlib.h>
#include <string.h>

#include "complain.h"
#include "util.h"

/* The run's count, when there was more than the line already written. */
static void close_run(struct repeats *r, FILE *out)
{
	if (r->count > 1)
		complain_to(out, "%s (×%llu)", r->last, (unsigned long long)r->count);
	free(r->last);
	r->last = NULL;
	r->count = 0;
}

void repeats_say(struct repeats *r, FILE *out, const char *line)
{
	if (r->last && !strcmp(r->last, line)) {
		r->count++;
		return;
	}
	close_run(r, out);
	complain_to(out, "%s", line);
	r->last = xstrdup(line);
	r->count = 1;
}

void repeats_end(struct repeats *r, FILE *out)
{
	close_run(r, out);
}
