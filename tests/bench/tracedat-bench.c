// SPDX-License-Identifier: GPL-2.0
/*
 * tracedat-bench.c - how fast tracedat_iterate() delivers events.
 *
 *   tracedat-bench [-n EVENTS] [-k FILE]
 *
 * Builds a trace.dat of EVENTS (default 1000000) dma_fence events on two
 * CPUs with the test trace builder, then times tracedat_iterate() with a
 * callback that reads two number fields (context, seqno) per event, the
 * way a real analysis does.  -k keeps the file as FILE.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <traceevent/event-parse.h>

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
	struct trace_builder *tb = tb_new(2, NULL);
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

static int run(const char *path, unsigned long n)
{
	struct bench b = { 0 };
	struct tep_event *ev;
	struct tracedat *td;
	char err[256];
	double t0, t1, t2;
	int ret;

	t0 = now();
	td = tracedat_open(path, err, sizeof(err));
	if (!td) {
		fprintf(stderr, "%s\n", err);
		return -1;
	}
	ev = tep_find_event_by_name(tracedat_tep(td), "dma_fence", "dma_fence_init");
	b.context = ev ? tep_find_field(ev, "context") : NULL;
	b.seqno = ev ? tep_find_field(ev, "seqno") : NULL;
	t1 = now();
	ret = b.context && b.seqno ? tracedat_iterate(td, read_two_fields, &b) : -1;
	t2 = now();
	if (ret)
		fprintf(stderr, "iterate: %d %s\n", ret, tracedat_error(td));
	else
		printf("%lu events: open %.1f ms, iterate %.1f ms, %.2f M events/s (checksum %llu)\n",
		       (unsigned long)(tracedat_cpu_events(td, 0) + tracedat_cpu_events(td, 1)),
		       (t1 - t0) * 1e3, (t2 - t1) * 1e3, n / (t2 - t1) / 1e6, b.sum);
	tracedat_close(td);
	return ret;
}

int main(int argc, char **argv)
{
	char tmp[] = "/tmp/tracedat-bench-XXXXXX";
	const char *keep = NULL;
	unsigned long n = 1000000;
	int opt, fd, ret;

	while ((opt = getopt(argc, argv, "n:k:")) != -1) {
		if (opt == 'n')
			n = strtoul(optarg, NULL, 10);
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
	ret = build(keep ? keep : tmp, n);
	if (!ret)
		ret = run(keep ? keep : tmp, n);
	if (!keep)
		unlink(tmp);
	return ret ? 1 : 0;
}
