/* SPDX-License-Identifier: GPL-2.0 */
/*
 * golden-traces.h - the golden tests' constructed inputs: one trace.dat
 * per edge case of the model, built event by event with trace-builder so
 * that every byte (and so every number a report prints) is fixed.
 */
#ifndef FENCE_TRACE_GOLDEN_TRACES_H
#define FENCE_TRACE_GOLDEN_TRACES_H

#include <stdint.h>

#include "synth-time.h"
#include "trace-builder.h"

#define CRTC_ID 51

/* A fence timeline as the dma_fence events name it. */
struct gt_timeline {
	const char *driver, *name;
	uint32_t context;
};

extern const struct gt_timeline gt_out, gt_a, gt_b, gt_array;

/* A builder and the first error any step met (the steps go on: one check at the end). */
struct gt {
	struct trace_builder *tb;
	int err;
};

void gt_fence(struct gt *g, unsigned int cpu, uint64_t ts, const char *event,
	      const struct gt_timeline *t, uint32_t seqno);
void gt_pid(struct gt *g, int pid);
void gt_land(struct gt *g, uint32_t vbl_seq, uint32_t out_seqno);
void gt_sched_wakeup(struct gt *g, unsigned int cpu, uint64_t ts, int pid, int target_cpu);
void gt_sched_switch(struct gt *g, unsigned int cpu, uint64_t ts, int prev_pid, int next_pid);

/* Scenarios on a stock 6.1 kernel's events (golden-stock.c). */
void gt_cpus(struct gt *g);
void gt_wrap(struct gt *g);
void gt_collide(struct gt *g);
void gt_nofence(struct gt *g);
void gt_lost(struct gt *g);
void gt_late(struct gt *g);
void gt_late_worse(struct gt *g);
void gt_display(struct gt *g);
void gt_many(struct gt *g);
void gt_contexts(struct gt *g);
/* Every frame class once, without and with sched events (golden-frames.c). */
void gt_frames(struct gt *g);
void gt_frames_sched(struct gt *g);

/* Scenarios with the kernel series' events (golden-series.c). */
void gt_merge(struct gt *g);
void gt_errors(struct gt *g);
void gt_waits(struct gt *g);

#endif
