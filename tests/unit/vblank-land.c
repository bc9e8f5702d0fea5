// SPDX-License-Identifier: GPL-2.0
/*
 * vblank-land.c - a vblank as the kernel traces it when a commit lands
 * (see vblank-land.h).
 */
#include "vblank-land.h"

/**
 * vblank_land() - trace vblank @l->seq at @l->t
 * @tb: the trace being built
 * @l: the vblank, the out-fence it signals and the hook before the signal
 *
 * Return: 0, or the first error of a step (the steps after it are not
 * traced).
 */
int vblank_land(struct trace_builder *tb, const struct vblank_land *l)
{
	const char *timeline = l->out_timeline ? l->out_timeline : "CRTC:51-crtc-0";
	int err;

	err = tb_vblank_delivered(tb, 0, l->t + 10000, 0, 0, l->seq);
	if (!err && l->out_seqno && l->before_signal)
		err = l->before_signal(l->arg);
	if (!err && l->out_seqno)
		err = tb_fence(tb, 0, l->t + 20000, "dma_fence_signaled", "vkms", timeline, 1,
			       l->out_seqno);
	if (!err)
		err = tb_vblank(tb, 0, l->t + 30000, 0, l->event_seq ? l->event_seq : l->seq,
				(int64_t)l->t, 1);
	return err;
}
