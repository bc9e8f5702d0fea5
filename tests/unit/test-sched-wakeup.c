// SPDX-License-Identifier: GPL-2.0
/*
 * test-sched-wakeup.c - what the scheduler's events say of a fence wait
 * in progress (lib/model-sched.c): when its task was made runnable, and
 * which task held the CPU it was woken onto the longest until its turn:
 * a hog that a kworker followed, an idle CPU, a task woken before it had
 * left its CPU, a second wakeup replacing the first, a switch on another
 * CPU that holds nothing up, a task that was not waiting.
 */
#include <string.h>

#include "model-internal.h"
#include "unit.h"

#define WAITER 47
#define HOG 70
#define KWORKER 5

static struct ft_model *model_with_wait(void)
{
	static struct ft_model m;
	struct ft_event start = { .id = FT_EV_FENCE_WAIT_START, .cpu = 0, .pid = WAITER, .ts = 50 };

	assert_int_equal(model_init(&m, NULL, 2), 0);
	model_wait_start(&m, &start, 7ull << 32 | 1);
	return &m;
}

static void wakeup(struct ft_model *m, uint64_t ts, int pid, int cpu)
{
	struct ft_event ev = { .id = FT_EV_SCHED_WAKEUP, .cpu = 1, .pid = 40, .ts = ts };

	ev.v[FT_PID] = (uint64_t)pid;
	ev.v[FT_TARGET_CPU] = (uint64_t)cpu;
	model_sched_wakeup(m, &ev);
}

static void sched_switch(struct ft_model *m, int cpu, uint64_t ts, int prev, int next)
{
	struct ft_event ev = { .id = FT_EV_SCHED_SWITCH, .cpu = cpu, .pid = prev, .ts = ts };

	ev.v[FT_PREV_PID] = (uint64_t)prev;
	ev.v[FT_NEXT_PID] = (uint64_t)next;
	model_sched_switch(m, &ev);
}

static const struct ft_wakeup *of_wait(const struct ft_model *m)
{
	return &m->waits.open[0].wakeup;
}

static void test_longest_holder_not_last(void **state)
{
	struct ft_model *m = model_with_wait();

	(void)state;
	sched_switch(m, 0, 60, WAITER, HOG);	/* the waiter sleeps, the hog runs */
	wakeup(m, 100, WAITER, 0);
	sched_switch(m, 0, 150, HOG, KWORKER);
	sched_switch(m, 0, 160, KWORKER, WAITER);
	assert_int_equal(of_wait(m)->ts, 100);
	assert_true(of_wait(m)->ran);
	assert_int_equal(of_wait(m)->cpu, 0);
	assert_int_equal(of_wait(m)->held_by, HOG);
	assert_int_equal(of_wait(m)->held_ns, 50);
	model_free(m);
}

static void test_idle_cpu(void **state)
{
	struct ft_model *m = model_with_wait();

	(void)state;
	wakeup(m, 100, WAITER, 1);
	sched_switch(m, 1, 120, 0, WAITER);
	assert_true(of_wait(m)->ran);
	assert_int_equal(of_wait(m)->held_by, 0);
	assert_int_equal(of_wait(m)->held_ns, 20);
	model_free(m);
}

static void test_woken_before_it_left(void **state)
{
	struct ft_model *m = model_with_wait();

	(void)state;
	wakeup(m, 100, WAITER, 0);
	sched_switch(m, 0, 130, WAITER, KWORKER);
	assert_true(of_wait(m)->ran);
	assert_int_equal(of_wait(m)->held_by, WAITER);
	assert_int_equal(of_wait(m)->held_ns, 0);
	model_free(m);
}

static void test_second_wakeup_replaces_first(void **state)
{
	struct ft_model *m = model_with_wait();

	(void)state;
	wakeup(m, 100, WAITER, 0);
	sched_switch(m, 0, 110, 0, WAITER);
	sched_switch(m, 0, 150, WAITER, HOG);
	wakeup(m, 200, WAITER, 0);
	assert_false(of_wait(m)->ran);
	sched_switch(m, 0, 260, HOG, WAITER);
	assert_int_equal(of_wait(m)->ts, 200);
	assert_int_equal(of_wait(m)->held_by, HOG);
	assert_int_equal(of_wait(m)->held_ns, 60);
	model_free(m);
}

static void test_other_cpu_holds_nothing(void **state)
{
	struct ft_model *m = model_with_wait();

	(void)state;
	wakeup(m, 100, WAITER, 0);
	sched_switch(m, 0, 120, KWORKER, 0);
	sched_switch(m, 1, 300, HOG, KWORKER);	/* 200 on CPU 1: not the waiter's */
	sched_switch(m, 0, 310, 0, WAITER);
	assert_int_equal(of_wait(m)->held_by, 0);
	assert_int_equal(of_wait(m)->held_ns, 190);
	model_free(m);
}

static void test_not_a_waiter(void **state)
{
	struct ft_model *m = model_with_wait();

	(void)state;
	wakeup(m, 100, 48, 0);
	sched_switch(m, 0, 120, HOG, 48);
	assert_int_equal(of_wait(m)->ts, 0);
	assert_false(of_wait(m)->ran);
	model_free(m);
}

int run_sched_wakeup_tests(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_longest_holder_not_last),
		cmocka_unit_test(test_idle_cpu),
		cmocka_unit_test(test_woken_before_it_left),
		cmocka_unit_test(test_second_wakeup_replaces_first),
		cmocka_unit_test(test_other_cpu_holds_nothing),
		cmocka_unit_test(test_not_a_waiter),
	};

	return cmocka_run_group_tests_name("sched wakeup", tests, NULL, NULL);
}
