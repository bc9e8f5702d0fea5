/* SPDX-License-Identifier: GPL-2.0 */
/*
 * drm-map.h - which DRM device each CRTC belongs to, and its index, as
 * `fence-trace record` found them in debugfs (dri/N/name and dri/N/state)
 * and wrote next to the trace as FILE.drm.  The stock events name a CRTC
 * only by object id (in the out-fence timeline) or by pipe index (vblank
 * events), never by device.
 *
 * FILE.drm, one record per line, fields separated by single spaces:
 *   device MINOR DRIVER
 *   crtc MINOR OBJECT_ID NAME INDEX
 *   plane MINOR OBJECT_ID NAME
 * Lines starting with '#' are comments; unknown records are skipped.
 */
#ifndef FENCE_TRACE_DRM_MAP_H
#define FENCE_TRACE_DRM_MAP_H

#include <stdio.h>

#define DRM_MAP_MAX 64

struct drm_map_crtc {
	unsigned int minor, id, index;
	char driver[32], name[32];
};

struct drm_map {
	struct drm_map_crtc crtcs[DRM_MAP_MAX];
	unsigned int n_crtcs;
	unsigned int skipped;		/* malformed or unknown lines */
};

int drm_map_read(struct drm_map *map, FILE *in);
const struct drm_map_crtc *drm_map_find(const struct drm_map *map, const char *driver,
					unsigned int id, const char *name);
int drm_map_write_from_debugfs(FILE *out, const char *debugfs_dri);

#endif
