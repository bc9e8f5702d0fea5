// SPDX-License-Identifier: GPL-2.0
/*
 * model-wait.c - dma_fence waits: per waiting task and per waited
 * timeline, and which commit each wait held up.
 *
 * A stock kernel does not say which commit a wait belongs to.  The atomic
 * ioctl creates its out-fence before the commit runs, so: a wait in the
 * task that created an unsignalled out-fence belongs to that (blocking)
 * commit; any other wait (a kworker running a non-blocking commit's tail)
 * belongs to the oldest unsignalled out-fence created before it began.
 * The wait that held a commit up is the one whose fence signalled last
 * (not the one that ended last: a wait on a fence that signalled long ago
 * ends at once, after the wait on the slow fence).  When a fence's signal
 * was not recorded, a wait that lasted (>= 1 ms) beats one that did not.
 * A wait on a merged fence is put down to its late member when the series
 * traced the members (model-members.c).
 *
 * sync_file polls (series events) are counted per task and per timeline,
 * commits' in-fence waits (series) per plane.
 *
 * Long waits (the stalls) also keep what became of the commit they held up:
 * the atomic helpers ignore a fence's error (dma_fence_wait() returns 0), so
 * a commit whose in-fence failed still goes out, and the report says so.
 */
#include <string.h>

#include "model-internal.h"

void model_wait_start(struct ft_model *m, const struct ft_event *ev, uint64_t key)
{
	struct ft_open_wait *w;

	if (m->waits.n_open >= MODEL_MAX_WAITS) {
		m->waits.dropped++;
		return;
	}
	w = &m->waits.open[m->waits.n_open++];
	w->pid = ev->pid;
	w->key = key;
	w->start = ev->ts;
	w->wake = (struct ft_wake_track){ .held_by = FT_HELD_UNKNOWN };
}

/*
 * The row of @id (a task, context or plane) in @stats, made on first
 * sight.  Keyed: a merge-heavy trace waits on as many contexts as it
 * merges, and a scan of the rows per wait would make that quadratic.
 */
static struct ft_wait_stat *stat_get(struct ft_model *m, struct ft_wait_stats *stats, uint64_t id)
{
	struct ft_wait_stat *s;
	uint32_t idx;

	if (keymap_get(&stats->of_id, id, &idx))
		return &stats->items[idx];
	if (vec_reserve(stats, stats->n) || keymap_put(&stats->of_id, id, stats->n)) {
		m->error = 1;
		return NULL;
	}
	s = vec_push(stats);
	s->id = id;
	return s;
}

/*
 * The by_timeline (poll_by_timeline) row of waited context @ctx: its own,
 * or for a merge context without a row of its own (a model without
 * each_context) its group's, as the report sums merges by group whatever
 * comes later: a merge-heavy trace waits on every merge, and a row each
 * cost about 180 bytes a context.  @seen (FT_CTX_WAITED or _POLLED) counts
 * each context once in its group's row.
 */
static struct ft_wait_stat *timeline_stat(struct ft_model *m, struct ft_wait_stats *stats,
					  uint32_t ctx, uint32_t seen)
{
	struct ft_context *c = ft_context_at(&m->fences.contexts, ctx);
	struct ft_wait_stat *s;

	if ((c->flags & (FT_CTX_MERGE | FT_CTX_OWN)) != FT_CTX_MERGE)
		return stat_get(m, stats, ctx);
	s = stat_get(m, stats, FT_WAIT_GROUP | c->row);
	if (s && !(c->flags & seen)) {
		c->flags |= seen;
		s->contexts++;
	}
	return s;
}

static void stat_add(struct ft_model *m, struct ft_wait_stat *s, uint64_t ns, int interrupted)
{
	if (!s)
		return;
	s->count++;
	s->interrupted += !!interrupted;
	s->total_ns += ns;
	s->max_ns = ns > s->max_ns ? ns : s->max_ns;
	if (hist_add(&s->h, ns))
		m->error = 1;
}

/**
 * model_wait_commit() - the unsignalled out-fence whose commit a wait by
 * @pid from @start holds up (rule above), or NULL
 *
 * Also for outputs that link a wait to its commit, called right after the
 * wait's end went into the model.
 */
const struct ft_fence *model_wait_commit(const struct ft_model *m, int pid, uint64_t start)
{
	const struct ft_fence *same_task = NULL, *oldest = NULL;

	for (unsigned int i = 0; i < m->display.n_inflight; i++) {
		const struct ft_fence *f = &m->fences.slab.items[m->display.inflight[i]];

		if (f->init_ts > start)
			continue;
		if (f->init_pid == pid && (!same_task || f->init_ts > same_task->init_ts))
			same_task = f;
		if (!oldest || f->init_ts < oldest->init_ts)
			oldest = f;
	}
	return same_task ? same_task : oldest;
}

static void note_long_wait(struct ft_model *m, const struct ft_open_wait *w, uint64_t key,
			   uint64_t end, const struct ft_fence *waited, struct ft_fence *commit)
{
	struct ft_long_wait *l;

	m->waits.long_waits_total++;
	if (m->waits.n_long_waits >= MODEL_MAX_LISTED)
		return;
	l = &m->waits.long_waits[m->waits.n_long_waits++];
	memset(l, 0, sizeof(*l));
	l->start = w->start;
	l->end = end;
	l->key = key;
	l->pid = w->pid;
	l->signaled = waited && waited->signaled;
	l->error = waited ? waited->error : 0;
	l->member_key = model_late_member(m, key, &l->member_error);
	l->out_seqno = commit ? commit->seqno : 0;
	l->out_context = commit ? commit->key >> 32 : 0;
	if (commit)
		commit->long_wait = 1;
}

/* The commit out-fence @out was made for has gone out, failed or gone. */
void model_long_wait_outcome(struct ft_model *m, const struct ft_fence *out, enum ft_outcome o,
			     uint64_t ts, int err)
{
	if (!out->long_wait)
		return;
	for (unsigned int i = m->waits.n_long_waits; i-- > 0;) {
		struct ft_long_wait *l = &m->waits.long_waits[i];

		if (l->out_context != out->key >> 32 || l->out_seqno != out->seqno ||
		    l->outcome != FT_OUTCOME_UNKNOWN)
			continue;
		l->outcome = o;
		l->outcome_ts = ts;
		l->outcome_err = err;
	}
}

/*
 * The series' drm_fence_wait_end of a commit's in-fence @key: the long
 * dma_fence wait it ends (traced just before, same fence) learns its
 * commit, plane and what the wait returned.
 */
void model_long_wait_ret(struct ft_model *m, const struct ft_event *ev, uint64_t key)
{
	struct ft_waits *ws = &m->waits;

	for (unsigned int i = ws->n_long_waits; i-- > 0 && i + 8 >= ws->n_long_waits;) {
		struct ft_long_wait *l = &ws->long_waits[i];

		if (l->key != key || l->commit || l->end > ev->ts)
			continue;
		l->commit = ev->v[FT_COMMIT];
		l->plane = (uint32_t)ev->v[FT_PLANE];
		l->ret_known = 1;
		l->ret = (int)(int32_t)ev->v[FT_RET];
		return;
	}
}

void model_wait_end(struct ft_model *m, const struct ft_event *ev, uint64_t key)
{
	struct ft_waits *ws = &m->waits;
	struct ft_open_wait w;
	const struct ft_fence *found;
	struct ft_fence *commit, *waited;
	uint64_t ns, signal_ts, member;
	int is_long, member_error, unsignaled;
	uint32_t tl;
	unsigned int i;

	for (i = 0; i < ws->n_open; i++)
		if (ws->open[i].pid == ev->pid && ws->open[i].key == key)
			break;
	if (i == ws->n_open) {
		ws->unmatched++;
		return;
	}
	w = ws->open[i];
	ws->open[i] = ws->open[--ws->n_open];
	ns = ev->ts - w.start;
	/*
	 * Stock events carry no return value, but every signal path traces
	 * dma_fence_signaled before it wakes a waiter: a wait that ends on a
	 * traced fence not yet signalled was interrupted or timed out (unless
	 * events were lost meanwhile: the signal may be among them).
	 */
	waited = model_event_fence(m, ev);
	unsignaled = waited && !waited->signaled && !model_lost_between(m, w.start, ev->ts);
	stat_add(m, stat_get(m, &ws->by_task, (uint64_t)w.pid), ns, unsignaled);
	tl = model_context_index(m, key >> 32);
	if (tl != FT_NONE)
		stat_add(m, timeline_stat(m, &ws->by_timeline, tl, FT_CTX_WAITED), ns, unsignaled);
	signal_ts = waited && waited->signaled ? waited->signal_ts : ev->ts;
	is_long = ns >= MODEL_LONG_WAIT_NS;
	found = model_wait_commit(m, w.pid, w.start);
	/* ours to update */
	commit = found ? &m->fences.slab.items[found - m->fences.slab.items] : NULL;
	if (ns >= ws->stall_ns)
		note_long_wait(m, &w, key, ev->ts, waited, commit);
	member = model_late_member(m, key, &member_error);
	if (commit && key != commit->key && (is_long > commit->block_long ||
	    (is_long == commit->block_long && signal_ts >= commit->block_signal))) {
		commit->block_long = is_long;
		commit->block_key = member ? member : key;
		commit->block_via = member ? key : 0;
		commit->block_start = w.start;
		commit->block_end = ev->ts;
		commit->block_signal = signal_ts;
		commit->block_pid = w.pid;
		commit->block_signal_known = waited && waited->signaled;
		commit->block_wakeup = model_wakeup_of(&w, ev->ts, waited && waited->signaled ?
						       waited->signal_ts : 0);
	}
	if (commit && waited && waited->error && !commit->in_error)
		commit->in_error = waited->error;
}

/* A sync_file poll began (series events): the way compositors wait. */
void model_poll_begin(struct ft_model *m, const struct ft_event *ev, uint64_t key)
{
	struct ft_open_poll *p;

	if (m->waits.n_open_polls >= MODEL_MAX_POLLS)
		return;
	p = &m->waits.open_polls[m->waits.n_open_polls++];
	p->sync_file = ev->v[FT_SYNC_FILE];
	p->start = ev->ts;
	p->pid = ev->pid;
	p->key = key;
}

static void poll_done(struct ft_model *m, int pid, uint64_t key, uint64_t ns)
{
	uint32_t tl = model_context_index(m, key >> 32);

	stat_add(m, stat_get(m, &m->waits.poll_by_task, (uint64_t)pid), ns, 0);
	if (tl != FT_NONE)
		stat_add(m, timeline_stat(m, &m->waits.poll_by_timeline, tl, FT_CTX_POLLED), ns, 0);
}

/* Poll ready may fire in the signaller's context: match by sync_file. */
void model_poll_ready(struct ft_model *m, const struct ft_event *ev)
{
	struct ft_waits *ws = &m->waits;

	for (unsigned int i = 0; i < ws->n_open_polls; i++) {
		struct ft_open_poll p = ws->open_polls[i];

		if (p.sync_file != ev->v[FT_SYNC_FILE])
			continue;
		ws->open_polls[i] = ws->open_polls[--ws->n_open_polls];
		poll_done(m, p.pid, p.key, ev->ts - p.start);
		ws->polls_done[ws->polls_done_head].start = p.start;
		ws->polls_done[ws->polls_done_head].end = ev->ts;
		ws->polls_done_head = (ws->polls_done_head + 1) % MODEL_POLLS_DONE;
		if (ws->polls_done_n < MODEL_POLLS_DONE)
			ws->polls_done_n++;
		i--;
	}
}

/* A commit's in-fence wait on one plane ended (series events). */
void model_plane_wait_done(struct ft_model *m, uint32_t plane, uint64_t ns, int ret)
{
	struct ft_wait_stat *s = stat_get(m, &m->waits.by_plane, plane);

	stat_add(m, s, ns, ret);
}

static void wait_stats_free(struct ft_wait_stats *stats)
{
	for (unsigned int i = 0; i < stats->n; i++)
		hist_free(&stats->items[i].h);
	vec_free(stats);
	keymap_free(&stats->of_id);
}

void model_waits_free(struct ft_waits *w)
{
	wait_stats_free(&w->by_task);
	wait_stats_free(&w->by_timeline);
	wait_stats_free(&w->poll_by_task);
	wait_stats_free(&w->poll_by_timeline);
	wait_stats_free(&w->by_plane);
}
