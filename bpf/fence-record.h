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
	FR_NAME = 0x100,			/* struct fr_name: not an event */
};

struct fr_event {
	__u64 ts;			/* CLOCK_MONOTONIC ns */
	__u64 a, b, c;			/* fences: context, seqno; vblank: crtc, seq, time or file */
	__u32 pid;
	__u16 cpu, type;
};

/*
 * A fence context's names, sent once per context the program has not named
 * yet (hdr.a: the context), on kernels with the series' kfunc
 * bpf_dma_fence_get_names(): no names stream from tracefs is needed then.
 */
struct fr_name {
	struct fr_event hdr;
	char driver[32], timeline[32];	/* as struct fence_name holds them */
};

#endif
