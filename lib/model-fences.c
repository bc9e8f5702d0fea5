// SPDX-License-Identifier: GPL-2.0
/*
 * model-fences.c - fences and timelines from the dma_fence events (see
 * model.h for how fences are keyed).  Live fences sit in a slab whose free
 * slots are reused, so memory follows the live fences.
 */
#include <stdlib.h>
#include <string.h>

#include "model-internal.h"

static void fence_release(struct ft_model *m, struct ft_fence *f)
{
	uint32_t idx = (uint32_t)(f - m->fences.slab.items);

	if (model_twin_unlink(m, f))
		m->error = 1;
	if (f->id)	/* id_take() took it from any older fence */
		keymap_del(&m->fences.of_id, f->id);
	model_members_release(m, f);
	if (f->is_out)
		model_inflight_remove(m, idx);
	if (vec_release(&m->fences.free, idx))
		m->error = 1;
	f->key = 0;
	f->ctx = FT_NONE;
}

/*
 * A live fence of identity @id now: a fence the model still holds with it
 * had its destroy lost (the kernel gives a freed fence's address, so its
 * identity, to the next), and loses the identity.
 */
static int id_take(struct ft_model *m, uint64_t id, uint32_t idx)
{
	struct ft_fence *old = model_fence_of_id(m, id);

	if (old)
		old->id = 0;
	return keymap_put(&m->fences.of_id, id, idx);
}

/*
 * A new live fence of @key and identity @id (0 none); the newest of its
 * key's fences when @oldest holds it already.
 */
static struct ft_fence *fence_new(struct ft_model *m, uint64_t key, uint64_t id, uint32_t oldest)
{
	struct ft_fences *fc = &m->fences;
	uint32_t idx;

	if (vec_take(&fc->slab, &fc->free, &idx) ||
	    (oldest == FT_NONE && keymap_put(&fc->of_key, key, idx)) ||
	    (id && id_take(m, id, idx))) {
		m->error = 1;
		return NULL;
	}
	memset(&fc->slab.items[idx], 0, sizeof(fc->slab.items[idx]));
	fc->slab.items[idx].key = key;
	fc->slab.items[idx].id = id;
	fc->slab.items[idx].newer = FT_NONE;
	if (oldest != FT_NONE)
		model_twin_link(m, &fc->slab.items[oldest], idx);
	return &fc->slab.items[idx];
}

/* The seqno order of @c's fences; wrap-aware: seqno 2 after 0xffffffff is in order. */
static int out_of_order(const struct ft_context *c, uint32_t seqno, uint64_t key)
{
	return (c->flags & FT_CTX_FENCED) && (int32_t)(seqno - c->last_seqno) <= 0 && key != 0;
}

/* How an init's key stands: free, held by a live fence, or that fence's untraced duplicate. */
enum init_kind { INIT_NEW, INIT_TWIN, INIT_DUPLICATE };

/* Counts init @ev on @c's row @t (NULL: a lone context's first fence). */
static void count_init(struct ft_context *c, struct ft_timeline *t, const struct ft_event *ev,
		       enum init_kind kind)
{
	uint32_t seqno = (uint32_t)ev->v[FT_SEQNO];

	if (t) {
		if (kind == INIT_NEW)
			t->out_of_order += out_of_order(c, seqno, model_event_key(ev));
		t->key_reused += kind == INIT_TWIN;
		t->duplicates += kind == INIT_DUPLICATE;
		t->last_ts = ev->ts;
		t->fences++;
	}
	c->flags |= FT_CTX_FENCED;
	c->last_seqno = seqno;
}

static void on_init(struct ft_model *m, const struct ft_event *ev)
{
	uint32_t ctx = model_context_get(m, ev);
	uint64_t key = model_event_key(ev);
	struct ft_context *c;
	struct ft_timeline *t;
	struct ft_fence *f;
	uint32_t oldest;

	if (ctx == FT_NONE)
		return;
	c = ft_context_at(&m->fences.contexts, ctx);
	t = model_context_target(m, c);
	/* a lone context's first fence is counted on it: FT_CTX_FENCED below */
	if (!t && (c->flags & FT_CTX_FENCED) && !(t = model_context_promote(m, ctx)))
		return;
	if (!keymap_get(&m->fences.of_key, key, &oldest))
		oldest = FT_NONE;
	if (t && oldest != FT_NONE && model_untraced_duplicate(m, ctx, key)) {
		count_init(c, t, ev, INIT_DUPLICATE);	/* freed at once, never traced again */
		return;
	}
	count_init(c, t, ev, oldest == FT_NONE ? INIT_NEW : INIT_TWIN);
	m->fences.have_ids |= ev->v[FT_FENCE] != 0;
	f = fence_new(m, key, ev->v[FT_FENCE], oldest);
	if (!f)
		return;
	m->fences.step.slot = model_fence_slot(m, f);
	f->ctx = ctx;
	f->seqno = (uint32_t)ev->v[FT_SEQNO];
	if (model_made_last_put(m, ev->pid, model_fence_slot(m, f)))
		m->error = 1;
	f->init_ts = ev->ts;
	f->init_pid = ev->pid;
	if (t && t->crtc >= 0)
		model_out_fence_created(m, f);
}

static void on_signaled(struct ft_model *m, const struct ft_event *ev)
{
	uint64_t id = model_event_id(m, ev);
	struct ft_fence *f = id ? model_fence_of_id(m, id) : model_signal_target(m, ev);
	struct ft_context *c;
	struct ft_timeline *t;

	if (!f) {
		m->fences.signal_unknown++;	/* created before the trace began */
		return;
	}
	if (f->signaled)
		return;
	m->fences.step.slot = model_fence_slot(m, f);
	f->signaled = 1;
	f->signal_ts = ev->ts;
	c = ft_context_at(&m->fences.contexts, f->ctx);
	t = model_context_target(m, c);
	if (!t) {
		model_context_signaled(m, f->ctx, ev->ts - f->init_ts, f->emit_ts != 0,
				       f->emit_ts ? ev->ts - f->emit_ts : 0);
		return;
	}
	t->last_ts = ev->ts;
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
	uint32_t ctx = model_context_get(m, ev);
	struct ft_fence *f = model_event_fence(m, ev);
	struct ft_timeline *t;

	if (ctx == FT_NONE)
		return;
	t = model_context_target(m, ft_context_at(&m->fences.contexts, ctx));
	if (t) {
		t->errors++;
		t->last_ts = ev->ts;
	} else {
		model_context_error(m, ctx);
	}
	if (f)
		f->error = (int)(int32_t)ev->v[FT_ERR];
}

static void on_destroy(struct ft_model *m, const struct ft_event *ev, uint32_t made_last)
{
	struct ft_context *c;
	struct ft_timeline *t;
	struct ft_fence *f;
	int dup;

	f = model_destroy_target(m, ev, made_last, &dup, &m->fences.step.given);
	if (!f)
		return;
	m->fences.step.slot = model_fence_slot(m, f);
	m->fences.step.duplicate = (uint8_t)dup;
	if (dup) {		/* a duplicate, not a collision after all */
		t = model_context_target(m, ft_context_at(&m->fences.contexts, f->ctx));
		if (t) {
			t->key_reused--;
			t->duplicates++;
		}
	} else if (!f->signaled) {
		c = ft_context_at(&m->fences.contexts, f->ctx);
		t = model_context_target(m, c);
		if (t)
			t->destroyed_unsignaled++;
		else
			c->flags |= FT_CTX_DESTROYED;
		if (f->is_out) {
			model_long_wait_outcome(m, f, FT_OUTCOME_DROPPED, ev->ts, 0);
			model_frame_failed(m, f, ev->ts);
		}
	}
	fence_release(m, f);
}

static void on_emit(struct ft_model *m, const struct ft_event *ev)
{
	struct ft_fence *f = model_event_fence(m, ev);

	if (f && !f->emit_ts)
		f->emit_ts = ev->ts;
}

/*
 * A dma_fence event other than the waits: init, emit, signaled, destroy,
 * error.  @made_last: model_made_last_take() of its task.
 */
void model_fence_event(struct ft_model *m, const struct ft_event *ev, uint32_t made_last)
{
	m->fences.step = (struct ft_fence_step){ FT_NONE, FT_NONE, 0 };
	switch (ev->id) {
	case FT_EV_FENCE_INIT: on_init(m, ev); break;
	case FT_EV_FENCE_EMIT: on_emit(m, ev); break;
	case FT_EV_FENCE_SIGNALED: on_signaled(m, ev); break;
	case FT_EV_FENCE_DESTROY: on_destroy(m, ev, made_last); break;
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
		struct ft_context *c;
		struct ft_timeline *t;

		if (f->ctx == FT_NONE || !f->init_ts || f->signaled)
			continue;
		c = ft_context_at(&fc->contexts, f->ctx);
		t = model_context_target(m, c);
		if (t)
			t->unsignaled_at_end++;
		else
			c->flags |= FT_CTX_UNSIGNALED_AT_END;
	}
	model_contexts_finish(m);
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
	keymap_free(&fc->of_key);
	keymap_free(&fc->of_id);
	keymap_free(&fc->made_last);
	model_contexts_free(fc);
}
