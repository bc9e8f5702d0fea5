/* SPDX-License-Identifier: GPL-2.0 */
/*
 * vgem-fence-source.h - in-fences made the way Mesa bridges implicit
 * fencing to explicit: a write fence attached to a vgem buffer
 * (VGEM_FENCE_ATTACH), taken out of its dma-buf as a sync_file
 * (DMA_BUF_IOCTL_EXPORT_SYNC_FILE), signalled with VGEM_FENCE_SIGNAL.  For
 * kernels without sw_sync (distribution kernels), and a fence shape real
 * drivers have: a fence context per fence.
 */
#ifndef FENCE_TRACE_VGEM_FENCE_SOURCE_H
#define FENCE_TRACE_VGEM_FENCE_SOURCE_H

#include <stdint.h>

/* One pending fence: the buffer that carries it, and vgem's id for it. */
struct vgem_pending {
	uint32_t handle;	/* 0: none */
	uint32_t fence;
};

int vgem_source_open(void);
int vgem_fence_new(int vgem_fd, struct vgem_pending *pending);
int vgem_fence_signal(int vgem_fd, struct vgem_pending *pending);
void vgem_pending_drop(int vgem_fd, struct vgem_pending *pending);

#endif
