// SPDX-License-Identifier: GPL-2.0
/*
 * test-stall-class.c - the frame class `stall` states live (live/stall-class.c)
 * held to the report's definitions: the target vblank found in a pipe's
 * ring of last vblanks (or bounded by its period when not there), producer
 * the moment an in-fence is pending past it, wakeup only on an exact
 * target and said up to which latch margin it holds, and never a class
 * where the vblanks cannot give the target.
 */
#include <string.h>

#include "stall-class.h"
#include "unit.h"

#define MS 1000000ull
#define PERIOD (16 * MS)

/* A pipe that had a vblank every PERIOD from @first, @n of them. */
static struct fs_vblank pipe_of(uint64_t first, unsigned int n)
{
	struct fs_vblank v = { .first_ts = first };

	for (unsigned int i = 0; i < n; i++)
		v.recent[i % FS_VBLANK_RING] = first + i * PERIOD;
	v.count = n - 1;
	v.last_ts = first + (n - 1) * PERIOD;
	return v;
}

static void verdict_at(const struct fs_vblank *pipes, unsigned int n, const struct stall_frame *f,
		       int64_t margin, uint64_t now, struct stall_verdict *v)
{
	struct stall_target t;

	stall_target_of(pipes, n, f->entry_ns, 0, now, &t);
	stall_class_judge(f, &t, margin, now, v);
}

static void test_target_from_the_ring(void **state)
{
	struct fs_vblank p = pipe_of(100 * MS, 6);	/* 100, 116, ..., 180 ms */
	struct stall_target t;

	(void)state;
	stall_target_of(&p, 1, 110 * MS, 0, 200 * MS, &t);
	assert_int_equal(t.at_ns, 116 * MS);
	assert_true(t.exact);
	/* on a vblank is before it: the next one */
	stall_target_of(&p, 1, 132 * MS, 0, 200 * MS, &t);
	assert_int_equal(t.at_ns, 148 * MS);
}

static void test_producer_while_pending(void **state)
{
	struct fs_vblank p = pipe_of(100 * MS, 6);
	struct stall_frame f = { .entry_ns = 110 * MS };
	struct stall_verdict v;

	(void)state;
	verdict_at(&p, 1, &f, -1, 150 * MS, &v);
	assert_int_equal(v.cls, FT_CLASS_PRODUCER);
	assert_true(v.pending);
	assert_int_equal(v.past_ns, 34 * MS);
	/* signalled past the target: the same, not pending */
	f.signal_ns = 120 * MS;
	f.signal_exact = 1;
	verdict_at(&p, 1, &f, -1, 150 * MS, &v);
	assert_int_equal(v.cls, FT_CLASS_PRODUCER);
	assert_false(v.pending);
	assert_int_equal(v.past_ns, 4 * MS);
}

static void test_not_yet_before_the_target(void **state)
{
	struct fs_vblank p = pipe_of(100 * MS, 6);	/* last vblank at 180 ms */
	struct stall_frame f = { .entry_ns = 185 * MS };
	struct stall_verdict v;

	(void)state;
	verdict_at(&p, 1, &f, -1, 190 * MS, &v);
	assert_int_equal(v.cls, FT_CLASS_UNKNOWN);
	assert_non_null(strstr(v.why, "not passed yet"));
	/* its vblank off: bounded by 1.5 periods of the mean, then producer */
	verdict_at(&p, 1, &f, -1, 185 * MS + 25 * MS, &v);
	assert_int_equal(v.cls, FT_CLASS_PRODUCER);
	assert_int_equal(v.past_ns, 1 * MS);
}

static void test_wakeup_says_its_margin(void **state)
{
	struct fs_vblank p = pipe_of(100 * MS, 6);
	struct stall_frame f = { .entry_ns = 110 * MS, .signal_ns = 111 * MS, .signal_exact = 1,
				 .woken_ns = 136 * MS };
	struct stall_verdict v;

	(void)state;
	verdict_at(&p, 1, &f, -1, 140 * MS, &v);
	assert_int_equal(v.cls, FT_CLASS_WAKEUP);
	assert_int_equal(v.margin_under_ns, 5 * MS);	/* target 116 - signal 111 */
	assert_int_equal(v.past_ns, 20 * MS);
	assert_false(v.pending);
	/* its waiter has not run yet, and the target has passed */
	f.woken_ns = 0;
	verdict_at(&p, 1, &f, -1, 130 * MS, &v);
	assert_int_equal(v.cls, FT_CLASS_WAKEUP);
	assert_true(v.pending);
}

static void test_margin_decides(void **state)
{
	struct fs_vblank p = pipe_of(100 * MS, 6);
	struct stall_frame f = { .entry_ns = 110 * MS, .signal_ns = 111 * MS, .signal_exact = 1,
				 .woken_ns = 136 * MS };
	struct stall_verdict v;

	(void)state;
	verdict_at(&p, 1, &f, 2 * MS, 140 * MS, &v);	/* deadline 114: signal in time */
	assert_int_equal(v.cls, FT_CLASS_WAKEUP);
	assert_int_equal(v.past_ns, 22 * MS);
	assert_int_equal(v.margin_under_ns, 0);
	verdict_at(&p, 1, &f, 6 * MS, 140 * MS, &v);	/* deadline 110: signal past it */
	assert_int_equal(v.cls, FT_CLASS_PRODUCER);
	assert_int_equal(v.past_ns, 1 * MS);
	f.woken_ns = 112 * MS;				/* both in time */
	verdict_at(&p, 1, &f, 2 * MS, 140 * MS, &v);
	assert_int_equal(v.cls, FT_CLASS_UNKNOWN);
	assert_non_null(strstr(v.why, "in time"));
}

static void test_a_later_fences_signal_only_bounds(void **state)
{
	struct fs_vblank p = pipe_of(100 * MS, 6);
	struct stall_frame f = { .entry_ns = 110 * MS, .signal_ns = 120 * MS, .signal_exact = 0 };
	struct stall_verdict v;

	(void)state;
	verdict_at(&p, 1, &f, -1, 150 * MS, &v);
	assert_int_equal(v.cls, FT_CLASS_UNKNOWN);
	assert_non_null(strstr(v.why, "signal time is not known"));
	f.signal_ns = 112 * MS;				/* before the target even so */
	verdict_at(&p, 1, &f, -1, 150 * MS, &v);
	assert_int_equal(v.cls, FT_CLASS_WAKEUP);
}

static void test_two_crtcs_bound_it(void **state)
{
	struct fs_vblank p[2] = { pipe_of(100 * MS, 6), pipe_of(105 * MS, 6) };
	struct stall_frame f = { .entry_ns = 110 * MS };
	struct stall_target t;
	struct stall_verdict v;

	(void)state;
	stall_target_of(p, 2, f.entry_ns, 0, 150 * MS, &t);
	assert_int_equal(t.at_ns, 121 * MS);		/* the later of 116 and 121 */
	assert_false(t.exact);
	verdict_at(p, 2, &f, -1, 150 * MS, &v);
	assert_int_equal(v.cls, FT_CLASS_PRODUCER);
	assert_int_equal(v.past_ns, 29 * MS);
	/* signalled before: wakeup or producer depends on which CRTC */
	f.signal_ns = 112 * MS;
	f.signal_exact = 1;
	verdict_at(p, 2, &f, -1, 150 * MS, &v);
	assert_int_equal(v.cls, FT_CLASS_UNKNOWN);
	assert_non_null(strstr(v.why, "not traced"));
}

static void test_ring_rolled_or_before_the_tool(void **state)
{
	struct fs_vblank p = pipe_of(100 * MS, 40);	/* ring: the last 16 */
	struct stall_target t;

	(void)state;
	/* entered before the oldest vblank kept: bounded, not exact */
	stall_target_of(&p, 1, 105 * MS, 0, 800 * MS, &t);
	assert_false(t.exact);
	assert_int_equal(t.at_ns, 105 * MS + PERIOD + PERIOD / 2);
	/* entered before the tool started: its first vblank seen may not be the first */
	p = pipe_of(100 * MS, 6);
	stall_target_of(&p, 1, 90 * MS, 95 * MS, 200 * MS, &t);
	assert_false(t.exact);
	stall_target_of(&p, 1, 96 * MS, 95 * MS, 200 * MS, &t);
	assert_true(t.exact);
	assert_int_equal(t.at_ns, 100 * MS);
}

static void test_nothing_to_judge_by(void **state)
{
	struct fs_vblank p = pipe_of(100 * MS, 2);	/* no period yet */
	struct stall_frame f = { .entry_ns = 150 * MS };
	struct stall_verdict v;

	(void)state;
	verdict_at(&p, 0, &f, -1, 900 * MS, &v);
	assert_int_equal(v.cls, FT_CLASS_UNKNOWN);
	assert_non_null(strstr(v.why, "virtio-gpu"));
	verdict_at(&p, 1, &f, -1, 900 * MS, &v);
	assert_int_equal(v.cls, FT_CLASS_UNKNOWN);
	assert_non_null(strstr(v.why, "period is not known"));
	f.entry_ns = 0;
	verdict_at(&p, 1, &f, -1, 900 * MS, &v);
	assert_int_equal(v.cls, FT_CLASS_UNKNOWN);
	assert_non_null(strstr(v.why, "entered"));
}

int run_stall_class_tests(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_target_from_the_ring),
		cmocka_unit_test(test_producer_while_pending),
		cmocka_unit_test(test_not_yet_before_the_target),
		cmocka_unit_test(test_wakeup_says_its_margin),
		cmocka_unit_test(test_margin_decides),
		cmocka_unit_test(test_a_later_fences_signal_only_bounds),
		cmocka_unit_test(test_two_crtcs_bound_it),
		cmocka_unit_test(test_ring_rolled_or_before_the_tool),
		cmocka_unit_test(test_nothing_to_judge_by),
	};

	return cmocka_run_group_tests_name("the frame class stall states (stall-class)", tests, NULL, NULL);
}
