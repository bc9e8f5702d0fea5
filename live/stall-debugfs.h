/* SPDX-License-Identifier: GPL-2.0 */
/* stall-debugfs.h - the kernel's debugfs view of a stall, for `fence-trace stall`. */
#ifndef FENCE_TRACE_STALL_DEBUGFS_H
#define FENCE_TRACE_STALL_DEBUGFS_H

#include <stdint.h>

struct stall_target {
	long long crtc;			/* a commit stall's CRTC object id, or -1 */
	uint64_t context, seqno;	/* else the stuck fence */
};

void stall_debugfs_text(const struct stall_target *t);
void stall_debugfs_json(const struct stall_target *t);

#endif
