/* SPDX-License-Identifier: GPL-2.0 */
/*
 * producer.h - a "renderer" thread that owns one sw_sync timeline (or
 * makes vgem fences, --vgem) and signals a frame's fence after its render
 * delay, or fails it, or never signals it, as the plan says.
 */
#ifndef FENCE_TRACE_PRODUCER_H
#define FENCE_TRACE_PRODUCER_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "vgem-fence-source.h"
#include "workload-plan.h"

/*
 * Where the compositor's thread waits on the in-fences (a blocking commit,
 * or its poll): a late producer starts its delay only once that thread
 * sleeps there, so that a commit a loaded machine holds up still waits the
 * whole delay on it (timed from the frame's start, it waited less or not
 * at all).
 */
enum gate_state { GATE_BEFORE, GATE_INSIDE, GATE_RETURNED };

/*
 * --starve: a starved frame's fences start their delay only once the
 * starver holds the compositor's CPU, so that they signal after it took
 * the CPU however late a loaded machine let it, and as soon as possible
 * after that.  (Timed from the compositor's block, 8 ms, they signalled
 * past the deadline when the block itself came late: a producer frame,
 * not the wakeup one injected.)  GAVE_UP: it could not take the CPU.
 */
enum starve_state { STARVE_NONE, STARVE_WAITING, STARVE_HELD, STARVE_GAVE_UP };

struct block_gate {
	pid_t tid;		/* the compositor's thread */
	atomic_int state;	/* enum gate_state of this frame's waiting call */
	atomic_int starve;	/* enum starve_state of this frame */
};

/* When a producer signalled a frame's fence, as it saw it (CLOCK_MONOTONIC ns). */
struct render_times {
	uint64_t start_ns;	/* its delay started: the frame's start, or the gate */
	uint64_t due_ns;	/* start_ns + its delay */
	uint64_t woke_ns;	/* awake again, just before it signalled */
	uint64_t done_ns;	/* the signalling call returned */
};

struct producer {
	char label;		/* 'A' or 'B' */
	int timeline;		/* sw_sync fd; reopened after a FATE_ERROR */
	int vgem;		/* the vgem device's fd when fences come from vgem, else -1 */
	int release_fd;		/* readable: end a FATE_SLOW delay now (-1: none) */
	struct vgem_pending pending;	/* vgem: the newest fence, until signalled */
	unsigned int value;	/* timeline value of the newest fence */
	int error;		/* first failure in the thread, negative errno */
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	/* protected by @lock */
	int ready, busy, quit;
	unsigned int frame;
	enum frame_fate fate;
	uint64_t start_ns;	/* CLOCK_MONOTONIC time the frame started */
	uint64_t delay_ns;	/* its render delay */
	const struct block_gate *gate;	/* delay from the compositor's block, or NULL */
	struct render_times times;	/* of the last frame rendered */
};

int producer_start(struct producer *p, char label, int vgem_fd);
int producer_fence(struct producer *p);
void producer_render(struct producer *p, unsigned int frame, enum frame_fate fate,
		     uint64_t start_ns, uint64_t delay_ns, const struct block_gate *gate);
void producer_wait_idle(struct producer *p, struct render_times *times);
void producer_stop(struct producer *p);
bool thread_sleeps(pid_t tid);

#endif
