// SPDX-License-Identifier: GPL-2.0
/*
 * test-report-series.c - report on constructed traces with the kernel
 * series' later events: dma_fence_error (errors per timeline, and what a
 * commit did with a failed in-fence), dma_fence_member (a wait on a merged
 * fence put down to its late member), drm_fence_out_discard (a failed
 * commit's out-fence), drm_fence_out_create's crtc_name, and the
 * commit_stall stages patch 0012 adds (swap_state hw_done, flip_done
 * timeout).  And a stock trace, where errors are unknown and said so.
 */
#include <errno.h>
#include <string.h>

#include "analyze.h"
#include "series-formats.h"
#include "trace-fixture.h"
#include "unit.h"

#define OUT_CTX 1
#define A_CTX 6
#define B_CTX 7
#define MERGE_CTX 10
#define COMMIT 7
#define PLANE 33
#define LONG_NAME "a-long-crtc-name-for-the-test"	/* the timeline name cuts it */
#define TRUNCATED "CRTC:51-a-long-crtc-name-for-t"

static void add(struct trace_fixture *f, unsigned int cpu, uint64_t ts, const char *name,
		const struct payload *p)
{
	trace_fixture_event(f, cpu, ts, name, p->b, p->len);
}

/* Fence @seqno of context @ctx, named as this file's timelines are. */
static struct series_fence fence_of(uint32_t ctx, uint32_t seqno)
{
	const char *drv = ctx == OUT_CTX ? "vkms" : ctx == MERGE_CTX ? "dma_fence_array" : "sw_sync";
	const char *tl = ctx == OUT_CTX ? TRUNCATED : ctx == MERGE_CTX ? "unbound" :
			 ctx == A_CTX ? "producer-A" : "producer-B";

	return (struct series_fence){ drv, tl, ctx, seqno, 0 };
}

static void fence(struct trace_fixture *f, unsigned int cpu, uint64_t ts, const char *ev,
		  uint32_t ctx, uint32_t seqno)
{
	struct series_fence fence = fence_of(ctx, seqno);

	assert_int_equal(tb_fence(f->tb, cpu, ts, ev, fence.driver, fence.timeline, ctx, seqno), 0);
}

static void fence_error(struct trace_fixture *f, uint64_t ts, uint32_t ctx, uint32_t seqno,
			int err)
{
	struct series_fence fence = fence_of(ctx, seqno);
	struct payload p;

	series_fence_error(&p, &fence, err);
	add(f, 1, ts, "dma_fence_error", &p);
}

/* Fence 1 of @ctx is member @index of the merged fence (MERGE_CTX, 1). */
static void member(struct trace_fixture *f, uint64_t ts, unsigned int index, uint32_t ctx)
{
	struct series_fence array = fence_of(MERGE_CTX, 1), fence = fence_of(ctx, 1);
	struct payload p;

	series_member(&p, 0, &array, index, &fence);
	add(f, 1, ts, "dma_fence_member", &p);
}

static void out_create(struct trace_fixture *f, uint64_t ts, uint64_t commit, uint32_t seqno)
{
	struct payload p;

	series_out_create(&p, commit, 51, OUT_CTX, seqno, LONG_NAME);
	add(f, 1, ts, "drm_fence_out_create", &p);
}

static void out_discard(struct trace_fixture *f, uint64_t ts, uint64_t commit, uint32_t seqno,
			int err)
{
	struct payload p;

	series_out_discard(&p, commit, 51, OUT_CTX, seqno, err);
	add(f, 1, ts, "drm_fence_out_discard", &p);
}

static void plane_wait(struct trace_fixture *f, uint64_t ts, int end)
{
	struct payload p;
	const char *name = series_plane_wait(&p, end, COMMIT, PLANE, MERGE_CTX, 1);

	add(f, 1, ts, name, &p);
}

static void commit_stall(struct trace_fixture *f, uint64_t ts, uint64_t commit, int64_t waits_on,
			 int stage, int ret, uint64_t duration)
{
	struct payload p;

	series_commit_stall(&p, commit, 51, waits_on, stage, ret, duration);
	add(f, 1, ts, "drm_fence_commit_stall", &p);
}

/* The out-fence's timeline is named after the long CRTC name, cut. */
static void land(struct trace_fixture *f, uint32_t seq, uint32_t out_seqno)
{
	static const struct tf_land how = { .out_timeline = TRUNCATED };

	trace_fixture_land(f, seq, out_seqno, &how);
}

/*
 * The article's compositor: its in-fence merges producers A and B, and B
 * fails (its timeline closed with the fence pending: -ENOENT) 100 ms late.
 * The atomic helpers ignore the error: the commit goes on and shows it.
 */
static void merged_failed_in_fence(struct trace_fixture *f)
{
	uint64_t t = 100 * 16 * MS + 1 * MS;

	land(f, 100, 0);
	tb_set_pid(f->tb, 40);
	fence(f, 1, t - 500000, "dma_fence_init", A_CTX, 1);
	fence(f, 1, t - 400000, "dma_fence_init", B_CTX, 1);
	fence(f, 1, t - 300000, "dma_fence_init", MERGE_CTX, 1);
	member(f, t - 299000, 0, A_CTX);
	member(f, t - 298000, 1, B_CTX);
	tb_set_pid(f->tb, 50);
	fence(f, 1, t, "dma_fence_init", OUT_CTX, 1);
	out_create(f, t + 1000, COMMIT, 1);
	fence(f, 1, t + 1 * MS, "dma_fence_wait_start", MERGE_CTX, 1);
	plane_wait(f, t + 1 * MS, 0);
	tb_set_pid(f->tb, 40);
	fence(f, 1, t + 5 * MS, "dma_fence_signaled", A_CTX, 1);
	fence_error(f, t + 101 * MS, B_CTX, 1, -2);
	fence(f, 1, t + 101 * MS + 1000, "dma_fence_signaled", B_CTX, 1);
	fence_error(f, t + 101 * MS + 2000, MERGE_CTX, 1, -2);
	fence(f, 1, t + 101 * MS + 3000, "dma_fence_signaled", MERGE_CTX, 1);
	tb_set_pid(f->tb, 50);
	fence(f, 1, t + 101 * MS + 10000, "dma_fence_wait_end", MERGE_CTX, 1);
	plane_wait(f, t + 101 * MS + 11000, 1);	/* 100.011 ms after its begin */
	tb_set_pid(f->tb, 0);
	for (uint32_t s = 101; s < 107; s++)
		land(f, s, 0);
	land(f, 107, 1);		/* 1601 + 101 ms: after vblank 106 */
}

static void test_merged_member_and_failed_fence(void **state)
{
	struct trace_fixture *f = *state;
	const struct ft_long_wait *l;
	const struct ft_late_frame *late;
	struct ft_model *m;

	merged_failed_in_fence(f);
	f->each_context = 1;	/* per-context rows, as --by context keeps them */
	m = trace_fixture_analyze(f);
	/* errors per timeline: B and the array that carried B's error */
	assert_int_equal(m->fences.timelines.items[0].context, A_CTX);
	for (unsigned int i = 0; i < m->fences.timelines.n; i++)
		assert_int_equal(m->fences.timelines.items[i].errors,
				 m->fences.timelines.items[i].context == B_CTX ||
				 m->fences.timelines.items[i].context == MERGE_CTX);
	/* the stall: on the array, held by member B, failed, and the frame still shown */
	assert_int_equal(m->waits.long_waits_total, 1);
	l = &m->waits.long_waits[0];
	assert_int_equal(l->key, (uint64_t)MERGE_CTX << 32 | 1);
	assert_int_equal(l->member_key, (uint64_t)B_CTX << 32 | 1);
	assert_int_equal(l->member_error, -2);
	assert_int_equal(l->error, -2);
	assert_true(l->ret_known);
	assert_int_equal(l->ret, 0);
	assert_int_equal(l->commit, COMMIT);
	assert_int_equal(l->plane, PLANE);
	assert_int_equal(l->outcome, FT_OUTCOME_SHOWN);
	assert_int_equal(l->outcome_ts, 107 * 16 * MS + 20000);
	/* the late frame is blocked by member B, not by the array */
	assert_int_equal(m->display.crtcs.n, 1);
	assert_string_equal(m->display.crtcs.items[0].name, LONG_NAME);
	assert_int_equal(m->display.crtcs.items[0].late_count, 1);
	late = &m->display.crtcs.items[0].late[0];
	assert_int_equal(late->blocking.context, B_CTX);
	assert_int_equal(late->blocking.seqno, 1);
	assert_true(late->blocking.merged);
	assert_int_equal(late->blocking.merged_context, MERGE_CTX);
	trace_fixture_report(f, 0);
	assert_non_null(strstr(f->text, "merged fence: the member that held it is sw_sync producer-B context 7 seqno 1\n"));
	assert_non_null(strstr(f->text, "signalled with an error: -ENOENT; commit 7's wait on plane 33 returned 0; "
				      "the commit went on regardless (the atomic helpers ignore fence errors): "
				      "its out-fence signalled 10.01 ms later, the frame was shown with that buffer\n"));
	assert_non_null(strstr(f->text, "(the late member of merged fence context 10 seqno 1)"));
	assert_non_null(strstr(f->text, "  signalled with an error: 2\n"));
	trace_fixture_report(f, 1);
	assert_non_null(strstr(f->text, "\"errors\": 1,"));
	assert_non_null(strstr(f->text, "\"error\": -2, \"late_member\": {\"context\": 7, \"seqno\": 1}, "
				      "\"commit\": 7, \"plane\": 33, \"wait_ret\": 0, \"outcome\": \"shown\""));
	assert_non_null(strstr(f->text, "\"merged\": {\"context\": 10, \"seqno\": 1}"));
}

/*
 * A commit that fails drops its out-fence unsignalled; a blocking commit
 * waits in swap_state for the one before's hw_done; a flip that never
 * completes times out in wait_for_flip_done (waits_on: itself).
 */
static void test_discard_and_commit_stall_stages(void **state)
{
	struct trace_fixture *f = *state;
	struct payload p;
	struct ft_model *m;

	tb_set_pid(f->tb, 50);
	fence(f, 1, 1 * MS, "dma_fence_init", OUT_CTX, 2);
	out_create(f, 1 * MS + 1000, 9, 2);
	series_commit_failed(&p, 9, -22);
	add(f, 1, 2 * MS, "drm_fence_commit_failed", &p);
	out_discard(f, 2 * MS + 1000, 9, 2, -22);
	fence(f, 1, 2 * MS + 2000, "dma_fence_destroy", OUT_CTX, 2);
	commit_stall(f, 300 * MS, 11, 10, 0, 0, 250 * MS);
	commit_stall(f, 10400 * MS, 12, 12, 1, -110, 10000 * MS);
	m = trace_fixture_analyze(f);
	assert_int_equal(m->display.crtcs.items[0].discarded, 1);
	assert_int_equal(m->fences.timelines.items[0].destroyed_unsignaled, 1);
	assert_int_equal(m->commits.n_failed, 1);
	assert_true(m->commits.failed[0].discarded);
	assert_int_equal(m->commits.failed[0].discarded_seqno, 2);
	assert_int_equal(m->commits.n_stalls, 2);
	trace_fixture_report(f, 0);
	assert_non_null(strstr(f->text, "commit 9 at 0.002000 s: error -22 (-EINVAL); out-fence discarded: "
				      "commit failed with -EINVAL (CRTC 51, out-fence context 1 seqno 2, never signalled)\n"));
	assert_non_null(strstr(f->text, "  1 out-fences discarded unsignalled: their commits failed"));
	assert_non_null(strstr(f->text, "    of them out-fences of failed commits: 1\n"));
	assert_non_null(strstr(f->text, "commit 11 on CRTC 51 waited 250.00 ms for commit 10's hw_done (ret 0)\n"));
	assert_non_null(strstr(f->text, "commit 12 on CRTC 51: its own flip_done timed out after 10.00 s "
				      "(ret -ETIMEDOUT): the flip never completed\n"));
	trace_fixture_report(f, 1);
	assert_non_null(strstr(f->text, "\"out_fence_discarded\": {\"crtc\": 51, \"context\": 1, \"seqno\": 2}"));
	assert_non_null(strstr(f->text, "\"discarded_out_fences\": 1,"));
}

/* A stock kernel does not trace errors: unknown, and said so, not 0. */
static void test_stock_errors_unknown(void **state)
{
	struct trace_fixture *f = *state;

	assert_int_equal(tb_fence(f->tb, 0, MS, "dma_fence_init", "sw_sync", "producer-B", 7, 1), 0);
	assert_int_equal(tb_fence(f->tb, 0, 2 * MS, "dma_fence_signaled", "sw_sync", "producer-B", 7, 1), 0);
	trace_fixture_analyze(f);
	trace_fixture_report(f, 0);
	assert_non_null(strstr(f->text, "errors: unknown (\"?\")"));
	assert_non_null(strstr(f->text, "  signalled with an error: unknown"));
	trace_fixture_report(f, 1);
	assert_non_null(strstr(f->text, "\"errors\": null,"));
}

/*
 * The out-fence's dma_fence_signaled traced after the commit's
 * cleanup_done (the committing task, woken on another CPU, finished first:
 * seen under TCG on a loaded host): the late frame still names its commit
 * and the plane whose in-fence held it up.
 */
static void test_signal_traced_after_cleanup(void **state)
{
	struct trace_fixture *f = *state;
	uint64_t t = 100 * 16 * MS + 1 * MS;
	const struct ft_late_frame *late;
	struct ft_model *m;
	struct payload p;

	land(f, 100, 0);
	tb_set_pid(f->tb, 50);
	fence(f, 1, t - 500000, "dma_fence_init", A_CTX, 1);
	fence(f, 1, t, "dma_fence_init", OUT_CTX, 1);
	out_create(f, t + 1000, COMMIT, 1);
	fence(f, 1, t + 2000, "dma_fence_wait_start", A_CTX, 1);
	series_plane_wait_begin(&p, COMMIT, PLANE, A_CTX, 1);
	add(f, 1, t + 3000, "drm_fence_wait_begin", &p);
	tb_set_pid(f->tb, 0);
	land(f, 101, 0);
	tb_set_pid(f->tb, 40);
	fence(f, 0, t + 20 * MS, "dma_fence_signaled", A_CTX, 1);	/* after vblank 101 */
	tb_set_pid(f->tb, 50);
	fence(f, 1, t + 20 * MS + 5000, "dma_fence_wait_end", A_CTX, 1);
	series_plane_wait_end(&p, COMMIT, PLANE, A_CTX, 1, 0);	/* 20.003 ms after its begin */
	add(f, 1, t + 20 * MS + 6000, "drm_fence_wait_end", &p);
	series_cleanup_done(&p, COMMIT);
	add(f, 1, 102 * 16 * MS - 1000, "drm_fence_cleanup_done", &p);
	tb_set_pid(f->tb, 0);
	land(f, 102, 1);
	m = trace_fixture_analyze(f);
	assert_int_equal(m->display.crtcs.n, 1);
	assert_int_equal(m->display.crtcs.items[0].late_count, 1);
	late = &m->display.crtcs.items[0].late[0];
	assert_int_equal(late->commit, COMMIT);
	assert_true(late->blocking.known);
	assert_int_equal(late->blocking.plane, PLANE);
	assert_int_equal(late->blocking.context, A_CTX);
}

/*
 * The series' wait events carry no duration: it is the time from the
 * drm_fence_wait_begin of the same commit and plane.  An end whose begin
 * was not traced (before the trace, or lost) is not counted: no made-up
 * duration.
 */
static void test_plane_wait_duration_from_begin(void **state)
{
	struct trace_fixture *f = *state;
	const struct ft_wait_stats *planes;
	struct ft_model *m;
	struct payload p;

	tb_set_pid(f->tb, 50);
	series_plane_wait_end(&p, COMMIT - 1, PLANE, A_CTX, 1, 0);	/* its begin untraced */
	add(f, 1, 1 * MS, "drm_fence_wait_end", &p);
	series_plane_wait_begin(&p, COMMIT, 31, A_CTX, 2);		/* another plane's */
	add(f, 1, 2 * MS, "drm_fence_wait_begin", &p);
	series_plane_wait_begin(&p, COMMIT, PLANE, A_CTX, 2);
	add(f, 1, 3 * MS, "drm_fence_wait_begin", &p);
	series_plane_wait_end(&p, COMMIT, PLANE, A_CTX, 2, 0);
	add(f, 1, 8 * MS, "drm_fence_wait_end", &p);
	tb_set_pid(f->tb, 0);
	m = trace_fixture_analyze(f);
	planes = &m->waits.by_plane;
	assert_int_equal(planes->n, 1);
	assert_int_equal(planes->items[0].id, PLANE);
	assert_int_equal(planes->items[0].count, 1);
	assert_int_equal(planes->items[0].total_ns, 5 * MS);
}

/*
 * A series before the tidying traced an -EDEADLK backoff as
 * drm_fence_commit_failed: the commit goes on under its id, so it is no
 * failure, and the commit's later events still find it.
 */
static void test_backoff_is_no_failure(void **state)
{
	struct trace_fixture *f = *state;
	struct ft_model *m;
	struct payload p;

	tb_set_pid(f->tb, 50);
	series_commit(&p, COMMIT, 0);
	add(f, 1, 1 * MS, "drm_fence_commit", &p);
	series_commit_failed(&p, COMMIT, -EDEADLK);
	add(f, 1, 2 * MS, "drm_fence_commit_failed", &p);
	series_commit_failed(&p, COMMIT, -EINVAL);
	add(f, 1, 3 * MS, "drm_fence_commit_failed", &p);
	tb_set_pid(f->tb, 0);
	m = trace_fixture_analyze(f);
	assert_int_equal(m->commits.failed_total, 1);
	assert_int_equal(m->commits.n_failed, 1);
	assert_int_equal(m->commits.failed[0].err, -EINVAL);
}

int run_report_series_tests(void)
{
	const struct CMUnitTest tests[] = {
		trace_fixture_series_test(test_merged_member_and_failed_fence),
		trace_fixture_series_test(test_discard_and_commit_stall_stages),
		trace_fixture_series_test(test_signal_traced_after_cleanup),
		trace_fixture_series_test(test_plane_wait_duration_from_begin),
		trace_fixture_series_test(test_backoff_is_no_failure),
		trace_fixture_stock_test(test_stock_errors_unknown),
	};

	return cmocka_run_group_tests_name("report-series", tests, NULL, NULL);
}
