/* SPDX-License-Identifier: GPL-2.0 */
/*
 * frame-result.h - what fence-workload saw of one frame, and its key=value
 * ground-truth line (frame-print.c).
 */
#ifndef FENCE_TRACE_FRAME_RESULT_H
#define FENCE_TRACE_FRAME_RESULT_H

#include <stdint.h>

#include "producer.h"
#include "starve.h"
#include "sync.h"
#include "workload-plan.h"

struct frame_result {
	int in_fd[PLAN_PRODUCERS], out_fence;	/* until the frame is shown */
	uint64_t submit_ns, return_ns, out_seen_ns;
	struct sync_summary in[PLAN_PRODUCERS], out;
	struct render_times times[PLAN_PRODUCERS];
	unsigned int ebusy;
	uint32_t vblank_before;	/* the counter just before the commit: its target is the next */
	uint64_t vblank_before_ns;	/* that vblank's time (CLOCK_MONOTONIC) */
	int vblank_known;
	struct starver starve;	/* --starve: when the compositor's CPU was taken */
	uint32_t flip_seq;
	uint64_t flip_ns;
	int rejected;		/* --reject: the commit's error (the frame was never shown) */
};

void frame_print(const struct workload_plan *plan, unsigned int n_producers, unsigned int frame,
		 const struct frame_result *r);

#endif
