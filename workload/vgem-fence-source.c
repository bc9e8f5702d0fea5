// SPDX-License-Identifier: GPL-2.0
/* vgem-fence-source.c - sync_files of vgem fences (see vgem-fence-source.h). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>

#include <linux/dma-buf.h>
#include <xf86drm.h>

#include "vgem-fence-source.h"

/* include/uapi/drm/vgem_drm.h, which libdrm's headers do not carry. */
struct vgem_fence_attach {
	uint32_t handle;
	uint32_t flags;
	uint32_t out_fence;
	uint32_t pad;
};

struct vgem_fence_signal {
	uint32_t fence;
	uint32_t flags;
};

#define VGEM_FENCE_WRITE 0x1
#define VGEM_IOCTL_FENCE_ATTACH DRM_IOWR(DRM_COMMAND_BASE + 0x1, struct vgem_fence_attach)
#define VGEM_IOCTL_FENCE_SIGNAL DRM_IOW(DRM_COMMAND_BASE + 0x2, struct vgem_fence_signal)

/**
 * vgem_source_open() - open the vgem device: the card whose driver is vgem
 *
 * Return: its fd, or -ENODEV when no card is vgem (modprobe vgem).
 */
int vgem_source_open(void)
{
	char path[32];

	for (int i = 0; i < 16; i++) {
		drmVersionPtr v;
		int fd, is_vgem;

		snprintf(path, sizeof(path), "/dev/dri/card%d", i);
		fd = open(path, O_RDWR | O_CLOEXEC);
		if (fd < 0)
			continue;
		v = drmGetVersion(fd);
		is_vgem = v && strcmp(v->name, "vgem") == 0;
		drmFreeVersion(v);
		if (is_vgem)
			return fd;
		close(fd);
	}
	return -ENODEV;
}

/* The sync_file of the fences a reader of @handle's buffer waits for. */
static int export_sync_file(int vgem_fd, uint32_t handle)
{
	struct dma_buf_export_sync_file exp = { .flags = DMA_BUF_SYNC_READ, .fd = -1 };
	int dmabuf = -1, ret;

	if (drmPrimeHandleToFD(vgem_fd, handle, DRM_CLOEXEC | DRM_RDWR, &dmabuf))
		return -errno;
	ret = ioctl(dmabuf, DMA_BUF_IOCTL_EXPORT_SYNC_FILE, &exp) ? -errno : exp.fd;
	close(dmabuf);
	return ret;
}

/**
 * vgem_fence_new() - a new pending vgem fence, as a sync_file
 * @pending: set to the buffer and fence to signal later
 *
 * Each fence gets a small buffer of its own: a buffer whose write fence is
 * still pending takes no second one (EBUSY), and a fence never signalled
 * stays on its buffer until vgem's own timeout (10 s) signals it.
 *
 * Return: the sync_file fd, or a negative errno (EXPORT_SYNC_FILE needs
 * Linux 6.0).
 */
int vgem_fence_new(int vgem_fd, struct vgem_pending *pending)
{
	struct drm_mode_create_dumb dumb = { .width = 4, .height = 4, .bpp = 32 };
	struct vgem_fence_attach attach = { .flags = VGEM_FENCE_WRITE };
	int fd;

	memset(pending, 0, sizeof(*pending));
	if (drmIoctl(vgem_fd, DRM_IOCTL_MODE_CREATE_DUMB, &dumb))
		return -errno;
	pending->handle = dumb.handle;
	attach.handle = dumb.handle;
	if (drmIoctl(vgem_fd, VGEM_IOCTL_FENCE_ATTACH, &attach)) {
		fd = -errno;
		vgem_pending_drop(vgem_fd, pending);
		return fd;
	}
	pending->fence = attach.out_fence;
	fd = export_sync_file(vgem_fd, dumb.handle);
	if (fd < 0) {
		vgem_fence_signal(vgem_fd, pending);
		vgem_pending_drop(vgem_fd, pending);
	}
	return fd;
}

/* Signal @pending's fence.  Return: 0, or a negative errno. */
int vgem_fence_signal(int vgem_fd, struct vgem_pending *pending)
{
	struct vgem_fence_signal sig = { .fence = pending->fence };

	return drmIoctl(vgem_fd, VGEM_IOCTL_FENCE_SIGNAL, &sig) ? -errno : 0;
}

/* Close @pending's buffer; its fence lives on in the sync_files that hold it. */
void vgem_pending_drop(int vgem_fd, struct vgem_pending *pending)
{
	if (pending->handle) {
		struct drm_gem_close gc = { .handle = pending->handle };

		drmIoctl(vgem_fd, DRM_IOCTL_GEM_CLOSE, &gc);
	}
	memset(pending, 0, sizeof(*pending));
}
