// SPDX-License-Identifier: GPL-2.0
/*
 * cmd-report.c - `fence-trace report`: trace.dat -> decode -> model ->
 * text or JSON.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze.h"
#include "fence-trace.h"
#include "parse-num.h"
#include "report.h"

enum report_format { FORMAT_TEXT, FORMAT_JSON, FORMAT_CSV };

struct report_ctx {
	const char *path;
	enum report_format format;
	struct report_opts opts;
	struct analysis_window window;
};

static int parse_sections(const char *arg, unsigned int *sections)
{
	char buf[128], *tok, *save = NULL;

	if (strlen(arg) >= sizeof(buf))
		return -1;
	strcpy(buf, arg);
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save))
		if (report_section_parse(tok, sections))
			return -1;
	return 0;
}

static int parse_id(const char *opt, const char *arg, long long *out)
{
	unsigned int v;

	if (parse_uint(arg, 0xffffffffu, &v)) {
		usage_error("report", "%s: '%s' is not a whole number", opt, arg);
		return -1;
	}
	*out = v;
	return 0;
}

static int parse_time(const char *opt, const char *arg, unsigned long long *ns)
{
	if (parse_seconds(arg, ns) == 0)
		return 0;
	usage_error("report", "%s: '%s' is not a time in seconds (like 12.5)", opt, arg);
	return -1;
}

/* --latch-margin MS: a decimal number of milliseconds, at most 1 s. */
static int parse_margin(const char *arg, struct analysis_window *w)
{
	unsigned long long ns;

	if (parse_ms(arg, 1000, &ns)) {
		usage_error("report", "--latch-margin: '%s' is not a number of ms from 0 to 1000", arg);
		return -1;
	}
	w->latch_margin_given = 1;
	w->latch_margin_ns = ns;
	return 0;
}

static int set_format(struct report_ctx *c, enum report_format f)
{
	if (c->format != FORMAT_TEXT && c->format != f) {
		usage_error("report", "--json and --csv exclude each other");
		return -1;
	}
	c->format = f;
	return 0;
}

static int parse_reader(const char *arg, enum source_reader *reader)
{
	if (!strcmp(arg, "fast"))
		*reader = SOURCE_READER_FAST;
	else if (!strcmp(arg, "libtracecmd"))
		*reader = SOURCE_READER_LIBTRACECMD;
	else {
		usage_error("report", "--reader: '%s' is neither 'fast' nor 'libtracecmd'", arg);
		return -1;
	}
	return 0;
}

/* Return: 0 to run, 1 after --help, -1 on a usage error (already said). */
static int parse_args(struct report_ctx *c, int argc, char **argv)
{
	struct cmd_getopt g;
	int opt;

	c->path = "trace.dat";
	c->opts.context = -1;
	c->opts.crtc = -1;
	c->opts.pid = -1;
	/* the keys of report_options in cli/usage.c */
	cmd_getopt_start(&g, "report");
	while ((opt = getopt_long(argc, argv, g.optstring, g.longs, NULL)) != -1) {
		switch (opt) {
		case 'j': if (set_format(c, FORMAT_JSON)) return -1; break;
		case 'c': if (set_format(c, FORMAT_CSV)) return -1; break;
		case 'p': if (parse_id("--pid", optarg, &c->opts.pid)) return -1; break;
		case 'f': if (parse_time("--from", optarg, &c->window.from_ns)) return -1; break;
		case 't': if (parse_time("--to", optarg, &c->window.to_ns)) return -1; break;
		case 's':
			if (parse_sections(optarg, &c->opts.sections)) {
				usage_error("report", "unknown section '%s' (timelines, waits, display, frames, stalls, anomalies, all)", optarg);
				return -1;
			}
			break;
		case 'T': c->opts.timeline = optarg; break;
		case 'C':	/* its own row, even when it held one fence or is a merge */
			if (parse_id("--context", optarg, &c->opts.context))
				return -1;
			c->window.each_context = 1;
			break;
		case 'R': if (parse_id("--crtc", optarg, &c->opts.crtc)) return -1; break;
		case 'H': c->opts.hist = 1; break;
		case 'L': if (parse_margin(optarg, &c->window)) return -1; break;
		case 'y':
			if (strcmp(optarg, "context")) {
				usage_error("report", "--by: '%s' is not 'context'", optarg);
				return -1;
			}
			c->opts.by_context = c->window.each_context = 1;
			break;
		case 'r':
			if (parse_reader(optarg, &c->window.reader))
				return -1;
			break;
		case 'h': print_usage("report"); return 1;
		default: return usage_bad_option("report", opt, argv);
		}
	}
	if (usage_trace_file("report", argc, argv, &c->path))
		return -1;
	if (c->window.to_ns && c->window.to_ns < c->window.from_ns) {
		usage_error("report", "--to is before --from");
		return -1;
	}
	if (!c->opts.sections)
		c->opts.sections = SEC_ALL;
	return 0;
}

/* FILE.drm next to the trace, when record left one; NULL otherwise. */
static const struct drm_map *load_drm_map(const char *path, struct drm_map *map)
{
	char name[4096];
	FILE *in;
	int ret;

	snprintf(name, sizeof(name), "%s.drm", path);
	in = fopen(name, "r");
	if (!in)
		return NULL;
	ret = drm_map_read(map, in);
	fclose(in);
	if (ret || map->skipped)
		fprintf(stderr, "fence-trace report: %s: %u lines not understood\n", name, map->skipped);
	return ret ? NULL : map;
}

static int run(struct report_ctx *c)
{
	struct drm_map map;
	struct analysis a;
	struct report_info ri;
	char err[256];
	int ret = 1;

	if (analysis_run(&a, c->path, &c->window, err, sizeof(err))) {
		fprintf(stderr, "fence-trace report: %s\n", err);
		goto out;
	}
	ri = (struct report_info){ c->path, a.info.version, a.info.cpus, a.info.clock, a.info.uname,
				   load_drm_map(c->path, &map), c->window.from_ns, c->window.to_ns,
				   a.info.recorder };
	switch (c->format) {
	case FORMAT_JSON: ret = report_json(stdout, &a.model, &ri, &c->opts); break;
	case FORMAT_CSV: ret = report_csv(stdout, &a.model, &ri, &c->opts); break;
	default: ret = report_text(stdout, &a.model, &ri, &c->opts); break;
	}
	if (ret || fflush(stdout)) {
		fprintf(stderr, "fence-trace report: cannot write the report\n");
		ret = 1;
	}
out:
	analysis_free(&a);
	return ret;
}

int cmd_report(int argc, char **argv)
{
	struct report_ctx c = { 0 };
	int ret = parse_args(&c, argc, argv);

	if (ret)
		return ret > 0 ? 0 : EXIT_USAGE;
	return run(&c);
}
