// SPDX-License-Identifier: GPL-2.0
/*
 * test-failed-frames.c - frames that failed (lib/model-failed-frames.c):
 * a CRTC's out-fence destroyed unsignalled is a commit rejected after the
 * ioctl made it; only such out-fences count, events lost meanwhile make it
 * "failed or lost" unless the series' discard says which commit failed, a
 * commit the kernel makes again (EDEADLK backoff, a restart) is no failure,
 * with the series an undiscarded drop is none either, and the report
 * states each in every format.
 *
 * Vblank N is at N * 16 ms (trace_fixture_land, CPU 0); frame 1 lands on
 * 100, frame 3 on 102; frame 2's commit is pid 50's on CPU 1, rejected.
 */
#include <errno.h>
#include <string.h>

#include "diff.h"
#include "series-formats.h"
#include "trace-fixture.h"
#include "unit.h"

#define VB(n) ((uint64_t)(n) * 16 * MS)
#define OUT_CTX 1
#define COMMIT 12

static void out_fence(struct trace_fixture *f, uint64_t ts, const char *ev, uint32_t seqno)
{
	tb_set_pid(f->tb, 50);
	assert_int_equal(tb_fence(f->tb, 1, ts, ev, "vkms", "CRTC:51-crtc-0", OUT_CTX, seqno), 0);
	tb_set_pid(f->tb, 0);
}

static void add(struct trace_fixture *f, uint64_t ts, const char *name, const struct payload *p)
{
	tb_set_pid(f->tb, 50);
	trace_fixture_event(f, 1, ts, name, p->b, p->len);
	tb_set_pid(f->tb, 0);
}

static int discard_err = -ENOSPC;	/* what the series' discard of frame 2 says */

/* The series' account of frame 2's rejection: the commit, its failure, the discard. */
static void series_rejection(struct trace_fixture *f, uint64_t t)
{
	struct payload p;

	series_commit(&p, COMMIT, 0);
	add(f, t + 1000, "drm_fence_commit", &p);
	series_commit_failed(&p, COMMIT, discard_err);
	add(f, t + 2000, "drm_fence_commit_failed", &p);
	series_out_discard(&p, COMMIT, 51, OUT_CTX, 2, discard_err);
	add(f, t + 3000, "drm_fence_out_discard", &p);
}

/*
 * Frames 1 and 3 land on 100 and 102; frame 2's out-fence is made 1 ms
 * after vblank 100 and destroyed 40 us later (@series: with the series'
 * events in between), or (@lost) 17 ms later with events lost on CPU 0
 * across vblank 101.
 */
static struct ft_model *rejected(struct trace_fixture *f, int series, int lost)
{
	uint64_t made = VB(100) + MS, gone = lost ? VB(101) + MS : made + 40000;

	out_fence(f, VB(99) + MS, "dma_fence_init", 1);
	trace_fixture_land(f, 99, 0, NULL);
	trace_fixture_land(f, 100, 1, NULL);
	out_fence(f, made, "dma_fence_init", 2);
	if (series)
		series_rejection(f, made);
	if (lost)
		assert_int_equal(tb_missed(f->tb, 0, 5), 0);
	trace_fixture_land(f, 101, 0, NULL);
	out_fence(f, gone, "dma_fence_destroy", 2);
	out_fence(f, VB(101) + 2 * MS, "dma_fence_init", 3);
	trace_fixture_land(f, 102, 3, NULL);
	return trace_fixture_analyze(f);
}

static const struct ft_crtc *crtc(struct ft_model *m)
{
	assert_int_equal(m->display.crtcs.n, 1);
	return &m->display.crtcs.items[0];
}

/* Stock events: the out-fence destroyed unsignalled is the one failed frame, error unknown. */
static void test_rejected_commit_fails_its_frame(void **state)
{
	struct trace_fixture *f = *state;
	const struct ft_crtc *c = crtc(rejected(f, 0, 0));
	const struct ft_failed_frame *ff = &c->failed[0];

	assert_int_equal(c->fs.failed, 1);
	assert_int_equal(c->fs.failed_or_lost, 0);
	assert_int_equal(c->n_failed, 1);
	assert_int_equal(ff->out_seqno, 2);
	assert_int_equal(ff->pid, 50);
	assert_int_equal(ff->submit_ns, VB(100) + MS);
	assert_int_equal(ff->ended_ns, VB(100) + MS + 40000);
	assert_int_equal(ff->commit, 0);
	assert_int_equal(ff->lost, 0);
	/* neither on time nor late: its frame was never shown */
	assert_int_equal(c->fs.on_time + c->late_count + c->fs.unjudged, 2);
	assert_non_null(strstr(trace_fixture_report(f, 0),
			       "  failed: 1 (commit rejected after its out-fence was made: never shown)\n"));
	assert_non_null(strstr(f->text, "; error not traced (needs the series' drm_fence_out_discard)\n"));
	assert_non_null(strstr(trace_fixture_report(f, 1),
			       "\"failed\": 1, \"failed_or_lost\": 0, \"retried\": 0, \"failed_frames_kept\": 1"));
	assert_non_null(strstr(f->text, "\"ended_ns\": 1601040000, \"commit\": null, \"error\": null, "
			       "\"events_lost\": false}"));
}

/* Events lost while it lived: its signal may be what was lost. */
static void test_lost_events_make_it_failed_or_lost(void **state)
{
	struct trace_fixture *f = *state;
	const struct ft_crtc *c = crtc(rejected(f, 0, 1));

	assert_int_equal(c->fs.failed, 0);
	assert_int_equal(c->fs.failed_or_lost, 1);
	assert_int_equal(c->n_failed, 1);
	assert_int_equal(c->failed[0].lost, 1);
	assert_non_null(strstr(trace_fixture_report(f, 0), "  failed: 0 (commit rejected after its out-fence was made: "
			       "never shown); 1 more out-fences destroyed unsignalled while events were lost"));
	assert_non_null(strstr(f->text, "; events were lost meanwhile: failed, or its signal lost\n"));
}

/* The series names the commit and its error, and a discard is certain despite lost events. */
static void test_series_names_commit_and_error(void **state)
{
	struct trace_fixture *f = *state;
	const struct ft_crtc *c = crtc(rejected(f, 1, 1));

	assert_int_equal(c->fs.failed, 1);
	assert_int_equal(c->fs.failed_or_lost, 0);
	assert_int_equal(c->failed[0].commit, COMMIT);
	assert_int_equal(c->failed[0].err, -ENOSPC);
	assert_int_equal(c->failed[0].lost, 0);
	assert_non_null(strstr(trace_fixture_report(f, 0), "; commit 12 failed with -28 (-ENOSPC)\n"));
	assert_non_null(strstr(trace_fixture_report(f, 1), "\"commit\": 12, \"error\": -28, \"events_lost\": false}"));
}

/* Signalled out-fences and unsignalled in-fences destroyed are not failed frames. */
static void test_only_unsignalled_out_fences_fail(void **state)
{
	struct trace_fixture *f = *state;
	const struct ft_crtc *c;

	out_fence(f, VB(99) + MS, "dma_fence_init", 1);
	assert_int_equal(tb_fence(f->tb, 1, VB(99) + 2 * MS, "dma_fence_init", "sw_sync", "producer-B", 4, 1), 0);
	trace_fixture_land(f, 99, 0, NULL);
	trace_fixture_land(f, 100, 1, NULL);
	out_fence(f, VB(100) + MS, "dma_fence_destroy", 1);
	assert_int_equal(tb_fence(f->tb, 1, VB(100) + 2 * MS, "dma_fence_destroy", "sw_sync", "producer-B", 4, 1), 0);
	c = crtc(trace_fixture_analyze(f));
	assert_int_equal(c->fs.failed, 0);
	assert_int_equal(c->fs.failed_or_lost, 0);
	assert_int_equal(c->n_failed, 0);
	assert_non_null(strstr(trace_fixture_report(f, 0), "  failed: 0 (commit rejected"));
	assert_null(strstr(f->text, "failed frames"));
}

/* A CRTC whose every commit failed still says so (no frame landed). */
static void test_all_failed_crtc_still_counts(void **state)
{
	struct trace_fixture *f = *state;

	out_fence(f, VB(99) + MS, "dma_fence_init", 1);
	out_fence(f, VB(99) + 2 * MS, "dma_fence_destroy", 1);
	trace_fixture_land(f, 99, 0, NULL);
	trace_fixture_land(f, 100, 0, NULL);
	assert_int_equal(crtc(trace_fixture_analyze(f))->fs.failed, 1);
	assert_non_null(strstr(trace_fixture_report(f, 0), "  no frame landed on a traced vblank\n"
			       "  failed: 1 (commit rejected"));
}

/* An -EDEADLK backoff on a stock kernel: the new out-fence is made before the old one goes. */
static void test_backoff_is_retried_not_failed(void **state)
{
	struct trace_fixture *f = *state;
	const struct ft_crtc *c;

	out_fence(f, VB(99) + MS, "dma_fence_init", 1);
	trace_fixture_land(f, 99, 0, NULL);
	out_fence(f, VB(99) + 2 * MS, "dma_fence_init", 2);	/* the retry's, same ioctl */
	out_fence(f, VB(99) + 3 * MS, "dma_fence_destroy", 1);	/* at the ioctl's return */
	trace_fixture_land(f, 100, 2, NULL);
	c = crtc(trace_fixture_analyze(f));
	assert_int_equal(c->fs.failed, 0);
	assert_int_equal(c->fs.retried, 1);
	assert_int_equal(c->n_failed, 0);
	assert_non_null(strstr(trace_fixture_report(f, 0), "  failed: 0 (commit rejected after its out-fence was made: "
			       "never shown); 1 dropped by commits the kernel made again"));
}

/* Frame 2 refused with @err, as the series' discard says. */
static const struct ft_crtc *discarded_with(struct trace_fixture *f, int err)
{
	const struct ft_crtc *c;

	discard_err = err;
	c = crtc(rejected(f, 1, 0));
	discard_err = -ENOSPC;
	return c;
}

/* With the series, a discard with -EDEADLK is a retry too, and one with -EBUSY a failure. */
static void test_series_error_decides_retry(void **state)
{
	const struct ft_crtc *c = discarded_with(*state, -EDEADLK);

	assert_int_equal(c->fs.failed, 0);
	assert_int_equal(c->fs.retried, 1);
}

static void test_series_ebusy_is_failed(void **state)
{
	const struct ft_crtc *c = discarded_with(*state, -EBUSY);

	assert_int_equal(c->fs.failed, 1);
	assert_int_equal(c->failed[0].err, -EBUSY);
}

/* With the series, an unsignalled out-fence no failed commit discarded is no failed frame. */
static void test_series_undiscarded_drop_is_no_failure(void **state)
{
	struct trace_fixture *f = *state;
	const struct ft_crtc *c = crtc(rejected(f, 0, 0));	/* the series' formats, no discard */

	assert_int_equal(c->fs.failed, 0);
	assert_int_equal(c->fs.failed_or_lost, 0);
	assert_int_equal(c->fs.retried, 0);
}

/* Frames 1-4 on vblanks 100-103, each after @refused commits made and dropped at once. */
static const struct ft_model *with_refusals(struct trace_fixture *f, unsigned int refused)
{
	uint32_t seq = 1;

	trace_fixture_land(f, 99, 0, NULL);
	for (uint32_t v = 100; v <= 103; v++) {
		uint64_t t = VB(v - 1) + MS;

		for (unsigned int k = 0; k < refused; k++, t += 100000) {
			out_fence(f, t, "dma_fence_init", seq);
			out_fence(f, t + 40000, "dma_fence_destroy", seq++);
		}
		out_fence(f, t, "dma_fence_init", seq);
		trace_fixture_land(f, v, seq++, NULL);
	}
	return trace_fixture_analyze(f);
}

/* diff gates on a CRTC's failed-frame rate, from 3 failed frames in NEW. */
static void test_diff_gates_failed_rate(void **state)
{
	struct trace_fixture *pair = *state;
	const struct ft_model *none = with_refusals(&pair[0], 0), *some = with_refusals(&pair[1], 1);
	struct diff_opts o = { 10, 0.99, "p99" };
	FILE *out = trace_fixture_text(&pair[0]);

	assert_int_equal(some->display.crtcs.items[0].fs.failed, 4);
	assert_int_equal(diff_models(out, some, none, &o), 0);
	assert_int_equal(diff_models(out, none, some, &o), 1);
	assert_int_equal(fclose(out), 0);
	assert_non_null(strstr(pair[0].text, "  CRTC 51 (crtc-0 on vkms)                         4               0"
			       "    50.00 %     0.00 %   -100.0 %\n"));
	assert_non_null(strstr(pair[0].text, "  CRTC 51 (crtc-0 on vkms)                         0               4"
			       "     0.00 %    50.00 %          -  REGRESSED\n"));
}

int run_failed_frames_tests(void)
{
	const struct CMUnitTest tests[] = {
		trace_fixture_stock_test(test_rejected_commit_fails_its_frame),
		trace_fixture_stock_test(test_lost_events_make_it_failed_or_lost),
		trace_fixture_series_test(test_series_names_commit_and_error),
		trace_fixture_stock_test(test_only_unsignalled_out_fences_fail),
		trace_fixture_stock_test(test_all_failed_crtc_still_counts),
		trace_fixture_stock_test(test_backoff_is_retried_not_failed),
		trace_fixture_series_test(test_series_error_decides_retry),
		trace_fixture_series_test(test_series_ebusy_is_failed),
		trace_fixture_series_test(test_series_undiscarded_drop_is_no_failure),
		trace_fixture_pair_test(test_diff_gates_failed_rate),
	};

	return cmocka_run_group_tests_name("failed frames", tests, NULL, NULL);
}
