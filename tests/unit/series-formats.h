/* SPDX-License-Identifier: GPL-2.0 */
/*
 * series-formats.h - a formats folder for trace-builder with the kernel
 * series' events (tracepoints/formats/) next to the stock 6.1 fixtures,
 * and payloads for them built field by field (one builder per event, so
 * that the byte layouts are written down once for every test).
 */
#ifndef FENCE_TRACE_SERIES_FORMATS_H
#define FENCE_TRACE_SERIES_FORMATS_H

#include <stddef.h>
#include <stdint.h>

/* Make @dir (a mkdtemp template of @len bytes, filled in); 0 or -1. */
int series_formats_make(char *dir, size_t len);
void series_formats_remove(const char *dir);
/* Copy the formats in @from to @dir/@prefix<name>, ids moved by @shift. */
int formats_copy(const char *from, const char *dir, const char *prefix, int shift);

/*
 * An event payload: what follows the 8 bytes of common fields.  Offsets
 * are the tracefs format's; strings (__data_loc) go after @fixed bytes of
 * fields, in the order they are put.
 */
struct payload {
	unsigned char b[256];
	size_t fixed, len;
};

void payload_init(struct payload *p, size_t format_size);
void payload_num(struct payload *p, size_t format_offset, uint64_t v, size_t size);
void payload_str(struct payload *p, size_t format_offset, const char *s);

/* A fence as the series' events name it. */
struct series_fence {
	const char *driver, *timeline;
	uint64_t context, seqno;
	uint64_t id;		/* dma_fence_trace_id(), 0 none */
};

/* One builder per series event: @p is filled in, field by field. */
void series_fence_error(struct payload *p, const struct series_fence *fence, int err);
void series_member(struct payload *p, uint64_t container, const struct series_fence *array,
		   unsigned int index, const struct series_fence *member);
void series_out_create(struct payload *p, uint64_t commit, uint32_t crtc, uint64_t context,
		       uint64_t seqno, const char *crtc_name);
void series_out_discard(struct payload *p, uint64_t commit, uint32_t crtc, uint64_t context,
			uint64_t seqno, int err);
void series_commit(struct payload *p, uint64_t commit, uint32_t flags);
void series_plane(struct payload *p, uint64_t commit, uint32_t plane, uint32_t crtc,
		  uint64_t context, uint64_t seqno);
void series_plane_wait_begin(struct payload *p, uint64_t commit, uint32_t plane,
			     uint64_t context, uint64_t seqno);
void series_plane_wait_end(struct payload *p, uint64_t commit, uint32_t plane, uint64_t context,
			   uint64_t seqno, int ret);
const char *series_plane_wait(struct payload *p, int end, uint64_t commit, uint32_t plane,
			      uint64_t context, uint64_t seqno);
void series_flip_done(struct payload *p, uint64_t commit, uint32_t crtc, uint64_t vblank);
void series_cleanup_done(struct payload *p, uint64_t commit);
void series_commit_stall(struct payload *p, uint64_t commit, uint32_t crtc, int64_t waits_on,
			 int stage, int ret, uint64_t duration_ns);
void series_commit_failed(struct payload *p, uint64_t commit, int err);
void series_poll(struct payload *p, uint64_t sync_file, uint64_t fence, uint64_t context,
		 uint64_t seqno);

#endif
