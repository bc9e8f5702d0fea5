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
	FT_SET_DMA_SERIES,	/* the series' dma_fence_error and dma_fence_member */
	FT_SET_SCHED,		/* sched:sched_wakeup, _switch (record --sched): who ran when */
	FT_SET_COUNT,
};

/*
 * drm_fence_commit_stall's stage field: the series' enum
 * drm_fence_stall_stage (kernel/patches/0005), named as its TP_printk
 * names them, so that every output spells them as trace-cmd does.
 */
enum ft_stall_stage {
	FT_STALL_HW_DONE,
	FT_STALL_FLIP_DONE,
	FT_STALL_CLEANUP_DONE,
	FT_STALL_EBUSY,		/* no wait: nonblocking commits refused with -EBUSY */
	FT_STALL_STAGE_COUNT,
};
#define FT_STALL_STAGE_NAMES { "hw_done", "flip_done", "cleanup_done", "ebusy" }

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
	E(VBLANK_DELIVERED,  "drm",	  "drm_vblank_event_delivered", FT_SET_VBLANK)	  \
	E(COMMIT,	     "drm_fence", "drm_fence_commit",		FT_SET_SERIES)	  \
	E(COMMIT_FAILED,     "drm_fence", "drm_fence_commit_failed",	FT_SET_SERIES)	  \
	E(COMMIT_STALL,	     "drm_fence", "drm_fence_commit_stall",	FT_SET_SERIES)	  \
	E(CLEANUP_DONE,	     "drm_fence", "drm_fence_cleanup_done",	FT_SET_SERIES)	  \
	E(COMMIT_TAIL,	     "drm_fence", "drm_fence_commit_tail",	FT_SET_SERIES)	  \
	E(HW_DONE,	     "drm_fence", "drm_fence_hw_done",		FT_SET_SERIES)	  \
	E(OUT_CREATE,	     "drm_fence", "drm_fence_out_create",	FT_SET_SERIES)	  \
	E(OUT_SIGNAL,	     "drm_fence", "drm_fence_out_signal",	FT_SET_SERIES)	  \
	E(PLANE_FENCE,	     "drm_fence", "drm_fence_plane",		FT_SET_SERIES)	  \
	E(PLANE_WAIT_END,    "drm_fence", "drm_fence_wait_end",		FT_SET_SERIES)	  \
	E(PLANE_WAIT_BEGIN,  "drm_fence", "drm_fence_wait_begin",	FT_SET_SERIES)	  \
	E(FLIP_DONE,	     "drm_fence", "drm_fence_flip_done",	FT_SET_SERIES)	  \
	E(POLL_BEGIN,	     "sync_file", "sync_file_poll_begin",	FT_SET_SERIES)	  \
	E(POLL_READY,	     "sync_file", "sync_file_poll_ready",	FT_SET_SERIES)	  \
	E(OUT_DISCARD,	     "drm_fence", "drm_fence_out_discard",	FT_SET_SERIES)	  \
	E(FENCE_ERROR,	     "dma_fence", "dma_fence_error",		FT_SET_DMA_SERIES) \
	E(FENCE_MEMBER,	     "dma_fence", "dma_fence_member",		FT_SET_DMA_SERIES) \
	E(SCHED_WAKEUP,	     "sched",	  "sched_wakeup",		FT_SET_SCHED)	  \
	E(SCHED_SWITCH,	     "sched",	  "sched_switch",		FT_SET_SCHED)

/* Field slots: where a decoded value lands in struct ft_event. */
enum ft_slot {
	FT_CONTEXT, FT_SEQNO, FT_CRTC, FT_SEQ, FT_TIME, FT_FILE,
	/*
	 * the series' fields; FT_FENCE and FT_SYNC_FILE are the kernel's
	 * dma_fence_trace_id() of the object (a series before patch 0005 put
	 * its address there): opaque, compared only for equality.  Patch
	 * 0005 also puts FT_FENCE in the stock dma_fence events; 0 there
	 * means none (a stock kernel, or record --bpf, which cannot compute
	 * the kernel's keyed hash)
	 */
	FT_COMMIT, FT_FENCE, FT_PLANE, FT_FLAGS, FT_ERR, FT_RET, FT_DURATION, FT_STAGE,
	FT_WAITS_ON, FT_KIND, FT_SYNC_FILE,
	FT_CONTAINER_CONTEXT, FT_CONTAINER_SEQNO, FT_INDEX,
	/* the scheduler's */
	FT_PID, FT_TARGET_CPU, FT_PREV_PID, FT_NEXT_PID,
	FT_NUM_SLOTS,
	/* strings, read on demand from the record */
	FT_DRIVER = FT_NUM_SLOTS, FT_TIMELINE, FT_CRTC_NAME, FT_PREV_COMM,
	FT_ALL_SLOTS,
};

#define FT_REQUIRED 0
#define FT_OPTIONAL 1

#define FT_FIELDS(F)						\
	F(FENCE_INIT,	     driver,   FT_DRIVER,   FT_REQUIRED)	\
	F(FENCE_INIT,	     timeline, FT_TIMELINE, FT_REQUIRED)	\
	F(FENCE_INIT,	     context,  FT_CONTEXT,  FT_REQUIRED)	\
	F(FENCE_INIT,	     seqno,    FT_SEQNO,    FT_REQUIRED)	\
	F(FENCE_INIT,        fence,    FT_FENCE,    FT_OPTIONAL)	\
	F(FENCE_EMIT,	     context,  FT_CONTEXT,  FT_REQUIRED)	\
	F(FENCE_EMIT,	     seqno,    FT_SEQNO,    FT_REQUIRED)	\
	F(FENCE_EMIT,        fence,    FT_FENCE,    FT_OPTIONAL)	\
	F(FENCE_ENABLE,	     context,  FT_CONTEXT,  FT_REQUIRED)	\
	F(FENCE_ENABLE,	     seqno,    FT_SEQNO,    FT_REQUIRED)	\
	F(FENCE_ENABLE,      fence,    FT_FENCE,    FT_OPTIONAL)	\
	F(FENCE_SIGNALED,    context,  FT_CONTEXT,  FT_REQUIRED)	\
	F(FENCE_SIGNALED,    seqno,    FT_SEQNO,    FT_REQUIRED)	\
	F(FENCE_SIGNALED,    fence,    FT_FENCE,    FT_OPTIONAL)	\
	F(FENCE_WAIT_START,  context,  FT_CONTEXT,  FT_REQUIRED)	\
	F(FENCE_WAIT_START,  seqno,    FT_SEQNO,    FT_REQUIRED)	\
	F(FENCE_WAIT_START,  fence,    FT_FENCE,    FT_OPTIONAL)	\
	F(FENCE_WAIT_END,    context,  FT_CONTEXT,  FT_REQUIRED)	\
	F(FENCE_WAIT_END,    seqno,    FT_SEQNO,    FT_REQUIRED)	\
	F(FENCE_WAIT_END,    fence,    FT_FENCE,    FT_OPTIONAL)	\
	F(FENCE_DESTROY,     context,  FT_CONTEXT,  FT_REQUIRED)	\
	F(FENCE_DESTROY,     seqno,    FT_SEQNO,    FT_REQUIRED)	\
	F(FENCE_DESTROY,     fence,    FT_FENCE,    FT_OPTIONAL)	\
	F(VBLANK,	     crtc,     FT_CRTC,	    FT_REQUIRED)	\
	F(VBLANK,	     seq,      FT_SEQ,	    FT_REQUIRED)	\
	F(VBLANK,	     time,     FT_TIME,	    FT_OPTIONAL)	\
	F(VBLANK_QUEUED,     crtc,     FT_CRTC,	    FT_REQUIRED)	\
	F(VBLANK_QUEUED,     seq,      FT_SEQ,	    FT_REQUIRED)	\
	F(VBLANK_DELIVERED,  crtc,     FT_CRTC,	    FT_REQUIRED)	\
	F(VBLANK_DELIVERED,  seq,      FT_SEQ,	    FT_REQUIRED)	\
	F(VBLANK_DELIVERED,  file,     FT_FILE,	    FT_OPTIONAL)	\
	F(COMMIT,	     commit,   FT_COMMIT,   FT_REQUIRED)	\
	F(COMMIT,	     flags,    FT_FLAGS,    FT_REQUIRED)	\
	F(COMMIT_FAILED,     commit,   FT_COMMIT,   FT_REQUIRED)	\
	F(COMMIT_FAILED,     err,      FT_ERR,	    FT_REQUIRED)	\
	F(COMMIT_STALL,	     commit,   FT_COMMIT,   FT_REQUIRED)	\
	F(COMMIT_STALL,	     crtc,     FT_CRTC,	    FT_REQUIRED)	\
	F(COMMIT_STALL,	     waits_on, FT_WAITS_ON, FT_REQUIRED)	\
	F(COMMIT_STALL,	     stage,    FT_STAGE,    FT_REQUIRED)	\
	F(COMMIT_STALL,	     ret,      FT_RET,	    FT_REQUIRED)	\
	F(COMMIT_STALL,	     duration_ns, FT_DURATION, FT_REQUIRED)	\
	F(CLEANUP_DONE,	     commit,   FT_COMMIT,   FT_REQUIRED)	\
	F(COMMIT_TAIL,	     commit,   FT_COMMIT,   FT_REQUIRED)	\
	F(HW_DONE,	     commit,   FT_COMMIT,   FT_REQUIRED)	\
	F(OUT_CREATE,	     commit,   FT_COMMIT,   FT_REQUIRED)	\
	F(OUT_CREATE,	     crtc,     FT_CRTC,	    FT_REQUIRED)	\
	F(OUT_CREATE,	     fence,    FT_FENCE,    FT_REQUIRED)	\
	F(OUT_CREATE,	     context,  FT_CONTEXT,  FT_REQUIRED)	\
	F(OUT_CREATE,	     seqno,    FT_SEQNO,    FT_REQUIRED)	\
	F(OUT_CREATE,	     crtc_name, FT_CRTC_NAME, FT_OPTIONAL)	\
	F(OUT_SIGNAL,	     commit,   FT_COMMIT,   FT_REQUIRED)	\
	F(OUT_SIGNAL,	     crtc,     FT_CRTC,	    FT_REQUIRED)	\
	F(OUT_SIGNAL,	     vblank,   FT_SEQ,	    FT_REQUIRED)	\
	F(OUT_SIGNAL,	     error,    FT_ERR,	    FT_REQUIRED)	\
	F(PLANE_FENCE,	     commit,   FT_COMMIT,   FT_REQUIRED)	\
	F(PLANE_FENCE,	     plane,    FT_PLANE,    FT_REQUIRED)	\
	F(PLANE_FENCE,	     crtc,     FT_CRTC,	    FT_OPTIONAL)	\
	F(PLANE_FENCE,	     context,  FT_CONTEXT,  FT_REQUIRED)	\
	F(PLANE_FENCE,	     seqno,    FT_SEQNO,    FT_REQUIRED)	\
	F(PLANE_FENCE,	     kind,     FT_KIND,	    FT_REQUIRED)	\
	F(PLANE_WAIT_END,    commit,   FT_COMMIT,   FT_REQUIRED)	\
	F(PLANE_WAIT_END,    plane,    FT_PLANE,    FT_REQUIRED)	\
	F(PLANE_WAIT_END,    fence,    FT_FENCE,    FT_REQUIRED)	\
	F(PLANE_WAIT_END,    context,  FT_CONTEXT,  FT_REQUIRED)	\
	F(PLANE_WAIT_END,    seqno,    FT_SEQNO,    FT_REQUIRED)	\
	F(PLANE_WAIT_END,    ret,      FT_RET,	    FT_REQUIRED)	\
	F(PLANE_WAIT_END,    duration_ns, FT_DURATION, FT_OPTIONAL)	\
	F(PLANE_WAIT_BEGIN,  commit,   FT_COMMIT,   FT_REQUIRED)	\
	F(PLANE_WAIT_BEGIN,  plane,    FT_PLANE,    FT_REQUIRED)	\
	F(PLANE_WAIT_BEGIN,  fence,    FT_FENCE,    FT_OPTIONAL)	\
	F(PLANE_WAIT_BEGIN,  context,  FT_CONTEXT,  FT_REQUIRED)	\
	F(PLANE_WAIT_BEGIN,  seqno,    FT_SEQNO,    FT_REQUIRED)	\
	F(FLIP_DONE,	     commit,   FT_COMMIT,   FT_REQUIRED)	\
	F(FLIP_DONE,	     crtc,     FT_CRTC,	    FT_REQUIRED)	\
	F(FLIP_DONE,	     vblank,   FT_SEQ,	    FT_REQUIRED)	\
	F(POLL_BEGIN,	     sync_file, FT_SYNC_FILE, FT_REQUIRED)	\
	F(POLL_BEGIN,	     fence,    FT_FENCE,    FT_OPTIONAL)	\
	F(POLL_BEGIN,	     context,  FT_CONTEXT,  FT_REQUIRED)	\
	F(POLL_BEGIN,	     seqno,    FT_SEQNO,    FT_REQUIRED)	\
	F(POLL_READY,	     sync_file, FT_SYNC_FILE, FT_REQUIRED)	\
	F(POLL_READY,	     context,  FT_CONTEXT,  FT_REQUIRED)	\
	F(POLL_READY,	     seqno,    FT_SEQNO,    FT_REQUIRED)	\
	F(OUT_DISCARD,	     commit,   FT_COMMIT,   FT_REQUIRED)	\
	F(OUT_DISCARD,	     crtc,     FT_CRTC,	    FT_REQUIRED)	\
	F(OUT_DISCARD,	     context,  FT_CONTEXT,  FT_REQUIRED)	\
	F(OUT_DISCARD,	     seqno,    FT_SEQNO,    FT_REQUIRED)	\
	F(OUT_DISCARD,	     error,    FT_ERR,	    FT_REQUIRED)	\
	F(FENCE_ERROR,	     driver,   FT_DRIVER,   FT_REQUIRED)	\
	F(FENCE_ERROR,	     timeline, FT_TIMELINE, FT_REQUIRED)	\
	F(FENCE_ERROR,	     fence,    FT_FENCE,    FT_OPTIONAL)	\
	F(FENCE_ERROR,	     context,  FT_CONTEXT,  FT_REQUIRED)	\
	F(FENCE_ERROR,	     seqno,    FT_SEQNO,    FT_REQUIRED)	\
	F(FENCE_ERROR,	     error,    FT_ERR,	    FT_REQUIRED)	\
	F(FENCE_MEMBER,	     container_context, FT_CONTAINER_CONTEXT, FT_REQUIRED) \
	F(FENCE_MEMBER,	     container_seqno, FT_CONTAINER_SEQNO, FT_REQUIRED) \
	F(FENCE_MEMBER,	     index,    FT_INDEX,    FT_REQUIRED)	\
	F(FENCE_MEMBER,	     driver,   FT_DRIVER,   FT_REQUIRED)	\
	F(FENCE_MEMBER,	     timeline, FT_TIMELINE, FT_REQUIRED)	\
	F(FENCE_MEMBER,	     context,  FT_CONTEXT,  FT_REQUIRED)	\
	F(FENCE_MEMBER,	     seqno,    FT_SEQNO,    FT_REQUIRED)	\
	F(SCHED_WAKEUP,	     pid,      FT_PID,	    FT_REQUIRED)	\
	F(SCHED_WAKEUP,	     target_cpu, FT_TARGET_CPU, FT_REQUIRED)	\
	F(SCHED_SWITCH,	     prev_pid, FT_PREV_PID, FT_REQUIRED)	\
	F(SCHED_SWITCH,	     prev_comm, FT_PREV_COMM, FT_OPTIONAL)	\
	F(SCHED_SWITCH,	     next_pid, FT_NEXT_PID, FT_REQUIRED)

#define FT_EVENT_ENUM(id, sys, name, set) FT_EV_##id,
enum ft_event_id { FT_EVENTS(FT_EVENT_ENUM) FT_EV_COUNT };
#undef FT_EVENT_ENUM

#endif
