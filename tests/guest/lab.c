// SPDX-License-Identifier: GPL-2.0
/* lab.c - the guest test programs' shared set-up (see lab.h). */
#include <unistd.h>

#include "lab.h"
#include "sync.h"
#include "tap.h"

/* vkms lit on fb[0], fb[1] ready to flip to, and a fresh sw_sync timeline. */
int lab_setup(struct lab *lab)
{
	char err[256];

	if (kms_open(&lab->kms, "vkms", err, sizeof(err))) {
		tap_diag("%s", err);
		return -1;
	}
	if (kms_fb_create(&lab->kms, lab->kms.mode.hdisplay, lab->kms.mode.vdisplay,
			  0x112233, &lab->fb[0]) ||
	    kms_fb_create(&lab->kms, lab->kms.mode.hdisplay, lab->kms.mode.vdisplay,
			  0x332211, &lab->fb[1]) ||
	    kms_modeset(&lab->kms, &lab->fb[0])) {
		tap_diag("cannot set up %s", lab->kms.path);
		return -1;
	}
	lab->timeline = sw_sync_timeline_open();
	return lab->timeline < 0 ? -1 : 0;
}

/* Close what lab_setup() opened; the framebuffers go with the device. */
void lab_teardown(struct lab *lab)
{
	close(lab->timeline);
	kms_close(&lab->kms);
}

/*
 * A primary-plane flip to fb[@i & 1]; IN_FENCE_FD = @in_fd unless it is -2
 * (property left out), OUT_FENCE_PTR = @out unless NULL.
 */
void flip_request(struct lab *lab, unsigned int i, int in_fd, int32_t *out, struct kms_req *req)
{
	kms_req_init(req);
	kms_req_plane(req, lab->kms.primary, lab->kms.crtc_id, &lab->fb[i & 1], 0, 0);
	if (in_fd != -2)
		kms_req_add(req, lab->kms.primary->id, lab->kms.primary->prop_in_fence_fd, in_fd);
	if (out)
		kms_req_add(req, lab->kms.crtc_id, lab->kms.prop_crtc_out_fence_ptr, (uintptr_t)out);
}

/* pthread body: sleep, then advance the timeline by one. */
void *signal_later(void *arg)
{
	struct delayed_signal *d = arg;

	usleep(d->ms * 1000);
	sw_sync_timeline_inc(d->timeline, 1);
	return NULL;
}
