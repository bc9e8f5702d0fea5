/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fence-names.h - driver and timeline names of fence contexts, for the BPF
 * tools: one design for all of them.
 *
 * 1. From the fence: each program sends a context's names the first time
 *    it sees the context (fence-names.bpf.h), read from the fence for the
 *    kinds it knows (fence-ops.h): merged fences, vgem, virtio-gpu,
 *    sw_sync and CRTC out-fences.  names_attach() takes that ring.
 * 2. From tracefs, for the other kinds: a private instance records
 *    dma_fence_init, off until a program sends a context it could not
 *    name.  Then it is asked for that context (named by its next fence)
 *    and, since a context of one fence has no next one, for every fence
 *    of the kinds the programs do not read (names-ask.h's catch-all).  A
 *    tracefs event costs every fence init even when its filter drops it,
 *    so the stream is off until there is something to catch.
 *
 * What stays unnamed is counted (names_counts_line()) and explained
 * (names_unknown()): a context of an unreadable kind no fence of which
 * came while it was asked for (asked again after NAMES_RETRY_S), names
 * not kept (the table of NAMES_MAX full), records the ring had no room
 * for.
 */
#ifndef FENCE_TRACE_FENCE_NAMES_H
#define FENCE_TRACE_FENCE_NAMES_H

#include <linux/types.h>
#include <stddef.h>
#include <stdint.h>

#include "keymap.h"
#include "names-ask.h"

#define NAMES_MAX 4096

struct live_reader;
struct ring_buffer;

struct fence_name {
	uint64_t context;
	char driver[32], timeline[32];
};

/* Contexts by how they were named, for the tools' closing lines. */
struct names_counts {
	uint64_t from_fence;	/* read from the fence by BPF */
	uint64_t from_stream;	/* by the tracefs stream */
	uint64_t dropped;	/* names read but not kept: the table full */
	uint64_t ring_lost;	/* names records the BPF ring had no room for */
	uint64_t unnamed_more;	/* unreadable contexts past the unnamed set's bound */
};

struct fence_names {
	struct live_reader *live;	/* dma_fence_init, from tracefs (capture/live-reader.c) */
	struct ring_buffer *ring;	/* the programs' names (names_attach()) */
	const volatile __u64 *ring_lost;	/* the program's own count of what did not fit */
	struct fence_name names[NAMES_MAX];
	unsigned int n;
	struct names_counts counts;
	struct keymap index;		/* context -> names[] */
	int enabled;			/* the stream's event is on */
	struct names_ask ask;		/* what the stream is asked for */
	struct keymap unnamed;		/* contexts sent unreadable, not named yet (NAMES_MAX at most) */
	/* the one the event has: room for all that can be asked (test-names-ask.c), under a page */
	char filter[3072];
};

int names_stream_only(void);
int names_start(struct fence_names *n);
int names_attach(struct fence_names *n, int ring_fd, const volatile __u64 *ring_lost);
int names_want(struct fence_names *n, uint64_t context);
int names_set(struct fence_names *n, uint64_t context, const char *driver, const char *timeline);
void names_from_record(struct fence_names *n, const void *rec, size_t size);
void names_poll(struct fence_names *n);
const struct fence_name *names_find(const struct fence_names *n, uint64_t context);
const char *names_unknown(const struct fence_names *n);
const char *names_unknown_short(const struct fence_names *n);
uint64_t names_unnamed(const struct fence_names *n);
void names_counts_line(const struct fence_names *n, char *buf, size_t size);
void names_stop(struct fence_names *n);

#endif
