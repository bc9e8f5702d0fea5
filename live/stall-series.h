/* SPDX-License-Identifier: GPL-2.0 */
/*
 * stall-series.h - what the fence-trace kernel series adds to `stall`: a
 * low-rate tracefs stream of drm_fence and sync_file events telling which
 * commit and plane a wait belongs to, commits held up by earlier commits
 * (EBUSY, hw_done/flip_done/cleanup_done waits), and sync_file polls, the
 * way compositors wait without entering dma_fence_wait; and in-fences that
 * signalled with an error, followed to what their commit did with them.
 */
#ifndef FENCE_TRACE_STALL_SERIES_H
#define FENCE_TRACE_STALL_SERIES_H

#include <stdint.h>

#include "decode.h"

#define SERIES_MAX 256
#define SERIES_RECENT 32		/* ended waits and failed fences remembered */
#define SERIES_COMMITS 64		/* commits' entries remembered: a second at 60 Hz */

struct live_reader;
struct stall_ctx;

struct series_wait {			/* a commit's in-fence wait */
	uint64_t fence, commit, ts, context, seqno;
	uint64_t end;			/* 0 while in progress */
	uint32_t plane;
	uint32_t pid;			/* the waiting task */
};

struct series_commit {			/* drm_fence_commit: its atomic ioctl entered */
	uint64_t commit, ts;
};

struct series_failed_fence {		/* dma_fence_error: it signalled with @error */
	uint64_t fence, context, seqno;
	int error;
};

/* A commit that waited on a failed in-fence, until we see what it did. */
struct series_error_wait {
	uint64_t commit, context, seqno, ts;
	uint32_t plane;
	int error, ret;
};

struct series_poll {			/* a poll() on a sync_file in progress */
	uint64_t sync_file, fence, ts, context, seqno;
	int pid, reported;
};

struct stall_series {
	struct live_reader *live;	/* the series' events, decoded (capture/live-reader.c) */
	struct series_wait waits[SERIES_MAX];
	struct series_poll polls[SERIES_MAX];
	unsigned int n_waits, n_polls;
	struct series_wait ended[SERIES_RECENT];	/* ring */
	struct series_failed_fence failed[SERIES_RECENT];	/* ring */
	struct series_commit commits[SERIES_COMMITS];	/* ring */
	unsigned int n_ended, n_failed, n_commits;	/* ever: ring heads */
	struct series_error_wait error_waits[SERIES_MAX];
	unsigned int n_error_waits;
	struct stall_ctx *c;
};

int series_start(struct stall_series *s, struct stall_ctx *c);
void series_read(struct stall_series *s);
unsigned int series_going(const struct stall_series *s);
const struct series_wait *series_wait_of(const struct stall_series *s, uint64_t context,
					 uint64_t seqno, uint32_t pid);
const struct series_wait *series_wait_of_commit(const struct stall_series *s, uint64_t commit);
uint64_t series_commit_entry(const struct stall_series *s, uint64_t commit);
void series_stop(struct stall_series *s);

#endif
