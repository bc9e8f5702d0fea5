/* SPDX-License-Identifier: GPL-2.0 */
/*
 * producer.h - a "renderer" thread that owns one sw_sync timeline (or
 * makes vgem fences, --vgem) and signals a frame's fence after its render
 * delay, or fails it, or never signals it, as the plan says.
 */
#ifndef FENCE_TRACE_PRODUCER_H
#define FENCE_TRACE_PRODUCER_H

#include <pthread.h>
#include <stdint.h>

#include "vgem-fence-source.h"
#include "workload-plan.h"

struct producer {
	char label;		/* 'A' or 'B' */
	int timeline;		/* sw_sync fd; reopened after a FATE_ERROR */
	int vgem;		/* the vgem device's fd when fences come from vgem, else -1 */
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
	uint64_t due_ns;	/* CLOCK_MONOTONIC time to signal at */
};

int producer_start(struct producer *p, char label, int vgem_fd);
int producer_fence(struct producer *p);
void producer_render(struct producer *p, unsigned int frame, enum frame_fate fate,
		     uint64_t due_ns);
void producer_wait_idle(struct producer *p);
void producer_stop(struct producer *p);

#endif
