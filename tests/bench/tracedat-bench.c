// SPDX-License-Identifier: GPL-2.0
/*
 * tracedat-bench.c - how fast tracedat_iterate() delivers events.
 *
 *   tracedat-bench [-n EVENTS] [-r RUNS] [-k FILE]
 *
 * Builds a trace.dat of EVENTS (default 1000000) dma_fence events on two
 * CPUs with the test trace builder, then times tracedat_iterate() RUNS
 * times (default 3) with a callback that reads two number fields (context,
 * seqno) per event, the way a real analysis does.  Prints each run and the
 * best.  -k keeps the file as FILE.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <traceevent/event-parse.h>

#include "fixture-formats.h"
#include "trace-builder.h"
#include "tracedat.h"

struct bench {
	struct tep_format_field *context, *seqno;
	unsigned long long sum;
};

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Every event of the file is of the dma_fence class: one layout. */
static int read_two_fields(struct tep_record *rec, void *ctx)
{
	struct bench *b = ctx;
	unsigned long long c, s;

	if (tep_read_number_field(b->context, rec->data, &c) ||
	    tep_read_number_field(b->seqno, rec->data, &s))
		return -1;
	b->sum += c + s;
	return 0;
}

static int build(const char *path, unsigned long n)
{
	static const char *const events[] = {
		"dma_fence_init", "dma_fence_signaled", "dma_fence_destroy",
	};
	struct trace_builder *tb = tb_new(2, TB_FIXTURES);
	unsigned long i;
	int ret = -1;

	if (!tb) {
		fprintf(stderr, "cannot read %s (run from the repo root)\n", TB_FIXTURES);
		return -1;
	}
	for (i = 0; i < n; i++)
		if (tb_fence(tb, i % 2, 1000 + i * 37, events[(i / 2) % 3], "vkms",
			     "CRTC:35-crtc-0", 5, (unsigned int)(i / 6)))
			goto out;
	ret = tb_write(tb, path);
out:
	if (ret)
		fprintf(stderr, "build: %s\n", tb_error(tb));
	tb_free(tb);
	return ret;
}

static int iterate_once(struct tracedat *td, struct bench *b, unsigned long n, double *rate)
{
	double t0 = now(), t;
	int ret;

	b->sum = 0;
	ret = tracedat_iterate(td, read_two_fields, b);
	t = now() - t0;
	if (ret) {
		fprintf(stderr, "iterate: %d %s\n", ret, tracedat_error(td));
		return ret;
	}
	*rate = n / t / 1e6;
	printf("  %lu events in %.1f ms: %.2f M events/s (checksum %llu)\n",
	       (unsigned long)(tracedat_cpu_events(td, 0) + tracedat_cpu_events(td, 1)),
	       t * 1e3, *rate, b->sum);
	return 0;
}

static int run(const char *path, unsigned long n, int runs)
{
	double t0, rate, best = 0;
	struct bench b = { 0 };
	struct tep_event *ev;
	struct tracedat *td;
	char err[256];
	int i, ret = 0;

	t0 = now();
	td = tracedat_open(path, err, sizeof(err));
	if (!td) {
		fprintf(stderr, "%s\n", err);
		return -1;
	}
	printf("tracedat_open: %.2f ms\n", (now() - t0) * 1e3);
	ev = tep_find_event_by_name(tracedat_tep(td), "dma_fence", "dma_fence_init");
	b.context = ev ? tep_find_field(ev, "context") : NULL;
	b.seqno = ev ? tep_find_field(ev, "seqno") : NULL;
	if (!b.context || !b.seqno)
		ret = -1;
	for (i = 0; !ret && i < runs; i++) {
		ret = iterate_once(td, &b, n, &rate);
		best = rate > best ? rate : best;
	}
	if (!ret)
		printf("best of %d: %.2f M events/s\n", runs, best);
	tracedat_close(td);
	return ret;
}

int main(int argc, char **argv)
{
	char tmp[] = "/tmp/tracedat-bench-XXXXXX";
	const char *keep = NULL;
	unsigned long n = 1000000;
	int opt, fd, ret, runs = 3;

	while ((opt = getopt(argc, argv, "n:r:k:")) != -1) {
		if (opt == 'n')
			n = strtoul(optarg, NULL, 10);
		else if (opt == 'r')
			runs = atoi(optarg);
		else if (opt == 'k')
			keep = optarg;
		else
			return 2;
	}
	fd = keep ? -1 : mkstemp(tmp);
	if (!keep && fd < 0)
		return 1;
	if (fd >= 0)
		close(fd);
	if (!n || runs < 1)
		return 2;
	ret = build(keep ? keep : tmp, n);
	if (!ret)
		ret = run(keep ? keep : tmp, n, runs);
	if (!keep)
		unlink(tmp);
	return ret ? 1 : 0;
}
