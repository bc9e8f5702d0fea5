// SPDX-License-Identifier: GPL-2.0
/*
 * cmd-diff.c - `fence-trace diff BASE NEW`: how latency distributions and
 * late frames moved between two captures, per timeline and per CRTC, with
 * an exit status for regression gating in CI.  The comparison is diff.c's.
 */
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "analyze.h"
#include "diff.h"
#include "fence-trace.h"
#include "parse-num.h"

#define EXIT_REGRESSED 3

struct diff_ctx {
	const char *base_path, *new_path;
	struct diff_opts opts;
};

static int parse_percentile(struct diff_ctx *c, const char *arg)
{
	static const struct { const char *name; double p; } names[] = {
		{ "p50", 0.5 }, { "p90", 0.9 }, { "p99", 0.99 }, { "max", 1.0 },
	};

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (strcmp(arg, names[i].name) == 0) {
			c->opts.percentile = names[i].p;
			c->opts.percentile_name = names[i].name;
			return 0;
		}
	return -1;
}

/* Return: 0 to run, 1 after --help, -1 on a usage error (already said). */
static int parse_args(struct diff_ctx *c, int argc, char **argv)
{
	struct cmd_getopt g;
	int opt;

	c->opts.percentile = 0.99;
	c->opts.percentile_name = "p99";
	/* the keys of diff_options in cli/usage.c */
	cmd_getopt_start(&g, "diff");
	while ((opt = getopt_long(argc, argv, g.optstring, g.longs, NULL)) != -1) {
		switch (opt) {
		case 't':
			if (parse_uint(optarg, 100000, &c->opts.threshold_pct)) {
				usage_error("diff", "--threshold: '%s' is not a whole percentage", optarg);
				return -1;
			}
			break;
		case 'p':
			if (parse_percentile(c, optarg)) {
				usage_error("diff", "--percentile: '%s' is not p50, p90, p99 or max", optarg);
				return -1;
			}
			break;
		case 'h': print_usage("diff"); return 1;
		default: return usage_bad_option("diff", opt, argv);
		}
	}
	if (argc - optind != 2) {
		usage_error("diff", "want two trace files, BASE and NEW");
		return -1;
	}
	c->base_path = argv[optind];
	c->new_path = argv[optind + 1];
	return 0;
}

int cmd_diff(int argc, char **argv)
{
	struct diff_ctx c = { 0 };
	struct analysis base = { 0 }, new = { 0 };
	/* diff matches timelines by name, context by context, as it always has */
	const struct analysis_window every = { .each_context = 1 };
	char err[256];
	int ret = parse_args(&c, argc, argv);

	if (ret)
		return ret > 0 ? 0 : EXIT_USAGE;
	ret = 1;
	if (analysis_run(&base, c.base_path, &every, err, sizeof(err)) ||
	    analysis_run(&new, c.new_path, &every, err, sizeof(err))) {
		fprintf(stderr, "fence-trace diff: %s\n", err);
		goto out;
	}
	printf("fence-trace diff: %s -> %s\n", c.base_path, c.new_path);
	ret = diff_models(stdout, &base.model, &new.model, &c.opts) ? EXIT_REGRESSED : 0;
	if (fflush(stdout)) {
		fprintf(stderr, "fence-trace diff: cannot write the comparison\n");
		ret = 1;
	}
out:
	analysis_free(&base);
	analysis_free(&new);
	return ret;
}
