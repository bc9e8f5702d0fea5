// SPDX-License-Identifier: GPL-2.0
/*
 * cmd-export.c - `fence-trace export`: a trace.dat as Chrome trace-event
 * JSON for ui.perfetto.dev (--perfetto, export-perfetto.c), or many of them
 * as the fleet tables (--tables, export-tables.c).
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "export-tables.h"
#include "fence-trace.h"
#include "label-arg.h"
#include "parse-num.h"
#include "render-timeline.h"

struct export_ctx {
	const char *path, *out;
	struct export_tables tables;
	int jobs_given;
};

static int parse_jobs(struct export_ctx *c, const char *arg)
{
	unsigned int n;

	if (parse_uint(arg, 1024, &n) || n == 0) {
		usage_error("export", "--jobs: '%s' is not a number from 1 to 1024", arg);
		return -1;
	}
	c->tables.jobs = (int)n;
	c->jobs_given = 1;
	return 0;
}

/* What the options and operands say together; -1 (said) when they do not fit. */
static int check_args(struct export_ctx *c, int argc, char **argv)
{
	if (!c->out == !c->tables.dir) {
		usage_error("export", c->out ? "--perfetto and --tables exclude each other" :
			    "say what to write: --perfetto OUT.json or --tables DIR");
		return -1;
	}
	if (c->out && (c->tables.n_labels || c->jobs_given || c->tables.fences)) {
		usage_error("export", "--label, --jobs and --fences go with --tables");
		return -1;
	}
	if (c->out)
		return usage_trace_file("export", argc, argv, &c->path);
	c->tables.files = argv + optind;
	c->tables.n_files = argc - optind;
	if (!c->tables.n_files) {
		usage_error("export", "--tables: name the trace files to export");
		return -1;
	}
	for (unsigned int i = 0; i < c->tables.n_labels; i++)
		if (c->tables.n_files > 1 && !strcmp(c->tables.labels[i].key, "run")) {
			usage_error("export", "--label run= names one capture: give it one FILE");
			return -1;
		}
	return 0;
}

/* Return: 0 to run, 1 after --help, -1 on a usage error (already said). */
static int parse_args(struct export_ctx *c, int argc, char **argv)
{
	struct cmd_getopt g;
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	int opt;

	c->path = "trace.dat";
	c->tables.jobs = cpus > 0 ? (int)cpus : 1;
	/* the keys of export_options in cli/usage.c */
	cmd_getopt_start(&g, "export");
	while ((opt = getopt_long(argc, argv, g.optstring, g.longs, NULL)) != -1) {
		switch (opt) {
		case 'p': c->out = optarg; break;
		case 'T': c->tables.dir = optarg; break;
		case 'l':
			if (label_arg("export", optarg, c->tables.labels, &c->tables.n_labels))
				return -1;
			break;
		case 'j': if (parse_jobs(c, optarg)) return -1; break;
		case 'F': c->tables.fences = 1; break;
		case 'h': print_usage("export"); return 1;
		default: return usage_bad_option("export", opt, argv);
		}
	}
	return check_args(c, argc, argv);
}

static int run_perfetto(const struct export_ctx *c)
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
	return c.out ? run_perfetto(&c) : export_tables_run(&c.tables);
}
