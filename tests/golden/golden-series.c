// SPDX-License-Identifier: GPL-2.0
/*
 * golden-series.c - the golden inputs with the fence-trace kernel series'
 * events: merged fences and their members (dma_fence_member), fence
 * errors (dma_fence_error), failed commits and discarded out-fences, the
 * commit's per-plane wait (drm_fence_wait_end), commit_stall stages and
 * sync_file polls.  Payload offsets are those of tracepoints/formats/.
 */
#include <stdio.h>

#include "golden-traces.h"
#include "series-formats.h"

#define PLANE 33
#define COMMIT(f) (100 + (f))	/* the atomic commit of frame f */

static void add(struct gt *g, uint64_t ts, const char *name, const struct payload *p)
{
	int id = tb_event_id(g->tb, name);

	if (id < 0 && !g->err)
		fprintf(stderr, "golden-traces: no format for %s\n", name);
	g->err = g->err ?: id < 0 ? -1 : tb_add(g->tb, 1, ts, id, p->b, p->len);
}

/* Fence @seqno of timeline @t, as the series' builders take it. */
static struct series_fence fence_of(const struct gt_timeline *t, uint32_t seqno)
{
	return (struct series_fence){ t->driver, t->name, t->context, seqno, 0 };
}

static void fence_error(struct gt *g, uint64_t ts, const struct gt_timeline *t, uint32_t seqno,
			int err)
{
	struct series_fence fence = fence_of(t, seqno);
	struct payload p;

	series_fence_error(&p, &fence, err);
	add(g, ts, "dma_fence_error", &p);
}

/* A fence signalled, after its error if @err. */
static void signal_fence(struct gt *g, uint64_t ts, const struct gt_timeline *t, uint32_t seqno, int err)
{
	if (err)
		fence_error(g, ts - 1000, t, seqno, err);
	gt_fence(g, 1, ts, "dma_fence_signaled", t, seqno);
}

static void member(struct gt *g, uint64_t ts, uint32_t seqno, unsigned int index,
		   const struct gt_timeline *t)
{
	struct series_fence array = fence_of(&gt_array, seqno), fence = fence_of(t, seqno);
	struct payload p;

	series_member(&p, 0xffff8880a0000000ull + seqno * 0x100, &array, index, &fence);
	add(g, ts, "dma_fence_member", &p);
}

static void out_create(struct gt *g, uint64_t ts, uint32_t seqno)
{
	struct payload p;

	series_out_create(&p, COMMIT(seqno), CRTC_ID, gt_out.context, seqno, "crtc-0");
	add(g, ts, "drm_fence_out_create", &p);
}

static void out_discard(struct gt *g, uint64_t ts, uint32_t seqno, int err)
{
	struct payload p;

	series_out_discard(&p, COMMIT(seqno), CRTC_ID, gt_out.context, seqno, err);
	add(g, ts, "drm_fence_out_discard", &p);
}

/* The series' wait_begin (@end 0) or wait_end of frame @frame's commit on timeline @t. */
static void plane_wait(struct gt *g, uint64_t ts, int end, uint32_t frame,
		       const struct gt_timeline *t)
{
	struct payload p;
	const char *name = series_plane_wait(&p, end, COMMIT(frame), PLANE, t->context, frame);

	add(g, ts, name, &p);
}

static void commit_stall(struct gt *g, uint64_t ts, uint64_t commit, int64_t waits_on,
			 int stage, int ret, uint64_t duration)
{
	struct payload p;

	series_commit_stall(&p, commit, CRTC_ID, waits_on, stage, ret, duration);
	add(g, ts, "drm_fence_commit_stall", &p);
}

static void poll_event(struct gt *g, uint64_t ts, const char *name, uint64_t file,
		 const struct gt_timeline *t, uint32_t seqno)
{
	struct payload p;

	series_poll(&p, file, 0, t->context, seqno);
	add(g, ts, name, &p);
}

/* The commit of frame @f began at @t and its in-fence wait ended at @end. */
static void commit_lands(struct gt *g, uint32_t f, uint64_t t, uint64_t end,
			 const struct gt_timeline *in, uint32_t *vbl)
{
	gt_pid(g, 50);
	gt_fence(g, 1, end, "dma_fence_wait_end", in, f);
	plane_wait(g, end + 1000, 1, f, in);
	for ((*vbl)++; *vbl * FRAME_NS + 20000 <= end + 1000; (*vbl)++)
		gt_land(g, *vbl, 0);
	gt_land(g, *vbl, f);
}

/*
 * Frame @f: the compositor (pid 50) commits out-fence @f waiting for the
 * merge of producer A's and B's fence @f (made by the producer, pid 40);
 * A signals @a_ms after the wait starts, B @b_ms after with error @b_err,
 * which the array carries.  Members come in the order A, B.
 */
static void merged(struct gt *g, uint32_t f, uint64_t a_ms, uint64_t b_ms, int b_err,
		   uint32_t *vbl)
{
	uint64_t t = *vbl * FRAME_NS + MS, a = t + (1 + a_ms) * MS, b = t + (1 + b_ms) * MS;
	uint64_t last = a > b ? a : b;

	gt_pid(g, 40);
	gt_fence(g, 1, t - 500000, "dma_fence_init", &gt_a, f);
	gt_fence(g, 1, t - 400000, "dma_fence_init", &gt_b, f);
	gt_fence(g, 1, t - 300000, "dma_fence_init", &gt_array, f);
	member(g, t - 299000, f, 0, &gt_a);
	member(g, t - 298000, f, 1, &gt_b);
	gt_pid(g, 50);
	gt_fence(g, 1, t, "dma_fence_init", &gt_out, f);
	out_create(g, t + 1000, f);
	gt_fence(g, 1, t + MS, "dma_fence_wait_start", &gt_array, f);
	plane_wait(g, t + MS, 0, f, &gt_array);
	gt_pid(g, 40);
	signal_fence(g, a < b ? a : b, a < b ? &gt_a : &gt_b, f, a < b ? 0 : b_err);
	signal_fence(g, last, a < b ? &gt_b : &gt_a, f, a < b ? b_err : 0);
	signal_fence(g, last + 3000, &gt_array, f, b_err);
	commit_lands(g, f, t, last + 10000, &gt_array, vbl);
}

/*
 * Merged in-fences: frame 1's member B fails (-ENOENT, its timeline
 * closed) 100 ms late and the commit shows the frame regardless; frame 3
 * is late behind member A; frames 2 and 4 are on time.
 */
void gt_merge(struct gt *g)
{
	uint32_t vbl = 100;

	gt_land(g, vbl, 0);
	merged(g, 1, 5, 100, -2, &vbl);
	merged(g, 2, 3, 4, 0, &vbl);
	merged(g, 3, 35, 2, 0, &vbl);
	merged(g, 4, 2, 3, 0, &vbl);
}

/*
 * Frame @f at @t: producer B's fence @f made before it, the out-fence made
 * and its commit waiting on B from @t + 1 ms (with the series' wait_begin
 * when @series_wait: its end follows); B signals at @done with @err.
 */
static void wait_on_b(struct gt *g, uint32_t f, uint64_t t, uint64_t done, int err,
		      int series_wait)
{
	gt_pid(g, 40);
	gt_fence(g, 1, t - 500000, "dma_fence_init", &gt_b, f);
	gt_pid(g, 50);
	gt_fence(g, 1, t, "dma_fence_init", &gt_out, f);
	out_create(g, t + 1000, f);
	gt_fence(g, 1, t + MS, "dma_fence_wait_start", &gt_b, f);
	if (series_wait)
		plane_wait(g, t + MS, 0, f, &gt_b);
	gt_pid(g, 40);
	signal_fence(g, done, &gt_b, f, err);
}

/* Frame @f waits on producer B's fence @f alone, signalled after @ms with @err. */
static void plain(struct gt *g, uint32_t f, uint64_t ms, int err, uint32_t *vbl)
{
	uint64_t t = *vbl * FRAME_NS + MS, done = t + (1 + ms) * MS;

	wait_on_b(g, f, t, done, err, 1);
	commit_lands(g, f, t, done + 10000, &gt_b, vbl);
}

static void commit_failed(struct gt *g, uint64_t ts, uint32_t f, int err)
{
	struct payload p;

	series_commit_failed(&p, COMMIT(f), err);
	add(g, ts, "drm_fence_commit_failed", &p);
	out_discard(g, ts + 1000, f, err);
}

/* Frame @f's commit fails with @err: its out-fence is discarded unsignalled. */
static void failed(struct gt *g, uint32_t f, int err, uint32_t *vbl)
{
	uint64_t t = *vbl * FRAME_NS + MS;

	gt_pid(g, 50);
	gt_fence(g, 1, t, "dma_fence_init", &gt_out, f);
	out_create(g, t + 1000, f);
	commit_failed(g, t + 2000, f, err);
	gt_fence(g, 1, t + 4000, "dma_fence_destroy", &gt_out, f);
	gt_land(g, ++*vbl, 0);
}

/*
 * Frame @f waits 40 ms for B's fence, which fails with @fence_err (a
 * stall with an error), then no frame: the commit fails with @err and
 * discards its out-fence, or (@err 0) the out-fence is destroyed
 * unsignalled.
 */
static void stalled_no_frame(struct gt *g, uint32_t f, int fence_err, int err, uint32_t *vbl)
{
	uint64_t t = *vbl * FRAME_NS + MS, done = t + 41 * MS;

	wait_on_b(g, f, t, done, fence_err, 0);
	gt_pid(g, 50);
	gt_fence(g, 1, done + 1000, "dma_fence_wait_end", &gt_b, f);
	if (err)
		commit_failed(g, done + 2000, f, err);
	gt_fence(g, 1, done + 4000, "dma_fence_destroy", &gt_out, f);
	for ((*vbl)++; *vbl * FRAME_NS <= done + 4000; (*vbl)++)
		gt_land(g, *vbl, 0);
}

/*
 * Errors: B's fence 2 times out (-ETIMEDOUT) after 50 ms (a stall, the
 * frame late and shown), 3 fails at once (-EIO), frame 4's commit fails
 * (-EINVAL); frames 8 and 9 wait 40 ms for B, which fails (-EIO,
 * -ECANCELED), and are never shown (8's commit fails with -ENOMEM, 9's
 * out-fence is destroyed unsignalled);
 * then a commit waits 250 ms in swap_state for the one before's hw_done
 * and another's flip_done times out after 10 s.
 */
void gt_errors(struct gt *g)
{
	uint32_t vbl = 100;

	gt_land(g, vbl, 0);
	plain(g, 1, 2, 0, &vbl);
	plain(g, 2, 50, -110, &vbl);
	plain(g, 3, 2, -5, &vbl);
	failed(g, 4, -22, &vbl);
	plain(g, 5, 2, 0, &vbl);
	stalled_no_frame(g, 8, -5, -12, &vbl);
	stalled_no_frame(g, 9, -125, 0, &vbl);
	gt_pid(g, 50);
	commit_stall(g, vbl * FRAME_NS + 300 * MS, COMMIT(6), COMMIT(5), 0, 0, 250 * MS);
	commit_stall(g, vbl * FRAME_NS + 10400 * MS, COMMIT(7), COMMIT(7), 1, -110, 10000 * MS);
}

/*
 * Waits of tasks that are not a compositor: the waiter (pid 60) on A's
 * fence 1 until it signals, on 2 interrupted before its signal, 50 ms on
 * B's fence 1 (a long wait, no commit), on a fence made before the trace;
 * the poller (pid 61) polls A's fence 3 (ready after 5 ms) and B's 2
 * (never ready).
 */
void gt_waits(struct gt *g)
{
	static const struct gt_timeline old = { "sw_sync", "before-the-trace", 20 };

	gt_pid(g, 40);
	for (uint32_t s = 1; s <= 3; s++) {
		gt_fence(g, 1, s * MS, "dma_fence_init", &gt_a, s);
		gt_fence(g, 1, s * MS + 1000, "dma_fence_init", &gt_b, s);
	}
	gt_pid(g, 60);
	gt_fence(g, 1, 10 * MS, "dma_fence_wait_start", &gt_a, 1);
	gt_pid(g, 40);
	gt_fence(g, 1, 13 * MS, "dma_fence_signaled", &gt_a, 1);
	gt_pid(g, 60);
	gt_fence(g, 1, 13 * MS + 1000, "dma_fence_wait_end", &gt_a, 1);
	gt_fence(g, 1, 14 * MS, "dma_fence_wait_start", &gt_a, 2);
	gt_fence(g, 1, 17 * MS, "dma_fence_wait_end", &gt_a, 2);
	gt_pid(g, 61);
	poll_event(g, 18 * MS, "sync_file_poll_begin", 0xa0, &gt_a, 3);
	poll_event(g, 19 * MS, "sync_file_poll_begin", 0xb0, &gt_b, 2);
	gt_pid(g, 60);
	gt_fence(g, 1, 20 * MS, "dma_fence_wait_start", &gt_b, 1);
	gt_pid(g, 40);
	gt_fence(g, 1, 22 * MS, "dma_fence_signaled", &gt_a, 2);
	gt_fence(g, 1, 23 * MS, "dma_fence_signaled", &gt_a, 3);
	gt_pid(g, 0);
	poll_event(g, 23 * MS + 2000, "sync_file_poll_ready", 0xa0, &gt_a, 3);
	gt_pid(g, 40);
	gt_fence(g, 1, 70 * MS, "dma_fence_signaled", &gt_b, 1);
	gt_pid(g, 60);
	gt_fence(g, 1, 70 * MS + 3000, "dma_fence_wait_end", &gt_b, 1);
	gt_fence(g, 1, 80 * MS, "dma_fence_wait_start", &old, 7);
	gt_fence(g, 1, 81 * MS, "dma_fence_wait_end", &old, 7);
}
