/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fence-record.h - the records fence-record.bpf.c sends through its ring
 * buffer for `fence-trace record --bpf`: the stock dma_fence and vblank
 * events, without their strings (names are resolved in user space).
 */
#ifndef FENCE_TRACE_FENCE_RECORD_H
#define FENCE_TRACE_FENCE_RECORD_H

enum fr_type {
	FR_INIT, FR_EMIT, FR_ENABLE_SIGNAL, FR_SIGNALED, FR_WAIT_START, FR_WAIT_END,
	FR_DESTROY,				/* the dma_fence events, in that order */
	FR_VBLANK, FR_VBLANK_DELIVERED,
	FR_TYPES,
};

struct fr_event {
	__u64 ts;			/* CLOCK_MONOTONIC ns */
	__u64 a, b, c;			/* fences: context, seqno; vblank: crtc, seq, time or file */
	__u32 pid;
	__u16 cpu, type;
};

#endif
