// SPDX-License-Identifier: GPL-2.0
/*
 * docgen - write what the option tables of fence-trace (cli/usage.c)
 * document besides --help, so that neither can drift from the options
 * getopt_long() parses.  A host tool, run by the Makefile:
 *
 *   docgen man docs/man/NAME.1.scd   the page's scdoc source with its
 *                                    OPTIONS (or, for fence-trace.1, its
 *                                    COMMANDS) filled in, on stdout
 *   docgen bash-completion           the completion script, on stdout
 *
 * Either first checks every table, so that a table getopt could not use
 * (a key twice, too many options, --help text too wide) fails the build.
 */
#include <stdio.h>
#include <string.h>

#include "docgen.h"

#define HELP_WIDTH 80

static int table_error(const struct usage *u, const struct cmd_option *o, const char *what)
{
	fprintf(stderr, "docgen: cli/usage.c: %s%s%s: %s\n", u->cmd, o && o->name ? " --" : "",
		o && o->name ? o->name : "", what);
	return -1;
}

/* Two options of @u that getopt_long() would not tell apart. */
static int check_clash(const struct usage *u, const struct cmd_option *o)
{
	int key = cmd_option_key(o);

	if (key == 'h' || key == ':' || key == '?' || key == '+' || key == '-')
		return table_error(u, o, "its key is one getopt_long() keeps for itself");
	for (const struct cmd_option *p = u->options; p < o; p++) {
		if (strcmp(p->name, o->name) == 0)
			return table_error(u, o, "named twice");
		if (cmd_option_key(p) == key)
			return table_error(u, o, "its key is another option's");
	}
	return 0;
}

/* --help prints the text from u->column on: each line must fit. */
static int check_help(const struct usage *u, const struct cmd_option *o)
{
	const char *line = o->help, *end;

	if (cmd_option_shares_line(o))
		return o == u->options ? table_error(u, o, "no help text, and no option above") : 0;
	for (; (end = strchr(line, '\n')); line = end + 1)
		if (u->column + (end - line) > HELP_WIDTH)
			return table_error(u, o, "a line of its help is too wide for --help");
	if (*line == '\0')
		return table_error(u, o, "its help ends with an empty line");
	if (u->column + (int)strlen(line) > HELP_WIDTH)
		return table_error(u, o, "a line of its help is too wide for --help");
	return 0;
}

static int check_option(const struct usage *u, const struct cmd_option *o)
{
	if (o->short_name && o->key)
		return table_error(u, o, "a -x and a key: the key is the -x");
	if (!cmd_option_key(o))
		return table_error(u, o, "neither a -x nor a key");
	if (!o->arg && o->complete)
		return table_error(u, o, "a completion but no argument");
	return check_clash(u, o) || check_help(u, o);
}

static int check_tables(const struct usage *table, size_t count)
{
	struct cmd_getopt g;
	int err = 0;

	for (size_t i = 0; i < count; i++) {
		const struct usage *u = &table[i];

		if (usage_getopt_tables(u, &g))
			err = table_error(u, NULL, "more options than USAGE_MAX_OPTIONS");
		if (u->options->name && u->column < 4)
			err = table_error(u, NULL, "no column for its options' texts");
		for (const struct cmd_option *o = u->options; o->name; o++)
			if (check_option(u, o))
				err = -1;
	}
	return err;
}

int main(int argc, char **argv)
{
	size_t count;
	const struct usage *table = usage_table(&count);

	if (check_tables(table, count))
		return 1;
	if (argc == 3 && strcmp(argv[1], "man") == 0)
		return man_page(stdout, argv[2]) || fflush(stdout) != 0;
	if (argc == 2 && strcmp(argv[1], "bash-completion") == 0) {
		bash_completion(stdout, table, count);
		return fflush(stdout) != 0;
	}
	fprintf(stderr, "usage: docgen man docs/man/NAME.1.scd | docgen bash-completion\n");
	return 2;
}
