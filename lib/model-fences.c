// SPDX-License-Identifier: GPL-2.0
/*
 * model-fences.c - fences and timelines from the dma_fence events (see
 * model.h for how fences are keyed).  Live fences sit in a slab whose free
 * slots are reused, so memory follows the live fences.
 */
#include <stdlib.h>
#include <string.h>

#include "model-internal.h"

/* The timeline of @ev's context, created on first sight (names from @ev). */
static struct ft_timeline *timeline_get(struct ft_model *m, const struct ft_event *ev)
{
	struct ft_fences *fc = &m->fences;
	uint64_t ctx = ev->v[FT_CONTEXT];
	struct ft_timeline *t;
	uint32_t idx;

	if (keymap_get(&fc->timeline_of_context, ctx, &idx))
		return &fc->timelines.items[idx];
	if (vec_reserve(&fc->timelines, fc->timelines.n) ||
	    keymap_put(&fc->timeline_of_context, ctx, fc->timelines.n)) {
		m->error = 1;
		return NULL;
	}
	t = vec_push(&fc->timelines);
	t->context = ctx;
	t->first_ts = ev->ts;
	t->crtc = -1;
	ft_event_str(m->dec, ev, FT_DRIVER, t->driver, sizeof(t->driver));
	ft_event_str(m->dec, ev, FT_TIMELINE, t->name, sizeof(t->name));
	model_timeline_created(m, t);
	return t;
}

static void fence_release(struct ft_model *m, struct ft_fence *f)
{
	uint32_t idx = (uint32_t)(f - m->fences.slab.items);

	keymap_del(&m->fences.of_key, f->key);
	model_members_release(m, f);
	if (f->is_out)
		model_inflight_remove(m, idx);
	if (vec_release(&m->fences.free, idx))
		m->error = 1;
	f->key = 0;
	f->timeline = UINT32_MAX;
}

static struct ft_fence *fence_new(struct ft_model *m, uint64_t key)
{
	struct ft_fences *fc = &m->fences;
	uint32_t idx;

	if (vec_take(&fc->slab, &fc->free, &idx) || keymap_put(&fc->of_key, key, idx)) {
		m->error = 1;
		return NULL;
	}
	memset(&fc->slab.items[idx], 0, sizeof(fc->slab.items[idx]));
	fc->slab.items[idx].key = key;
	return &fc->slab.items[idx];
}

static void on_init(struct ft_model *m, const struct ft_event *ev)
{
	struct ft_timeline *t = timeline_get(m, ev);
	uint64_t key = model_event_key(ev);
	uint32_t seqno = (uint32_t)ev->v[FT_SEQNO];
	struct ft_fence *old = model_fence_find(m, key), *f;

	if (!t)
		return;
	if (old) {
		t->key_reused++;
		fence_release(m, old);
	}
	/* Wrap-aware: seqno 2 after 0xffffffff is in order. */
	if (t->have_init && (int32_t)(seqno - t->last_init_seqno) <= 0 && key != 0)
		t->out_of_order++;
	t->have_init = 1;
	t->last_init_seqno = seqno;
	t->last_ts = ev->ts;
	t->fences++;
	f = fence_new(m, key);
	if (!f)
		return;
	f->timeline = (uint32_t)(t - m->fences.timelines.items);
	f->seqno = seqno;
	f->init_ts = ev->ts;
	f->init_pid = ev->pid;
	if (t->crtc >= 0)
		model_out_fence_created(m, f);
}

static void on_signaled(struct ft_model *m, const struct ft_event *ev)
{
	struct ft_fence *f = model_fence_find(m, model_event_key(ev));
	struct ft_timeline *t;

	if (!f) {
		m->fences.signal_unknown++;	/* created before the trace began */
		return;
	}
	if (f->signaled)
		return;
	t = &m->fences.timelines.items[f->timeline];
	t->last_ts = ev->ts;
	f->signaled = 1;
	f->signal_ts = ev->ts;
	t->signaled++;
	if (hist_add(&t->latency, ev->ts - f->init_ts))
		m->error = 1;
	if (f->emit_ts && hist_add(&t->emit_latency, ev->ts - f->emit_ts))
		m->error = 1;
	if (f->is_out) {
		model_out_fence_signaled(m, f, ev);
		model_long_wait_outcome(m, f, FT_OUTCOME_SHOWN, ev->ts, 0);
	}
}

/*
 * The series' dma_fence_error, traced just before dma_fence_signaled when
 * the fence carries an error: counted per timeline (a fence signals once).
 */
static void on_error(struct ft_model *m, const struct ft_event *ev)
{
	struct ft_timeline *t = timeline_get(m, ev);
	struct ft_fence *f = model_fence_find(m, model_event_key(ev));

	if (!t)
		return;
	t->errors++;
	t->last_ts = ev->ts;
	if (f)
		f->error = (int)(int32_t)ev->v[FT_ERR];
}

static void on_destroy(struct ft_model *m, const struct ft_event *ev)
{
	struct ft_fence *f = model_fence_find(m, model_event_key(ev));

	if (!f)
		return;
	if (!f->signaled) {
		m->fences.timelines.items[f->timeline].destroyed_unsignaled++;
		if (f->is_out)
			model_long_wait_outcome(m, f, FT_OUTCOME_DROPPED, ev->ts, 0);
	}
	fence_release(m, f);
}

static void on_emit(struct ft_model *m, const struct ft_event *ev)
{
	struct ft_fence *f = model_fence_find(m, model_event_key(ev));

	if (f && !f->emit_ts)
		f->emit_ts = ev->ts;
}

/* A dma_fence event other than the waits: init, emit, signaled, destroy, error. */
void model_fence_event(struct ft_model *m, const struct ft_event *ev)
{
	switch (ev->id) {
	case FT_EV_FENCE_INIT: on_init(m, ev); break;
	case FT_EV_FENCE_EMIT: on_emit(m, ev); break;
	case FT_EV_FENCE_SIGNALED: on_signaled(m, ev); break;
	case FT_EV_FENCE_DESTROY: on_destroy(m, ev); break;
	case FT_EV_FENCE_ERROR: on_error(m, ev); break;
	default: break;
	}
}

/* Fences still live and unsignalled when the trace ends. */
void model_fences_finish(struct ft_model *m)
{
	struct ft_fences *fc = &m->fences;

	for (unsigned int i = 0; i < fc->slab.n; i++) {
		struct ft_fence *f = &fc->slab.items[i];

		if (f->timeline != UINT32_MAX && f->init_ts && !f->signaled)
			fc->timelines.items[f->timeline].unsignaled_at_end++;
	}
}

void model_fences_free(struct ft_fences *fc)
{
	for (unsigned int i = 0; i < fc->timelines.n; i++) {
		hist_free(&fc->timelines.items[i].latency);
		hist_free(&fc->timelines.items[i].emit_latency);
	}
	vec_free(&fc->timelines);
	vec_free(&fc->slab);
	vec_free(&fc->free);
	keymap_free(&fc->timeline_of_context);
	keymap_free(&fc->of_key);
}
