// SPDX-License-Identifier: GPL-2.0
/*
 * stall-series.c - the kernel series' events for `fence-trace stall` (see
 * stall-series.h), read through the live reader at every poll.
 *
 * Why this keeps its own few waits, polls and failed fences instead of
 * feeding lib/'s model, which attributes waits to commits for `report`:
 * - the model wants every event, in time order, then model_finish(); live,
 *   the dma_fence events come from BPF, not tracefs (a tracefs event costs
 *   every fence init), and a CPU's events can reach a later read than an
 *   earlier-stamped one of another CPU;
 * - what stall asks is not what the model keeps.  A stall is named while
 *   it lasts, by the commit and plane of a wait in progress: the model
 *   ignores drm_fence_wait_begin and learns a commit's blocker at
 *   drm_fence_wait_end.  EBUSY is traced while the earlier commit still
 *   waits; a cleanup_done stall after the earlier commit's
 *   drm_fence_cleanup_done, where the model has freed that commit.  Waits
 *   and polls are keyed by the fence's address (which BPF's maps use) and
 *   64-bit context, not the 32-bit (context, seqno) of the stock events;
 *   and a failed in-fence's fate is its commit's flip_done or failure, not
 *   an out-fence signal the model would need dma_fence events for.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <tracefs.h>

#include "decode.h"
#include "live-reader.h"
#include "stall.h"
#include "stall-series.h"
#include "sync.h"

#define ATOMIC_TEST_ONLY 0x100		/* DRM_MODE_ATOMIC_TEST_ONLY: never shown */

static void wait_begin(struct stall_series *s, const struct ft_event *ev)
{
	struct series_wait *w;

	if (s->n_waits >= SERIES_MAX)
		return;
	w = &s->waits[s->n_waits++];
	w->fence = ev->v[FT_FENCE];
	w->commit = ev->v[FT_COMMIT];
	w->plane = (uint32_t)ev->v[FT_PLANE];
	w->context = ev->v[FT_CONTEXT];
	w->seqno = ev->v[FT_SEQNO];
	w->ts = ev->ts;
	w->end = 0;
	w->pid = ev->pid;
}

static const struct series_failed_fence *failed_fence(const struct stall_series *s, uint64_t fence)
{
	for (unsigned int i = 0; i < SERIES_RECENT && i < s->n_failed; i++)
		if (s->failed[i].fence == fence)
			return &s->failed[i];
	return NULL;
}

/*
 * A commit's wait on an in-fence that signalled with an error: said now,
 * and followed until the commit flips or fails.  The atomic helpers ignore
 * a fence's error (dma_fence_wait() returns 0), so it normally flips.
 */
static void error_wait(struct stall_series *s, const struct series_wait *w, int error, int ret)
{
	struct series_error_wait *e;

	stall_print_error_fence(s->c, w, error, ret);
	if (s->n_error_waits >= SERIES_MAX)
		return;
	e = &s->error_waits[s->n_error_waits++];
	*e = (struct series_error_wait){ w->commit, w->context, w->seqno, w->end, w->plane, error, ret };
}

/* @commit flipped (@err 0, at vblank @vblank) or failed (@err): what became of it. */
static void error_wait_outcome(struct stall_series *s, uint64_t commit, int err, uint64_t vblank,
			       uint64_t ts)
{
	for (unsigned int i = 0; i < s->n_error_waits; i++) {
		if (s->error_waits[i].commit != commit)
			continue;
		stall_print_error_outcome(s->c, &s->error_waits[i], err, vblank, ts);
		s->error_waits[i--] = s->error_waits[--s->n_error_waits];
	}
}

static void wait_end(struct stall_series *s, const struct ft_event *ev)
{
	uint64_t fence = ev->v[FT_FENCE], commit = ev->v[FT_COMMIT];
	const struct series_failed_fence *f = failed_fence(s, fence);
	struct series_wait *w;

	for (unsigned int i = 0; i < s->n_waits; i++) {
		if (s->waits[i].fence != fence || s->waits[i].commit != commit)
			continue;
		w = &s->ended[s->n_ended++ % SERIES_RECENT];
		*w = s->waits[i];
		w->end = ev->ts;
		s->waits[i] = s->waits[--s->n_waits];
		if (f && f->context == w->context && f->seqno == w->seqno)
			error_wait(s, w, f->error, (int)(int32_t)ev->v[FT_RET]);
		return;
	}
}

/* Its entry: a stalled wait's frame class needs its target vblank. */
static void commit_entered(struct stall_series *s, const struct ft_event *ev)
{
	if (ev->v[FT_FLAGS] & ATOMIC_TEST_ONLY)
		return;
	s->commits[s->n_commits++ % SERIES_COMMITS] = (struct series_commit){ ev->v[FT_COMMIT], ev->ts };
}

static void fence_error(struct stall_series *s, const struct ft_event *ev)
{
	struct series_failed_fence *f = &s->failed[s->n_failed++ % SERIES_RECENT];

	f->fence = ev->v[FT_FENCE];
	f->context = ev->v[FT_CONTEXT];
	f->seqno = ev->v[FT_SEQNO];
	f->error = (int)(int32_t)ev->v[FT_ERR];
}

static void commit_stall(struct stall_series *s, const struct ft_event *ev)
{
	stall_print_commit_stall(s->c, ev->ts, ev->v[FT_COMMIT], (uint32_t)ev->v[FT_CRTC],
				 (int64_t)ev->v[FT_WAITS_ON], (int)(int32_t)ev->v[FT_STAGE],
				 (int)(int32_t)ev->v[FT_RET], ev->v[FT_DURATION]);
}

static void flip_done(struct stall_series *s, const struct ft_event *ev)
{
	error_wait_outcome(s, ev->v[FT_COMMIT], 0, ev->v[FT_SEQ], ev->ts);
}

static void commit_failed(struct stall_series *s, const struct ft_event *ev)
{
	error_wait_outcome(s, ev->v[FT_COMMIT], (int)(int32_t)ev->v[FT_ERR], 0, ev->ts);
}

static void poll_begin(struct stall_series *s, const struct ft_event *ev)
{
	struct series_poll *p;
	uint64_t sf = ev->v[FT_SYNC_FILE];

	for (unsigned int i = 0; i < s->n_polls; i++)
		if (s->polls[i].sync_file == sf)
			return;		/* poll() again on the same file: one wait */
	if (s->n_polls >= SERIES_MAX)
		return;
	p = &s->polls[s->n_polls++];
	memset(p, 0, sizeof(*p));
	p->sync_file = sf;
	p->fence = ev->v[FT_FENCE];
	p->context = ev->v[FT_CONTEXT];
	p->seqno = ev->v[FT_SEQNO];
	p->pid = ev->pid;
	p->ts = ev->ts;
}

/*
 * A poll's end.  One past the threshold that no read saw open (the tool
 * lagged, and read its begin and its end at once) is a stall all the
 * same: said now, as of its end, then its end.
 */
static void poll_ready(struct stall_series *s, const struct ft_event *ev)
{
	uint64_t sf = ev->v[FT_SYNC_FILE];

	for (unsigned int i = 0; i < s->n_polls; i++) {
		struct series_poll *p = &s->polls[i];

		if (p->sync_file != sf)
			continue;
		if (!p->reported && ev->ts > p->ts && ev->ts - p->ts >= s->c->threshold_ns) {
			p->reported = 1;
			s->c->stalls++;
			stall_print_poll(s->c, p, ev->ts);
		}
		if (p->reported)
			stall_print_poll_end(s->c, p, ev->ts);
		s->polls[i] = s->polls[--s->n_polls];
		return;
	}
}

/*
 * The catalogue's events stall takes in, and what it does with each: also
 * the list of events enabled in the instance, so there is no second one.
 */
static void (*const handlers[FT_EV_COUNT])(struct stall_series *, const struct ft_event *) = {
	[FT_EV_COMMIT] = commit_entered,
	[FT_EV_PLANE_WAIT_BEGIN] = wait_begin,
	[FT_EV_PLANE_WAIT_END] = wait_end,
	[FT_EV_COMMIT_STALL] = commit_stall,
	[FT_EV_FLIP_DONE] = flip_done,
	[FT_EV_COMMIT_FAILED] = commit_failed,
	[FT_EV_POLL_BEGIN] = poll_begin,
	[FT_EV_POLL_READY] = poll_ready,
	[FT_EV_FENCE_ERROR] = fence_error,
};

/*
 * Enable the events handled.  -1 when one of the series' drm_fence or
 * sync_file events cannot be enabled or decoded; dma_fence_error may be
 * missing (a kernel with the series up to patch 0012).
 */
static int enable_events(struct stall_series *s)
{
	for (int id = 0; id < FT_EV_COUNT; id++)
		if (handlers[id] && live_reader_enable_id(s->live, id) &&
		    ft_event_set(id) == FT_SET_SERIES)
			return -1;
	return 0;
}

/* 0 when this kernel has the series; then its events stream into @s. */
int series_start(struct stall_series *s, struct stall_ctx *c)
{
	char why[128];

	memset(s, 0, sizeof(*s));
	s->c = c;
	if (!tracefs_file_exists(NULL, "events/drm_fence/drm_fence_wait_begin/format"))
		return -1;
	s->live = live_reader_new("stall");
	if (!s->live)
		return -1;
	live_reader_setup(s->live, LIVE_READER_CLOCK, 0);
	if (live_reader_decode(s->live, why, sizeof(why)) || enable_events(s) ||
	    live_reader_start(s->live, why, sizeof(why))) {
		series_stop(s);
		return -1;
	}
	return 0;
}

/* One event of the instance, decoded as the offline report decodes it. */
static void on_event(void *ctx, const struct ft_event *ev)
{
	struct stall_series *s = ctx;

	if (handlers[ev->id])
		handlers[ev->id](s, ev);
}

/*
 * Take in what the instance holds; then report polls past the threshold.
 * A poll is judged against the time the read began, not the time it
 * ended: every poll_ready stamped before that time is in the buffers the
 * read drains, so a poll still open has lasted at least that long.  With
 * the end time, a read that lagged (a loaded host: 93 ms seen) turned a
 * short poll whose ready came during the read into a stall.
 */
void series_read(struct stall_series *s)
{
	uint64_t now = now_ns();

	if (!s->live)
		return;
	live_reader_poll(s->live, on_event, s);
	for (unsigned int i = 0; i < s->n_polls; i++) {
		struct series_poll *p = &s->polls[i];

		if (!p->reported && now > p->ts && now - p->ts >= s->c->threshold_ns) {
			p->reported = 1;
			s->c->stalls++;
			stall_print_poll(s->c, p, now);
		}
	}
}

/* The polls reported as stalls that have not become ready: "still going". */
unsigned int series_going(const struct stall_series *s)
{
	unsigned int n = 0;

	for (unsigned int i = 0; i < s->n_polls; i++)
		n += s->polls[i].reported;
	return n;
}

void series_stop(struct stall_series *s)
{
	live_reader_free(s->live);
	s->live = NULL;
}
