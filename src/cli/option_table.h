/* The option table: each of wprof-tui's options declared once, with its
 * long name, short name, value and help, and the handler that applies it
 * to struct options.  getopt's tables (options.c), --help and
 * --all-options (help.c) are all made from it, so an option is added by
 * adding one row.
 *
 * The rows are in --help's order; a row without a name is a group's
 * heading, printed after a blank line. */
#ifndef WPROF_CLI_OPTION_TABLE_H
#define WPROF_CLI_OPTION_TABLE_H

#include <stdbool.h>
#include <stddef.h>

#include "options.h"

struct option_spec {
	const char *name;   /* the long name, without "--"; NULL: a heading */
	char letter;        /* the short name, or 0 */
	const char *arg;    /* the value's name in --help; NULL: takes none */
	bool arg_optional;  /* --name[=ARG]; ARG may also come as the next word */
	/* What --help says: lines after the first are indented under it.
	 * NULL: a hidden option, for tests. */
	const char *help;
	/* Applies the option; `value` is NULL for an option without one. */
	void (*apply)(struct options *o, const struct option_spec *spec,
		      const char *value);
	size_t field; /* where set_string and set_flag write: an offsetof */
	int kind;     /* filters: their enum transform_kind */
};

extern const struct option_spec option_table[];
extern const size_t option_table_len;

/* --help's text, made from the table. */
void print_help(FILE *out);

/* --all-options: each documented option as "--name ARG" or "--name", with
 * ", -x" when it has a short name, one a line. */
void list_options(FILE *out);

#endif
