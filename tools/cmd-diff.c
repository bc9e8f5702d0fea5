// SPDX-License-Identifier: GPL-2.0
/*
 * cmd-diff.c - `fence-trace diff BASE NEW`: how latency distributions and
 * late frames moved between two captures, per timeline and per CRTC, with
 * an exit status for regression gating in CI.
 *
 * Fence contexts are allocated at run time, so timelines are matched by
 * (driver, timeline name) and CRTCs by their object id and name.
 */
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "analyze.h"
#include "fence-trace.h"
#include "parse-num.h"

#define EXIT_REGRESSED 3

struct diff_ctx {
	const char *base_path, *new_path;
	unsigned int threshold_pct;	/* 0: report only */
	double percentile;		/* 0.5, 0.9, 0.99, or 1.0 for max */
	const char *percentile_name;
	int regressions;
};

static const struct option long_opts[] = {
	{ "threshold", required_argument, NULL, 't' },
	{ "percentile", required_argument, NULL, 'p' },
	{ "help", no_argument, NULL, 'h' },
	{ 0 }
};

static int parse_percentile(struct diff_ctx *c, const char *arg)
{
	static const struct { const char *name; double p; } names[] = {
		{ "p50", 0.5 }, { "p90", 0.9 }, { "p99", 0.99 }, { "max", 1.0 },
	};

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (strcmp(arg, names[i].name) == 0) {
			c->percentile = names[i].p;
			c->percentile_name = names[i].name;
			return 0;
		}
	return -1;
}

/* Return: 0 to run, 1 after --help, -1 on a usage error (already said). */
static int parse_args(struct diff_ctx *c, int argc, char **argv)
{
	int opt;

	c->percentile = 0.99;
	c->percentile_name = "p99";
	optind = 0;
	opterr = 0;
	while ((opt = getopt_long(argc, argv, ":t:p:h", long_opts, NULL)) != -1) {
		switch (opt) {
		case 't':
			if (parse_uint(optarg, 100000, &c->threshold_pct)) {
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

static double change_pct(uint64_t before, uint64_t after)
{
	return before ? 100.0 * ((double)after - (double)before) / (double)before : 0.0;
}

static void compare(struct diff_ctx *c, const char *what, const struct hist *b,
		    const struct hist *n, uint64_t late_b, uint64_t late_n, int has_late)
{
	uint64_t pb = hist_percentile(b, c->percentile), pn = hist_percentile(n, c->percentile);
	double pct = change_pct(pb, pn);
	int regressed = c->threshold_pct && b->count && n->count && pct > c->threshold_pct;

	printf("%-36.36s %7" PRIu64 " %7" PRIu64 "  %s %10.3f ms -> %10.3f ms (%+7.1f%%)",
	       what, b->count, n->count, c->percentile_name, pb / 1e6, pn / 1e6, pct);
	if (has_late)
		printf("  late %" PRIu64 " -> %" PRIu64, late_b, late_n);
	printf("%s\n", regressed ? "  REGRESSED" : "");
	c->regressions += regressed || (c->threshold_pct && has_late && late_n > late_b);
}

static void diff_timelines(struct diff_ctx *c, const struct ft_model *b, const struct ft_model *n)
{
	static const struct hist empty;

	printf("%-36s %7s %7s\n", "timeline (driver/name)", "base", "new");
	for (unsigned int i = 0; i < n->n_timelines; i++) {
		const struct ft_timeline *tn = &n->timelines[i], *tb = NULL;
		char what[160];

		for (unsigned int k = 0; k < b->n_timelines && !tb; k++)
			if (!strcmp(b->timelines[k].driver, tn->driver) &&
			    !strcmp(b->timelines[k].name, tn->name))
				tb = &b->timelines[k];
		snprintf(what, sizeof(what), "%s/%s%s", tn->driver, tn->name, tb ? "" : " (new)");
		compare(c, what, tb ? &tb->latency : &empty, &tn->latency, 0, 0, 0);
	}
}

static void diff_crtcs(struct diff_ctx *c, const struct ft_model *b, const struct ft_model *n)
{
	static const struct hist empty;

	for (unsigned int i = 0; i < n->n_crtcs; i++) {
		const struct ft_crtc *cn = &n->crtcs[i], *cb = NULL;
		char what[160];

		for (unsigned int k = 0; k < b->n_crtcs && !cb; k++)
			if (b->crtcs[k].crtc_id == cn->crtc_id && !strcmp(b->crtcs[k].name, cn->name))
				cb = &b->crtcs[k];
		snprintf(what, sizeof(what), "CRTC %u (%s) out-fence%s", cn->crtc_id, cn->name,
			 cb ? "" : " (new)");
		compare(c, what, cb ? &cb->out_latency : &empty, &cn->out_latency,
			cb ? cb->late_count : 0, cn->late_count, 1);
	}
}

int cmd_diff(int argc, char **argv)
{
	struct diff_ctx c = { 0 };
	struct analysis base = { 0 }, new = { 0 };
	char err[256];
	int ret = parse_args(&c, argc, argv);

	if (ret)
		return ret > 0 ? 0 : EXIT_USAGE;
	ret = 1;
	if (analysis_run(&base, c.base_path, NULL, err, sizeof(err)) ||
	    analysis_run(&new, c.new_path, NULL, err, sizeof(err))) {
		fprintf(stderr, "fence-trace diff: %s\n", err);
		goto out;
	}
	printf("fence-trace diff: %s -> %s\n", c.base_path, c.new_path);
	diff_timelines(&c, &base.model, &new.model);
	diff_crtcs(&c, &base.model, &new.model);
	if (c.threshold_pct)
		printf("%d regression%s past %u%% (%s latency, or more late frames)\n", c.regressions,
		       c.regressions == 1 ? "" : "s", c.threshold_pct, c.percentile_name);
	ret = c.regressions ? EXIT_REGRESSED : 0;
out:
	analysis_free(&base);
	analysis_free(&new);
	return ret;
}
