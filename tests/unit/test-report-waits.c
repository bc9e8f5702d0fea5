// SPDX-License-Identifier: GPL-2.0
/*
 * test-report-waits.c - the waited and polled timelines' rows follow the
 * timelines table: a context with a row of its own there keeps its own
 * wait row; contexts the table groups (one fence each, like vgem's or
 * every merge's) are summed into one row per group; --by context and
 * --context list every context; --timeline keeps grouped rows.
 */
#include <stdio.h>
#include <string.h>

#include "report.h"
#include "series-formats.h"
#include "trace-fixture.h"
#include "unit.h"

static const struct report_opts all = { SEC_WAITS, NULL, -1, -1, -1, 0, 0 };

#define LONE 8			/* one-fence contexts 100.., vgem "unbound" */

static void assert_has(const char *text, const char *want)
{
	if (!strstr(text, want)) {
		fprintf(stderr, "%s", text);
		fail_msg("no \"%s\" in the text above", want);
	}
}

static unsigned int count_of(const char *text, const char *what)
{
	unsigned int n = 0;

	for (const char *p = text; (p = strstr(p, what)); p += strlen(what))
		n++;
	return n;
}

static void lone(struct trace_fixture *f, uint64_t ts, const char *ev, uint32_t ctx)
{
	assert_int_equal(tb_fence(f->tb, 0, ts, ev, "vgem", "unbound", ctx, 1), 0);
}

/*
 * Producer-A (context 3) holds two fences, each waited on for 2 ms: a row
 * of its own.  Contexts 100 + i hold one fence each, waited on by task 60
 * for (i + 1) ms; the last wait ends before its fence signals (interrupted).
 */
static void lone_waits(struct trace_fixture *f, struct hist *ref)
{
	uint64_t t = MS;

	tb_set_pid(f->tb, 60);
	for (uint32_t seq = 1; seq <= 2; seq++, t += 10 * MS) {
		FENCE(0, t, "dma_fence_init", 3, seq);
		FENCE(0, t + MS, "dma_fence_wait_start", 3, seq);
		FENCE(0, t + 2 * MS, "dma_fence_signaled", 3, seq);
		FENCE(0, t + 3 * MS, "dma_fence_wait_end", 3, seq);
	}
	for (uint32_t i = 0; i < LONE; i++, t += 20 * MS) {
		uint64_t ns = (i + 1) * MS;
		int last = i == LONE - 1;

		lone(f, t, "dma_fence_init", 100 + i);
		lone(f, t + MS, "dma_fence_wait_start", 100 + i);
		if (!last)
			lone(f, t + MS + ns - 1000, "dma_fence_signaled", 100 + i);
		lone(f, t + MS + ns, "dma_fence_wait_end", 100 + i);
		if (last)
			lone(f, t + MS + ns + 1000, "dma_fence_signaled", 100 + i);
		assert_int_equal(hist_add(ref, ns), 0);
	}
	tb_set_pid(f->tb, 0);
	trace_fixture_analyze(f);
}

static void test_lone_contexts_one_row(void **state)
{
	struct trace_fixture *f = *state;
	struct hist ref = { 0 };
	char want[256], p99[24];
	const char *s;

	lone_waits(f, &ref);
	s = trace_fixture_render(f, report_text, &all);
	assert_has(s, "\n  producer-A                   3       2    4.00 ms    2.00 ms    2.00 ms           0\n");
	snprintf(want, sizeof(want), "\n  unbound (8 contexts)     group       8   36.00 ms    8.00 ms %10s           1\n",
		 report_dur(p99, sizeof(p99), hist_percentile(&ref, 0.99)));
	assert_has(s, want);
	assert_int_equal(count_of(s, "unbound"), 1);
	s = trace_fixture_render(f, report_json, &all);
	assert_has(s, "\"by_timeline\": [\n    {\"context\": 3, \"timeline\": \"producer-A\", \"waits\": 2, "
		   "\"total_ns\": 4000000, \"max_ns\": 2000000, \"p99_ns\": 2000000, \"interrupted\": 0}\n  ], ");
	snprintf(want, sizeof(want), "\"by_group\": [\n    {\"group\": 1, \"kind\": \"one_fence\", "
		 "\"driver\": \"vgem\", \"timeline\": \"unbound\", \"contexts\": 8, \"waits\": 8, "
		 "\"total_ns\": 36000000, \"max_ns\": 8000000, \"p99_ns\": %llu, \"interrupted\": 1}\n  ], ",
		 (unsigned long long)hist_percentile(&ref, 0.99));
	assert_has(s, want);
	s = trace_fixture_render(f, report_csv, &all);
	snprintf(want, sizeof(want), "\n\ncontext,driver,timeline,waits,total_ns,max_ns,p99_ns,"
		 "interrupted,contexts,group_kind\n3,sw_sync,producer-A,2,4000000,2000000,2000000,0,1,\n"
		 ",vgem,unbound,8,36000000,8000000,%llu,1,8,one_fence\n",
		 (unsigned long long)hist_percentile(&ref, 0.99));
	assert_has(s, want);
	hist_free(&ref);
}

/* --by context and --context: a row per context, as before the groups. */
static void test_by_context_rows(void **state)
{
	struct trace_fixture *f = *state;
	struct report_opts o = all;
	struct hist ref = { 0 };
	const char *s;

	f->each_context = 1;
	lone_waits(f, &ref);
	o.by_context = 1;
	s = trace_fixture_render(f, report_text, &o);
	for (uint32_t i = 0; i < LONE; i++) {	/* each context by its number */
		char row[64];

		snprintf(row, sizeof(row), "\n  unbound                    %u       1 ", 100 + i);
		assert_int_equal(count_of(s, row), 1);
	}
	assert_has(s, "\n  unbound                    107       1    8.00 ms    8.00 ms");
	s = trace_fixture_render(f, report_json, &o);
	assert_int_equal(count_of(s, "\"timeline\": \"unbound\", \"waits\": 1,"), LONE);
	assert_has(s, "\"by_group\": [\n  ], ");
	s = trace_fixture_render(f, report_csv, &o);
	assert_int_equal(count_of(s, ",vgem,unbound,1,"), LONE);
	assert_has(s, "\n104,vgem,unbound,1,5000000,5000000,5000000,0,1,\n");
	assert_int_equal(count_of(s, "one_fence"), 0);
	o.by_context = 0;
	o.context = 104;
	s = trace_fixture_render(f, report_text, &o);
	assert_int_equal(count_of(s, "unbound"), 1);
	assert_has(s, "\n  unbound                    104       1    5.00 ms    5.00 ms    5.00 ms           0\n");
	hist_free(&ref);
}

/* --timeline keeps a group's row by its name, and leaves it out by another. */
static void test_timeline_filter_groups(void **state)
{
	struct trace_fixture *f = *state;
	struct report_opts o = all;
	struct hist ref = { 0 };
	const char *s;

	lone_waits(f, &ref);
	o.timeline = "unb";
	s = trace_fixture_render(f, report_text, &o);
	assert_has(s, "\n  unbound (8 contexts)     group       8   36.00 ms");
	assert_int_equal(count_of(s, "producer-A"), 0);
	o.timeline = "producer";
	s = trace_fixture_render(f, report_text, &o);
	assert_int_equal(count_of(s, "unbound"), 0);
	assert_has(s, "\n  producer-A                   3       2 ");
	s = trace_fixture_render(f, report_json, &o);
	assert_has(s, "\"by_group\": [\n  ], ");
	hist_free(&ref);
}

static void poll_event(struct trace_fixture *f, uint64_t ts, const char *name, uint64_t file,
		       uint32_t ctx)
{
	struct payload p;

	series_poll(&p, file, 0xffff0000 + file, ctx, 1);
	trace_fixture_event(f, 0, ts, name, p.b, p.len);
}

/* Polls of two one-fence contexts: one polled timeline row, "group" for its context. */
static void test_polls_grouped(void **state)
{
	struct trace_fixture *f = *state;
	const char *s;

	for (uint32_t i = 0; i < 2; i++) {
		uint64_t t = (1 + 10 * i) * MS;

		lone(f, t, "dma_fence_init", 100 + i);
		tb_set_pid(f->tb, 70);
		poll_event(f, t + MS, "sync_file_poll_begin", 0xa0 + i, 100 + i);
		tb_set_pid(f->tb, 0);
		poll_event(f, t + (3 + i) * MS, "sync_file_poll_ready", 0xa0 + i, 100 + i);
	}
	trace_fixture_analyze(f);
	s = trace_fixture_render(f, report_text, &all);
	assert_has(s, "\n  unbound (2 contexts)     group       2    5.00 ms    3.00 ms    3.00 ms\n");
	s = trace_fixture_render(f, report_json, &all);
	assert_has(s, "\"by_timeline\": [\n  ], \"by_group\": [\n    {\"group\": 0, \"kind\": \"one_fence\", "
		   "\"driver\": \"vgem\", \"timeline\": \"unbound\", \"contexts\": 2, \"polls\": 2, "
		   "\"total_ns\": 5000000, \"max_ns\": 3000000, \"p99_ns\": 3000000}\n  ]}},\n");
}

#define WAITED 3000	/* contexts 1000.., two fences each: rows of their own */
#define TASKS 7

/*
 * Many waited contexts and tasks: each keeps its own statistics, in the
 * order first waited on (the model finds them by key, not by a scan).
 */
static void test_many_waited_contexts(void **state)
{
	struct trace_fixture *f = *state;
	const struct ft_model *m;
	uint64_t t = MS, task_waits[TASKS] = { 0 };

	for (uint32_t i = 0; i < WAITED; i++)
		for (uint32_t seq = 1; seq <= 2; seq++) {
			tb_set_pid(f->tb, 200 + (int)((i + seq) % TASKS));
			task_waits[(i + seq) % TASKS]++;
			FENCE(0, t += 1000, "dma_fence_init", 1000 + i, seq);
			FENCE(0, t += 1000, "dma_fence_wait_start", 1000 + i, seq);
			FENCE(0, t += 1000 * (i % 5 + 1), "dma_fence_signaled", 1000 + i, seq);
			FENCE(0, t += 1000, "dma_fence_wait_end", 1000 + i, seq);
		}
	m = trace_fixture_analyze(f);
	assert_int_equal(m->waits.by_timeline.n, WAITED);
	for (uint32_t i = 0; i < WAITED; i++) {
		const struct ft_wait_stat *s = &m->waits.by_timeline.items[i];

		assert_int_equal(s->id, model_context_index(m, 1000 + i));
		assert_int_equal(s->count, 2);
		assert_int_equal(s->h.count, 2);
		assert_int_equal(s->total_ns, 2 * 1000 * (i % 5 + 2));
		assert_int_equal(s->max_ns, 1000 * (i % 5 + 2));
		assert_int_equal(s->interrupted, 0);
	}
	assert_int_equal(m->waits.by_task.n, TASKS);
	for (uint32_t p = 0; p < TASKS; p++) {
		const struct ft_wait_stat *s = &m->waits.by_task.items[p];

		assert_int_equal(s->count, task_waits[s->id - 200]);
	}
	assert_int_equal(m->waits.by_task.items[0].id, 200 + 1);	/* first waited */
}

/* Merge contexts 500.., each waited on twice but the last (once). */
static void merge_waits(struct trace_fixture *f, unsigned int merges)
{
	uint64_t t = MS;

	tb_set_pid(f->tb, 70);
	for (uint32_t i = 0; i < merges; i++)
		for (uint32_t w = 0; w < (i + 1 < merges ? 2u : 1u); w++, t += 10 * MS) {
			const char *evs[] = { w ? NULL : "dma_fence_init", "dma_fence_wait_start",
					      w ? NULL : "dma_fence_signaled", "dma_fence_wait_end" };

			for (unsigned int e = 0; e < 4; e++)
				if (evs[e])
					assert_int_equal(tb_fence(f->tb, 0, t + e * MS, evs[e],
								  "dma_fence_array", "unbound", 500 + i,
								  1), 0);
		}
	tb_set_pid(f->tb, 0);
	trace_fixture_analyze(f);
}

/*
 * Waits on merges are summed per group in the model (a row each would
 * cost more than the context), counting each context once; --by context
 * (each_context) keeps a row per context.
 */
static void test_merge_waits_summed_in_model(void **state)
{
	struct trace_fixture *f = *state;
	const struct ft_wait_stat *s;
	struct report_opts o = all;

	merge_waits(f, 50);
	assert_int_equal(f->a.model.waits.by_timeline.n, 1);
	s = &f->a.model.waits.by_timeline.items[0];
	assert_true(s->id == (FT_WAIT_GROUP | 0));
	assert_int_equal(s->contexts, 50);
	assert_int_equal(s->count, 99);
	assert_has(trace_fixture_render(f, report_text, &all),
		   "\n  unbound (50 contexts)    group      99 ");
	o.timeline = "unbound";
	assert_has(trace_fixture_render(f, report_csv, &o), "\n,dma_fence_array,unbound,99,");
	o.timeline = "other";
	assert_int_equal(count_of(trace_fixture_render(f, report_csv, &o), "unbound"), 0);
}

static void test_merge_waits_by_context(void **state)
{
	struct trace_fixture *f = *state;
	struct report_opts o = all;

	f->each_context = 1;
	merge_waits(f, 50);
	assert_int_equal(f->a.model.waits.by_timeline.n, 50);
	assert_int_equal(f->a.model.waits.by_timeline.items[0].count, 2);
	o.by_context = 1;
	assert_int_equal(count_of(trace_fixture_render(f, report_csv, &o), ",dma_fence_array,unbound,2,"),
			 49);
}

int run_report_waits_tests(void)
{
	const struct CMUnitTest tests[] = {
		trace_fixture_stock_test(test_lone_contexts_one_row),
		trace_fixture_stock_test(test_by_context_rows),
		trace_fixture_stock_test(test_timeline_filter_groups),
		trace_fixture_stock_test(test_many_waited_contexts),
		trace_fixture_stock_test(test_merge_waits_summed_in_model),
		trace_fixture_stock_test(test_merge_waits_by_context),
		trace_fixture_series_test(test_polls_grouped),
	};

	return cmocka_run_group_tests_name("report-waits", tests, NULL, NULL);
}
