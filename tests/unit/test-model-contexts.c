// SPDX-License-Identifier: GPL-2.0
/*
 * test-model-contexts.c - the fence contexts' table (chunks and the index
 * by id, model-context-table.c) and what a lone context keeps of its one
 * fence in 32 bytes and, beyond them, in its far part (model-contexts.c):
 * latencies of 4.3 s and more, emit latencies and errors reach their rows
 * exactly, whether the context stays lone or gets a second fence.
 */
#include <string.h>

#include "model-internal.h"
#include "series-formats.h"
#include "trace-fixture.h"
#include "unit.h"

#define SPREAD 0x9e3779b97f4a7c15ull	/* ids far apart, and above 32 bits */

static uint64_t id_of(uint32_t i)
{
	return i % 3 ? (uint64_t)i + 1 : (uint64_t)i * SPREAD;
}

/* 100 k ids, in and across chunks: each found at its place, the index bounded. */
static void test_table_finds_every_context(void **state)
{
	struct ft_contexts cs = { 0 };
	const uint32_t n = 100000;

	for (uint32_t i = 0; i < n; i++) {
		assert_int_equal(model_context_find(&cs, id_of(i)), FT_NONE);
		assert_int_equal(model_context_add(&cs, id_of(i)), i);
	}
	assert_int_equal(cs.n, n);
	for (uint32_t i = 0; i < n; i++) {
		assert_int_equal(model_context_find(&cs, id_of(i)), i);
		assert_true(ft_context_at(&cs, i)->context == id_of(i));
		assert_int_equal(ft_context_at(&cs, i)->flags, 0);
	}
	assert_int_equal(model_context_find(&cs, n * SPREAD + 7), FT_NONE);
	/* memory: whole chunks only, and an index at a load of 1/2 to 3/4 */
	assert_int_equal(cs.chunks.n, (n + FT_CTX_CHUNK - 1) / FT_CTX_CHUNK);
	assert_true((uint64_t)cs.index_cap * 3 >= (uint64_t)n * 4);
	assert_true(cs.index_cap <= 2 * (n + 1));
	model_context_table_free(&cs);
	assert_int_equal(model_context_find(&cs, id_of(0)), FT_NONE);
}

static void fence(struct trace_fixture *f, uint64_t ts, const char *ev, uint32_t ctx,
		  uint32_t seqno)
{
	assert_int_equal(tb_fence(f->tb, 0, ts, ev, "drv", "jobs", ctx, seqno), 0);
}

static void fence_error(struct trace_fixture *f, uint64_t ts, uint32_t ctx, uint32_t seqno)
{
	struct series_fence fe = { "drv", "jobs", ctx, seqno, 0 };
	struct payload p;

	series_fence_error(&p, &fe, -5);
	trace_fixture_event(f, 0, ts, "dma_fence_error", p.b, p.len);
}

/*
 * Per-job contexts of one driver and timeline name: 20 signals after 5 s
 * (more than 32 bits of ns), 21 is emitted, 22 fails, 23 fails and then
 * gets a second fence (its own row, the error with it), 24 plain.
 */
static void lone_contexts(struct trace_fixture *f)
{
	fence(f, 1 * MS, "dma_fence_init", 20, 1);
	fence(f, 2 * MS, "dma_fence_init", 21, 1);
	fence(f, 3 * MS, "dma_fence_emit", 21, 1);
	fence(f, 4 * MS, "dma_fence_init", 22, 1);
	fence(f, 5 * MS, "dma_fence_init", 23, 1);
	fence(f, 6 * MS, "dma_fence_init", 24, 1);
	fence(f, 7 * MS, "dma_fence_signaled", 21, 1);
	fence_error(f, 8 * MS, 22, 1);
	fence(f, 9 * MS, "dma_fence_signaled", 22, 1);
	fence_error(f, 10 * MS, 23, 1);
	fence(f, 11 * MS, "dma_fence_signaled", 23, 1);
	fence(f, 12 * MS, "dma_fence_init", 23, 2);
	fence(f, 14 * MS, "dma_fence_signaled", 23, 2);
	fence(f, 15 * MS, "dma_fence_signaled", 24, 1);
	fence(f, 5001 * MS, "dma_fence_signaled", 20, 1);
}

static void test_lone_fences_kept_exactly(void **state)
{
	struct trace_fixture *f = *state;
	const struct ft_model *m;
	const struct ft_timeline *g, *own;

	lone_contexts(f);
	m = trace_fixture_analyze(f);
	assert_int_equal(m->fences.contexts.n, 5);
	assert_int_equal(m->fences.groups.n, 1);
	assert_int_equal(m->fences.timelines.n, 1);
	g = &m->fences.groups.items[0];
	assert_int_equal(g->contexts, 4);
	assert_int_equal(g->fences, 4);
	assert_int_equal(g->signaled, 4);
	assert_int_equal(g->errors, 1);
	assert_int_equal(g->latency.count, 4);
	assert_int_equal(g->latency.min, 5 * MS);
	assert_int_equal(g->latency.max, 5000 * MS);
	assert_int_equal(g->latency.sum, 5000 * MS + 5 * MS + 5 * MS + 9 * MS);
	assert_int_equal(g->emit_latency.count, 1);
	assert_int_equal(g->emit_latency.max, 4 * MS);
	assert_int_equal(g->first_ts, 1 * MS);
	assert_int_equal(g->last_ts, 5001 * MS);
	own = &m->fences.timelines.items[0];
	assert_int_equal(own->context, 23);
	assert_int_equal(own->fences, 2);
	assert_int_equal(own->errors, 1);
	assert_int_equal(own->latency.count, 2);
	assert_int_equal(own->latency.min, 2 * MS);
	assert_int_equal(own->latency.max, 6 * MS);
	assert_int_equal(own->group, FT_NONE);
	assert_int_equal(model_context_group(m, model_context_index(m, 23)), 0);
	assert_int_equal(model_context_timeline(m, model_context_index(m, 23)), 0);
	assert_int_equal(model_context_timeline(m, model_context_index(m, 20)), FT_NONE);
}

/* --by context keeps a row per context: the group sums to the same figures. */
static void test_each_context_sums_the_same(void **state)
{
	struct trace_fixture *f = *state, each = { 0 };
	const struct ft_timeline *g, *h;

	lone_contexts(f);
	g = &trace_fixture_analyze(f)->fences.groups.items[0];
	assert_int_equal(trace_fixture_init(&each, 1), 0);
	each.each_context = 1;
	lone_contexts(&each);
	h = &trace_fixture_analyze(&each)->fences.groups.items[0];
	assert_int_equal(each.a.model.fences.timelines.n, 5);
	assert_int_equal(h->contexts, g->contexts);
	assert_int_equal(h->fences, g->fences);
	assert_int_equal(h->signaled, g->signaled);
	assert_int_equal(h->errors, g->errors);
	assert_int_equal(h->latency.count, g->latency.count);
	assert_int_equal(h->latency.sum, g->latency.sum);
	assert_int_equal(h->latency.max, g->latency.max);
	assert_int_equal(h->emit_latency.max, g->emit_latency.max);
	assert_int_equal(h->first_ts, g->first_ts);
	assert_int_equal(h->last_ts, g->last_ts);
	trace_fixture_fini(&each);
}

int run_model_contexts_tests(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_table_finds_every_context),
		trace_fixture_series_test(test_lone_fences_kept_exactly),
		trace_fixture_series_test(test_each_context_sums_the_same),
	};

	return cmocka_run_group_tests_name("model-contexts", tests, NULL, NULL);
}
