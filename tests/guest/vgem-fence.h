/* SPDX-License-Identifier: GPL-2.0 */
/*
 * vgem-fence.h - a vgem buffer with a vgem fence on it, imported into a KMS
 * device as a framebuffer: the implicit-fencing case, where a plane waits on
 * the buffer's write fence without any IN_FENCE_FD.
 *
 * vgem's uapi header is not installed by Debian's packages; its two fence
 * ioctls are defined here from include/uapi/drm/vgem_drm.h.
 */
#ifndef FENCE_TRACE_GUEST_VGEM_FENCE_H
#define FENCE_TRACE_GUEST_VGEM_FENCE_H

#include <stdint.h>

#include "kms.h"

struct vgem_buffer {
	int vgem_fd;		/* the vgem device */
	uint32_t vgem_handle;	/* the buffer in vgem */
	struct kms_fb fb;	/* the same buffer, a framebuffer of the KMS device */
};

int vgem_buffer_create(struct kms_device *kms, struct vgem_buffer *buf);
int vgem_fence_attach_write(struct vgem_buffer *buf, uint32_t *fence);
int vgem_fence_signal(struct vgem_buffer *buf, uint32_t fence);
void vgem_buffer_destroy(struct kms_device *kms, struct vgem_buffer *buf);

#endif
