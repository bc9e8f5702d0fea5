// SPDX-License-Identifier: GPL-2.0
/*
 * model-display.c - CRTCs, vblanks and late frames.
 *
 * Definitions (also in the README):
 * - A CRTC is known by its out-fence timeline, named "CRTC:<id>-<name>".
 * - An out-fence lands on the vblank whose sequence it was signalled for.
 *   The kernel signals it inside send_vblank_event(), right after tracing
 *   drm_vblank_event_delivered (pipe, seq) on the same CPU and before
 *   drm_vblank_event: so a signal is paired with the delivered event that
 *   directly precedes it on its CPU, never with the nearest vblank in time.
 *   The pairing also tells which vblank pipe the CRTC is.
 * - The target vblank of a commit is the first vblank after its atomic
 *   ioctl entered; on a stock kernel the out-fence's creation marks that
 *   moment.  A frame is late by (landed - target) vblanks when that is >= 1.
 * - A vblank sequence that jumps by more than one counts the skipped ones
 *   as missed vblanks (the vkms timer overruns under TCG now and then).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model-internal.h"

/*
 * Sanity bound on delivered -> signal on one CPU.  Under TCG the two are
 * seen up to a few ms apart; the vblank event that ends the handler
 * invalidates the delivered event anyway.
 */
#define PAIR_WINDOW_NS 100000000ull

void model_timeline_created(struct ft_model *m, struct ft_timeline *t)
{
	struct ft_crtc *c;
	unsigned int id;
	int used = 0;

	if (sscanf(t->name, "CRTC:%u-%n", &id, &used) != 1 || !used)
		return;
	c = vec_push(&m->display.crtcs);
	if (!c) {
		m->error = 1;
		return;
	}
	c->crtc_id = id;
	snprintf(c->name, sizeof(c->name), "%s", t->name + used);
	snprintf(c->driver, sizeof(c->driver), "%s", t->driver);
	c->context = t->context;
	c->timeline = (unsigned int)(t - m->fences.timelines.items);
	c->pipe = -1;
	t->crtc = (int)(m->display.crtcs.n - 1);
}

void model_out_fence_created(struct ft_model *m, struct ft_fence *f)
{
	struct ft_display *d = &m->display;

	f->is_out = 1;
	if (d->n_inflight < MODEL_MAX_INFLIGHT)
		d->inflight[d->n_inflight++] = (uint32_t)(f - m->fences.slab.items);
}

void model_inflight_remove(struct ft_model *m, uint32_t fence_idx)
{
	struct ft_display *d = &m->display;

	for (unsigned int i = 0; i < d->n_inflight; i++)
		if (d->inflight[i] == fence_idx) {
			d->inflight[i] = d->inflight[--d->n_inflight];
			return;
		}
}

static void fill_blocking(struct ft_model *m, const struct ft_fence *f, struct ft_late_frame *l)
{
	struct ft_blocking *b = &l->blocking;

	b->plane = -1;
	l->in_error = f->in_error;
	if (!f->block_end)
		return;
	l->ready_ns = f->block_signal;
	l->ready_known = f->block_signal_known;
	l->woken_ns = f->block_end;
	l->waiter_pid = f->block_pid;
	l->wakeup = f->block_wakeup;
	b->known = 1;
	b->context = f->block_key >> 32;
	b->seqno = f->block_key & 0xffffffffull;
	b->wait_ns = f->block_end - f->block_start;
	b->merged = f->block_via != 0;
	b->merged_context = f->block_via >> 32;
	b->merged_seqno = f->block_via & 0xffffffffull;
	b->signal_ts = f->block_signal;
	b->ctx = model_context_index(m, b->context);
}

/* A pending signal whose vblank event never came: a fake-vblank CRTC. */
static void drop_pending(struct ft_model *m, struct ft_delivered *d)
{
	if (d->pending)
		m->display.crtcs.items[d->crtc].fake_vblank++;
	d->pending = 0;
}

/*
 * An out-fence signalled right after a delivered event on its CPU: work out
 * target and landed vblank now (the fence's state is at hand), and keep the
 * verdict until the vblank event confirms that this was a real vblank.
 */
void model_out_fence_signaled(struct ft_model *m, struct ft_fence *f, const struct ft_event *ev)
{
	uint32_t own = model_context_timeline(m, f->ctx);	/* out-fences: always */
	unsigned int ci = (unsigned int)m->fences.timelines.items[own].crtc;
	struct ft_crtc *c = &m->display.crtcs.items[ci];
	struct ft_delivered *d = NULL;
	struct ft_late_frame *l;
	struct ft_pipe *p;

	c->frames++;
	if (hist_add(&c->out_latency, ev->ts - f->init_ts))
		m->error = 1;
	model_inflight_remove(m, (uint32_t)(f - m->fences.slab.items));
	if (ev->cpu >= 0 && (unsigned int)ev->cpu < m->n_cpus)
		d = &m->display.delivered[ev->cpu];
	if (!d || !d->valid || ev->ts - d->ts > PAIR_WINDOW_NS) {
		c->unpaired++;
		return;
	}
	d->valid = 0;
	drop_pending(m, d);
	d->pending = 1;
	d->crtc = ci;
	l = &d->frame;
	memset(l, 0, sizeof(*l));
	l->out_seqno = f->seqno;
	l->pid = f->init_pid;
	l->submit_ns = f->init_ts;
	l->signal_ns = ev->ts;
	l->landed_seq = d->seq;
	fill_blocking(m, f, l);
	model_commit_enrich(m, f->key, l);
	p = model_pipe_get(m, d->pipe);
	d->no_target = !p || model_target_vblank(p, f->init_ts, d->seq, &l->target_seq);
}

/* The vblank event after a delivered+signal on the same CPU confirms both. */
static void confirm_pending(struct ft_model *m, const struct ft_event *ev, int pipe, uint32_t seq)
{
	struct ft_delivered *d;
	struct ft_crtc *c;

	if (ev->cpu < 0 || (unsigned int)ev->cpu >= m->n_cpus)
		return;
	d = &m->display.delivered[ev->cpu];
	d->valid = 0;		/* the vblank handler is over */
	if (!d->pending || d->pipe != pipe || d->seq != seq)
		return;
	d->pending = 0;
	c = &m->display.crtcs.items[d->crtc];
	c->pipe = pipe;
	model_frame_landed(m, c, &d->frame, !d->no_target, ev->ts);
}

/* At the end of the trace, a signal still waiting for its vblank event. */
void model_display_finish(struct ft_model *m)
{
	for (unsigned int cpu = 0; cpu < m->n_cpus; cpu++)
		drop_pending(m, &m->display.delivered[cpu]);
	model_frames_finish(m);
}

void model_display_free(struct ft_display *d)
{
	for (unsigned int i = 0; i < d->crtcs.n; i++) {
		hist_free(&d->crtcs.items[i].out_latency);
		hist_free(&d->crtcs.items[i].fs.present_ns);
		free(d->crtcs.items[i].late);
		free(d->crtcs.items[i].failed);
		free(d->crtcs.items[i].runs);
	}
	for (unsigned int i = 0; i < d->pipes.n; i++)
		hist_free(&d->pipes.items[i].period);
	vec_free(&d->crtcs);
	vec_free(&d->pipes);
	free(d->delivered);
}

void model_vblank(struct ft_model *m, const struct ft_event *ev)
{
	struct ft_pipe *p = model_pipe_get(m, (int)(int32_t)ev->v[FT_CRTC]);
	uint32_t seq = (uint32_t)ev->v[FT_SEQ];

	if (!p)
		return;
	if (p->vblanks) {
		uint32_t step = seq - p->last_seq;

		if (step > 1 && step < 0x80000000u)
			p->missed += step - 1;
		if (step >= 1 && step < 0x80000000u && hist_add(&p->period, (ev->ts - p->last_ts) / step))
			m->error = 1;
	}
	p->vblanks++;
	p->last_seq = seq;
	p->last_ts = ev->ts;
	p->ring_ts[p->ring_head] = ev->ts;
	p->ring_seq[p->ring_head] = seq;
	p->ring_head = (p->ring_head + 1) % MODEL_VBLANK_RING;
	if (p->ring_n < MODEL_VBLANK_RING)
		p->ring_n++;
	confirm_pending(m, ev, p->pipe, seq);
}

void model_vblank_delivered(struct ft_model *m, const struct ft_event *ev)
{
	struct ft_delivered *d;

	if (ev->cpu < 0 || (unsigned int)ev->cpu >= m->n_cpus)
		return;
	d = &m->display.delivered[ev->cpu];
	drop_pending(m, d);
	d->valid = 1;
	d->pipe = (int)(int32_t)ev->v[FT_CRTC];
	d->seq = (uint32_t)ev->v[FT_SEQ];
	d->ts = ev->ts;
}
