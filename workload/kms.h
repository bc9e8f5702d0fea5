/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kms.h - the small slice of atomic KMS the lab programs need: find the
 * atomic device by capability, look up property ids, make framebuffers,
 * build atomic requests and commit them with a raw ioctl.
 *
 * The commit is deliberately a raw ioctl(): libdrm's drmIoctl() retries on
 * EINTR, which hides exactly the interrupted-wait behaviour the lab tests.
 */
#ifndef FENCE_TRACE_KMS_H
#define FENCE_TRACE_KMS_H

#include <stddef.h>
#include <stdint.h>
#include <xf86drm.h>
#include <xf86drmMode.h>

#define KMS_MAX_PLANES 8

/* Property ids of one plane; IN_FENCE_FD and friends are per object. */
struct kms_plane {
	uint32_t id;
	uint64_t type;		/* DRM_PLANE_TYPE_* */
	uint32_t prop_fb_id, prop_crtc_id, prop_in_fence_fd;
	uint32_t prop_src_x, prop_src_y, prop_src_w, prop_src_h;
	uint32_t prop_crtc_x, prop_crtc_y, prop_crtc_w, prop_crtc_h;
};

struct kms_device {
	int fd;
	char path[64];
	char driver[32];
	uint32_t crtc_id;
	unsigned int crtc_index;
	uint32_t connector_id;
	drmModeModeInfo mode;
	uint32_t prop_crtc_active, prop_crtc_mode_id, prop_crtc_out_fence_ptr;
	uint32_t prop_conn_crtc_id;
	struct kms_plane *primary, *overlay, *cursor;
	struct kms_plane planes[KMS_MAX_PLANES];
	unsigned int n_planes;
};

struct kms_fb {
	uint32_t fb_id, handle, width, height, pitch;
	uint64_t size;
};

#define KMS_REQ_MAX_OBJS 16
#define KMS_REQ_MAX_PROPS 64

/* An atomic request, built in order; the same object may appear twice. */
struct kms_req {
	uint32_t objs[KMS_REQ_MAX_OBJS];
	uint32_t counts[KMS_REQ_MAX_OBJS];
	uint32_t props[KMS_REQ_MAX_PROPS];
	uint64_t values[KMS_REQ_MAX_PROPS];
	unsigned int n_objs, n_props;
	int overflow;
};

int kms_open(struct kms_device *dev, const char *path, char *err, size_t errlen);
void kms_close(struct kms_device *dev);
int kms_fb_create(struct kms_device *dev, uint32_t w, uint32_t h,
		  uint32_t xrgb, struct kms_fb *fb);
void kms_fb_destroy(struct kms_device *dev, struct kms_fb *fb);

void kms_req_init(struct kms_req *req);
void kms_req_add(struct kms_req *req, uint32_t obj, uint32_t prop, uint64_t val);
void kms_req_plane(struct kms_req *req, const struct kms_plane *plane,
		   uint32_t crtc_id, const struct kms_fb *fb,
		   uint32_t x, uint32_t y);
void kms_req_plane_off(struct kms_req *req, const struct kms_plane *plane);
int kms_commit(struct kms_device *dev, struct kms_req *req, uint32_t flags,
	       uint64_t user_data);
int kms_modeset(struct kms_device *dev, const struct kms_fb *fb);
int kms_disable(struct kms_device *dev);
int kms_vblank_now(struct kms_device *dev, uint32_t *sequence, uint64_t *time_ns);
int kms_read_flip_event(struct kms_device *dev, int timeout_ms,
			uint64_t *user_data, uint32_t *sequence, uint64_t *time_ns);

#endif
