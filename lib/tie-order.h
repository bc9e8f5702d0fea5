/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tie-order.h - a wait's end after the signal that ended it, when the
 * trace clock stamps both with the same nanosecond on two CPUs.
 *
 * Every signal path traces dma_fence_signaled before it wakes a waiter,
 * so a wait's end (dma_fence_wait_end, drm_fence_wait_end,
 * sync_file_poll_ready) follows its fence's signal.  A coarse clock can
 * stamp both alike: trace-cmd's default local clock in a guest whose TSC
 * is unstable clamps sched_clock to the tick (seen in the lab: four events
 * on two CPUs at one stamp).  The merge then gives the lower CPU's events
 * first, the wait's end before its signal, and the model reads an
 * interrupted wait and a frame whose ready time is unknown.  So a wait's
 * end, and whatever its CPU traced at the same stamp after it, is held
 * until the stamp changes: the other CPUs' events of that stamp go first.
 * Each CPU's own order is kept; events of distinct stamps are never moved.
 */
#ifndef FENCE_TRACE_TIE_ORDER_H
#define FENCE_TRACE_TIE_ORDER_H

#include <stddef.h>
#include <stdint.h>

#include "decode.h"
#include "vec.h"

struct tie_order {
	VEC(struct ft_event) held;	/* copies; data points into bytes at release */
	VEC(unsigned char) bytes;	/* the held events' raw records */
	uint64_t ts;			/* the stamp they share */
	int cpu;			/* the CPU they came from */
	unsigned int next;		/* tie_order_next()'s position */
};

/* @ev must wait for the held events to be released first (another stamp). */
int tie_order_due(const struct tie_order *o, const struct ft_event *ev);
/* Hold a copy of @ev if it must go after its stamp's other CPUs: 1 held,
 * 0 not (deliver it now), -ENOMEM. */
int tie_order_hold(struct tie_order *o, const struct ft_event *ev);
/* The held events in order, then NULL (and none is held any more). */
const struct ft_event *tie_order_next(struct tie_order *o);
void tie_order_free(struct tie_order *o);

#endif
