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

/* Every record starts so; its type says what follows. */
struct fr_event {
	__u64 ts;			/* CLOCK_MONOTONIC ns */
	__u32 pid;
	__u16 cpu, type;
};

/*
 * The dma_fence events.  Context and seqno at the widths of the trace
 * events' own fields (unsigned int), all the trace.dat keeps: the bytes
 * of every record are copied twice more on their way to the file.
 */
struct fr_fence {
	struct fr_event hdr;
	__u32 context, seqno;
};

/* FR_VBLANK: crtc, seq, time (ns); FR_VBLANK_DELIVERED: crtc, seq, file. */
struct fr_vblank {
	struct fr_event hdr;
	__s32 crtc;
	__u32 seq;
	__u64 time_or_file;
};

/* The bytes of an event record of @type; 0: not an event. */
static inline unsigned int fr_size(unsigned int type)
{
	if (type < FR_VBLANK)
		return sizeof(struct fr_fence);
	return type < FR_TYPES ? sizeof(struct fr_vblank) : 0;
}

#endif
