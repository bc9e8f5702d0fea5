// SPDX-License-Identifier: GPL-2.0
/*
 * cmd-top.c - `fence-trace top`: a refreshing table of fence timelines,
 * worst p99 signal latency first, with fences/s, outstanding (unsignalled)
 * fences and the oldest one's age; `--pending` lists the unsignalled
 * fences themselves (top-pending.c).  On a terminal the table redraws in
 * place and `q` quits; through a pipe one table per interval is printed.
 */
#include <getopt.h>
#include <inttypes.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "fence-latency.h"	/* before the skeleton: its .bss uses struct fl_live */
#include "fence-latency.skel.h"
#include "fence-trace.h"
#include "latency.h"
#include "parse-num.h"
#include "sync.h"
#include "top.h"

static volatile sig_atomic_t exiting;

static void on_signal(int sig)
{
	(void)sig;
	exiting = 1;
}

static int parse_args(struct top_ctx *t, int argc, char **argv)
{
	struct cmd_getopt g;
	int opt;

	t->delay = 1;
	/* the keys of top_options in cli/usage.c */
	cmd_getopt_start(&g, "top");
	while ((opt = getopt_long(argc, argv, g.optstring, g.longs, NULL)) != -1) {
		switch (opt) {
		case 'p': t->pending = 1; break;
		case 'd':
			if (parse_uint(optarg, 3600, &t->delay) || !t->delay) {
				usage_error("top", "-d: '%s' is not a number of seconds from 1 to 3600", optarg);
				return -1;
			}
			break;
		case 'n':
			if (parse_uint(optarg, 1u << 30, &t->count) || !t->count) {
				usage_error("top", "-n: '%s' is not a positive number", optarg);
				return -1;
			}
			break;
		case 'h': print_usage("top"); return 1;
		default: return usage_bad_option("top", opt, argv);
		}
	}
	if (optind < argc) {
		usage_error("top", "unexpected argument '%s'", argv[optind]);
		return -1;
	}
	return 0;
}

static struct top_row *row_for(struct top_ctx *t, uint64_t context)
{
	for (unsigned int i = 0; i < t->n_rows; i++)
		if (t->rows[i].context == context)
			return &t->rows[i];
	if (t->n_rows >= TOP_MAX_ROWS)
		return NULL;
	memset(&t->rows[t->n_rows], 0, sizeof(t->rows[0]));
	t->rows[t->n_rows].context = context;
	return &t->rows[t->n_rows++];
}

/* The upper end of the log2 bucket holding the 99th percentile, in us. */
static uint64_t p99_us(const struct fl_hist *h)
{
	uint64_t seen = 0, rank = h->count - h->count / 100;

	for (int i = 0; i < FL_SLOTS; i++) {
		seen += h->slots[i];
		if (h->count && seen >= rank)
			return (2ull << i) - 1;
	}
	return 0;
}

/* Signal histograms of the last interval, then the live (unsignalled) map. */
static void collect(struct top_ctx *t)
{
	int hfd = bpf_map__fd(t->lat.skel->maps.hists);
	struct fl_key hk, *hprev = NULL;
	uint64_t now = now_ns();
	unsigned int n_live;
	struct fl_hist h;
	struct top_row *r;

	t->n_rows = 0;
	while (bpf_map_get_next_key(hfd, hprev, &hk) == 0) {
		if (hk.kind == FL_SIGNAL && bpf_map_lookup_elem(hfd, &hk, &h) == 0 &&
		    (r = row_for(t, hk.id))) {
			r->signaled = h.count;
			r->p99_us = p99_us(&h);
			r->errors = h.errors;
		}
		t->hkey = hk;
		hprev = &t->hkey;
	}
	n_live = latency_live_copy(&t->lat, t->live, FL_MAX_LIVE);
	for (unsigned int i = 0; i < n_live; i++) {
		const struct fl_live *lv = &t->live[i];

		if ((r = row_for(t, lv->context))) {
			r->outstanding++;
			if (now > lv->ts && now - lv->ts > r->oldest_ns)
				r->oldest_ns = now - lv->ts;
		}
	}
	latency_clear(&t->lat);
}

static int worse(const void *a, const void *b)
{
	const struct top_row *x = a, *y = b;

	if (x->p99_us != y->p99_us)
		return x->p99_us < y->p99_us ? 1 : -1;
	return x->oldest_ns < y->oldest_ns ? 1 : x->oldest_ns > y->oldest_ns ? -1 : 0;
}

static void draw(struct top_ctx *t)
{
	char when[16], names[256];
	time_t now = time(NULL);

	strftime(when, sizeof(when), "%H:%M:%S", localtime(&now));
	if (t->tty)
		printf("\033[H\033[2J");
	printf("fence-trace top - %s, every %u s%s\n", when, t->delay, t->tty ? " (q quits)" : "");
	printf("%8s  %-12s %-20s %9s %10s %7s %11s %12s\n", "CONTEXT", "DRIVER", "TIMELINE",
	       "FENCES/S", "P99 <", "ERRORS", "OUTSTANDING", "OLDEST");
	qsort(t->rows, t->n_rows, sizeof(t->rows[0]), worse);
	for (unsigned int i = 0; i < t->n_rows; i++) {
		const struct top_row *r = &t->rows[i];
		const struct fence_name *n = names_find(&t->lat.names, r->context);

		printf("%8" PRIu64 "  %-12.12s %-20.20s %9.1f %7.2f ms %7" PRIu64 " %11u %9.1f ms\n",
		       r->context, n ? n->driver : "?",
		       n ? n->timeline : names_unknown_short(&t->lat.names),
		       (double)r->signaled / t->delay, r->p99_us / 1000.0, r->errors, r->outstanding,
		       r->oldest_ns / 1e6);
	}
	names_counts_line(&t->lat.names, names, sizeof(names));
	printf("drops: live table full %" PRIu64 ", histogram map full %" PRIu64 "\n%s\n",
	       latency_counter(&t->lat, FL_DROP_LIVE), latency_counter(&t->lat, FL_DROP_HIST), names);
	if (!t->tty)
		printf("\n");
	fflush(stdout);
}

/* Wait one interval; on a terminal, 'q' ends it early.  1: quit. */
static int wait_interval(struct top_ctx *t)
{
	struct pollfd pfd = { .fd = STDIN_FILENO, .events = POLLIN };
	time_t end = time(NULL) + t->delay;
	char ch;

	while (!exiting && time(NULL) < end) {
		names_poll(&t->lat.names);
		if (t->tty && poll(&pfd, 1, 100) > 0 && read(STDIN_FILENO, &ch, 1) == 1 &&
		    (ch == 'q' || ch == 'Q'))
			return 1;
		if (!t->tty)
			usleep(100000);
	}
	return exiting;
}

static void raw_terminal(struct top_ctx *t, int on)
{
	struct termios raw;

	if (!t->tty)
		return;
	if (on) {
		tcgetattr(STDIN_FILENO, &t->saved);
		raw = t->saved;
		raw.c_lflag &= ~(ICANON | ECHO);
		tcsetattr(STDIN_FILENO, TCSANOW, &raw);
	} else {
		tcsetattr(STDIN_FILENO, TCSANOW, &t->saved);
	}
}

static int run(struct top_ctx *t)
{
	struct sigaction sa = { .sa_handler = on_signal };
	unsigned int shown = 0;

	t->lat.context = -1;
	t->tty = isatty(STDOUT_FILENO) && isatty(STDIN_FILENO);
	/* Before loading: see cmd-latency.c. */
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	if (latency_load(&t->lat))
		return 1;
	if (!t->tty)
		fprintf(stderr, "fence-trace top: watching\n");	/* scripts wait for this */
	raw_terminal(t, 1);
	while (!wait_interval(t)) {
		if (t->pending) {
			top_pending(t);
		} else {
			collect(t);
			/* after: each fence read has sent its context's names already */
			names_poll(&t->lat.names);
			draw(t);
		}
		if (t->count && ++shown >= t->count)
			break;
	}
	raw_terminal(t, 0);
	return 0;
}

int cmd_top(int argc, char **argv)
{
	struct top_ctx *t = calloc(1, sizeof(*t));
	int ret;

	if (!t)
		return 1;
	ret = parse_args(t, argc, argv);
	if (ret) {
		free(t);
		return ret > 0 ? 0 : EXIT_USAGE;
	}
	ret = run(t);
	latency_unload(&t->lat);
	free(t);
	return ret;
}
