// SPDX-License-Identifier: GPL-2.0
/*
 * cmd-latency.c - `fence-trace latency`: live dma_fence signal latency
 * (and wait durations) as log2 histograms per fence context, aggregated in
 * the kernel by live/fence-latency.bpf.c, printed every INTERVAL seconds or
 * once at Ctrl-C, in the manner of bcc's biolatency/runqlat.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "fence-trace.h"
#include "latency.h"
#include "parse-num.h"

static volatile sig_atomic_t exiting;

static void on_sigint(int sig)
{
	(void)sig;
	exiting = 1;
}

/* Return: 0 to run, 1 after --help, -1 on a usage error (already said). */
static int parse_args(struct latency_ctx *c, int argc, char **argv)
{
	unsigned int v;
	struct cmd_getopt g;
	int opt;

	c->context = -1;
	/* the keys of latency_options in cli/usage.c */
	cmd_getopt_start(&g, "latency");
	while ((opt = getopt_long(argc, argv, g.optstring, g.longs, NULL)) != -1) {
		switch (opt) {
		case 'C':
			if (parse_uint(optarg, 0xffffffffu, &v)) {
				usage_error("latency", "-C: '%s' is not a fence context number", optarg);
				return -1;
			}
			c->context = v;
			break;
		case 'T': c->timeline = optarg; break;
		case 'P': c->per_task = 1; c->waits = 1; break;
		case 'W': c->waits = 1; break;
		case 'm': c->ms = 1; break;
		case 'j': c->json = 1; break;
		case 'v': c->verbose = 1; break;
		case 'r': c->raw_tp = 1; break;
		case 'h': print_usage("latency"); return 1;
		default: return usage_bad_option("latency", opt, argv);
		}
	}
	if (optind < argc && (parse_uint(argv[optind++], 86400, &c->interval) || !c->interval)) {
		usage_error("latency", "INTERVAL: '%s' is not a number of seconds from 1 to 86400", argv[optind - 1]);
		return -1;
	}
	if (optind < argc && (parse_uint(argv[optind++], 1u << 30, &c->count) || !c->count)) {
		usage_error("latency", "COUNT: '%s' is not a positive number", argv[optind - 1]);
		return -1;
	}
	if (optind < argc) {
		usage_error("latency", "unexpected argument '%s'", argv[optind]);
		return -1;
	}
	return 0;
}

/* The programs' names first, so that only what they could not name is asked for. */
static void poll_names(struct latency_ctx *c)
{
	names_poll(&c->names);
	latency_want_names(c);
}

static void print_interval(struct latency_ctx *c)
{
	poll_names(c);
	if (c->json)
		latency_print_json(c);
	else
		latency_print_text(c);
	fflush(stdout);
	latency_clear(c);
}

static int run(struct latency_ctx *c)
{
	struct sigaction sa = { .sa_handler = on_sigint };
	unsigned int printed = 0;
	time_t next;

	/*
	 * Before loading, which takes a while: a signal meanwhile ends the run
	 * once loaded, instead of killing it with its tracefs instance made.
	 */
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	if (latency_load(c))
		return 1;
	/* On stderr even with --json: scripts wait for this line. */
	fprintf(stderr, "Tracing dma_fence %s... %s\n", c->waits ? "signal latency and waits" :
		"signal latency", c->interval ? "" : "Hit Ctrl-C to end.");
	next = time(NULL) + c->interval;
	while (!exiting) {
		usleep(100000);
		poll_names(c);
		if (!c->interval || time(NULL) < next)
			continue;
		print_interval(c);
		next += c->interval;
		if (c->count && ++printed >= c->count)
			break;
	}
	if (!c->interval || exiting)
		print_interval(c);
	return 0;
}

int cmd_latency(int argc, char **argv)
{
	struct latency_ctx c = { 0 };
	int ret = parse_args(&c, argc, argv);

	if (ret)
		return ret > 0 ? 0 : EXIT_USAGE;
	ret = run(&c);
	latency_unload(&c);
	return ret;
}
