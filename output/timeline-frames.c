// SPDX-License-Identifier: GPL-2.0
/*
 * timeline-frames.c - the frames the model's frame timeline judged, as the
 * timeline page and the Perfetto export draw them: one tl_frame per frame
 * that landed, read from the model after each event (model_landed()), sub-
 * rows laid out at the end; and the times of vblanks by sequence, for the
 * runs of repeats the model lists.
 */
#include <stdlib.h>

#include "timeline.h"

/* The frames that landed since the last call. */
void tl_frames_pull(struct tl_data *d, const struct ft_model *m)
{
	for (; d->frames_seen < m->display.landed_total; d->frames_seen++) {
		const struct ft_landed *n = model_landed(m, d->frames_seen);
		struct tl_frame *f;

		if (!n)
			continue;	/* out of the ring: cannot happen between events */
		f = tl_push(d, &d->frames);
		if (!f)
			return;
		*f = (struct tl_frame){
			.submit = n->frame.submit_ns, .target_ns = n->frame.target_ns,
			.landed_ns = n->landed_ns, .crtc = n->crtc,
			.out_seqno = n->frame.out_seqno, .target_seq = n->frame.target_seq,
			.landed_seq = n->frame.landed_seq, .late = n->late,
			.outcome = (uint8_t)n->outcome, .cls = (uint8_t)n->frame.cls,
			.target_estimated = (uint8_t)n->frame.target_estimated,
		};
	}
}

static struct tl_extent frame_extent(void *item)
{
	struct tl_frame *f = item;

	return (struct tl_extent){ f->submit, f->landed_ns, f->crtc, &f->row };
}

/**
 * tl_frames_finish() - the frames that landed at the end of the trace,
 * their sub-rows (a commit queued behind a frame overlaps it), and the
 * vblanks by pipe and sequence
 *
 * Return: 0, or -1 when memory ran out.
 */
int tl_frames_finish(struct tl_data *d, const struct ft_model *m)
{
	tl_frames_pull(d, m);
	for (size_t i = 0; i < d->vblanks.n; i++) {
		const struct tl_vblank *v = TL_AT(d->vblanks, struct tl_vblank, i);

		if (keymap_put(&d->vblank_of, (uint64_t)(uint32_t)v->pipe << 32 | v->seq, (uint32_t)i))
			return -1;
	}
	d->frame_rows = calloc(m->display.crtcs.n + 1, sizeof(*d->frame_rows));
	if (!d->frame_rows)
		return -1;
	return tl_assign_rows(&d->frames, frame_extent, m->display.crtcs.n, d->frame_rows);
}

/* A late frame's final class (classed again at the end), else its class then. */
enum ft_frame_class tl_frame_class(const struct tl_data *d, const struct tl_frame *f)
{
	const struct ft_crtc *c = &d->model->display.crtcs.items[f->crtc];

	if (f->outcome != FT_LANDED_LATE)
		return FT_CLASS_ON_TIME;
	if (f->late >= 0 && (unsigned int)f->late < c->n_late)
		return c->late[f->late].cls;
	return (enum ft_frame_class)f->cls;
}

/* The time of vblank @seq of @pipe, 0 when it is not in the trace. */
uint64_t tl_vblank_time(const struct tl_data *d, int pipe, uint32_t seq)
{
	uint32_t i;

	if (!keymap_get(&d->vblank_of, (uint64_t)(uint32_t)pipe << 32 | seq, &i))
		return 0;
	return TL_AT(d->vblanks, struct tl_vblank, i)->ts;
}
