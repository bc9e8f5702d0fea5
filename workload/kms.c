// SPDX-License-Identifier: GPL-2.0
/*
 * kms.c - atomic KMS helpers for the lab programs (see kms.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <drm_fourcc.h>

#include "kms.h"

static int fail(char *err, size_t len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, len, fmt, ap);
	va_end(ap);
	return -1;
}

static uint32_t prop_id(int fd, uint32_t obj, uint32_t type, const char *name,
			uint64_t *value)
{
	drmModeObjectPropertiesPtr props;
	uint32_t id = 0;

	props = drmModeObjectGetProperties(fd, obj, type);
	if (!props)
		return 0;
	for (uint32_t i = 0; i < props->count_props && !id; i++) {
		drmModePropertyPtr p = drmModeGetProperty(fd, props->props[i]);

		if (p && strcmp(p->name, name) == 0) {
			id = p->prop_id;
			if (value)
				*value = props->prop_values[i];
		}
		drmModeFreeProperty(p);
	}
	drmModeFreeObjectProperties(props);
	return id;
}

static void plane_props(int fd, struct kms_plane *p)
{
	const uint32_t t = DRM_MODE_OBJECT_PLANE;

	prop_id(fd, p->id, t, "type", &p->type);
	p->prop_fb_id = prop_id(fd, p->id, t, "FB_ID", NULL);
	p->prop_crtc_id = prop_id(fd, p->id, t, "CRTC_ID", NULL);
	p->prop_in_fence_fd = prop_id(fd, p->id, t, "IN_FENCE_FD", NULL);
	p->prop_src_x = prop_id(fd, p->id, t, "SRC_X", NULL);
	p->prop_src_y = prop_id(fd, p->id, t, "SRC_Y", NULL);
	p->prop_src_w = prop_id(fd, p->id, t, "SRC_W", NULL);
	p->prop_src_h = prop_id(fd, p->id, t, "SRC_H", NULL);
	p->prop_crtc_x = prop_id(fd, p->id, t, "CRTC_X", NULL);
	p->prop_crtc_y = prop_id(fd, p->id, t, "CRTC_Y", NULL);
	p->prop_crtc_w = prop_id(fd, p->id, t, "CRTC_W", NULL);
	p->prop_crtc_h = prop_id(fd, p->id, t, "CRTC_H", NULL);
}

/* The first connected connector with a mode and a CRTC it can drive. */
static int pick_output(struct kms_device *dev, drmModeResPtr res)
{
	for (int i = 0; i < res->count_connectors; i++) {
		drmModeConnectorPtr c = drmModeGetConnector(dev->fd, res->connectors[i]);
		int found = 0;

		if (c && c->connection == DRM_MODE_CONNECTED && c->count_modes > 0) {
			for (int e = 0; e < c->count_encoders && !found; e++) {
				drmModeEncoderPtr enc = drmModeGetEncoder(dev->fd, c->encoders[e]);

				for (int k = 0; enc && k < res->count_crtcs && !found; k++) {
					if (!(enc->possible_crtcs & (1u << k)))
						continue;
					dev->crtc_id = res->crtcs[k];
					dev->crtc_index = k;
					found = 1;
				}
				drmModeFreeEncoder(enc);
			}
			if (found) {
				dev->connector_id = c->connector_id;
				dev->mode = c->modes[0];
				for (int m = 0; m < c->count_modes; m++)
					if (c->modes[m].type & DRM_MODE_TYPE_PREFERRED) {
						dev->mode = c->modes[m];
						break;
					}
			}
		}
		drmModeFreeConnector(c);
		if (found)
			return 0;
	}
	return -1;
}

static void pick_planes(struct kms_device *dev)
{
	drmModePlaneResPtr pres = drmModeGetPlaneResources(dev->fd);

	for (uint32_t i = 0; pres && i < pres->count_planes; i++) {
		drmModePlanePtr pl = drmModeGetPlane(dev->fd, pres->planes[i]);
		struct kms_plane *p;

		if (pl && (pl->possible_crtcs & (1u << dev->crtc_index)) &&
		    dev->n_planes < KMS_MAX_PLANES) {
			p = &dev->planes[dev->n_planes++];
			p->id = pl->plane_id;
			plane_props(dev->fd, p);
		}
		drmModeFreePlane(pl);
	}
	drmModeFreePlaneResources(pres);
	for (unsigned int i = 0; i < dev->n_planes; i++) {
		struct kms_plane *p = &dev->planes[i];

		if (p->type == DRM_PLANE_TYPE_PRIMARY && !dev->primary)
			dev->primary = p;
		else if (p->type == DRM_PLANE_TYPE_OVERLAY && !dev->overlay)
			dev->overlay = p;
		else if (p->type == DRM_PLANE_TYPE_CURSOR && !dev->cursor)
			dev->cursor = p;
	}
}

/* Set up an opened card; 0 when it is an atomic device with an output. */
static int probe_card(struct kms_device *dev, const char *want_driver)
{
	drmVersionPtr ver;
	drmModeResPtr res;
	int ok;

	if (drmSetClientCap(dev->fd, DRM_CLIENT_CAP_UNIVERSAL_PLANES, 1) ||
	    drmSetClientCap(dev->fd, DRM_CLIENT_CAP_ATOMIC, 1))
		return -1;
	ver = drmGetVersion(dev->fd);
	if (!ver)
		return -1;
	snprintf(dev->driver, sizeof(dev->driver), "%s", ver->name);
	drmFreeVersion(ver);
	if (want_driver && strcmp(want_driver, dev->driver) != 0)
		return -1;
	res = drmModeGetResources(dev->fd);
	if (!res)
		return -1;
	ok = pick_output(dev, res) == 0;
	drmModeFreeResources(res);
	if (!ok)
		return -1;
	pick_planes(dev);
	dev->prop_crtc_active = prop_id(dev->fd, dev->crtc_id, DRM_MODE_OBJECT_CRTC, "ACTIVE", NULL);
	dev->prop_crtc_mode_id = prop_id(dev->fd, dev->crtc_id, DRM_MODE_OBJECT_CRTC, "MODE_ID", NULL);
	dev->prop_crtc_out_fence_ptr = prop_id(dev->fd, dev->crtc_id, DRM_MODE_OBJECT_CRTC,
					       "OUT_FENCE_PTR", NULL);
	dev->prop_conn_crtc_id = prop_id(dev->fd, dev->connector_id,
					 DRM_MODE_OBJECT_CONNECTOR, "CRTC_ID", NULL);
	return dev->primary && dev->prop_crtc_out_fence_ptr ? 0 : -1;
}

/*
 * The driver of card @i as sysfs names it, without opening the node: the
 * first process to open a DRM node becomes its master, and a probe that
 * opened someone else's device would steal it (its connector probing then
 * finds no modes).  "" when sysfs does not say.
 */
static void sysfs_driver(int i, char *buf, size_t len)
{
	static const char *const links[] = { "device/driver", "device" };
	char path[96], target[256];
	ssize_t n = -1;

	buf[0] = '\0';
	/* A bus driver's name (virtio-pci), else the device's (vkms, vgem). */
	for (size_t k = 0; k < 2 && n <= 0; k++) {
		snprintf(path, sizeof(path), "/sys/class/drm/card%d/%s", i, links[k]);
		n = readlink(path, target, sizeof(target) - 1);
	}
	if (n <= 0)
		return;
	target[n] = '\0';
	snprintf(buf, len, "%.63s", strrchr(target, '/') ? strrchr(target, '/') + 1 : target);
}

/* Could card with sysfs name @sysfs be DRM driver @want_driver? */
static int may_be(const char *sysfs, const char *want_driver)
{
	if (!want_driver || !sysfs[0])
		return 1;
	if (!strcmp(want_driver, "virtio_gpu"))
		return !strncmp(sysfs, "virtio", 6);
	return !strcmp(sysfs, want_driver);
}

/**
 * kms_open() - open an atomic KMS device with a connected output
 * @dev: filled in on success
 * @want: NULL for the first suitable /dev/dri/card*, a path starting with
 *        '/' for that node, or a driver name ("vkms") to pick by driver
 * @err: message buffer on failure
 *
 * Devices are chosen by capability, not number: vgem is card0 here and has
 * no modesetting at all.
 */
int kms_open(struct kms_device *dev, const char *want, char *err, size_t errlen)
{
	const char *want_driver = want && want[0] != '/' ? want : NULL;

	for (int i = 0; i < 16; i++) {
		char sysfs[64];

		sysfs_driver(i, sysfs, sizeof(sysfs));
		if (!(want && want[0] == '/') && !may_be(sysfs, want_driver))
			continue;
		memset(dev, 0, sizeof(*dev));
		if (want && want[0] == '/')
			snprintf(dev->path, sizeof(dev->path), "%s", want);
		else
			snprintf(dev->path, sizeof(dev->path), "/dev/dri/card%d", i);
		dev->fd = open(dev->path, O_RDWR | O_CLOEXEC);
		if (dev->fd >= 0 && probe_card(dev, want_driver) == 0)
			return 0;
		if (dev->fd >= 0)
			close(dev->fd);
		if (want && want[0] == '/')
			break;
	}
	dev->fd = -1;
	return fail(err, errlen, "no atomic KMS device with a connected output%s%s",
		    want ? " matching " : "", want ? want : "");
}

void kms_close(struct kms_device *dev)
{
	if (dev->fd >= 0)
		close(dev->fd);
	dev->fd = -1;
}

/**
 * kms_fb_create() - a dumb XRGB8888 framebuffer filled with one colour
 */
int kms_fb_create(struct kms_device *dev, uint32_t w, uint32_t h,
		  uint32_t xrgb, struct kms_fb *fb)
{
	struct drm_mode_create_dumb create = { .width = w, .height = h, .bpp = 32 };
	struct drm_mode_map_dumb map = { 0 };
	uint32_t handles[4] = { 0 }, pitches[4] = { 0 }, offsets[4] = { 0 };
	uint32_t *pixels;

	if (drmIoctl(dev->fd, DRM_IOCTL_MODE_CREATE_DUMB, &create))
		return -errno;
	fb->handle = create.handle;
	fb->pitch = create.pitch;
	fb->size = create.size;
	fb->width = w;
	fb->height = h;
	map.handle = fb->handle;
	if (drmIoctl(dev->fd, DRM_IOCTL_MODE_MAP_DUMB, &map) == 0) {
		pixels = mmap(NULL, fb->size, PROT_WRITE, MAP_SHARED, dev->fd, map.offset);
		if (pixels != MAP_FAILED) {
			for (uint64_t i = 0; i < fb->size / 4; i++)
				pixels[i] = xrgb;
			munmap(pixels, fb->size);
		}
	}
	handles[0] = fb->handle;
	pitches[0] = fb->pitch;
	if (drmModeAddFB2(dev->fd, w, h, DRM_FORMAT_XRGB8888, handles, pitches,
			  offsets, &fb->fb_id, 0))
		return -errno;
	return 0;
}

void kms_fb_destroy(struct kms_device *dev, struct kms_fb *fb)
{
	struct drm_mode_destroy_dumb destroy = { .handle = fb->handle };

	if (fb->fb_id)
		drmModeRmFB(dev->fd, fb->fb_id);
	if (fb->handle)
		drmIoctl(dev->fd, DRM_IOCTL_MODE_DESTROY_DUMB, &destroy);
	memset(fb, 0, sizeof(*fb));
}

void kms_req_init(struct kms_req *req)
{
	memset(req, 0, sizeof(*req));
}

/* Consecutive adds on one object share its entry, as the ioctl expects. */
void kms_req_add(struct kms_req *req, uint32_t obj, uint32_t prop, uint64_t val)
{
	if (req->n_props >= KMS_REQ_MAX_PROPS) {
		req->overflow = 1;
		return;
	}
	if (req->n_objs == 0 || req->objs[req->n_objs - 1] != obj) {
		if (req->n_objs >= KMS_REQ_MAX_OBJS) {
			req->overflow = 1;
			return;
		}
		req->objs[req->n_objs++] = obj;
	}
	req->counts[req->n_objs - 1]++;
	req->props[req->n_props] = prop;
	req->values[req->n_props++] = val;
}

/* Show all of @fb at (@x, @y) on @crtc_id, clipped by the kernel if needed. */
void kms_req_plane(struct kms_req *req, const struct kms_plane *p,
		   uint32_t crtc_id, const struct kms_fb *fb, uint32_t x, uint32_t y)
{
	kms_req_add(req, p->id, p->prop_fb_id, fb->fb_id);
	kms_req_add(req, p->id, p->prop_crtc_id, crtc_id);
	kms_req_add(req, p->id, p->prop_src_x, 0);
	kms_req_add(req, p->id, p->prop_src_y, 0);
	kms_req_add(req, p->id, p->prop_src_w, (uint64_t)fb->width << 16);
	kms_req_add(req, p->id, p->prop_src_h, (uint64_t)fb->height << 16);
	kms_req_add(req, p->id, p->prop_crtc_x, x);
	kms_req_add(req, p->id, p->prop_crtc_y, y);
	kms_req_add(req, p->id, p->prop_crtc_w, fb->width);
	kms_req_add(req, p->id, p->prop_crtc_h, fb->height);
}

void kms_req_plane_off(struct kms_req *req, const struct kms_plane *p)
{
	kms_req_add(req, p->id, p->prop_fb_id, 0);
	kms_req_add(req, p->id, p->prop_crtc_id, 0);
}

/**
 * kms_commit() - DRM_IOCTL_MODE_ATOMIC, issued once (no EINTR retry)
 *
 * Return: 0, or a negative errno.
 */
int kms_commit(struct kms_device *dev, struct kms_req *req, uint32_t flags,
	       uint64_t user_data)
{
	struct drm_mode_atomic arg = {
		.flags = flags,
		.count_objs = req->n_objs,
		.objs_ptr = (uintptr_t)req->objs,
		.count_props_ptr = (uintptr_t)req->counts,
		.props_ptr = (uintptr_t)req->props,
		.prop_values_ptr = (uintptr_t)req->values,
		.user_data = user_data,
	};

	if (req->overflow)
		return -E2BIG;
	return ioctl(dev->fd, DRM_IOCTL_MODE_ATOMIC, &arg) ? -errno : 0;
}

/* Light up the output with @fb on the primary plane; other planes off. */
int kms_modeset(struct kms_device *dev, const struct kms_fb *fb)
{
	struct kms_req req;
	uint32_t blob;
	int ret;

	if (drmModeCreatePropertyBlob(dev->fd, &dev->mode, sizeof(dev->mode), &blob))
		return -errno;
	kms_req_init(&req);
	kms_req_add(&req, dev->connector_id, dev->prop_conn_crtc_id, dev->crtc_id);
	kms_req_add(&req, dev->crtc_id, dev->prop_crtc_active, 1);
	kms_req_add(&req, dev->crtc_id, dev->prop_crtc_mode_id, blob);
	kms_req_plane(&req, dev->primary, dev->crtc_id, fb, 0, 0);
	for (unsigned int i = 0; i < dev->n_planes; i++)
		if (&dev->planes[i] != dev->primary)
			kms_req_plane_off(&req, &dev->planes[i]);
	ret = kms_commit(dev, &req, DRM_MODE_ATOMIC_ALLOW_MODESET, 0);
	drmModeDestroyPropertyBlob(dev->fd, blob);
	return ret;
}

/* Turn the output off again, so the next program starts from a clean CRTC. */
int kms_disable(struct kms_device *dev)
{
	struct kms_req req;

	kms_req_init(&req);
	kms_req_add(&req, dev->connector_id, dev->prop_conn_crtc_id, 0);
	kms_req_add(&req, dev->crtc_id, dev->prop_crtc_active, 0);
	kms_req_add(&req, dev->crtc_id, dev->prop_crtc_mode_id, 0);
	for (unsigned int i = 0; i < dev->n_planes; i++)
		kms_req_plane_off(&req, &dev->planes[i]);
	return kms_commit(dev, &req, DRM_MODE_ATOMIC_ALLOW_MODESET, 0);
}

/**
 * kms_read_flip_event() - wait for one DRM_EVENT_FLIP_COMPLETE
 *
 * Return: 1 with the event's fields, 0 on timeout, negative errno on error.
 */
int kms_read_flip_event(struct kms_device *dev, int timeout_ms,
			uint64_t *user_data, uint32_t *sequence, uint64_t *time_ns)
{
	struct pollfd pfd = { .fd = dev->fd, .events = POLLIN };
	/*
	 * One event per read: DRM's read() returns as many whole events as
	 * fit, and a --queue frame's flip event can wait behind the one before.
	 */
	char buf[sizeof(struct drm_event_vblank)];
	ssize_t len;
	int ret;

	ret = poll(&pfd, 1, timeout_ms);
	if (ret <= 0)
		return ret < 0 ? -errno : 0;
	len = read(dev->fd, buf, sizeof(buf));
	if (len < 0)
		return -errno;
	for (ssize_t off = 0; off + (ssize_t)sizeof(struct drm_event) <= len;) {
		struct drm_event *e = (struct drm_event *)(buf + off);

		if (e->type == DRM_EVENT_FLIP_COMPLETE &&
		    off + (ssize_t)sizeof(struct drm_event_vblank) <= len) {
			struct drm_event_vblank *v = (struct drm_event_vblank *)e;

			*user_data = v->user_data;
			*sequence = v->sequence;
			*time_ns = (uint64_t)v->tv_sec * 1000000000ull + v->tv_usec * 1000ull;
			return 1;
		}
		if (e->length == 0)
			break;
		off += e->length;
	}
	return -EPROTO;
}

/**
 * kms_vblank_now() - the CRTC's vblank counter and the time of its last
 * vblank (DRM_IOCTL_WAIT_VBLANK for 0 vblanks from now: a query)
 *
 * Return: 0, or a negative errno (no vblank interrupt: virtio-gpu).
 */
int kms_vblank_now(struct kms_device *dev, uint32_t *sequence, uint64_t *time_ns)
{
	union drm_wait_vblank vbl = { 0 };

	vbl.request.type = _DRM_VBLANK_RELATIVE |
		((dev->crtc_index << _DRM_VBLANK_HIGH_CRTC_SHIFT) & _DRM_VBLANK_HIGH_CRTC_MASK);
	if (ioctl(dev->fd, DRM_IOCTL_WAIT_VBLANK, &vbl))
		return -errno;
	*sequence = vbl.reply.sequence;
	*time_ns = (uint64_t)vbl.reply.tval_sec * 1000000000ull + (uint64_t)vbl.reply.tval_usec * 1000ull;
	return 0;
}
