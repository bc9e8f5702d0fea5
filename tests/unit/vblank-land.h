/* SPDX-License-Identifier: GPL-2.0 */
/*
 * vblank-land.h - a vblank of CRTC 51 (pipe 0) in the kernel's order:
 * the vblank event delivered to user space, the out-fence of the commit
 * that lands signalled, the vblank itself, 10, 20 and 30 us after the
 * vblank's time.  It needs only a trace_builder, so that the cmocka
 * fixture (trace-fixture.c), the golden traces and the benchmark's
 * synthetic trace write these events with the same code.
 */
#ifndef FENCE_TRACE_VBLANK_LAND_H
#define FENCE_TRACE_VBLANK_LAND_H

#include <stdint.h>

#include "trace-builder.h"

struct vblank_land {
	uint64_t t;			/* the vblank's time */
	uint32_t seq;			/* its sequence */
	uint32_t event_seq;		/* the vblank event's sequence; 0: @seq */
	uint32_t out_seqno;		/* the out-fence signalled (vkms, context 1); 0: none */
	const char *out_timeline;	/* its timeline; NULL: "CRTC:51-crtc-0" */
	/* the landing commit's events before its out-fence's signal (only
	 * with @out_seqno): 0, or an error that stops the vblank there */
	int (*before_signal)(void *arg);
	void *arg;
};

int vblank_land(struct trace_builder *tb, const struct vblank_land *l);

#endif
