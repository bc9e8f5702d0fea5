/* SPDX-License-Identifier: GPL-2.0 */
/*
 * model-frames.h - the frame timeline's types (model-frames.c, the
 * README's "Frames"): what blocked a frame, its waiter's wakeup, its
 * class, the repeated vblanks and a CRTC's counts.  Part of model.h.
 */
#ifndef FENCE_TRACE_MODEL_FRAMES_H
#define FENCE_TRACE_MODEL_FRAMES_H

#include <stdint.h>

#include "hist.h"

/*
 * What the scheduler's events (record --sched) say of the wait that held
 * a commit up, kept with the commit (16 bytes: one per live fence): when
 * its task was made runnable, and the task that ran longest on the CPU it
 * was woken onto until its turn.
 */
struct ft_wakeup {
	uint32_t before_end_ns;		/* made runnable this long before the wait ended */
	uint32_t held_ns;		/* how long held_by held that CPU (saturates) */
	int32_t held_by;		/* pid; 0 the CPU idle; the waiter's own: it never
					 * left its CPU; FT_HELD_UNKNOWN: not traced */
	int16_t cpu;			/* the CPU it was woken onto */
	uint8_t traced;			/* a wakeup after the fence's signal was traced */
	uint8_t unused;
};
#define FT_HELD_UNKNOWN (-1)

struct ft_blocking {
	int known;
	int plane;			/* DRM plane id (series), or -1 */
	uint32_t ctx;			/* index in model.fences.contexts, or FT_NONE */
	uint64_t context, seqno, wait_ns, signal_ts;
	int merged;			/* a member of the merged fence merged_context:1 */
	uint64_t merged_context, merged_seqno;
};

/*
 * Why a frame missed its target vblank (model-frames.c; the README's
 * "Frames" defines each).  One primary class per late frame; the order
 * only breaks ties.
 */
enum ft_frame_class {
	FT_CLASS_ON_TIME,
	FT_CLASS_PRODUCER,		/* its last in-fence signalled past the deadline */
	FT_CLASS_QUEUED,		/* it waited behind an earlier commit past it */
	FT_CLASS_WAKEUP,		/* in-fence in time, its waiter ran past it */
	FT_CLASS_DRIVER,		/* all of it ready in time, and still late */
	FT_CLASS_UNKNOWN,		/* events lost, or its in-fence's signal untraced */
	FT_CLASSES
};

/*
 * Where a driver-class frame's time went, from the series'
 * drm_fence_commit_tail and drm_fence_hw_done (model-frames.c): the first
 * stage that ended later than in any frame on time of its CRTC.
 */
enum ft_driver_part {
	FT_DRIVER_PART_UNTRACED,	/* no commit_tail or hw_done in the trace */
	FT_DRIVER_PART_SUBMIT,		/* the ioctl entered past the deadline */
	FT_DRIVER_PART_TAIL_START,	/* its commit tail began later than on time */
	FT_DRIVER_PART_COMMIT_TAIL,	/* it reached hw_done later than on time */
	FT_DRIVER_PART_LATCH,		/* hw_done in time, the flip latched later */
	FT_DRIVER_PARTS
};

/* What a vblank that showed the previous frame again is blamed on. */
enum ft_repeat_kind {
	FT_REPEAT_WAITING_FENCE,	/* a commit for it waited on an in-fence */
	FT_REPEAT_QUEUED,		/* ... waited behind an earlier commit */
	FT_REPEAT_DRIVER,		/* ... was ready and the driver missed it */
	FT_REPEAT_WAITING_POLL,		/* none pending, a sync_file poll was (series) */
	FT_REPEAT_COMPOSITOR_LATE,	/* none pending, past the compositor's cadence */
	FT_REPEAT_IDLE,			/* none pending, in keeping with that cadence */
	FT_REPEAT_UNKNOWN,		/* the commit pending was of an unknown class */
	FT_REPEAT_KINDS
};

struct ft_late_frame {
	uint32_t out_seqno;
	uint64_t commit;		/* series commit id, 0 unknown */
	int pid;			/* the task that created the out-fence */
	uint64_t submit_ns, signal_ns;
	uint64_t late_by_ns;		/* its out-fence's signal - the target's time */
	int late_by_known;
	uint32_t target_seq, landed_seq;
	uint64_t target_ns;		/* the target vblank's time, 0 unknown */
	int target_estimated;		/* not traced: the one before + the period */
	struct ft_blocking blocking;
	/* the frame timeline (model-frames.c) */
	uint64_t ready_ns;		/* its last in-fence signalled, 0: none waited */
	int ready_known;		/* that signal was traced (not only the wait's end) */
	uint64_t woken_ns;		/* the wait on it ended: its waiter ran */
	int waiter_pid;			/* the task that waited on it */
	struct ft_wakeup wakeup;	/* that waiter's wakeup (sched events), ts 0: none */
	uint64_t queued_until_ns;	/* stopped waiting for an earlier commit, 0 never */
	int queued_inferred;		/* stock: the earlier frame landed on the target */
	int in_error;			/* an in-fence signalled with this error (series) */
	int lost;			/* events were lost while it was in flight */
	enum ft_frame_class cls;
	unsigned int contributing;	/* 1 << class, the others also past the deadline */
	uint64_t past_deadline_ns;	/* the primary component, past the deadline */
	uint64_t tail_ns, hw_done_ns;	/* its commit tail began, hw_done (series), 0 */
	enum ft_driver_part driver_part;	/* of a driver-class frame */
	uint32_t repeats;		/* vblanks it left the previous frame on */
};

/*
 * A run of vblanks that each showed the frame before again, all for one
 * reason (model-frames.c).  Idle runs are only counted: a 30 fps client
 * makes one every frame, and they explain themselves.
 */
struct ft_repeat_run {
	uint32_t first_seq, count;
	uint32_t frame_out_seqno;	/* the frame that landed after it */
	enum ft_repeat_kind kind;
	int late;			/* that frame's index in ft_crtc.late when the run
					 * is its wait (blamed on its class), else -1 */
	uint32_t cadence;		/* the compositor's cadence then, in vblanks */
};

/*
 * A frame that failed: its commit was rejected after its out-fence was made,
 * which was then destroyed unsignalled (model-failed-frames.c).
 */
struct ft_failed_frame {
	uint32_t out_seqno;
	int pid;			/* the task that made the out-fence: the committer */
	uint64_t submit_ns, ended_ns;	/* the out-fence made; destroyed unsignalled */
	uint64_t commit;		/* series: the commit that failed, 0 unknown */
	int err;			/* series: its error, 0 unknown */
	int lost;			/* events lost meanwhile (no series): failed, or
					 * its signal was lost */
};

#define FT_CADENCE_RING 9		/* recent target intervals: the cadence */
#define FT_PRESENT_SLOTS 9		/* present intervals of 1..8 vblanks, 9+ */

/* A CRTC's frame timeline (model-frames.c). */
struct ft_frame_stats {
	uint64_t on_time, error_fence;	/* the late ones: ft_crtc.late_count */
	uint64_t unjudged;		/* landed with no target vblank in reach */
	uint64_t failed;		/* rejected: out-fence destroyed unsignalled */
	uint64_t failed_or_lost;	/* so, but events were lost meanwhile */
	uint64_t retried;		/* dropped by a commit the kernel made again */
	uint64_t by_class[FT_CLASSES];
	uint64_t new_vblanks, repeats[FT_REPEAT_KINDS];
	uint64_t longest_repeat_run;
	uint64_t present_vblanks[FT_PRESENT_SLOTS];
	struct hist present_ns;		/* present-to-present intervals */
	uint64_t margin_ns;		/* the latch margin used: estimated or given */
	int margin_known;		/* estimated from a frame on time, or given */
	/* the series: the least time before its target a frame on time began
	 * its commit tail, and reached hw_done (0 when after it) */
	uint64_t tail_margin_ns, hw_margin_ns;
	int tail_margin_known, hw_margin_known;
	/* while reading: the last frame that landed, the compositor's cadence */
	int have_last;
	uint32_t last_seq, last_target;
	uint64_t first_ns, last_ns;
	uint32_t cadence[FT_CADENCE_RING];
	unsigned int cadence_n, cadence_head;
};

/* When @l's waiter was made runnable (its wakeup is traced). */
static inline uint64_t ft_late_runnable_ns(const struct ft_late_frame *l)
{
	return l->woken_ns - l->wakeup.before_end_ns;
}

#endif
