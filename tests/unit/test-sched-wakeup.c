// SPDX-License-Identifier: GPL-2.0
/*
 * test-sched-wakeup.c - what the scheduler's events say of a fence wait
 * in progress (lib/model-sched.c): when its task was made runnable, and
 * which task held the CPU it was woken onto the longest until its turn:
 * a hog that a kworker followed, an idle CPU, a task woken while still
 * running (left alone, or put aside for a hog), a second wakeup replacing
 * the first, a switch on another CPU, a task pulled to another CPU, a task
 * that was not waiting, a wakeup before the fence's signal, a switch in
 * that is not in the trace.
 */
#include <string.h>

#include "model-internal.h"
#include "unit.h"

#define WAITER 47
#define HOG 70
#define KWORKER 5
#define OTHER 9

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

/* What the wait, ended at @end on a fence signalled at @signal, keeps. */
static struct ft_wakeup ended(struct ft_model *m, uint64_t end, uint64_t signal)
{
	struct ft_wakeup w = model_wakeup_of(&m->waits.open[0], end, signal);

	model_free(m);
	return w;
}

static void test_longest_holder_not_last(void **state)
{
	struct ft_model *m = model_with_wait();
	struct ft_wakeup w;

	(void)state;
	sched_switch(m, 0, 60, WAITER, HOG);	/* the waiter sleeps, the hog runs */
	wakeup(m, 100, WAITER, 0);
	sched_switch(m, 0, 150, HOG, KWORKER);
	sched_switch(m, 0, 160, KWORKER, WAITER);
	w = ended(m, 170, 90);
	assert_true(w.traced);
	assert_int_equal(w.before_end_ns, 70);
	assert_int_equal(w.cpu, 0);
	assert_int_equal(w.held_by, HOG);
	assert_int_equal(w.held_ns, 50);
}

static void test_idle_cpu(void **state)
{
	struct ft_model *m = model_with_wait();
	struct ft_wakeup w;

	(void)state;
	wakeup(m, 100, WAITER, 1);
	sched_switch(m, 1, 120, 0, WAITER);
	w = ended(m, 130, 90);
	assert_int_equal(w.held_by, 0);
	assert_int_equal(w.held_ns, 20);
}

static void test_woken_while_running(void **state)
{
	struct ft_model *m = model_with_wait();
	struct ft_wakeup w;

	(void)state;
	sched_switch(m, 0, 60, KWORKER, WAITER);
	wakeup(m, 100, WAITER, 0);		/* still on CPU 0: no switch follows */
	w = ended(m, 130, 90);
	assert_true(w.traced);
	assert_int_equal(w.held_by, WAITER);
	assert_int_equal(w.held_ns, 0);
}

static void test_woken_while_running_then_put_aside(void **state)
{
	struct ft_model *m = model_with_wait();
	struct ft_wakeup w;

	(void)state;
	sched_switch(m, 0, 60, KWORKER, WAITER);
	wakeup(m, 100, WAITER, 0);
	sched_switch(m, 0, 5100, WAITER, HOG);	/* ran on, then preempted: held from here */
	sched_switch(m, 0, 6100, HOG, WAITER);
	w = ended(m, 6120, 90);
	assert_int_equal(w.held_by, HOG);
	assert_int_equal(w.held_ns, 1000);
}

static void test_second_wakeup_replaces_first(void **state)
{
	struct ft_model *m = model_with_wait();
	struct ft_wakeup w;

	(void)state;
	wakeup(m, 100, WAITER, 0);
	sched_switch(m, 0, 110, 0, WAITER);
	sched_switch(m, 0, 150, WAITER, HOG);
	wakeup(m, 200, WAITER, 0);
	sched_switch(m, 0, 260, HOG, WAITER);
	w = ended(m, 270, 190);
	assert_int_equal(w.before_end_ns, 70);
	assert_int_equal(w.held_by, HOG);
	assert_int_equal(w.held_ns, 60);
}

static void test_other_cpu_holds_nothing(void **state)
{
	struct ft_model *m = model_with_wait();
	struct ft_wakeup w;

	(void)state;
	wakeup(m, 100, WAITER, 0);
	sched_switch(m, 0, 120, KWORKER, 0);
	sched_switch(m, 1, 300, HOG, KWORKER);	/* 200 on CPU 1: not the waiter's */
	sched_switch(m, 0, 310, 0, WAITER);
	w = ended(m, 320, 90);
	assert_int_equal(w.held_by, 0);
	assert_int_equal(w.held_ns, 190);
}

static void test_pulled_to_another_cpu(void **state)
{
	struct ft_model *m = model_with_wait();
	struct ft_wakeup w;

	(void)state;
	sched_switch(m, 0, 50, OTHER, HOG);
	wakeup(m, 100, WAITER, 0);
	sched_switch(m, 1, 5100, 0, WAITER);	/* CPU 1 takes it: CPU 0 still the hog's */
	w = ended(m, 5110, 90);
	assert_int_equal(w.cpu, 0);
	assert_int_equal(w.held_by, HOG);
	assert_int_equal(w.held_ns, 5000);
}

static void test_not_a_waiter(void **state)
{
	struct ft_model *m = model_with_wait();
	struct ft_wakeup w;

	(void)state;
	wakeup(m, 100, 48, 0);
	sched_switch(m, 0, 120, HOG, 48);
	w = ended(m, 130, 90);
	assert_false(w.traced);
	assert_int_equal(w.held_by, FT_HELD_UNKNOWN);
}

static void test_wakeup_before_signal(void **state)
{
	struct ft_model *m = model_with_wait();
	struct ft_wakeup w;

	(void)state;
	wakeup(m, 100, WAITER, 0);		/* not the fence's: it signals at 150 */
	sched_switch(m, 0, 110, 0, WAITER);
	w = ended(m, 200, 150);
	assert_false(w.traced);
}

static void test_switch_in_not_traced(void **state)
{
	struct ft_model *m = model_with_wait();
	struct ft_wakeup w;

	(void)state;
	wakeup(m, 100, WAITER, 0);
	w = ended(m, 200, 90);
	assert_true(w.traced);
	assert_int_equal(w.held_by, FT_HELD_UNKNOWN);
}

int run_sched_wakeup_tests(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_longest_holder_not_last),
		cmocka_unit_test(test_idle_cpu),
		cmocka_unit_test(test_woken_while_running),
		cmocka_unit_test(test_woken_while_running_then_put_aside),
		cmocka_unit_test(test_second_wakeup_replaces_first),
		cmocka_unit_test(test_other_cpu_holds_nothing),
		cmocka_unit_test(test_pulled_to_another_cpu),
		cmocka_unit_test(test_not_a_waiter),
		cmocka_unit_test(test_wakeup_before_signal),
		cmocka_unit_test(test_switch_in_not_traced),
	};

	return cmocka_run_group_tests_name("sched wakeup", tests, NULL, NULL);
}
