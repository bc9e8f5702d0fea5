// SPDX-License-Identifier: GPL-2.0
/*
 * test-mutant-kills.c - the cases the mutation smoke (tests/mutants) found
 * that no other test held: a frame exactly one vblank late, a vblank event
 * of another sequence after a signal, which of a commit's in-fence waits
 * blocked it (stock and series), a wait cut short while events were lost,
 * the unit boundary of a duration, which way diff gates, lost pages of
 * unknown size, the ring buffer's exact overrun count, the escapes of CSV
 * and JSON, and the timeline's test-only commits.  Each test names the
 * mutant it kills (tests/mutants/mutants.list).
 */
#include <stdlib.h>
#include <string.h>

#include "analyze.h"
#include "diff.h"
#include "report.h"
#include "series-formats.h"
#include "timeline.h"
#include "trace-fixture.h"
#include "unit.h"

#define VBLANK (16 * MS)
#define OUT_CTX 1
#define CRTC_TL "CRTC:51-crtc-0"
#define COMMIT 7

static const struct report_opts all = { SEC_ALL, NULL, -1, -1, -1, 0, 0 };

static void fence(struct trace_fixture *f, unsigned int cpu, uint64_t ts, const char *ev,
		  uint32_t ctx, uint32_t seqno)
{
	const char *drv = ctx == OUT_CTX ? "vkms" : "sw_sync";
	const char *tl = ctx == OUT_CTX ? CRTC_TL : ctx == 3 ? "producer-A" : "producer-B";

	assert_int_equal(tb_fence(f->tb, cpu, ts, ev, drv, tl, ctx, seqno), 0);
}

static void land(struct trace_fixture *f, uint32_t seq, uint32_t out_seqno)
{
	trace_fixture_land(f, seq, out_seqno, NULL);
}

static void assert_has(const char *s, const char *want)
{
	if (!strstr(s, want))
		fail_msg("no \"%s\" in:\n%s", want, s);
}

/*
 * late-frame-off-by-one, json-late-by-vblanks: out-fence 1 is made after
 * vblank 100 and lands on 102, one vblank after its target; out-fence 2,
 * made after 102, lands on 103, its target: one late frame, late by 1.
 */
static void test_one_vblank_late(void **state)
{
	struct trace_fixture *f = *state;
	const struct ft_crtc *c;
	struct ft_model *m;

	land(f, 100, 0);
	fence(f, 1, 100 * VBLANK + MS, "dma_fence_init", OUT_CTX, 1);
	land(f, 101, 0);
	land(f, 102, 1);
	fence(f, 1, 102 * VBLANK + MS, "dma_fence_init", OUT_CTX, 2);
	land(f, 103, 2);
	m = trace_fixture_analyze(f);
	assert_int_equal(m->display.crtcs.n, 1);
	c = &m->display.crtcs.items[0];
	assert_int_equal(c->frames, 2);
	assert_int_equal(c->late_count, 1);
	assert_int_equal(c->late[0].out_seqno, 1);
	assert_int_equal(c->late[0].target_seq, 101);
	assert_int_equal(c->late[0].landed_seq, 102);
	assert_has(trace_fixture_render(f, report_json, &all),
		   "\"target_vblank\": 101, \"landed_vblank\": 102, \"late_by_vblanks\": 1, ");
}

/*
 * confirm-ignores-sequence: a signal after delivered(102) is confirmed only
 * by the vblank event of sequence 102.  Followed by one of another
 * sequence, it is not a real vblank's: no late frame, no pipe learnt, and
 * at the end of the trace it counts as signalled by a fake vblank.
 */
static void test_vblank_of_another_sequence_confirms_nothing(void **state)
{
	struct trace_fixture *f = *state;
	const struct ft_crtc *c;
	struct ft_model *m;

	land(f, 100, 0);
	fence(f, 1, 100 * VBLANK + MS, "dma_fence_init", OUT_CTX, 1);
	land(f, 101, 0);
	trace_fixture_land(f, 102, 1, &(struct tf_land){ .event_seq = 999 });
	m = trace_fixture_analyze(f);
	c = &m->display.crtcs.items[0];
	assert_int_equal(c->frames, 1);
	assert_int_equal(c->late_count, 0);
	assert_int_equal(c->pipe, -1);
	assert_int_equal(c->fake_vblank, 1);
}

/*
 * blocking-wait-first: the committing task (pid 50) waits 2 ms on A, then
 * 30 ms on B, which signals last: B blocked the frame, though A's wait
 * ended first.  Both waits are long, so only the signal order decides.
 */
static void test_blocking_wait_is_the_last_to_signal(void **state)
{
	struct trace_fixture *f = *state;
	uint64_t t = 100 * VBLANK + MS;
	const struct ft_blocking *b;
	struct ft_model *m;

	fence(f, 1, MS, "dma_fence_init", 3, 1);
	fence(f, 1, MS, "dma_fence_init", 4, 1);
	land(f, 100, 0);
	tb_set_pid(f->tb, 50);
	fence(f, 1, t, "dma_fence_init", OUT_CTX, 1);
	fence(f, 1, t + 1 * MS, "dma_fence_wait_start", 3, 1);
	fence(f, 1, t + 3 * MS, "dma_fence_signaled", 3, 1);
	fence(f, 1, t + 3 * MS + 1000, "dma_fence_wait_end", 3, 1);
	fence(f, 1, t + 4 * MS, "dma_fence_wait_start", 4, 1);
	fence(f, 1, t + 34 * MS, "dma_fence_signaled", 4, 1);
	fence(f, 1, t + 34 * MS + 1000, "dma_fence_wait_end", 4, 1);
	tb_set_pid(f->tb, 0);
	for (uint32_t s = 101; s <= 103; s++)
		land(f, s, s == 103);
	m = trace_fixture_analyze(f);
	assert_int_equal(m->display.crtcs.items[0].late_count, 1);
	b = &m->display.crtcs.items[0].late[0].blocking;
	assert_true(b->known);
	assert_int_equal(b->context, 4);
	assert_int_equal(b->wait_ns, 30 * MS + 1000);
}

/* The series' drm_fence_wait_begin or _end (@end) of commit COMMIT on @plane, fence (@ctx, 1). */
static void plane_wait(struct trace_fixture *f, uint64_t ts, int end, uint32_t plane, uint32_t ctx)
{
	struct payload p;
	const char *name = series_plane_wait(&p, end, COMMIT, plane, ctx, 1);

	trace_fixture_event(f, 1, ts, name, p.b, p.len);
}

static void out_create(struct trace_fixture *f, uint64_t ts, uint32_t seqno)
{
	struct payload p;

	series_out_create(&p, COMMIT, 51, OUT_CTX, seqno, "crtc-0");
	trace_fixture_event(f, 1, ts, "drm_fence_out_create", p.b, p.len);
}

/* A's and B's fences, vblank 100, then pid 50's commit at @t (out-fence 1). */
static void plane_commit_begin(struct trace_fixture *f, uint64_t t)
{
	fence(f, 1, MS, "dma_fence_init", 3, 1);
	fence(f, 1, MS, "dma_fence_init", 4, 1);
	land(f, 100, 0);
	tb_set_pid(f->tb, 50);
	fence(f, 1, t, "dma_fence_init", OUT_CTX, 1);
	out_create(f, t + 1000, 1);
}

/* Vblanks 101-103, the commit landing on 103: the late frame's blocking fence. */
static const struct ft_blocking *plane_commit_blocking(struct trace_fixture *f)
{
	struct ft_model *m;

	tb_set_pid(f->tb, 0);
	for (uint32_t s = 101; s <= 103; s++)
		land(f, s, s == 103);
	m = trace_fixture_analyze(f);
	assert_int_equal(m->display.crtcs.items[0].late_count, 1);
	assert_true(m->display.crtcs.items[0].late[0].blocking.known);
	return &m->display.crtcs.items[0].late[0].blocking;
}

/*
 * blocking-plane-wait-first: with the series, a commit's plane waits say
 * which in-fence held it: plane 31 waited 2 ms on A, then plane 33 30 ms
 * on B.  Both long: the later one, B on plane 33, blocked the frame.
 */
static void test_blocking_plane_wait_is_the_last(void **state)
{
	struct trace_fixture *f = *state;
	uint64_t t = 100 * VBLANK + MS;
	const struct ft_blocking *b;

	plane_commit_begin(f, t);
	plane_wait(f, t + 1 * MS + 1000, 0, 31, 3);		/* 2 ms on A */
	fence(f, 1, t + 3 * MS, "dma_fence_signaled", 3, 1);
	plane_wait(f, t + 3 * MS + 1000, 1, 31, 3);
	plane_wait(f, t + 4 * MS + 1000, 0, 33, 4);		/* 30 ms on B */
	fence(f, 1, t + 34 * MS, "dma_fence_signaled", 4, 1);
	plane_wait(f, t + 34 * MS + 1000, 1, 33, 4);
	b = plane_commit_blocking(f);
	assert_int_equal(b->plane, 33);
	assert_int_equal(b->context, 4);
	assert_int_equal(b->wait_ns, 30 * MS);
}

/*
 * blocking-plane-wait-end: plane 31 waited 30 ms on A, then plane 33 2 ms
 * on B, which had signalled 20 ms before (its task preempted: seen on a
 * loaded host).  Both long, and B's wait ended last, but A signalled
 * last: A on plane 31 blocked the frame.
 */
static void test_blocking_plane_wait_is_the_last_signal(void **state)
{
	struct trace_fixture *f = *state;
	uint64_t t = 100 * VBLANK + MS;
	const struct ft_blocking *b;

	plane_commit_begin(f, t);
	plane_wait(f, t + 1 * MS + 1000, 0, 31, 3);		/* 30 ms on A */
	fence(f, 1, t + 11 * MS, "dma_fence_signaled", 4, 1);
	fence(f, 1, t + 31 * MS, "dma_fence_signaled", 3, 1);
	plane_wait(f, t + 31 * MS + 1000, 1, 31, 3);
	plane_wait(f, t + 31 * MS + 2000, 0, 33, 4);		/* 2 ms on B, signalled */
	plane_wait(f, t + 33 * MS + 2000, 1, 33, 4);
	b = plane_commit_blocking(f);
	assert_int_equal(b->plane, 31);
	assert_int_equal(b->context, 3);
	assert_int_equal(b->wait_ns, 30 * MS);
}

/*
 * interrupted-despite-lost: a wait that ends before its fence's signal is
 * interrupted, unless events were lost meanwhile (on any CPU): then the
 * signal may be among them, and the wait is not judged.
 */
static void test_wait_not_judged_across_lost_events(void **state)
{
	struct trace_fixture *f = *state;
	struct ft_model *m;

	fence(f, 0, 1 * MS, "dma_fence_init", 5, 1);
	tb_set_pid(f->tb, 60);
	fence(f, 1, 2 * MS, "dma_fence_wait_start", 5, 1);
	tb_set_pid(f->tb, 0);
	assert_int_equal(tb_missed(f->tb, 0, 3), 0);
	fence(f, 0, 4 * MS, "dma_fence_init", 5, 2);
	tb_set_pid(f->tb, 60);
	fence(f, 1, 9 * MS, "dma_fence_wait_end", 5, 1);
	tb_set_pid(f->tb, 0);
	fence(f, 0, 20 * MS, "dma_fence_signaled", 5, 1);
	m = trace_fixture_analyze(f);
	assert_int_equal(m->lost, 3);
	assert_int_equal(m->waits.by_task.n, 1);
	assert_int_equal(m->waits.by_task.items[0].count, 1);
	assert_int_equal(m->waits.by_task.items[0].interrupted, 0);
}

/* dur-unit-boundary: each unit starts at 1000 of the one below. */
static void test_duration_units(void **state)
{
	char b[24];

	(void)state;
	assert_string_equal(report_dur(b, sizeof(b), 999), "999 ns");
	assert_string_equal(report_dur(b, sizeof(b), 1000), "1.0 us");
	assert_string_equal(report_dur(b, sizeof(b), 1000000), "1.00 ms");
	assert_string_equal(report_dur(b, sizeof(b), 1000000000), "1.00 s");
}

/*
 * lost-warning-unknown: a page flagged as having lost events without
 * their number (the ring buffer could not store it) still warns.
 */
static void test_lost_events_of_unknown_number_warn(void **state)
{
	struct trace_fixture *f = *state;
	const char *s;

	fence(f, 0, 1 * MS, "dma_fence_init", 5, 1);
	assert_int_equal(tb_missed(f->tb, 0, -1), 0);
	fence(f, 0, 2 * MS, "dma_fence_signaled", 5, 1);
	trace_fixture_analyze(f);
	s = trace_fixture_render(f, report_text, &all);
	assert_has(s, "events: 2 read, 0 lost (+ pages with an unknown number lost), span ");
	assert_has(s, "\nWARNING: events were lost; counts and latencies below may be short.\n");
	assert_has(s, "  lost events: 0 + unknown\n");
}

/*
 * overrun-ignored: a page flags 2 events lost, but the recorder's per-CPU
 * stats say the ring overwrote 7: the exact count wins, and is said.
 */
static void test_overrun_of_the_stats_is_the_lost_count(void **state)
{
	static const char *const stats[] = { "CPU: 0\nentries: 0\noverrun: 7\nread events: 3\n",
					     "CPU: 1\nentries: 0\noverrun: 0\nread events: 0\n" };
	struct trace_fixture *f = *state;
	struct ft_model *m;

	tb_set_cpu_stats(f->tb, stats);
	fence(f, 0, 1 * MS, "dma_fence_init", 5, 1);
	assert_int_equal(tb_missed(f->tb, 0, 2), 0);
	fence(f, 0, 2 * MS, "dma_fence_signaled", 5, 1);
	fence(f, 0, 3 * MS, "dma_fence_destroy", 5, 1);
	m = trace_fixture_analyze(f);
	assert_int_equal(m->missing, 0);
	assert_int_equal(m->lost, 7);
	assert_true(m->lost_exact);
	assert_has(trace_fixture_render(f, report_text, &all), "events: 3 read, 7 lost, span ");
}

/* csv-quote-not-doubled, html-amp-unescaped: a name with , " and &. */
static void test_csv_and_json_escape_a_name(void **state)
{
	struct trace_fixture *f = *state;

	assert_int_equal(tb_fence(f->tb, 0, 1 * MS, "dma_fence_init", "sw_sync", "a,\"b\"&c", 5, 1), 0);
	assert_int_equal(tb_fence(f->tb, 0, 2 * MS, "dma_fence_signaled", "sw_sync", "a,\"b\"&c", 5, 1), 0);
	trace_fixture_analyze(f);
	assert_has(trace_fixture_render(f, report_csv, &all), "\n,sw_sync,\"a,\"\"b\"\"&c\",1,1,");	/* one fence: its group's row */
	assert_has(trace_fixture_render(f, report_json, &all), "\"a,\\\"b\\\"\\u0026c\"");
}

/* The series' drm_fence_commit of commit @id with atomic ioctl @flags. */
static void commit_event(struct trace_fixture *f, uint64_t ts, uint64_t id, uint32_t flags)
{
	struct payload p;

	series_commit(&p, id, flags);
	trace_fixture_event(f, 1, ts, "drm_fence_commit", p.b, p.len);
}

/*
 * timeline-test-only-drawn: an atomic commit with DRM_MODE_ATOMIC_TEST_ONLY
 * (0x100) only checks and never flips: the page draws the other one only.
 */
static void test_timeline_leaves_out_test_only_commits(void **state)
{
	struct trace_fixture *f = *state;
	struct tl_data d;
	char err[256];

	commit_event(f, 1 * MS, 9, 0x100);
	commit_event(f, 2 * MS, 10, 0x201);
	trace_fixture_write(f);
	if (tl_collect(&d, &f->a, f->path, err, sizeof(err)))
		fail_msg("tl_collect: %s", err);
	assert_int_equal(d.commits.n, 1);
	assert_int_equal(TL_AT(d.commits, struct tl_commit, 0)->id, 10);
	tl_free(&d);
}

/* Two fixtures: diff's BASE and NEW. */
/* Four fences of producer-A on @f, each signalled @ms after its creation. */
static const struct ft_model *latency_trace(struct trace_fixture *f, uint64_t ms)
{
	for (uint32_t s = 1; s <= 4; s++) {
		fence(f, 0, s * 100 * MS, "dma_fence_init", 3, s);
		fence(f, 0, s * 100 * MS + ms * MS, "dma_fence_signaled", 3, s);
	}
	return trace_fixture_analyze(f);
}

/*
 * diff-latency-swapped: 10 ms in BASE, 5 ms in NEW is an improvement, not
 * a regression; the other way round it is one.
 */
static void test_diff_gates_latency_from_base_to_new(void **state)
{
	struct trace_fixture *pair = *state;
	const struct ft_model *slow = latency_trace(&pair[0], 10), *fast = latency_trace(&pair[1], 5);
	struct diff_opts o = { 10, 0.99, "p99" };
	FILE *out = trace_fixture_text(&pair[0]);

	assert_int_equal(diff_models(out, slow, fast, &o), 0);
	assert_int_equal(diff_models(out, fast, slow, &o), 1);
	assert_int_equal(fclose(out), 0);
	assert_has(pair[0].text, "-50.0 %\n");
	assert_has(pair[0].text, "+100.0 %  REGRESSED\n");
}

int run_mutant_kills_tests(void)
{
	const struct CMUnitTest tests[] = {
		trace_fixture_stock_test(test_one_vblank_late),
		trace_fixture_stock_test(test_vblank_of_another_sequence_confirms_nothing),
		trace_fixture_stock_test(test_blocking_wait_is_the_last_to_signal),
		trace_fixture_series_test(test_blocking_plane_wait_is_the_last),
		trace_fixture_series_test(test_blocking_plane_wait_is_the_last_signal),
		trace_fixture_stock_test(test_wait_not_judged_across_lost_events),
		cmocka_unit_test(test_duration_units),
		trace_fixture_stock_test(test_lost_events_of_unknown_number_warn),
		trace_fixture_stock_test(test_overrun_of_the_stats_is_the_lost_count),
		trace_fixture_stock_test(test_csv_and_json_escape_a_name),
		trace_fixture_series_test(test_timeline_leaves_out_test_only_commits),
		trace_fixture_pair_test(test_diff_gates_latency_from_base_to_new),
	};

	return cmocka_run_group_tests_name("mutant kills", tests, NULL, NULL);
}
