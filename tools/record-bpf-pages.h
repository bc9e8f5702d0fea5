/* SPDX-License-Identifier: GPL-2.0 */
/*
 * record-bpf-pages.h - the writing side of `fence-trace record --bpf`: BPF
 * records, a batch at a time, encoded into ring-buffer pages with the
 * running kernel's event formats and streamed into the capture's per-CPU
 * temporary files, so a recording takes the memory of one batch, whatever
 * its length, and a full disk stops it like the tracefs path.
 */
#ifndef FENCE_TRACE_RECORD_BPF_PAGES_H
#define FENCE_TRACE_RECORD_BPF_PAGES_H

#include <stddef.h>
#include <stdint.h>
#include <linux/types.h>

#include "fence-record.h"
#include "record-capture.h"

struct fence_names;
struct bpf_pages;

struct bpf_pages *bpf_pages_new(struct capture *c, const struct fence_names *names);
void bpf_pages_free(struct bpf_pages *p);
/* Events lost on @cpu (ring buffer full) before its next event. */
void bpf_pages_lost(struct bpf_pages *p, int cpu, uint64_t count);
/* Sort one batch (ring order) per CPU by time and encode it; 0 or -1 (said). */
int bpf_pages_add(struct bpf_pages *p, struct fr_event *ev, size_t n);
/* The last pages, then the trace.dat; 0 or -1 (said). */
int bpf_pages_finish(struct bpf_pages *p);

#endif
