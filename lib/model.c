// SPDX-License-Identifier: GPL-2.0
/*
 * model.c - fences, timelines and waits from decoded events (see model.h).
 * The display side (CRTCs, vblanks, late frames) is in model-display.c.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model.h"
#include "model-internal.h"

static uint64_t fence_key(const struct ft_event *ev)
{
	return (ev->v[FT_CONTEXT] & 0xffffffffull) << 32 | (ev->v[FT_SEQNO] & 0xffffffffull);
}

int model_init(struct ft_model *m, struct ft_decoder *dec, unsigned int cpus)
{
	memset(m, 0, sizeof(*m));
	m->dec = dec;
	m->n_cpus = cpus ? cpus : 1;
	m->stall_ns = MODEL_STALL_NS;
	m->delivered = calloc(m->n_cpus, sizeof(*m->delivered));
	m->cpu_last_ts = calloc(m->n_cpus, sizeof(*m->cpu_last_ts));
	return m->delivered && m->cpu_last_ts ? 0 : -1;
}

/* The timeline of @ev's context, created on first sight (names from @ev). */
static struct ft_timeline *timeline_get(struct ft_model *m, const struct ft_event *ev)
{
	uint64_t ctx = ev->v[FT_CONTEXT];
	struct ft_timeline *t;
	uint32_t idx;

	if (keymap_get(&m->timeline_of_context, ctx, &idx))
		return &m->timelines[idx];
	if (model_reserve(m, (void **)&m->timelines, &m->cap_timelines, m->n_timelines,
			  sizeof(*m->timelines)) ||
	    keymap_put(&m->timeline_of_context, ctx, m->n_timelines)) {
		m->error = 1;
		return NULL;
	}
	t = &m->timelines[m->n_timelines++];
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
	uint32_t idx = (uint32_t)(f - m->fences);

	keymap_del(&m->fence_of_key, f->key);
	model_members_release(m, f);
	if (f->is_out)
		model_inflight_remove(m, idx);
	if (model_reserve(m, (void **)&m->free_fences, &m->cap_free, m->n_free,
			  sizeof(*m->free_fences)) == 0)
		m->free_fences[m->n_free++] = idx;
	f->key = 0;
	f->timeline = UINT32_MAX;
}

static struct ft_fence *fence_new(struct ft_model *m, uint64_t key)
{
	uint32_t idx;

	if (m->n_free) {
		idx = m->free_fences[--m->n_free];
	} else {
		if (model_reserve(m, (void **)&m->fences, &m->cap_fences, m->n_fences,
				  sizeof(*m->fences)))
			return NULL;
		idx = m->n_fences++;
	}
	if (keymap_put(&m->fence_of_key, key, idx)) {
		m->error = 1;
		return NULL;
	}
	memset(&m->fences[idx], 0, sizeof(m->fences[idx]));
	m->fences[idx].key = key;
	return &m->fences[idx];
}

static void on_init(struct ft_model *m, const struct ft_event *ev)
{
	struct ft_timeline *t = timeline_get(m, ev);
	uint64_t key = fence_key(ev);
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
	f->timeline = (uint32_t)(t - m->timelines);
	f->seqno = seqno;
	f->init_ts = ev->ts;
	f->init_pid = ev->pid;
	if (t->crtc >= 0)
		model_out_fence_created(m, f);
}

static void on_signaled(struct ft_model *m, const struct ft_event *ev)
{
	struct ft_fence *f = model_fence_find(m, fence_key(ev));
	struct ft_timeline *t;

	if (!f) {
		m->signal_unknown++;	/* created before the trace began */
		return;
	}
	if (f->signaled)
		return;
	t = &m->timelines[f->timeline];
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
	struct ft_fence *f = model_fence_find(m, fence_key(ev));

	if (!t)
		return;
	t->errors++;
	t->last_ts = ev->ts;
	if (f)
		f->error = (int)(int32_t)ev->v[FT_ERR];
}

static void on_destroy(struct ft_model *m, const struct ft_event *ev)
{
	struct ft_fence *f = model_fence_find(m, fence_key(ev));

	if (!f)
		return;
	if (!f->signaled) {
		m->timelines[f->timeline].destroyed_unsignaled++;
		if (f->is_out)
			model_long_wait_outcome(m, f, FT_OUTCOME_DROPPED, ev->ts, 0);
	}
	fence_release(m, f);
}

static void on_emit(struct ft_model *m, const struct ft_event *ev)
{
	struct ft_fence *f = model_fence_find(m, fence_key(ev));

	if (f && !f->emit_ts)
		f->emit_ts = ev->ts;
}

/* Events were lost on @ev's CPU between its previous event and @ev. */
static void account_lost(struct ft_model *m, const struct ft_event *ev)
{
	uint64_t from = m->first_ts;

	if (ev->missed > 0)
		m->lost += (uint64_t)ev->missed;
	else
		m->lost_unknown++;
	if (ev->cpu >= 0 && (unsigned int)ev->cpu < m->n_cpus && m->cpu_last_ts[ev->cpu])
		from = m->cpu_last_ts[ev->cpu];
	if (m->n_lost_windows < MODEL_MAX_LOST_WINDOWS) {
		m->lost_windows[m->n_lost_windows].from = from;
		m->lost_windows[m->n_lost_windows++].to = ev->ts;
	} else {
		m->lost_windows_overflow = 1;
	}
}

/* Events were lost where nobody can tell: every window may be short. */
void model_lost_everywhere(struct ft_model *m)
{
	m->lost_windows_overflow = 1;
}

/**
 * model_add() - feed one decoded event, in timestamp order
 */
void model_add(struct ft_model *m, const struct ft_event *ev)
{
	if (!m->events++)
		m->first_ts = ev->ts;
	m->last_ts = ev->ts;
	if (ev->missed)
		account_lost(m, ev);
	if (ev->cpu >= 0 && (unsigned int)ev->cpu < m->n_cpus)
		m->cpu_last_ts[ev->cpu] = ev->ts;
	switch (ev->id) {
	case FT_EV_FENCE_INIT: on_init(m, ev); break;
	case FT_EV_FENCE_EMIT: on_emit(m, ev); break;
	case FT_EV_FENCE_SIGNALED: on_signaled(m, ev); break;
	case FT_EV_FENCE_DESTROY: on_destroy(m, ev); break;
	case FT_EV_FENCE_WAIT_START: model_wait_start(m, ev, fence_key(ev)); break;
	case FT_EV_FENCE_WAIT_END: model_wait_end(m, ev, fence_key(ev)); break;
	case FT_EV_VBLANK: model_vblank(m, ev); break;
	case FT_EV_VBLANK_DELIVERED: model_vblank_delivered(m, ev); break;
	case FT_EV_FENCE_ERROR: on_error(m, ev); break;
	case FT_EV_FENCE_MEMBER: model_fence_member(m, ev); break;
	default: model_commit_event(m, ev); break;
	}
}

/* Fences still live and unsignalled when the trace ends. */
void model_finish(struct ft_model *m)
{
	model_display_finish(m);
	for (unsigned int i = 0; i < m->n_fences; i++) {
		struct ft_fence *f = &m->fences[i];

		if (f->timeline != UINT32_MAX && f->init_ts && !f->signaled)
			m->timelines[f->timeline].unsignaled_at_end++;
	}
}

static void wait_stats_free(struct ft_wait_stat *stats, unsigned int n)
{
	for (unsigned int i = 0; i < n; i++)
		hist_free(&stats[i].h);
	free(stats);
}

void model_free(struct ft_model *m)
{
	for (unsigned int i = 0; i < m->n_timelines; i++) {
		hist_free(&m->timelines[i].latency);
		hist_free(&m->timelines[i].emit_latency);
	}
	wait_stats_free(m->by_task, m->n_by_task);
	wait_stats_free(m->by_timeline, m->n_by_timeline);
	wait_stats_free(m->poll_by_task, m->n_poll_by_task);
	wait_stats_free(m->poll_by_timeline, m->n_poll_by_timeline);
	wait_stats_free(m->by_plane, m->n_by_plane);
	free(m->member_sets);
	free(m->free_member_sets);
	free(m->commits);
	free(m->free_commits);
	keymap_free(&m->commit_of_id);
	keymap_free(&m->commit_of_out);
	for (unsigned int i = 0; i < m->n_crtcs; i++) {
		hist_free(&m->crtcs[i].out_latency);
		free(m->crtcs[i].late);
	}
	for (unsigned int i = 0; i < m->n_pipes; i++)
		hist_free(&m->pipes[i].period);
	free(m->timelines);
	free(m->fences);
	free(m->free_fences);
	free(m->crtcs);
	free(m->pipes);
	free(m->delivered);
	free(m->cpu_last_ts);
	keymap_free(&m->timeline_of_context);
	keymap_free(&m->fence_of_key);
	memset(m, 0, sizeof(*m));
}
