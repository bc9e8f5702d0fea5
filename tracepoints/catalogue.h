/* SPDX-License-Identifier: GPL-2.0 */
/*
 * catalogue.h - every trace event fence-trace reads, and the fields it
 * reads from each.  The decoder resolves these once per trace file; the
 * BPF programs attach to the same names.  Stock Linux 6.1 events first,
 * then the kernel series' (kernel/patches), which a kernel may lack.
 *
 * FT_EVENT(ID, system, name, set)
 * FT_FIELD(ID, field, slot, flags)   field as named in the event's format
 */
#ifndef FENCE_TRACE_CATALOGUE_H
#define FENCE_TRACE_CATALOGUE_H

/* Event sets, reported by `record` as found or missing. */
enum ft_set {
	FT_SET_DMA_FENCE,	/* dma_fence:* (stock) */
	FT_SET_VBLANK,		/* drm:drm_vblank_event* (stock) */
	FT_SET_SERIES,		/* drm_fence:* (the fence-trace kernel series) */
	FT_SET_COUNT,
};

#define FT_EVENTS(E)								\
	E(FENCE_INIT,	     "dma_fence", "dma_fence_init",		FT_SET_DMA_FENCE) \
	E(FENCE_EMIT,	     "dma_fence", "dma_fence_emit",		FT_SET_DMA_FENCE) \
	E(FENCE_ENABLE,	     "dma_fence", "dma_fence_enable_signal",	FT_SET_DMA_FENCE) \
	E(FENCE_SIGNALED,    "dma_fence", "dma_fence_signaled",		FT_SET_DMA_FENCE) \
	E(FENCE_WAIT_START,  "dma_fence", "dma_fence_wait_start",	FT_SET_DMA_FENCE) \
	E(FENCE_WAIT_END,    "dma_fence", "dma_fence_wait_end",		FT_SET_DMA_FENCE) \
	E(FENCE_DESTROY,     "dma_fence", "dma_fence_destroy",		FT_SET_DMA_FENCE) \
	E(VBLANK,	     "drm",	  "drm_vblank_event",		FT_SET_VBLANK)	  \
	E(VBLANK_QUEUED,     "drm",	  "drm_vblank_event_queued",	FT_SET_VBLANK)	  \
	E(VBLANK_DELIVERED,  "drm",	  "drm_vblank_event_delivered", FT_SET_VBLANK)

/* Field slots: where a decoded value lands in struct ft_event. */
enum ft_slot {
	FT_CONTEXT, FT_SEQNO, FT_CRTC, FT_SEQ, FT_TIME, FT_FILE,
	FT_NUM_SLOTS,
	/* strings, read on demand from the record */
	FT_DRIVER = FT_NUM_SLOTS, FT_TIMELINE,
	FT_ALL_SLOTS,
};

#define FT_REQUIRED 0
#define FT_OPTIONAL 1

#define FT_FIELDS(F)						\
	F(FENCE_INIT,	     driver,   FT_DRIVER,   FT_REQUIRED)	\
	F(FENCE_INIT,	     timeline, FT_TIMELINE, FT_REQUIRED)	\
	F(FENCE_INIT,	     context,  FT_CONTEXT,  FT_REQUIRED)	\
	F(FENCE_INIT,	     seqno,    FT_SEQNO,    FT_REQUIRED)	\
	F(FENCE_EMIT,	     context,  FT_CONTEXT,  FT_REQUIRED)	\
	F(FENCE_EMIT,	     seqno,    FT_SEQNO,    FT_REQUIRED)	\
	F(FENCE_ENABLE,	     context,  FT_CONTEXT,  FT_REQUIRED)	\
	F(FENCE_ENABLE,	     seqno,    FT_SEQNO,    FT_REQUIRED)	\
	F(FENCE_SIGNALED,    context,  FT_CONTEXT,  FT_REQUIRED)	\
	F(FENCE_SIGNALED,    seqno,    FT_SEQNO,    FT_REQUIRED)	\
	F(FENCE_WAIT_START,  context,  FT_CONTEXT,  FT_REQUIRED)	\
	F(FENCE_WAIT_START,  seqno,    FT_SEQNO,    FT_REQUIRED)	\
	F(FENCE_WAIT_END,    context,  FT_CONTEXT,  FT_REQUIRED)	\
	F(FENCE_WAIT_END,    seqno,    FT_SEQNO,    FT_REQUIRED)	\
	F(FENCE_DESTROY,     context,  FT_CONTEXT,  FT_REQUIRED)	\
	F(FENCE_DESTROY,     seqno,    FT_SEQNO,    FT_REQUIRED)	\
	F(VBLANK,	     crtc,     FT_CRTC,	    FT_REQUIRED)	\
	F(VBLANK,	     seq,      FT_SEQ,	    FT_REQUIRED)	\
	F(VBLANK,	     time,     FT_TIME,	    FT_OPTIONAL)	\
	F(VBLANK_QUEUED,     crtc,     FT_CRTC,	    FT_REQUIRED)	\
	F(VBLANK_QUEUED,     seq,      FT_SEQ,	    FT_REQUIRED)	\
	F(VBLANK_DELIVERED,  crtc,     FT_CRTC,	    FT_REQUIRED)	\
	F(VBLANK_DELIVERED,  seq,      FT_SEQ,	    FT_REQUIRED)	\
	F(VBLANK_DELIVERED,  file,     FT_FILE,	    FT_OPTIONAL)

#define FT_EVENT_ENUM(id, sys, name, set) FT_EV_##id,
enum ft_event_id { FT_EVENTS(FT_EVENT_ENUM) FT_EV_COUNT };
#undef FT_EVENT_ENUM

#endif
