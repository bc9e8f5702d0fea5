// SPDX-License-Identifier: GPL-2.0
/*
 * timeline-commit.c - atomic commits and per-plane in-fence waits for the
 * timeline, from the kernel series' events (drm_fence:*):
 *
 *   drm_fence_out_create / drm_fence_commit   the ioctl: the commit begins
 *   drm_fence_plane                           a plane's in-fence (and CRTC)
 *   drm_fence_wait_begin / _wait_end          a plane waits for its in-fence
 *   drm_fence_flip_done                       the vblank event: it flipped
 *   drm_fence_commit_failed / _cleanup_done   it is over either way
 *
 * A stock kernel has none of these: tl_commits_finish() then makes one
 * inferred commit per out-fence, the model's own view of a commit.
 */
#include <stdlib.h>

#include "timeline.h"

#define TEST_ONLY 0x100		/* DRM_MODE_ATOMIC_TEST_ONLY: never flips */

static struct tl_commit *commit_find(struct tl_data *d, uint64_t id)
{
	uint32_t i;

	return keymap_get(&d->open_commit, id, &i) ? TL_AT(d->commits, struct tl_commit, i) : NULL;
}

/* The commit @ev names, made on its first event (the out-fence comes first). */
static struct tl_commit *commit_get(struct tl_data *d, const struct ft_event *ev)
{
	struct tl_commit *c = commit_find(d, ev->v[FT_COMMIT]);

	if (c)
		return c;
	c = tl_push(d, &d->commits);
	if (!c)
		return NULL;
	c->t0 = c->t1 = ev->ts;
	c->id = ev->v[FT_COMMIT];
	c->pid = ev->pid;
	c->crtc = -1;
	c->out = UINT32_MAX;
	if (keymap_put(&d->open_commit, c->id, (uint32_t)(d->commits.n - 1)))
		d->error = 1;
	return c;
}

static void commit_close(struct tl_data *d, struct tl_commit *c, uint64_t ts)
{
	if (!c->done) {
		c->t1 = ts;
		c->done = 1;
	}
	keymap_del(&d->open_commit, c->id);
}

static void out_create(struct tl_data *d, const struct ft_event *ev, const struct ft_model *m)
{
	struct tl_commit *c = commit_get(d, ev);

	if (!c)
		return;
	c->crtc_id = (uint32_t)ev->v[FT_CRTC];
	c->has_out = 1;
	c->out_timeline = tl_timeline_of(m, ev->v[FT_CONTEXT]);
	c->out_seqno = (uint32_t)ev->v[FT_SEQNO];
}

/* A test-only commit checks and never flips (nor makes fences): not drawn. */
static void commit(struct tl_data *d, const struct ft_event *ev)
{
	if (!(ev->v[FT_FLAGS] & TEST_ONLY))
		commit_get(d, ev);
}

static uint32_t plane_index(struct tl_data *d, uint32_t id, uint32_t crtc_id)
{
	struct tl_plane *p;

	for (size_t i = 0; i < d->planes.n; i++) {
		p = TL_AT(d->planes, struct tl_plane, i);
		if (p->id == id) {
			if (crtc_id)
				p->crtc_id = crtc_id;
			return (uint32_t)i;
		}
	}
	p = tl_push(d, &d->planes);
	if (!p)
		return UINT32_MAX;
	p->id = id;
	p->crtc_id = crtc_id;
	return (uint32_t)(d->planes.n - 1);
}

static void plane_fence(struct tl_data *d, const struct ft_event *ev)
{
	struct tl_commit *c = commit_get(d, ev);

	if (c && !c->crtc_id)
		c->crtc_id = (uint32_t)ev->v[FT_CRTC];
	plane_index(d, (uint32_t)ev->v[FT_PLANE], (uint32_t)ev->v[FT_CRTC]);
}

static struct tl_span *plane_wait_new(struct tl_data *d, const struct ft_event *ev,
				      const struct ft_model *m, uint64_t t0)
{
	struct tl_commit *c = commit_get(d, ev);
	uint32_t plane = plane_index(d, (uint32_t)ev->v[FT_PLANE], 0);
	struct tl_span *s;

	if (!c || plane == UINT32_MAX || !(s = tl_push(d, &d->plane_waits)))
		return NULL;
	s->t0 = s->t1 = t0;
	s->timeline = tl_timeline_of(m, ev->v[FT_CONTEXT]);
	s->seqno = (uint32_t)ev->v[FT_SEQNO];
	s->lane = plane;
	s->link = (uint32_t)(c - TL_AT(d->commits, struct tl_commit, 0));
	s->pid = ev->pid;
	return s;
}

static void plane_wait_begin(struct tl_data *d, const struct ft_event *ev, const struct ft_model *m)
{
	if (d->n_open_plane_wait >= TL_MAX_OPEN_WAITS || !plane_wait_new(d, ev, m, ev->ts))
		return;
	d->open_plane_wait[d->n_open_plane_wait].commit = ev->v[FT_COMMIT];
	d->open_plane_wait[d->n_open_plane_wait].plane = (uint32_t)ev->v[FT_PLANE];
	d->open_plane_wait[d->n_open_plane_wait++].span = (uint32_t)(d->plane_waits.n - 1);
}

/* Ends the wait its begin opened; a lone end still has its duration. */
static void plane_wait_end(struct tl_data *d, const struct ft_event *ev, const struct ft_model *m)
{
	struct tl_span *s = NULL;

	for (unsigned int i = 0; i < d->n_open_plane_wait; i++) {
		if (d->open_plane_wait[i].commit != ev->v[FT_COMMIT] ||
		    d->open_plane_wait[i].plane != (uint32_t)ev->v[FT_PLANE])
			continue;
		s = TL_AT(d->plane_waits, struct tl_span, d->open_plane_wait[i].span);
		d->open_plane_wait[i] = d->open_plane_wait[--d->n_open_plane_wait];
		break;
	}
	if (!s && ev->v[FT_DURATION] <= ev->ts)
		s = plane_wait_new(d, ev, m, ev->ts - ev->v[FT_DURATION]);
	if (!s)
		return;
	s->t1 = ev->ts;
	s->done = 1;
	s->failed = ev->v[FT_RET] != 0;
}

static void flip_done(struct tl_data *d, const struct ft_event *ev)
{
	struct tl_commit *c = commit_find(d, ev->v[FT_COMMIT]);

	if (!c)
		return;
	c->crtc_id = (uint32_t)ev->v[FT_CRTC];
	c->vblank = (uint32_t)ev->v[FT_SEQ];
	c->flipped = 1;
	c->t1 = ev->ts;
	c->done = 1;
}

static void commit_over(struct tl_data *d, const struct ft_event *ev, int failed)
{
	struct tl_commit *c = commit_find(d, ev->v[FT_COMMIT]);

	if (!c)
		return;
	c->failed = (uint8_t)failed;
	commit_close(d, c, ev->ts);
}

/* The series' events, in the order the model took them. */
void tl_commit_event(struct tl_data *d, const struct ft_event *ev, const struct ft_model *m)
{
	switch (ev->id) {
	case FT_EV_OUT_CREATE: out_create(d, ev, m); break;
	case FT_EV_COMMIT: commit(d, ev); break;
	case FT_EV_PLANE_FENCE: plane_fence(d, ev); break;
	case FT_EV_PLANE_WAIT_BEGIN: plane_wait_begin(d, ev, m); break;
	case FT_EV_PLANE_WAIT_END: plane_wait_end(d, ev, m); break;
	case FT_EV_FLIP_DONE: flip_done(d, ev); break;
	case FT_EV_COMMIT_FAILED: commit_over(d, ev, 1); break;
	case FT_EV_CLEANUP_DONE: commit_over(d, ev, 0); break;
	default: return;
	}
	d->series = 1;
}

/* Stock kernel: every out-fence is a commit, created by the ioctl, signalled at the flip. */
static int infer_commits(struct tl_data *d, const struct ft_model *m)
{
	for (size_t i = 0; i < d->fences.n; i++) {
		const struct tl_span *f = TL_AT(d->fences, struct tl_span, i);
		struct tl_commit *c;

		if (m->fences.timelines.items[f->timeline].crtc < 0)
			continue;
		c = tl_push(d, &d->commits);
		if (!c)
			return -1;
		*c = (struct tl_commit){ .t0 = f->t0, .t1 = f->t1,
			.crtc = m->fences.timelines.items[f->timeline].crtc,
			.out = (uint32_t)i, .out_timeline = f->timeline, .out_seqno = f->seqno,
			.pid = f->pid, .done = f->done, .flipped = f->done, .inferred = 1, .has_out = 1,
			.crtc_id =
				m->display.crtcs.items[m->fences.timelines.items[f->timeline].crtc].crtc_id };
	}
	return 0;
}

/* Series commits: their out-fence's index, and CRTC by object id. */
static void resolve_commits(struct tl_data *d, const struct ft_model *m)
{
	for (size_t i = 0; i < d->commits.n; i++) {
		struct tl_commit *c = TL_AT(d->commits, struct tl_commit, i);
		long f = c->has_out && c->out_timeline != UINT32_MAX ?
			 tl_find_fence(d, c->out_timeline, c->out_seqno) : -1;

		c->out = f >= 0 ? (uint32_t)f : UINT32_MAX;
		if (f >= 0 && keymap_put(&d->commit_of_out, (uint64_t)f, (uint32_t)i))
			d->error = 1;
		for (unsigned int k = 0; k < m->display.crtcs.n; k++)
			if (m->display.crtcs.items[k].crtc_id == c->crtc_id)
				c->crtc = (int32_t)k;
		if (!c->done)
			c->t1 = d->last_ts;
	}
	for (size_t i = 0; i < d->plane_waits.n; i++) {
		struct tl_span *s = TL_AT(d->plane_waits, struct tl_span, i);

		if (!s->done)
			s->t1 = d->last_ts;
	}
}

static struct tl_extent commit_extent(void *item)
{
	struct tl_commit *c = item;

	return (struct tl_extent){ c->t0, c->t1, c->crtc < 0 ? UINT32_MAX : (unsigned int)c->crtc, &c->row };
}

static struct tl_extent plane_wait_extent(void *item)
{
	struct tl_span *s = item;

	return (struct tl_extent){ s->t0, s->t1, s->lane, &s->row };
}

/**
 * tl_commits_finish() - infer or resolve commits, lay out their rows
 *
 * After the fences have their index (tl_find_fence()).  Return: 0, or -1
 * when memory ran out.
 */
int tl_commits_finish(struct tl_data *d, const struct ft_model *m)
{
	unsigned int *plane_rows;
	int err;

	if (!d->series && infer_commits(d, m))
		return -1;
	resolve_commits(d, m);
	d->crtc_rows = calloc(m->display.crtcs.n + 1, sizeof(*d->crtc_rows));
	plane_rows = calloc(d->planes.n + 1, sizeof(*plane_rows));
	err = !d->crtc_rows || !plane_rows ||
	      tl_assign_rows(&d->commits, commit_extent, m->display.crtcs.n, d->crtc_rows) ||
	      tl_assign_rows(&d->plane_waits, plane_wait_extent, (unsigned int)d->planes.n, plane_rows);
	for (size_t i = 0; !err && i < d->planes.n; i++)
		TL_AT(d->planes, struct tl_plane, i)->rows = plane_rows[i];
	free(plane_rows);
	return err ? -1 : 0;
}

void tl_commits_free(struct tl_data *d)
{
	free(d->commits.v);
	free(d->plane_waits.v);
	free(d->planes.v);
	free(d->crtc_rows);
	keymap_free(&d->open_commit);
	keymap_free(&d->commit_of_out);
}
