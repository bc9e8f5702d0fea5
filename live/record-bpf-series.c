// SPDX-License-Identifier: GPL-2.0
/*
 * record-bpf-series.c - the series' events from a private tracefs instance
 * (see record-bpf-series.h).
 *
 * Its per-CPU trace_pipe_raw files stay open, non-blocking, from start to
 * stop, and a poll is one read() per CPU when nothing came (the usual
 * case: these events are rare).  tracefs_iterate_raw_events() opened,
 * allocated for and closed every CPU's file at every 50 ms poll, work
 * that lands on the traced storm when the recorder shares its CPU.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <event-parse.h>
#include <kbuffer.h>
#include <tracefs.h>

#include "../tracepoints/catalogue.h"
#include "own-instance.h"
#include "record-bpf-series.h"

struct series_stream {
	struct tracefs_instance *inst;
	struct tep_handle *tep;
	char *systems[SERIES_MAX_EVENTS], *events[SERIES_MAX_EVENTS];
	unsigned int n;
	struct tracefs_cpu **tcpu;	/* per CPU, opened non-blocking */
	int cpus;
	void *page;			/* one sub-buffer, as read() hands it out */
	struct kbuffer *kbuf;
};

static void add_event(struct series_stream *s, const char *sys, const char *ev)
{
	if (s->n >= SERIES_MAX_EVENTS || !tracefs_event_file_exists(NULL, sys, ev, "format"))
		return;
	if (tracefs_event_enable(s->inst, sys, ev))
		return;
	s->systems[s->n] = strdup(sys);
	s->events[s->n] = strdup(ev);
	if (s->systems[s->n] && s->events[s->n])
		s->n++;
}

/* The catalogue's series events: what report reads, nothing more. */
#define CATALOGUE_ENTRY(id, sys, name, set) { sys, name, set },
static const struct {
	const char *sys, *name;
	enum ft_set set;
} catalogue[] = { FT_EVENTS(CATALOGUE_ENTRY) };

static int open_cpus(struct series_stream *s)
{
	s->cpus = (int)sysconf(_SC_NPROCESSORS_CONF);
	s->tcpu = s->cpus > 0 ? calloc((size_t)s->cpus, sizeof(*s->tcpu)) : NULL;
	/* the header page's commit field has the kernel's long size, as libtracefs reads it */
	s->kbuf = kbuffer_alloc(tep_get_header_page_size(s->tep) == 8 ? KBUFFER_LSIZE_8 : KBUFFER_LSIZE_4,
				tep_is_file_bigendian(s->tep) ? KBUFFER_ENDIAN_BIG : KBUFFER_ENDIAN_LITTLE);
	if (!s->tcpu || !s->kbuf)
		return -1;
	for (int cpu = 0; cpu < s->cpus; cpu++) {
		s->tcpu[cpu] = tracefs_cpu_open(s->inst, cpu, true);
		if (!s->tcpu[cpu])
			return -1;
	}
	s->page = malloc((size_t)tracefs_cpu_read_size(s->tcpu[0]));
	return s->page ? 0 : -1;
}

struct series_stream *series_stream_start(void)
{
	const char *systems[] = { "drm_fence", "sync_file", "dma_fence", NULL };
	struct series_stream *s = calloc(1, sizeof(*s));

	if (!s)
		return NULL;
	s->inst = own_instance_create("series");
	s->tep = tracefs_local_events_system(NULL, systems);
	if (!s->inst || !s->tep || tracefs_instance_file_write(s->inst, "trace_clock", "mono") < 0 ||
	    tracefs_instance_file_write(s->inst, "buffer_size_kb", "1024") < 0)
		goto none;
	for (size_t i = 0; i < sizeof(catalogue) / sizeof(catalogue[0]); i++)
		if (catalogue[i].set == FT_SET_SERIES || catalogue[i].set == FT_SET_DMA_SERIES)
			add_event(s, catalogue[i].sys, catalogue[i].name);
	if (!s->n || open_cpus(s))
		goto none;
	tracefs_trace_on(s->inst);
	return s;
none:
	series_stream_stop(s);
	return NULL;
}

unsigned int series_stream_events(const struct series_stream *s, const char **systems,
			   const char **events, unsigned int max)
{
	unsigned int i;

	for (i = 0; s && i < s->n && i < max; i++) {
		systems[i] = s->systems[i];
		events[i] = s->events[i];
	}
	return i;
}

/* Every event on the sub-buffer just read from @cpu, in its order. */
static void deliver_page(struct series_stream *s, int cpu, series_cb cb, void *ctx)
{
	unsigned long long ts;
	void *data;
	int size;

	if (kbuffer_load_subbuffer(s->kbuf, s->page))
		return;
	for (data = kbuffer_read_event(s->kbuf, &ts); data; data = kbuffer_next_event(s->kbuf, &ts)) {
		size = kbuffer_event_size(s->kbuf);
		if (size > 8)
			cb(ctx, cpu, ts, data, (size_t)size);
	}
}

void series_stream_poll(struct series_stream *s, series_cb cb, void *ctx)
{
	if (!s)
		return;
	for (int cpu = 0; cpu < s->cpus; cpu++)
		while (tracefs_cpu_read(s->tcpu[cpu], s->page, true) > 0)
			deliver_page(s, cpu, cb, ctx);
}

void series_stream_off(struct series_stream *s)
{
	if (s)
		tracefs_trace_off(s->inst);
}

uint64_t series_stream_lost(struct series_stream *s, int cpu)
{
	char name[64], *stats, *p;
	uint64_t lost = 0;

	if (!s)
		return 0;
	snprintf(name, sizeof(name), "per_cpu/cpu%d/stats", cpu);
	stats = tracefs_instance_file_read(s->inst, name, NULL);
	p = stats ? strstr(stats, "overrun: ") : NULL;
	if (p)
		lost = strtoull(p + strlen("overrun: "), NULL, 10);
	free(stats);
	return lost;
}

void series_stream_stop(struct series_stream *s)
{
	if (!s)
		return;
	/* first: an open trace_pipe_raw keeps the instance from going */
	for (int cpu = 0; s->tcpu && cpu < s->cpus; cpu++)
		if (s->tcpu[cpu])
			tracefs_cpu_close(s->tcpu[cpu]);
	free(s->tcpu);
	free(s->page);
	if (s->kbuf)
		kbuffer_free(s->kbuf);
	if (s->inst) {
		tracefs_trace_off(s->inst);
		tracefs_event_disable(s->inst, NULL, NULL);
		tracefs_instance_destroy(s->inst);
		tracefs_instance_free(s->inst);
	}
	if (s->tep)
		tep_free(s->tep);
	for (unsigned int i = 0; i < s->n; i++) {
		free(s->systems[i]);
		free(s->events[i]);
	}
	free(s);
}
