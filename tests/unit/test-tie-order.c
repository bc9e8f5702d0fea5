// SPDX-License-Identifier: GPL-2.0
/*
 * test-tie-order.c - a wait's end after the signal that ended it when the
 * clock stamps both alike on two CPUs (lib/tie-order.c): the order it
 * gives, and the model's reading of such a trace.
 */
#include <string.h>

#include "tie-order.h"
#include "trace-fixture.h"
#include "unit.h"

/* One event of @id on @cpu at @ts, its one raw byte @tag. */
static struct ft_event ev_at(enum ft_event_id id, int cpu, uint64_t ts, const unsigned char *tag)
{
	return (struct ft_event){ .id = id, .cpu = cpu, .ts = ts, .data = tag, .size = 1 };
}

/* What the caller of tie_order does (lib/analyze.c): the delivered order. */
static unsigned int run(struct tie_order *o, const struct ft_event *in, unsigned int n,
			unsigned char *order)
{
	const struct ft_event *ev;
	unsigned int k = 0;

	for (unsigned int i = 0; i < n; i++) {
		if (tie_order_due(o, &in[i]))
			while ((ev = tie_order_next(o)))
				order[k++] = ev->data[0];
		if (!tie_order_hold(o, &in[i]))
			order[k++] = in[i].data[0];
	}
	while ((ev = tie_order_next(o)))
		order[k++] = ev->data[0];
	return k;
}

/*
 * CPU 0 ends a wait, starts and ends another, all at T; CPU 1 signals at T:
 * the signal goes first, CPU 0's three after it in their order; what comes
 * before T and after it stays where it was.
 */
static void test_signal_before_tied_wait_end(void **state)
{
	static const unsigned char tag[] = "abcdefg";
	const uint64_t t = 1000;
	struct ft_event in[] = {
		ev_at(FT_EV_FENCE_INIT, 1, t - 1, &tag[0]),
		ev_at(FT_EV_FENCE_WAIT_END, 0, t, &tag[1]),
		ev_at(FT_EV_FENCE_WAIT_START, 0, t, &tag[2]),
		ev_at(FT_EV_FENCE_WAIT_END, 0, t, &tag[3]),
		ev_at(FT_EV_FENCE_SIGNALED, 1, t, &tag[4]),
		ev_at(FT_EV_FENCE_DESTROY, 0, t + 1, &tag[5]),
		ev_at(FT_EV_FENCE_SIGNALED, 1, t + 2, &tag[6]),
	};
	struct tie_order o = { 0 };
	unsigned char order[8] = { 0 };

	(void)state;
	assert_int_equal(run(&o, in, 7, order), 7);
	assert_string_equal((char *)order, "aebcdfg");
	tie_order_free(&o);
}

/* Nothing but wait ends is held, and a wait end alone is released as it was. */
static void test_nothing_else_moves(void **state)
{
	static const unsigned char tag[] = "abcde";
	struct ft_event in[] = {
		ev_at(FT_EV_FENCE_SIGNALED, 1, 5, &tag[0]),
		ev_at(FT_EV_FENCE_INIT, 0, 5, &tag[1]),
		ev_at(FT_EV_PLANE_WAIT_END, 0, 6, &tag[2]),
		ev_at(FT_EV_POLL_READY, 1, 7, &tag[3]),
		ev_at(FT_EV_FENCE_INIT, 0, 7, &tag[4]),
	};
	struct tie_order o = { 0 };
	unsigned char order[6] = { 0 };

	(void)state;
	assert_int_equal(tie_order_hold(&o, &in[0]), 0);
	assert_int_equal(tie_order_hold(&o, &in[1]), 0);
	assert_int_equal(run(&o, in, 5, order), 5);
	/* the poll's ready (CPU 1) is held, CPU 0's init at its stamp goes first */
	assert_string_equal((char *)order, "abced");
	tie_order_free(&o);
}

/*
 * The model's reading: a wait on CPU 0 and its fence's signal on CPU 1 at
 * one stamp is a wait that ended on its signal, not an interrupted one.
 */
static void test_tied_wait_not_interrupted(void **state)
{
	struct trace_fixture *f = *state;
	struct ft_model *m;

	FENCE(1, 1 * MS, "dma_fence_init", 5, 1);
	tb_set_pid(f->tb, 60);
	FENCE(0, 2 * MS, "dma_fence_wait_start", 5, 1);
	FENCE(0, 9 * MS, "dma_fence_wait_end", 5, 1);
	tb_set_pid(f->tb, 0);
	FENCE(1, 9 * MS, "dma_fence_signaled", 5, 1);
	m = trace_fixture_analyze(f);
	assert_int_equal(m->waits.by_task.n, 1);
	assert_int_equal(m->waits.by_task.items[0].count, 1);
	assert_int_equal(m->waits.by_task.items[0].interrupted, 0);
}

int run_tie_order_tests(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_signal_before_tied_wait_end),
		cmocka_unit_test(test_nothing_else_moves),
		trace_fixture_stock_test(test_tied_wait_not_interrupted),
	};

	return cmocka_run_group_tests_name("tie-order", tests, NULL, NULL);
}
