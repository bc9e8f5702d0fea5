// SPDX-License-Identifier: GPL-2.0
/*
 * fence-trace - trace and debug DRM explicit fencing.
 *
 * The front end: a table of subcommands, one file each (cmd-*.c); all the
 * usage text lives in usage.c.
 */
#include <stdio.h>
#include <string.h>

#include "fence-trace.h"

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

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: fence-trace COMMAND [ARG]... ('fence-trace help' lists the commands)\n");
		return EXIT_USAGE;
	}
	if (strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0 ||
	    strcmp(argv[1], "help") == 0) {
		print_usage(argc > 2 ? argv[2] : NULL);
		return 0;
	}
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (strcmp(argv[1], commands[i].name) == 0)
			return commands[i].run(argc - 1, argv + 1);
	usage_error(NULL, "'%s' is not a fence-trace command", argv[1]);
	return EXIT_USAGE;
}
