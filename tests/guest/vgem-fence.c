// SPDX-License-Identifier: GPL-2.0
/* vgem-fence.c - an implicitly fenced vgem framebuffer (see vgem-fence.h). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>

#include <drm_fourcc.h>

#include "vgem-fence.h"

struct drm_vgem_fence_attach {
	uint32_t handle;
	uint32_t flags;
	uint32_t out_fence;
	uint32_t pad;
};

struct drm_vgem_fence_signal {
	uint32_t fence;
	uint32_t flags;
};

#define VGEM_FENCE_WRITE 0x1
#define DRM_IOCTL_VGEM_FENCE_ATTACH \
	DRM_IOWR(DRM_COMMAND_BASE + 0x1, struct drm_vgem_fence_attach)
#define DRM_IOCTL_VGEM_FENCE_SIGNAL \
	DRM_IOW(DRM_COMMAND_BASE + 0x2, struct drm_vgem_fence_signal)

/* The vgem node: the card whose driver is "vgem". */
static int vgem_open(void)
{
	char path[32];

	for (int i = 0; i < 16; i++) {
		drmVersionPtr v;
		int fd;

		snprintf(path, sizeof(path), "/dev/dri/card%d", i);
		fd = open(path, O_RDWR | O_CLOEXEC);
		if (fd < 0)
			continue;
		v = drmGetVersion(fd);
		if (v && strcmp(v->name, "vgem") == 0) {
			drmFreeVersion(v);
			return fd;
		}
		if (v)
			drmFreeVersion(v);
		close(fd);
	}
	return -ENODEV;
}

/* A mode-sized XRGB8888 buffer made by vgem, a framebuffer of @kms. */
int vgem_buffer_create(struct kms_device *kms, struct vgem_buffer *buf)
{
	struct drm_mode_create_dumb dumb = {
		.width = kms->mode.hdisplay, .height = kms->mode.vdisplay, .bpp = 32,
	};
	uint32_t handles[4] = { 0 }, pitches[4] = { 0 }, offsets[4] = { 0 };
	int prime = -1, ret;

	memset(buf, 0, sizeof(*buf));
	buf->vgem_fd = vgem_open();
	if (buf->vgem_fd < 0)
		return buf->vgem_fd;
	if (drmIoctl(buf->vgem_fd, DRM_IOCTL_MODE_CREATE_DUMB, &dumb))
		return -errno;
	buf->vgem_handle = dumb.handle;
	ret = drmPrimeHandleToFD(buf->vgem_fd, dumb.handle, DRM_CLOEXEC | DRM_RDWR, &prime);
	if (ret == 0)
		ret = drmPrimeFDToHandle(kms->fd, prime, &buf->fb.handle);
	if (prime >= 0)
		close(prime);
	if (ret)
		return -errno;
	handles[0] = buf->fb.handle;
	pitches[0] = dumb.pitch;
	if (drmModeAddFB2(kms->fd, dumb.width, dumb.height, DRM_FORMAT_XRGB8888,
			  handles, pitches, offsets, &buf->fb.fb_id, 0))
		return -errno;
	buf->fb.width = dumb.width;
	buf->fb.height = dumb.height;
	buf->fb.pitch = dumb.pitch;
	buf->fb.size = dumb.size;
	return 0;
}

/* An unsignalled write fence on the buffer's reservation object. */
int vgem_fence_attach_write(struct vgem_buffer *buf, uint32_t *fence)
{
	struct drm_vgem_fence_attach a = {
		.handle = buf->vgem_handle, .flags = VGEM_FENCE_WRITE,
	};

	if (drmIoctl(buf->vgem_fd, DRM_IOCTL_VGEM_FENCE_ATTACH, &a))
		return -errno;
	*fence = a.out_fence;
	return 0;
}

int vgem_fence_signal(struct vgem_buffer *buf, uint32_t fence)
{
	struct drm_vgem_fence_signal s = { .fence = fence };

	return drmIoctl(buf->vgem_fd, DRM_IOCTL_VGEM_FENCE_SIGNAL, &s) ? -errno : 0;
}

void vgem_buffer_destroy(struct kms_device *kms, struct vgem_buffer *buf)
{
	struct drm_mode_destroy_dumb d = { .handle = buf->vgem_handle };

	kms_fb_destroy(kms, &buf->fb);
	if (buf->vgem_fd >= 0) {
		drmIoctl(buf->vgem_fd, DRM_IOCTL_MODE_DESTROY_DUMB, &d);
		close(buf->vgem_fd);
	}
}
