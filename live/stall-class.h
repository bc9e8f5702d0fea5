/* SPDX-License-Identifier: GPL-2.0 */
/*
 * stall-class.h - the frame class (the README's "Frames") of a commit
 * whose in-fence wait `stall` watches, judged live from what the tool has
 * seen so far, and said as soon as it is certain.  Pure: the unit tests
 * hold it to the report's definitions.
 */
#ifndef FENCE_TRACE_STALL_CLASS_H
#define FENCE_TRACE_STALL_CLASS_H

#include <stdint.h>
#include <linux/types.h>

#include "fence-stall.h"
#include "model.h"

/* What stall knows of a commit's in-fence wait. */
struct stall_frame {
	uint64_t entry_ns;		/* its atomic ioctl entered (drm_fence_commit); 0 unknown */
	uint64_t signal_ns;		/* its in-fence signalled; 0 not yet */
	int signal_exact;		/* 0: signal_ns only bounds it (a later fence of its timeline) */
	uint64_t woken_ns;		/* its wait ended, the waiter ran; 0 not yet */
};

/* The commit's target vblank: the first after its entry (stall_target_of). */
struct stall_target {
	uint64_t at_ns;			/* its time, or the latest it can be; 0 not passed yet */
	int exact;			/* traced on the only CRTC, not bounded by the period */
	const char *why;		/* at_ns 0: why not */
};

struct stall_verdict {
	enum ft_frame_class cls;	/* FT_CLASS_UNKNOWN: not known (yet) */
	uint64_t past_ns;		/* producer: its signal (or now, pending) past the target */
	int pending;			/* producer: judged on a fence not signalled yet */
	uint64_t margin_under_ns;	/* wakeup without --latch-margin: holds for margins under it */
	const char *why;		/* unknown: why not */
};

uint64_t fs_vblank_period(const struct fs_vblank *v);
void stall_target_of(const struct fs_vblank *pipes, unsigned int n, uint64_t entry_ns,
		     uint64_t watch_start_ns, uint64_t now, struct stall_target *t);
void stall_class_judge(const struct stall_frame *f, const struct stall_target *t,
		       int64_t margin_ns, uint64_t now, struct stall_verdict *v);

#endif
