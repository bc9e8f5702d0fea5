/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lab.h - what the guest test programs share: vkms lit with two
 * framebuffers and a sw_sync timeline, a primary-plane flip request, and a
 * thread that signals the timeline later.
 */
#ifndef FENCE_TRACE_GUEST_LAB_H
#define FENCE_TRACE_GUEST_LAB_H

#include <stdint.h>

#include "kms.h"

struct lab {
	struct kms_device kms;
	struct kms_fb fb[2];
	int timeline;
};

struct delayed_signal {
	int timeline;
	unsigned int ms;
};

int lab_setup(struct lab *lab);
void lab_teardown(struct lab *lab);
void flip_request(struct lab *lab, unsigned int i, int in_fd, int32_t *out, struct kms_req *req);
void *signal_later(void *arg);

#endif
