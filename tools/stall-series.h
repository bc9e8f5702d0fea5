/* SPDX-License-Identifier: GPL-2.0 */
/*
 * stall-series.h - what the fence-trace kernel series adds to `stall`: a
 * low-rate tracefs stream of drm_fence and sync_file events telling which
 * commit and plane a wait belongs to, commits held up by earlier commits
 * (EBUSY, hw_done/flip_done/cleanup_done waits), and sync_file polls, the
 * way compositors wait without entering dma_fence_wait.
 */
#ifndef FENCE_TRACE_STALL_SERIES_H
#define FENCE_TRACE_STALL_SERIES_H

#include <stdint.h>

#define SERIES_MAX 256

struct tracefs_instance;
struct tep_handle;
struct stall_ctx;

struct series_wait {			/* a commit's in-fence wait in progress */
	uint64_t fence, commit, ts, context, seqno;
	uint32_t plane;
};

struct series_poll {			/* a poll() on a sync_file in progress */
	uint64_t sync_file, fence, ts, context, seqno;
	int pid, reported;
};

struct stall_series {
	struct tracefs_instance *inst;
	struct tep_handle *tep;
	struct series_wait waits[SERIES_MAX];
	struct series_poll polls[SERIES_MAX];
	unsigned int n_waits, n_polls;
	struct stall_ctx *c;
};

int series_start(struct stall_series *s, struct stall_ctx *c);
void series_read(struct stall_series *s);
const struct series_wait *series_wait_of(const struct stall_series *s, uint64_t fence);
const struct series_wait *series_wait_of_commit(const struct stall_series *s, uint64_t commit);
void series_stop(struct stall_series *s);

#endif
