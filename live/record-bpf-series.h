/* SPDX-License-Identifier: GPL-2.0 */
/*
 * record-bpf-series.h - the fence-trace series' events for `record --bpf`.
 *
 * The series' events that report reads (the catalogue's) come once per
 * commit, plane, poll or merge member (tens to hundreds a second, against
 * the dma_fence events' tens of thousands), and
 * carry what BPF would have to dig out of DRM's structures (commit ids,
 * CRTC and plane ids, names): so they come from tracefs, in a private
 * instance on the mono clock that BPF's bpf_ktime_get_ns() shares, and go
 * into the trace verbatim, merged by time with the BPF records.
 */
#ifndef FENCE_TRACE_RECORD_BPF_SERIES_H
#define FENCE_TRACE_RECORD_BPF_SERIES_H

#include <stddef.h>
#include <stdint.h>

#define SERIES_MAX_EVENTS 48

struct series_stream;

/* One event as tracefs wrote it: @data starts with the common fields. */
typedef void (*series_cb)(void *ctx, int cpu, uint64_t ts, const void *data, size_t size);

/* NULL when the kernel has none of the series' events (nothing said). */
struct series_stream *series_stream_start(void);
/* The events found, as "system:event" pairs, for the trace's formats. */
unsigned int series_stream_events(const struct series_stream *s, const char **systems,
			   const char **events, unsigned int max);
void series_stream_poll(struct series_stream *s, series_cb cb, void *ctx);
/* Stop tracing (what was traced can still be polled). */
void series_stream_off(struct series_stream *s);
/* Events the instance lost on @cpu (its ring overran). */
uint64_t series_stream_lost(struct series_stream *s, int cpu);
void series_stream_stop(struct series_stream *s);

#endif
