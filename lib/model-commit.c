// SPDX-License-Identifier: GPL-2.0
/*
 * model-commit.c - atomic commits, from the kernel series' events
 * (drm_fence:*, sync_file:*): which commit an out-fence belongs to, which
 * plane waited on which fence and for how long, failed commits, commits
 * stuck behind earlier ones, out-fences that failed commits discarded.
 *
 * A commit lives from drm_fence_commit to drm_fence_cleanup_done (or
 * drm_fence_commit_failed): memory follows the commits in flight.
 * sync_file polls are passed on to model-wait.c.
 */
#include <stdio.h>
#include <errno.h>
#include <string.h>

#include "model-internal.h"

static uint64_t key32(uint64_t context, uint64_t seqno)
{
	return (context & 0xffffffffull) << 32 | (seqno & 0xffffffffull);
}

static struct ft_commit *commit_find(struct ft_model *m, uint64_t id)
{
	uint32_t idx;

	return keymap_get(&m->commits.of_id, id, &idx) ? &m->commits.slab.items[idx] : NULL;
}

/* The commit whose out-fence is (context, seqno) as the stock events key it. */
static struct ft_commit *commit_of_out(struct ft_model *m, uint64_t out_key)
{
	uint32_t idx;

	return keymap_get(&m->commits.of_out, out_key, &idx) ? &m->commits.slab.items[idx] : NULL;
}

/*
 * The commit @ev names, made on first sight: the atomic ioctl creates the
 * out-fence (drm_fence_out_create) before it commits (drm_fence_commit),
 * and -EDEADLK retries keep their id.  Its time is the first event's.
 */
static struct ft_commit *commit_get(struct ft_model *m, const struct ft_event *ev)
{
	struct ft_commit *c = commit_find(m, ev->v[FT_COMMIT]);
	uint32_t idx;

	if (c)
		return c;
	if (vec_take(&m->commits.slab, &m->commits.free, &idx)) {
		m->error = 1;
		return NULL;
	}
	c = &m->commits.slab.items[idx];
	memset(c, 0, sizeof(*c));
	c->id = ev->v[FT_COMMIT];
	c->ts = ev->ts;
	c->pid = ev->pid;
	c->block_plane = -1;
	if (keymap_put(&m->commits.of_id, c->id, idx)) {
		m->error = 1;
		return NULL;
	}
	return c;
}

static void on_commit(struct ft_model *m, const struct ft_event *ev)
{
	struct ft_commit *c = commit_get(m, ev);

	if (c)
		c->flags = (uint32_t)ev->v[FT_FLAGS];
}

static void commit_free(struct ft_model *m, struct ft_commit *c)
{
	uint32_t idx = (uint32_t)(c - m->commits.slab.items);

	keymap_del(&m->commits.of_id, c->id);
	if (c->has_out)
		keymap_del(&m->commits.of_out, c->out_key);
	if (vec_release(&m->commits.free, idx))
		m->error = 1;
}

/* The series' drm_fence_out_create names the CRTC of out-fence context @context. */
static void crtc_named(struct ft_model *m, uint64_t context, const char *name)
{
	uint32_t ci = model_context_index(m, context);
	const struct ft_timeline *t;
	struct ft_crtc *c;

	if (ci == FT_NONE)
		return;
	t = model_context_row(m, ci);
	if (t->crtc < 0)
		return;
	c = &m->display.crtcs.items[t->crtc];
	snprintf(c->name, sizeof(c->name), "%s", name);
}

static void on_out_create(struct ft_model *m, const struct ft_event *ev)
{
	struct ft_commit *c = commit_get(m, ev);
	char name[MODEL_NAME_LEN];

	/* The CRTC's own name, where the series gives it (not parsed from the timeline's). */
	if (ft_event_str(m->dec, ev, FT_CRTC_NAME, name, sizeof(name))[0])
		crtc_named(m, ev->v[FT_CONTEXT], name);
	if (!c)
		return;
	c->crtc = (uint32_t)ev->v[FT_CRTC];
	c->has_out = 1;
	c->out_key = key32(ev->v[FT_CONTEXT], ev->v[FT_SEQNO]);
	if (keymap_put(&m->commits.of_out, c->out_key, (uint32_t)(c - m->commits.slab.items)))
		m->error = 1;
}

static void on_plane_wait_begin(struct ft_model *m, const struct ft_event *ev)
{
	struct ft_commits *cs = &m->commits;

	cs->open_waits[cs->open_waits_next++ % MODEL_OPEN_PLANE_WAITS] = (struct ft_plane_wait_open){
		ev->v[FT_COMMIT], ev->ts, (uint32_t)ev->v[FT_PLANE], 1 };
}

/*
 * How long the plane wait that @ev ends lasted: its own duration_ns (the
 * series before its wait events were tidied), else the time since the
 * wait_begin of the same commit and plane.  0 when neither is known (the
 * begin was before the trace, or lost): not counted then.
 */
static int plane_wait_ns(struct ft_model *m, const struct ft_event *ev, uint64_t *ns)
{
	struct ft_commits *cs = &m->commits;

	if (ev->loaded & (1u << FT_DURATION)) {
		*ns = ev->v[FT_DURATION];
		return 1;
	}
	for (unsigned int i = 0; i < MODEL_OPEN_PLANE_WAITS; i++) {
		struct ft_plane_wait_open *w = &cs->open_waits[i];

		if (!w->open || w->commit != ev->v[FT_COMMIT] || w->plane != (uint32_t)ev->v[FT_PLANE] ||
		    w->ts > ev->ts)
			continue;
		w->open = 0;
		*ns = ev->ts - w->ts;
		return 1;
	}
	*ns = 0;
	return 0;
}

/*
 * As in model-wait.c: a wait that lasted beats one that did not; then the
 * fence that signalled later wins.  By its signal, not the wait's end: the
 * commit was ready when its last fence signalled, and a wait on a fence
 * long signalled can still end late (its task preempted: seen on a loaded
 * host, 2 ms on a fence signalled 43 ms before).
 */
static void on_plane_wait_end(struct ft_model *m, const struct ft_event *ev)
{
	struct ft_commit *c = commit_find(m, ev->v[FT_COMMIT]);
	uint64_t ns;
	int known = plane_wait_ns(m, ev, &ns);
	int is_long = ns >= MODEL_LONG_WAIT_NS, member_error;
	uint64_t key = key32(ev->v[FT_CONTEXT], ev->v[FT_SEQNO]);
	uint64_t member = model_late_member(m, key, &member_error);
	const struct ft_fence *in = model_fence_get(m, key);
	const struct ft_fence *late = member ? model_fence_get(m, member) : in;
	uint64_t signal_ts = late && late->signaled ? late->signal_ts : ev->ts;

	if (known)
		model_plane_wait_done(m, (uint32_t)ev->v[FT_PLANE], ns, (int)(int32_t)ev->v[FT_RET]);
	model_long_wait_ret(m, ev, key);
	if (c && in && in->error && !c->in_error)
		c->in_error = in->error;
	if (!c || (is_long < c->block_long) || (is_long == c->block_long && signal_ts < c->block_signal))
		return;
	c->block_known = 1;
	c->block_long = is_long;
	c->block_plane = (int)ev->v[FT_PLANE];
	c->block_key = member ? member : key;
	c->block_via = member ? key : 0;
	c->block_wait_ns = ns;
	c->block_end = ev->ts;
	c->block_signal = signal_ts;
	c->block_pid = ev->pid;
}

/*
 * A commit failed.  -EDEADLK, which a series before patch 0006's tidying
 * also traced, is a w/w backoff: the same commit goes on under its id, so
 * it is neither a failure nor the commit's end.
 */
static void on_failed(struct ft_model *m, const struct ft_event *ev)
{
	struct ft_commit *c = commit_find(m, ev->v[FT_COMMIT]);
	struct ft_failed_commit *f;

	if ((int)(int32_t)ev->v[FT_ERR] == -EDEADLK)
		return;
	m->commits.failed_total++;
	if (m->commits.n_failed < MODEL_MAX_LISTED) {
		f = &m->commits.failed[m->commits.n_failed++];
		f->commit = ev->v[FT_COMMIT];
		f->ts = ev->ts;
		f->err = (int)(int32_t)ev->v[FT_ERR];
		f->crtc = c ? c->crtc : 0;
		f->had_out_fence = c ? c->has_out : 0;
	}
	if (c)
		commit_free(m, c);
}

/*
 * A failed commit drops its out-fence unsignalled (series, traced after
 * drm_fence_commit_failed): said on its CRTC, on the failed commit, and on
 * a stall that held the commit up.
 */
static void on_discard(struct ft_model *m, const struct ft_event *ev)
{
	uint64_t key = key32(ev->v[FT_CONTEXT], ev->v[FT_SEQNO]);
	struct ft_fence *out = model_fence_find(m, key);
	int err = (int)(int32_t)ev->v[FT_ERR];
	uint32_t ci = model_context_index(m, ev->v[FT_CONTEXT]);
	const struct ft_timeline *t = ci != FT_NONE ? model_context_row(m, ci) : NULL;

	if (t && t->crtc >= 0)
		m->display.crtcs.items[t->crtc].discarded++;
	for (unsigned int i = m->commits.n_failed; i-- > 0;) {
		struct ft_failed_commit *f = &m->commits.failed[i];

		if (f->commit != ev->v[FT_COMMIT] || f->discarded)
			continue;
		f->discarded = 1;
		f->discarded_context = ev->v[FT_CONTEXT];
		f->discarded_seqno = ev->v[FT_SEQNO];
		f->crtc = (uint32_t)ev->v[FT_CRTC];
		break;
	}
	if (!out)
		return;
	out->discard_commit = ev->v[FT_COMMIT];
	out->discard_err = err;
	model_long_wait_outcome(m, out, FT_OUTCOME_DISCARDED, ev->ts, err);
}

static void on_stall(struct ft_model *m, const struct ft_event *ev)
{
	struct ft_commit *c = commit_find(m, ev->v[FT_COMMIT]);
	struct ft_commit_stall *s;

	if (c && ev->ts > c->stall_end)
		c->stall_end = ev->ts;	/* traced as the wait ends */
	m->commits.stalls_total++;
	if (m->commits.n_stalls >= MODEL_MAX_LISTED)
		return;
	s = &m->commits.stalls[m->commits.n_stalls++];
	s->commit = ev->v[FT_COMMIT];
	s->ts = ev->ts;
	s->crtc = (uint32_t)ev->v[FT_CRTC];
	s->waits_on = (int64_t)ev->v[FT_WAITS_ON];
	s->stage = (int)(int32_t)ev->v[FT_STAGE];
	s->ret = (int)(int32_t)ev->v[FT_RET];
	s->duration_ns = ev->v[FT_DURATION];
}

/* The commit's tail began, or reached hw_done: the driver's part of its time. */
static void stage_reached(struct ft_model *m, const struct ft_event *ev)
{
	struct ft_commit *c = commit_find(m, ev->v[FT_COMMIT]);
	int hw_done = ev->id == FT_EV_HW_DONE;
	uint64_t *when;
	const struct ft_fence *out;

	if (!c)
		return;
	when = hw_done ? &c->hw_done_ns : &c->tail_ns;
	if (!*when)
		*when = ev->ts;
	out = c->has_out ? model_fence_find(m, c->out_key) : NULL;
	if (out && out->signaled)	/* its frame has landed already */
		model_frame_stage_late(m, c->out_key >> 32, c->id, hw_done, ev->ts);
}

/*
 * A commit is freed at its cleanup_done, but the trace may give its
 * out-fence's dma_fence_signaled after that: the tracepoint fires once the
 * fence is marked signalled, and the committing task, woken on another
 * CPU, can finish the commit first (seen under TCG on a loaded host, the
 * signal traced 2.4 ms late).  Such a commit is kept, by value, in a small
 * ring until its out-fence's signal takes it.
 */
static void keep_until_signal(struct ft_model *m, const struct ft_commit *c)
{
	struct ft_commits *cs = &m->commits;
	const struct ft_fence *out = c->has_out ? model_fence_find(m, c->out_key) : NULL;

	if (!out || out->signaled)
		return;
	cs->cleaned[cs->cleaned_next++ % MODEL_CLEANED_COMMITS] = *c;
}

/* The commit of out-fence @out_key: in flight, or kept past its cleanup. */
static const struct ft_commit *commit_for_signal(struct ft_model *m, uint64_t out_key)
{
	struct ft_commit *c = commit_of_out(m, out_key);

	for (unsigned int i = 0; !c && i < MODEL_CLEANED_COMMITS; i++) {
		if (m->commits.cleaned[i].has_out && m->commits.cleaned[i].out_key == out_key) {
			c = &m->commits.cleaned[i];
			c->has_out = 0;		/* a fence signals once */
		}
	}
	return c;
}

/* The series' view of a late frame's commit, when the trace has it. */
void model_commit_enrich(struct ft_model *m, uint64_t out_key, struct ft_late_frame *l)
{
	const struct ft_commit *c = commit_for_signal(m, out_key);

	if (!c)
		return;
	l->commit = c->id;
	l->submit_ns = c->ts;
	l->queued_until_ns = c->stall_end;
	l->tail_ns = c->tail_ns;
	l->hw_done_ns = c->hw_done_ns;
	if (c->in_error && !l->in_error)
		l->in_error = c->in_error;
	if (!c->block_known)
		return;
	if (!l->woken_ns) {	/* no stock wait seen: the plane wait's end, signal unknown */
		l->woken_ns = c->block_end;
		l->waiter_pid = c->block_pid;
		l->ready_ns = c->block_end;
	}
	l->blocking.known = 1;
	l->blocking.plane = c->block_plane;
	l->blocking.merged = c->block_via != 0;
	l->blocking.merged_context = c->block_via >> 32;
	l->blocking.merged_seqno = c->block_via & 0xffffffffull;
	l->blocking.context = c->block_key >> 32;
	l->blocking.seqno = c->block_key & 0xffffffffull;
	l->blocking.wait_ns = c->block_wait_ns;
	if (!l->blocking.signal_ts)
		l->blocking.signal_ts = c->block_end;
	l->blocking.ctx = model_context_index(m, l->blocking.context);
}

void model_commit_event(struct ft_model *m, const struct ft_event *ev)
{
	struct ft_commit *c;

	switch (ev->id) {
	case FT_EV_COMMIT: on_commit(m, ev); break;
	case FT_EV_OUT_CREATE: on_out_create(m, ev); break;
	case FT_EV_PLANE_WAIT_BEGIN: on_plane_wait_begin(m, ev); break;
	case FT_EV_PLANE_WAIT_END: on_plane_wait_end(m, ev); break;
	case FT_EV_COMMIT_FAILED: on_failed(m, ev); break;
	case FT_EV_COMMIT_STALL: on_stall(m, ev); break;
	case FT_EV_OUT_DISCARD: on_discard(m, ev); break;
	case FT_EV_POLL_BEGIN:
		model_poll_begin(m, ev, key32(ev->v[FT_CONTEXT], ev->v[FT_SEQNO]));
		break;
	case FT_EV_POLL_READY: model_poll_ready(m, ev); break;
	case FT_EV_COMMIT_TAIL:
	case FT_EV_HW_DONE:
		stage_reached(m, ev);
		break;
	case FT_EV_CLEANUP_DONE:
		c = commit_find(m, ev->v[FT_COMMIT]);
		if (c) {
			keep_until_signal(m, c);
			commit_free(m, c);
		}
		break;
	default: break;
	}
}

void model_commits_free(struct ft_commits *cs)
{
	vec_free(&cs->slab);
	vec_free(&cs->free);
	keymap_free(&cs->of_id);
	keymap_free(&cs->of_out);
}
