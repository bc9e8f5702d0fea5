// SPDX-License-Identifier: GPL-2.0
/*
 * cmd-stall.c - `fence-trace stall`: watch every dma_fence wait and, the
 * moment one outlasts the threshold, say what it is blocked on
 * (stall-print.c); then say when and how it cleared.  --once exits with
 * status 3 at the first stall, for scripts and CI.
 *
 * live/fence-stall.bpf.c keeps the waits in progress in a map that is
 * polled every 10 ms, and sends the end of every long wait through a ring
 * buffer, so a stall is seen within threshold + 10 ms and its end exactly.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "bpf-flavour.h"
#include "fence-stall.skel.h"
#include "fence-trace.h"
#include "lockdown.h"
#include "parse-num.h"
#include "stall.h"
#include "stall-class.h"
#include "sync.h"

#define POLL_US 10000
#define DEFAULT_THRESHOLD_NS 33000000ull

static volatile sig_atomic_t exiting;

static void on_signal(int sig)
{
	(void)sig;
	exiting = 1;
}

static int number(const char *opt, const char *arg, unsigned int max, unsigned int *out)
{
	if (parse_uint(arg, max, out) == 0 && *out)
		return 0;
	usage_error("stall", "%s: '%s' is not a whole number from 1 to %u", opt, arg, max);
	return -1;
}

/* --latch-margin MS: as report's, a decimal number of ms, at most 1 s. */
static int latch_margin(struct stall_ctx *c, const char *arg)
{
	unsigned long long ns;

	if (parse_ms(arg, 1000, &ns) == 0) {
		c->latch_margin_ns = (int64_t)ns;
		return 0;
	}
	usage_error("stall", "--latch-margin: '%s' is not a number of ms from 0 to 1000", arg);
	return -1;
}

/* Return: 0 to run, 1 after --help, -1 on a usage error (already said). */
static int parse_args(struct stall_ctx *c, int argc, char **argv)
{
	struct cmd_getopt g;
	int opt;

	/* the keys of stall_options in cli/usage.c */
	c->latch_margin_ns = -1;
	cmd_getopt_start(&g, "stall");
	while ((opt = getopt_long(argc, argv, g.optstring, g.longs, NULL)) != -1) {
		switch (opt) {
		case 't': if (number("--threshold", optarg, 3600000, &c->threshold_ms)) return -1; break;
		case 'V': if (number("--vblanks", optarg, 1000, &c->vblanks)) return -1; break;
		case 'L': if (latch_margin(c, optarg)) return -1; break;
		case 'd': if (number("-d", optarg, 86400, &c->duration_s)) return -1; break;
		case 'o': c->once = 1; break;
		case 'j': c->json = 1; break;
		case 'r': c->raw_tp = 1; break;
		case 'v': c->verbose = 1; break;
		case 'h': print_usage("stall"); return 1;
		default: return usage_bad_option("stall", opt, argv);
		}
	}
	if (optind < argc) {
		usage_error("stall", "unexpected argument '%s'", argv[optind]);
		return -1;
	}
	if (c->threshold_ms && c->vblanks) {
		usage_error("stall", "--threshold and --vblanks exclude each other");
		return -1;
	}
	return 0;
}

static int print_libbpf(enum libbpf_print_level level, const char *fmt, va_list args)
{
	(void)level;
	return vfprintf(stderr, fmt, args);
}

static struct stall_seen *seen_find(struct stall_ctx *c, const struct fs_wait_key *k, uint64_t start)
{
	for (unsigned int i = 0; i < c->n_seen; i++)
		if (!memcmp(&c->seen[i].key, k, sizeof(*k)) && c->seen[i].start == start)
			return &c->seen[i];
	return NULL;
}

static int on_end(void *ctx, void *data, size_t len)
{
	struct stall_ctx *c = ctx;
	const struct fs_end *e = data;
	struct fs_wait_key k = { .pid_tgid = (uint64_t)e->tgid << 32 | e->pid, .fence = e->fence };
	struct stall_seen *s;

	if (len < sizeof(*e))
		return 0;
	s = seen_find(c, &k, e->start);
	/* The kernel's threshold may have been lower when the wait began. */
	if (!s && e->end - e->start < c->threshold_ns)
		return 0;
	if (!s)
		c->stalls++;	/* began and ended between two polls */
	stall_print_end(c, e, s ? &s->wait : NULL);
	if (s) {
		stall_class_end(c, s, e);
		*s = c->seen[--c->n_seen];
	}
	return 0;
}

/* Thresholds in vblanks follow the slowest pipe's measured period. */
static void update_threshold(struct stall_ctx *c)
{
	struct fs_vblank pipes[STALL_MAX_PIPES];
	unsigned int n = c->vblanks ? c->vblanks : 2, n_pipes;
	uint64_t period = 0;

	if (c->threshold_ms)
		return;
	n_pipes = stall_pipes_read(c, pipes);
	for (unsigned int i = 0; i < n_pipes; i++) {	/* the slowest display sets it */
		uint64_t p = fs_vblank_period(&pipes[i]);

		if (p > period)
			period = p;
	}
	c->threshold_ns = period ? n * period : DEFAULT_THRESHOLD_NS;
	c->skel->data->threshold_ns = c->threshold_ns;
}

/* New waits past the threshold: report each once.  1 when --once fired. */
static int scan_waits(struct stall_ctx *c)
{
	int fd = bpf_map__fd(c->skel->maps.waits);
	struct fs_wait_key key, *prev = NULL, next;
	uint64_t now = now_ns();
	struct fs_wait w;

	while (bpf_map_get_next_key(fd, prev, &next) == 0) {
		if (bpf_map_lookup_elem(fd, &next, &w) == 0 && now > w.start &&
		    now - w.start >= c->threshold_ns && !seen_find(c, &next, w.start) &&
		    c->n_seen < STALL_MAX_TRACKED) {
			struct stall_seen *s = &c->seen[c->n_seen++];

			*s = (struct stall_seen){ .key = next, .start = w.start, .wait = w, .commit = -1 };
			c->stalls++;
			names_poll(&c->names);
			stall_print_start(c, s, now);
			if (c->once)
				return 1;
		}
		key = next;
		prev = &key;
	}
	return 0;
}

/* Waits, creations or ends the kernel side had no room for. */
static uint64_t dropped(struct stall_ctx *c)
{
	int ncpus = libbpf_num_possible_cpus(), fd = bpf_map__fd(c->skel->maps.drops);
	uint64_t vals[256], sum = 0;

	for (__u32 k = 0; k < 3 && ncpus > 0 && ncpus <= 256; k++)
		if (bpf_map_lookup_elem(fd, &k, vals) == 0)
			for (int i = 0; i < ncpus; i++)
				sum += vals[i];
	return sum;
}

static int load(struct stall_ctx *c)
{
	uint64_t t0 = now_ns(), t_names, t_progs, t_series;
	char skipped[512];
	int err, stream_only;

	libbpf_set_print(c->verbose ? print_libbpf : NULL);
	names_start(&c->names);	/* without tracefs: what BPF reads is named */
	t_names = now_ns();
	c->skel = fence_stall_bpf__open();
	if (!c->skel) {
		fprintf(stderr, "fence-trace stall: cannot open the BPF object: %s\n", strerror(errno));
		return -1;
	}
	bpf_pick_flavour(c->skel->obj, !c->raw_tp && bpf_tp_btf_usable("dma_fence_wait_start"),
			 skipped, sizeof(skipped));
	stream_only = names_stream_only();
	if (stream_only < 0)
		return -1;
	c->skel->rodata->fn_stream_only = stream_only;
	err = fence_stall_bpf__load(c->skel);
	if (!err)
		err = names_attach(&c->names, bpf_map__fd(c->skel->maps.fence_names),
				   &c->skel->bss->fn_lost) ? -errno : 0;
	if (!err)
		err = fence_stall_bpf__attach(c->skel);
	c->watch_start_ns = now_ns();	/* vblanks from here on are all seen */
	if (!err) {
		c->rb = ring_buffer__new(bpf_map__fd(c->skel->maps.ends), on_end, c, NULL);
		err = c->rb ? 0 : -errno;
	}
	if (err) {
		fprintf(stderr, "fence-trace stall: cannot load or attach the BPF programs: %s%s\n",
			strerror(-err), refusal_hint(-err, " (-v for the verifier log)"));
		return -1;
	}
	c->threshold_ns = c->threshold_ms ? c->threshold_ms * 1000000ull : DEFAULT_THRESHOLD_NS;
	c->skel->data->threshold_ns = c->threshold_ns;
	c->ebusy_on = -2;
	t_progs = now_ns();
	c->have_series = series_start(&c->series, c) == 0;
	t_series = now_ns();
	stall_before_load(c);
	/* Starting takes seconds in an emulated guest: say where they went. */
	if (c->verbose)
		fprintf(stderr, "fence-trace stall: starting: names %.1f ms, wait programs %.1f ms, series %.1f ms, "
			"stock-taking programs %.1f ms\n", (t_names - t0) / 1e6, (t_progs - t_names) / 1e6,
			(t_series - t_progs) / 1e6, (now_ns() - t_series) / 1e6);
	return 0;
}

static int run(struct stall_ctx *c)
{
	struct sigaction sa = { .sa_handler = on_signal };
	unsigned int ticks = 0;
	char names[256];
	time_t end;

	/* Before loading: see cmd-latency.c. */
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	if (load(c))
		return 1;
	/* from now: loading can take seconds (an emulated guest) */
	end = c->duration_s ? time(NULL) + c->duration_s : 0;
	stall_before_take(c);
	/*
	 * On stderr even with --json: scripts wait for this line, so it comes
	 * once the loop below is about to run (taking stock took over 3 s in a
	 * debug kernel on a loaded host, and a stall had come and gone).
	 */
	fprintf(stderr, "fence-trace stall: watching dma_fence waits (threshold %s)\n",
		c->threshold_ms ? "fixed" : "2 vblank periods, else 33 ms");
	while (!exiting && (!end || time(NULL) < end)) {
		usleep(POLL_US);
		if (++ticks % 10 == 0) {
			update_threshold(c);
			names_poll(&c->names);
		}
		if (c->have_series)
			series_read(&c->series);	/* before: it names the waits */
		ring_buffer__poll(c->rb, 0);
		if (scan_waits(c) || stall_before_scan(c, now_ns()) || (c->once && c->stalls))
			return EXIT_STALLED;
		stall_class_scan(c, now_ns());
	}
	ring_buffer__poll(c->rb, 0);
	/*
	 * On stderr in both modes: a run that reported nothing says why.
	 * Still going: the waits, and the polls and behind commits reported.
	 */
	fprintf(stderr, "fence-trace stall: %u stall%s seen; %u still going; dropped: %" PRIu64 "\n",
		c->stalls, c->stalls == 1 ? "" : "s",
		c->n_seen + stall_before_going(c) + (c->have_series ? series_going(&c->series) : 0),
		dropped(c));
	fprintf(stderr, "fence-trace stall: %llu dma_fence waits begun since its programs attached, long or short\n",
		(unsigned long long)c->skel->bss->waits_begun);
	names_counts_line(&c->names, names, sizeof(names));
	fprintf(stderr, "fence-trace stall: %s\n", names);
	if (c->backwards)
		fprintf(stderr, "fence-trace stall: %u time span%s out of clock order (a clock read before the event it was compared with), printed as 0\n",
			c->backwards, c->backwards == 1 ? "" : "s");
	return c->once && c->stalls ? EXIT_STALLED : 0;
}

int cmd_stall(int argc, char **argv)
{
	static struct stall_ctx c;
	int ret = parse_args(&c, argc, argv);

	if (ret)
		return ret > 0 ? 0 : EXIT_USAGE;
	ret = run(&c);
	if (c.have_series)
		series_stop(&c.series);
	stall_before_free(&c);
	ring_buffer__free(c.rb);
	fence_stall_bpf__destroy(c.skel);
	names_stop(&c.names);
	return ret;
}
