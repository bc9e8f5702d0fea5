/* SPDX-License-Identifier: GPL-2.0 */
/* stall-debugfs.h - the kernel's debugfs view of a stall, for `fence-trace stall`. */
#ifndef FENCE_TRACE_STALL_DEBUGFS_H
#define FENCE_TRACE_STALL_DEBUGFS_H

#include <stdint.h>

struct stall_target {
	long long crtc;			/* a commit stall's CRTC object id, or -1 */
	uint64_t context, seqno;	/* else the stuck fence; 0: any in-fence wait */
};

/* A commit's wait on an in-fence, as the series' fence_timeline lists it. */
struct debugfs_wait {
	uint64_t commit;
	uint32_t plane;
	int64_t age_ns;
	char driver[32], timeline[64];	/* "" for a fence signalled since */
};

int stall_debugfs_find_wait(uint64_t context, uint64_t seqno, struct debugfs_wait *w);
void stall_debugfs_text(const struct stall_target *t);
void stall_debugfs_json(const struct stall_target *t);

#endif
