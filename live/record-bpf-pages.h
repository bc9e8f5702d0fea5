/* SPDX-License-Identifier: GPL-2.0 */
/*
 * record-bpf-pages.h - the writing side of `fence-trace record --bpf`: BPF
 * records, a batch at a time, encoded into ring-buffer pages with the
 * running kernel's event formats and streamed into the capture's per-CPU
 * temporary files, so a recording takes the memory of a few drains,
 * whatever its length, and a full disk stops it like the tracefs path.
 *
 * Records wait in a pending list until they are older than a watermark the
 * caller gives (a little before the moment it last emptied its sources),
 * so that both sources, the BPF ring and the series' tracefs stream, have
 * handed over everything before it: each CPU's pages stay in time order.
 */
#ifndef FENCE_TRACE_RECORD_BPF_PAGES_H
#define FENCE_TRACE_RECORD_BPF_PAGES_H

#include <stddef.h>
#include <stdint.h>
#include <linux/types.h>

#include "fence-record.h"
#include "record-capture.h"

struct fence_names;
struct live_reader;
struct bpf_pages;

/* @series: the series' stream, whose formats the trace gets too, or NULL. */
struct bpf_pages *bpf_pages_new(struct capture *c, const struct fence_names *names,
				struct live_reader *series);
void bpf_pages_free(struct bpf_pages *p);
/* Remember @pid's task name now, while it lives (the trace's cmdlines). */
void bpf_pages_note_task(struct bpf_pages *p, int pid);
/* Events lost on @cpu (a ring full) before its next event. */
void bpf_pages_lost(struct bpf_pages *p, int cpu, uint64_t count);
/*
 * Into the pending list: @e, a whole record of its type (fr_size()), its
 * task noted already.  0, or -1 when encoding to make room failed (said).
 */
int bpf_pages_put(struct bpf_pages *p, const struct fr_event *e);
int bpf_pages_put_raw(struct bpf_pages *p, int cpu, uint64_t ts, const void *data, size_t size);
/* record's marker line as a print event (capture-mark.c says what it is). */
int bpf_pages_mark(struct bpf_pages *p, int cpu, uint64_t ts, const char *text);
/* Encode the pending records stamped before @watermark; 0 or -1 (said). */
int bpf_pages_encode_before(struct bpf_pages *p, uint64_t watermark);
/* Events encoded so far. */
uint64_t bpf_pages_events(const struct bpf_pages *p);
/* Encode the rest, the last pages, then the trace.dat; 0 or -1 (said). */
int bpf_pages_finish(struct bpf_pages *p);

#endif
