// SPDX-License-Identifier: GPL-2.0
/*
 * fence-trace - trace and debug DRM explicit fencing.
 *
 * The front end: a table of subcommands, one file each (cmd-*.c); all the
 * usage text and every option table live in usage.c.
 */
#include <stdio.h>
#include <string.h>

#include "fence-trace.h"
#include "say.h"
#include "version.h"

struct command {
	const char *name;
	int (*run)(int argc, char **argv);
};

static const struct command commands[] = {
	{ "record", cmd_record },
	{ "report", cmd_report },
	{ "diff", cmd_diff },
	{ "latency", cmd_latency },
	{ "top", cmd_top },
	{ "check", cmd_check },
	{ "stall", cmd_stall },
	{ "timeline", cmd_timeline },
	{ "export", cmd_export },
};

#define N_COMMANDS (sizeof(commands) / sizeof(commands[0]))

/* "-o ARG", "-P" for each letter of a getopt optstring. */
static void list_short(const char *cmd, const char *s)
{
	s += strspn(s, "+-:");
	for (; *s; s++) {
		int args = strspn(s + 1, ":");

		printf("%s -%c%s\n", cmd, *s, args == 1 ? " ARG" : args ? " [ARG]" : "");
		s += args;
	}
}

/*
 * `fence-trace _options`: every option each command's getopt_long()
 * accepts, one "COMMAND -x [ARG]" or "COMMAND --name [ARG]" a line, from
 * the very tables the commands parse with (cmd_getopt_start() makes them
 * from usage.c's option tables the same way).  For tests/cli/test-man,
 * which checks that each is in the command's --help, man page and
 * completion, and that each of those names only options getopt accepts.
 * Not a user's command (so in no usage text): a test hook that changes
 * nothing and prints only what --help already says.
 */
static int list_options(void)
{
	struct cmd_getopt g;

	for (size_t i = 0; i < N_COMMANDS; i++) {
		cmd_getopt_start(&g, commands[i].name);
		list_short(commands[i].name, g.optstring);
		for (const struct option *l = g.longs; l->name; l++)
			printf("%s --%s%s\n", commands[i].name, l->name,
			       l->has_arg == required_argument ? " ARG" :
			       l->has_arg == optional_argument ? " [ARG]" : "");
	}
	return fflush(stdout) ? 1 : 0;
}

int main(int argc, char **argv)
{
	static char speaker[64];

	if (argc < 2) {
		fprintf(stderr, "usage: fence-trace COMMAND [ARG]... ('fence-trace help' lists the commands)\n");
		return EXIT_USAGE;
	}
	if (strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0 ||
	    strcmp(argv[1], "help") == 0) {
		print_usage(argc > 2 ? argv[2] : NULL);
		return 0;
	}
	if (argc == 2 && strcmp(argv[1], "--version") == 0) {
		printf("%s\n", fence_trace_version());
		return fflush(stdout) ? 1 : 0;
	}
	if (argc == 2 && strcmp(argv[1], "_options") == 0)
		return list_options();
	for (size_t i = 0; i < N_COMMANDS; i++)
		if (strcmp(argv[1], commands[i].name) == 0) {
			snprintf(speaker, sizeof(speaker), "fence-trace %s", commands[i].name);
			say_as(speaker);	/* what capture/ and live/ say is the command's */
			return commands[i].run(argc - 1, argv + 1);
		}
	usage_error(NULL, "'%s' is not a fence-trace command", argv[1]);
	return EXIT_USAGE;
}
