// SPDX-License-Identifier: GPL-2.0
/*
 * model-failed-frames.c - frames that failed: never shown because their
 * commit was rejected.  The atomic ioctl makes a CRTC's out-fence before it
 * checks and commits the new state, and on failure drops it unsignalled, so
 * a failed frame is an out-fence destroyed unsignalled, with these
 * exceptions, told apart as far as the events allow:
 * - A retry inside the kernel is no failure: an -EDEADLK backoff drops the
 *   fence and makes a new one in the same ioctl (the old one's destroy
 *   waits for the ioctl's return, so the new one is made first); a commit
 *   interrupted by a signal (-ERESTARTSYS, -EINTR, -EAGAIN) is restarted by
 *   the kernel or libdrm.  -EBUSY is a rejection user space sees: failed.
 * - With the series, every out-fence a failed commit drops is named
 *   (drm_fence_out_discard, before the destroy, with the commit and its
 *   error); one destroyed unsignalled without it was not a commit's
 *   failure (an anomaly, counted there).
 * - Without it, events lost between the out-fence's making and its destroy
 *   may have been its signal: such a frame is "failed or lost".
 * Without the series a restart after a signal cannot be told from a
 * rejection followed by a new commit at once: it counts as failed.
 */
#include <errno.h>
#include <stdlib.h>

#include "model-internal.h"

#ifndef ERESTARTSYS
#define ERESTARTSYS 512		/* the kernel's own, never seen by user space */
#endif

enum drop_kind { DROP_FAILED, DROP_FAILED_OR_LOST, DROP_RETRIED, DROP_NO_COMMIT };

/* Errors after which the kernel or libdrm makes the same commit again. */
static int retried_error(int err)
{
	return err == -EDEADLK || err == -ERESTARTSYS || err == -EINTR || err == -EAGAIN;
}

/* Did @out's task make a newer out-fence on its CRTC before @out went (a backoff)? */
static int remade_in_kernel(const struct ft_model *m, const struct ft_fence *out)
{
	const struct ft_display *d = &m->display;

	for (unsigned int i = 0; i < d->n_inflight; i++) {
		const struct ft_fence *f = &m->fences.slab.items[d->inflight[i]];

		if (f != out && f->ctx == out->ctx && f->init_pid == out->init_pid &&
		    f->init_ts > out->init_ts && !f->signaled)
			return 1;
	}
	return 0;
}

static enum drop_kind drop_kind(const struct ft_model *m, const struct ft_fence *out,
				uint64_t ended_ns)
{
	if (out->discard_commit)
		return retried_error(out->discard_err) ? DROP_RETRIED : DROP_FAILED;
	if (remade_in_kernel(m, out))
		return DROP_RETRIED;
	if (model_lost_between(m, out->init_ts, ended_ns))
		return DROP_FAILED_OR_LOST;
	return m->dec->have_event[FT_EV_OUT_DISCARD] ? DROP_NO_COMMIT : DROP_FAILED;
}

static void keep_failed(struct ft_model *m, struct ft_crtc *c, const struct ft_failed_frame *ff)
{
	if (c->n_failed >= MODEL_MAX_FAILED)
		return;
	if (!c->failed) {
		c->failed = calloc(MODEL_MAX_FAILED, sizeof(*c->failed));
		if (!c->failed) {
			m->error = 1;
			return;
		}
	}
	c->failed[c->n_failed++] = *ff;
}

/**
 * model_frame_failed() - out-fence @out of a CRTC was destroyed unsignalled
 * @m: the model
 * @out: the out-fence, still live
 * @ended_ns: its destroy
 */
void model_frame_failed(struct ft_model *m, const struct ft_fence *out, uint64_t ended_ns)
{
	const struct ft_context *cx = ft_context_at(&m->fences.contexts, out->ctx);
	const struct ft_timeline *t = model_context_target(m, cx);
	struct ft_failed_frame ff = {
		.out_seqno = out->seqno, .pid = out->init_pid, .submit_ns = out->init_ts,
		.ended_ns = ended_ns, .commit = out->discard_commit, .err = out->discard_err,
	};
	struct ft_crtc *c;

	if (!t || t->crtc < 0)
		return;
	c = &m->display.crtcs.items[t->crtc];
	switch (drop_kind(m, out, ended_ns)) {
	case DROP_RETRIED: c->fs.retried++; return;
	case DROP_NO_COMMIT: return;
	case DROP_FAILED_OR_LOST: c->fs.failed_or_lost++; ff.lost = 1; break;
	case DROP_FAILED: c->fs.failed++; break;
	}
	keep_failed(m, c, &ff);
}
