/* SPDX-License-Identifier: GPL-2.0 */
/*
 * usage.h - each command's usage text and option table (cli/usage.c).
 *
 * The option table is the one place an option is written down: the
 * command's getopt_long() tables are made from it (cmd_getopt_start()),
 * --help prints it, and cli/docgen writes the man page's OPTIONS section
 * and the bash completion from it.
 */
#ifndef USAGE_H
#define USAGE_H

#include <getopt.h>
#include <stddef.h>

/* The most options a command has, --help not counted. */
#define USAGE_MAX_OPTIONS 16

/* cmd_option.complete: the argument names a file. */
#define COMPLETE_FILE "<file>"
/* record -C: the trace clocks whose times are nanoseconds (counter, uptime and x86-tsc are not) */
#define RECORD_CLOCKS "local global perf mono mono_raw boot tai"

/*
 * One option of a command.  --help is every command's and in no table.
 * @key is what getopt_long() returns for a long-only option; it is a
 * letter no -x of the command uses, so that the command's switch reads
 * like the others ('j' for --json).
 */
struct cmd_option {
	const char *name;	/* --name */
	char short_name;	/* -x, or 0 when there is none */
	char key;		/* getopt_long()'s value when there is no -x */
	const char *arg;	/* the argument's name ("FILE"), NULL when it takes none */
	const char *complete;	/* the argument's completion: NULL none, COMPLETE_FILE, or words */
	const char *help;	/* --help's text, lines joined by '\n'; NULL: the one above's */
};

/*
 * An option without help text shares the one before it, on one line of
 * --help and of the man page: "--from T, --to T  only events in...".
 */
static inline int cmd_option_shares_line(const struct cmd_option *o)
{
	return !o->help;
}

/* usage.flags */
#define USAGE_FILES 0x1		/* its operands are files (completion) */
#define USAGE_WRAPS 0x2		/* "-- COMMAND [ARG]...": getopt stops at the first operand */

/*
 * @text is what --help prints before the options: the "usage: " lines and
 * the description.  @column is where the options' texts start in --help.
 */
struct usage {
	const char *cmd, *summary, *text;
	const struct cmd_option *options;	/* ends with a zeroed entry */
	int column;
	unsigned int flags;
};

const struct usage *usage_table(size_t *count);
const struct usage *usage_find(const char *cmd);

static inline int cmd_option_key(const struct cmd_option *o)
{
	return o->short_name ? o->short_name : o->key;
}

/* What a command passes to getopt_long(), made from its option table. */
struct cmd_getopt {
	char optstring[4 + 3 * USAGE_MAX_OPTIONS];
	struct option longs[USAGE_MAX_OPTIONS + 2];
};

void cmd_getopt_start(struct cmd_getopt *g, const char *cmd);
int usage_getopt_tables(const struct usage *u, struct cmd_getopt *g);

#endif
