// SPDX-License-Identifier: GPL-2.0
/*
 * model-failed-frames.c - frames that failed: never shown because their
 * commit was rejected.  The atomic ioctl makes a CRTC's out-fence before it
 * checks and commits the new state, and on failure drops it unsignalled, so
 * on any kernel a failed frame is an out-fence destroyed unsignalled.  The
 * series names the commit and its error (drm_fence_out_discard, traced
 * before the destroy).  Without it, events lost between the out-fence's
 * making and its destroy may have been its signal: such a frame is counted
 * apart, as failed or lost, never as failed.
 */
#include <stdlib.h>

#include "model-internal.h"

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
	const struct ft_timeline *t = model_context_target(m, ft_context_at(&m->fences.contexts, out->ctx));
	struct ft_failed_frame ff = {
		.out_seqno = out->seqno, .pid = out->init_pid, .submit_ns = out->init_ts,
		.ended_ns = ended_ns, .commit = out->discard_commit, .err = out->discard_err,
	};
	struct ft_crtc *c;

	if (!t || t->crtc < 0)
		return;
	c = &m->display.crtcs.items[t->crtc];
	ff.lost = !ff.commit && model_lost_between(m, out->init_ts, ended_ns);
	if (ff.lost)
		c->fs.failed_or_lost++;
	else
		c->fs.failed++;
	keep_failed(m, c, &ff);
}
