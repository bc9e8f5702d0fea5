// SPDX-License-Identifier: GPL-2.0
/*
 * cmd-timeline.c - `fence-trace timeline`: trace.dat -> one self-contained
 * HTML page (timeline-html.c) with every fence, wait, vblank and late frame.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>

#include "fence-trace.h"
#include "render-timeline.h"

struct timeline_ctx {
	const char *path, *out;
};

/* Return: 0 to run, 1 after --help, -1 on a usage error (already said). */
static int parse_args(struct timeline_ctx *c, int argc, char **argv)
{
	struct cmd_getopt g;
	int opt;

	c->path = "trace.dat";
	c->out = "timeline.html";
	/* the keys of timeline_options in cli/usage.c */
	cmd_getopt_start(&g, "timeline");
	while ((opt = getopt_long(argc, argv, g.optstring, g.longs, NULL)) != -1) {
		switch (opt) {
		case 'o': c->out = optarg; break;
		case 'h': print_usage("timeline"); return 1;
		default: return usage_bad_option("timeline", opt, argv);
		}
	}
	if (usage_trace_file("timeline", argc, argv, &c->path))
		return -1;
	return 0;
}

static int run(const struct timeline_ctx *c)
{
	struct tl_data d;
	int ret = tl_render(c->path, c->out, tl_write_html, &d);

	if (!ret)
		fprintf(stderr, "fence-trace timeline: wrote %s (%zu fences, %zu waits, %zu vblanks)\n",
			c->out, d.fences.n, d.waits.n, d.vblanks.n);
	tl_free(&d);
	return ret;
}

int cmd_timeline(int argc, char **argv)
{
	struct timeline_ctx c = { 0 };
	int ret = parse_args(&c, argc, argv);

	if (ret)
		return ret > 0 ? 0 : EXIT_USAGE;
	return run(&c);
}
