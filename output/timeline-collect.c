// SPDX-License-Identifier: GPL-2.0
/*
 * timeline-collect.c - decoded events -> the flat arrays of timeline.h.
 *
 * Runs as analysis_window.on_event, after the model took the event, so a
 * fence's timeline index is the model's.  Memory grows with the number of
 * spans (that is the point: the page draws every one of them).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "timeline.h"

void tl_init(struct tl_data *d)
{
	memset(d, 0, sizeof(*d));
	d->fences.size = sizeof(struct tl_span);
	d->waits.size = sizeof(struct tl_span);
	d->vblanks.size = sizeof(struct tl_vblank);
	d->missed.size = sizeof(struct tl_missed);
	d->tasks.size = sizeof(struct tl_task);
	d->commits.size = sizeof(struct tl_commit);
	d->plane_waits.size = sizeof(struct tl_span);
	d->planes.size = sizeof(struct tl_plane);
	d->frames.size = sizeof(struct tl_frame);
}

/*
 * A fence's span follows the live fence the model says the event meant
 * (model_fence_step()), not its (context, seqno) key: several live fences
 * may share a key (lib/model-identity.c).
 */
static void fence_init(struct tl_data *d, const struct ft_event *ev, const struct ft_model *m)
{
	uint32_t tl = tl_timeline_of(m, ev->v[FT_CONTEXT]), slot = model_fence_step(m)->slot;
	struct tl_span *s;

	if (tl == UINT32_MAX || slot == FT_NONE || !(s = tl_push(d, &d->fences)))
		return;
	s->t0 = s->t1 = ev->ts;
	s->timeline = tl;
	s->seqno = (uint32_t)ev->v[FT_SEQNO];
	s->pid = ev->pid;
	s->link = UINT32_MAX;
	if (keymap_put(&d->open_fence, slot, (uint32_t)(d->fences.n - 1)))
		d->error = 1;
}

static struct tl_span *open_span(struct tl_data *d, uint32_t slot)
{
	uint32_t i;

	if (slot == FT_NONE || !keymap_get(&d->open_fence, slot, &i))
		return NULL;
	return TL_AT(d->fences, struct tl_span, i);
}

static void fence_signaled(struct tl_data *d, const struct ft_event *ev, const struct ft_model *m)
{
	struct tl_span *s = open_span(d, model_fence_step(m)->slot);

	if (s) {
		s->t1 = ev->ts;
		s->done = 1;
	}
}

/* A duplicate's signal went back to the fence it duplicated: so does its end. */
static void fence_destroyed(struct tl_data *d, const struct ft_model *m)
{
	const struct ft_fence_step *step = model_fence_step(m);
	struct tl_span *s = open_span(d, step->slot), *given = open_span(d, step->given);

	if (!s)
		return;
	if (given && s->done) {
		given->t1 = s->t1;
		given->done = 1;
	}
	s->duplicate = step->duplicate;
	keymap_del(&d->open_fence, step->slot);
}

static uint32_t task_index(struct tl_data *d, int pid)
{
	struct tl_task *t;

	for (size_t i = 0; i < d->tasks.n; i++)
		if (TL_AT(d->tasks, struct tl_task, i)->pid == pid)
			return (uint32_t)i;
	t = tl_push(d, &d->tasks);
	if (!t)
		return UINT32_MAX;
	t->pid = pid;
	return (uint32_t)(d->tasks.n - 1);
}

static void wait_start(struct tl_data *d, const struct ft_event *ev, const struct ft_model *m)
{
	uint32_t task = task_index(d, ev->pid), tl = tl_timeline_of(m, ev->v[FT_CONTEXT]);
	struct tl_span *s;

	if (task == UINT32_MAX || d->n_open_wait >= TL_MAX_OPEN_WAITS || !(s = tl_push(d, &d->waits)))
		return;
	s->t0 = s->t1 = ev->ts;
	s->lane = task;
	s->timeline = tl;
	s->seqno = (uint32_t)ev->v[FT_SEQNO];
	s->pid = ev->pid;
	s->link = UINT32_MAX;
	d->open_wait[d->n_open_wait].pid = ev->pid;
	d->open_wait[d->n_open_wait++].span = (uint32_t)(d->waits.n - 1);
}

/*
 * The innermost open wait of the task ends.  The model took this event
 * first, so it can say whose commit the wait held up (its out-fence is
 * still open: a commit's out-fence signals after its waits).
 */
static void wait_end(struct tl_data *d, const struct ft_event *ev, const struct ft_model *m)
{
	for (unsigned int i = d->n_open_wait; i-- > 0;) {
		const struct ft_fence *out;
		struct tl_span *s;
		uint32_t f;

		if (d->open_wait[i].pid != ev->pid)
			continue;
		s = TL_AT(d->waits, struct tl_span, d->open_wait[i].span);
		s->t1 = ev->ts;
		s->done = 1;
		out = model_wait_commit(m, ev->pid, s->t0);
		if (out && keymap_get(&d->open_fence, model_fence_slot(m, out), &f))
			s->link = f;
		d->open_wait[i] = d->open_wait[--d->n_open_wait];
		return;
	}
}

/* The last vblank of @pipe before this one, to spot sequence jumps. */
static const struct tl_vblank *last_vblank(const struct tl_data *d, int pipe)
{
	for (size_t i = d->vblanks.n; i-- > 0;)
		if (TL_AT(d->vblanks, struct tl_vblank, i)->pipe == pipe)
			return TL_AT(d->vblanks, struct tl_vblank, i);
	return NULL;
}

static void vblank(struct tl_data *d, const struct ft_event *ev)
{
	int pipe = (int)ev->v[FT_CRTC];
	uint32_t seq = (uint32_t)ev->v[FT_SEQ];
	const struct tl_vblank *prev = last_vblank(d, pipe);
	struct tl_vblank *v;

	if (prev && (int32_t)(seq - prev->seq) > 1) {
		struct tl_missed *mv = tl_push(d, &d->missed);

		if (mv)
			*mv = (struct tl_missed){ ev->ts, pipe, prev->seq, seq };
	}
	v = tl_push(d, &d->vblanks);
	if (v)
		*v = (struct tl_vblank){ ev->ts, seq, pipe };
}

void tl_on_event(const struct ft_event *ev, const struct ft_model *m, void *ctx)
{
	struct tl_data *d = ctx;

	if (!d->first_ts)
		d->first_ts = ev->ts;
	d->last_ts = ev->ts;
	switch (ev->id) {
	case FT_EV_FENCE_INIT: fence_init(d, ev, m); break;
	case FT_EV_FENCE_SIGNALED: fence_signaled(d, ev, m); break;
	case FT_EV_FENCE_DESTROY: fence_destroyed(d, m); break;
	case FT_EV_FENCE_WAIT_START: wait_start(d, ev, m); break;
	case FT_EV_FENCE_WAIT_END: wait_end(d, ev, m); break;
	case FT_EV_VBLANK: vblank(d, ev); break;
	default: tl_commit_event(d, ev, m); break;
	}
	tl_frames_pull(d, m);
}

static struct tl_extent fence_extent(void *item)
{
	struct tl_span *s = item;

	return (struct tl_extent){ s->t0, s->t1, s->timeline, &s->row };
}

static struct tl_extent wait_extent(void *item)
{
	struct tl_span *s = item;

	return (struct tl_extent){ s->t0, s->t1, s->lane, &s->row };
}

/*
 * Drop sw_sync's duplicates (fences only in name: dropped at creation);
 * the waits' links to the fences that stay follow them.
 */
static int drop_duplicates(struct tl_data *d)
{
	uint32_t *moved_to = malloc((d->fences.n + 1) * sizeof(*moved_to)), kept = 0;

	if (!moved_to)
		return -1;
	for (size_t i = 0; i < d->fences.n; i++) {
		struct tl_span *s = TL_AT(d->fences, struct tl_span, i);

		moved_to[i] = s->duplicate ? UINT32_MAX : kept;
		if (!s->duplicate)
			*TL_AT(d->fences, struct tl_span, kept++) = *s;
	}
	d->fences.n = kept;
	for (size_t i = 0; i < d->waits.n; i++) {
		struct tl_span *w = TL_AT(d->waits, struct tl_span, i);

		if (w->link != UINT32_MAX)
			w->link = moved_to[w->link];
	}
	free(moved_to);
	return 0;
}

static void close_open_spans(struct tl_array *a, uint64_t last)
{
	for (size_t i = 0; i < a->n; i++) {
		struct tl_span *s = TL_AT(*a, struct tl_span, i);

		if (!s->done)
			s->t1 = last;
	}
}

/**
 * tl_finish() - close what never ended, lay out rows, keep the model
 *
 * Return: 0, or -1 when memory ran out (here or while collecting).
 */
int tl_finish(struct tl_data *d, const struct ft_model *m)
{
	unsigned int *task_rows;

	d->model = m;
	if (drop_duplicates(d))
		d->error = 1;
	close_open_spans(&d->fences, d->last_ts);
	close_open_spans(&d->waits, d->last_ts);
	d->timeline_rows = calloc(m->fences.timelines.n + 1, sizeof(*d->timeline_rows));
	task_rows = calloc(d->tasks.n + 1, sizeof(*task_rows));
	if (!d->timeline_rows || !task_rows ||
	    tl_assign_rows(&d->fences, fence_extent, m->fences.timelines.n, d->timeline_rows) ||
	    tl_assign_rows(&d->waits, wait_extent, (unsigned int)d->tasks.n, task_rows))
		d->error = 1;
	for (size_t i = 0; task_rows && i < d->tasks.n; i++)
		TL_AT(d->tasks, struct tl_task, i)->rows = task_rows[i];
	free(task_rows);
	/* (timeline, seqno) -> the latest fence with that key, for late frames */
	for (size_t i = 0; i < d->fences.n; i++) {
		const struct tl_span *s = TL_AT(d->fences, struct tl_span, i);

		if (keymap_put(&d->fence_index, (uint64_t)s->timeline << 32 | s->seqno, (uint32_t)i))
			d->error = 1;
	}
	if (tl_commits_finish(d, m) || tl_frames_finish(d, m))
		d->error = 1;
	return d->error ? -1 : 0;
}

void tl_free(struct tl_data *d)
{
	free(d->fences.v);
	free(d->waits.v);
	free(d->vblanks.v);
	free(d->missed.v);
	free(d->tasks.v);
	free(d->frames.v);
	free(d->frame_rows);
	free(d->timeline_rows);
	keymap_free(&d->open_fence);
	keymap_free(&d->fence_index);
	keymap_free(&d->vblank_of);
	tl_commits_free(d);
	memset(d, 0, sizeof(*d));
}

/**
 * tl_collect() - one pass over @path into @a's model and @d's arrays
 *
 * Return: 0, or -1 with a message in @err; free both either way.
 */
int tl_collect(struct tl_data *d, struct analysis *a, const char *path, char *err, size_t errlen)
{
	struct analysis_window w = { .on_event = tl_on_event, .ctx = d, .each_context = 1 };

	tl_init(d);
	if (analysis_run(a, path, &w, err, errlen))
		return -1;
	if (tl_finish(d, &a->model)) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	return 0;
}
