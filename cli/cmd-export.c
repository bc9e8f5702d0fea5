// SPDX-License-Identifier: GPL-2.0
/*
 * cmd-export.c - `fence-trace export --perfetto OUT.json`: trace.dat ->
 * Chrome trace-event JSON (export-perfetto.c) for ui.perfetto.dev.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>

#include "fence-trace.h"
#include "render-timeline.h"

struct export_ctx {
	const char *path, *out;
};

/* Return: 0 to run, 1 after --help, -1 on a usage error (already said). */
static int parse_args(struct export_ctx *c, int argc, char **argv)
{
	struct cmd_getopt g;
	int opt;

	c->path = "trace.dat";
	c->out = NULL;
	/* the keys of export_options in cli/usage.c */
	cmd_getopt_start(&g, "export");
	while ((opt = getopt_long(argc, argv, g.optstring, g.longs, NULL)) != -1) {
		switch (opt) {
		case 'p': c->out = optarg; break;
		case 'h': print_usage("export"); return 1;
		default: return usage_bad_option("export", opt, argv);
		}
	}
	if (usage_trace_file("export", argc, argv, &c->path))
		return -1;
	if (!c->out) {
		usage_error("export", "say the format and output file: --perfetto OUT.json");
		return -1;
	}
	return 0;
}

static int run(const struct export_ctx *c)
{
	struct tl_data d;
	int ret = tl_render(c->path, c->out, tl_write_perfetto, &d);

	if (!ret)
		fprintf(stderr, "fence-trace export: wrote %s (open it in ui.perfetto.dev or chrome://tracing)\n",
			c->out);
	tl_free(&d);
	return ret;
}

int cmd_export(int argc, char **argv)
{
	struct export_ctx c = { 0 };
	int ret = parse_args(&c, argc, argv);

	if (ret)
		return ret > 0 ? 0 : EXIT_USAGE;
	return run(&c);
}
