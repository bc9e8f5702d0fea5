/* SPDX-License-Identifier: GPL-2.0 */
/*
 * record-bpf-series.h - the fence-trace series' events for `record --bpf`.
 *
 * The series' events that report reads (the catalogue's) come once per
 * commit, plane, poll or merge member (tens to hundreds a second, against
 * the dma_fence events' tens of thousands), and
 * carry what BPF would have to dig out of DRM's structures (commit ids,
 * CRTC and plane ids, names): so they come from tracefs, through the live
 * reader (capture/live-reader.c) on the mono clock that BPF's
 * bpf_ktime_get_ns() shares, and go into the trace verbatim, merged by
 * time with the BPF records.
 */
#ifndef FENCE_TRACE_RECORD_BPF_SERIES_H
#define FENCE_TRACE_RECORD_BPF_SERIES_H

#include <stdint.h>

#include "live-reader.h"

#define SERIES_MAX_EVENTS 48

/* NULL when the kernel has none of the series' events (nothing said). */
struct live_reader *series_stream_start(void);

#endif
