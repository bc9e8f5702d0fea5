// SPDX-License-Identifier: GPL-2.0
/*
 * record-bpf-series.c - the series' events from a private tracefs instance
 * (see record-bpf-series.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <event-parse.h>
#include <tracefs.h>

#include "../tracepoints/catalogue.h"
#include "own-instance.h"
#include "record-bpf-series.h"

struct series_stream {
	struct tracefs_instance *inst;
	struct tep_handle *tep;
	char *systems[SERIES_MAX_EVENTS], *events[SERIES_MAX_EVENTS];
	unsigned int n;
	series_cb cb;
	void *ctx;
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
	if (!s->n)
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

static int on_record(struct tep_event *ev, struct tep_record *rec, int cpu, void *data)
{
	struct series_stream *s = data;

	(void)ev;
	if (rec->size > 8)
		s->cb(s->ctx, cpu, rec->ts, rec->data, (size_t)rec->size);
	return 0;
}

void series_stream_poll(struct series_stream *s, series_cb cb, void *ctx)
{
	if (!s)
		return;
	s->cb = cb;
	s->ctx = ctx;
	tracefs_iterate_raw_events(s->tep, s->inst, NULL, 0, on_record, s);
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
