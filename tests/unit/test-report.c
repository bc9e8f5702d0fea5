// SPDX-License-Identifier: GPL-2.0
/*
 * test-report.c - report's analyses on constructed trace.dat files: real
 * files (trace-builder), read through the real reader, decoder and model,
 * with exact expected numbers.
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "analyze.h"
#include "drm-map.h"
#include "trace-fixture.h"
#include "unit.h"

/* An event of amdgpu's gfx timeline, context 9: a driver that makes no duplicates. */
#define GFX(cpu, ts, ev, seq) \
	assert_int_equal(tb_fence(f->tb, cpu, ts, ev, "amdgpu", "gfx_0.0.0", 9, seq), 0)

static const struct ft_timeline *timeline(const struct ft_model *m, uint64_t context)
{
	for (unsigned int i = 0; i < m->fences.timelines.n; i++)
		if (m->fences.timelines.items[i].context == context)
			return &m->fences.timelines.items[i];
	fail_msg("no timeline for context %llu", (unsigned long long)context);
	return NULL;
}

static void test_timeline_counts_across_cpus(void **state)
{
	struct trace_fixture *f = *state;
	const struct ft_timeline *t;
	struct ft_model *m;

	/* five fences created on CPU 0, signalled 2 ms later on CPU 1 */
	for (uint32_t s = 1; s <= 5; s++)
		FENCE(0, 1000 * MS + s * MS, "dma_fence_init", 3, s);
	for (uint32_t s = 1; s <= 3; s++)
		FENCE(1, 1000 * MS + s * MS + 2 * MS, "dma_fence_signaled", 3, s);
	FENCE(1, 1010 * MS, "dma_fence_destroy", 3, 1);
	FENCE(1, 1011 * MS, "dma_fence_destroy", 3, 4);	/* never signalled */
	m = trace_fixture_analyze(f);
	t = timeline(m, 3);
	assert_string_equal(t->driver, "sw_sync");
	assert_string_equal(t->name, "producer-A");
	assert_int_equal(t->fences, 5);
	assert_int_equal(t->signaled, 3);
	assert_int_equal(t->destroyed_unsignaled, 1);
	assert_int_equal(t->unsignaled_at_end, 1);	/* seqno 5 */
	assert_int_equal(t->latency.count, 3);
	assert_int_equal(t->latency.max, 2 * MS);
	assert_int_equal(hist_percentile(&t->latency, 0.5), 2 * MS);
	assert_int_equal(m->events, 10);
	assert_int_equal(m->lost, 0);
}

static void test_seqno_wrap_and_regression(void **state)
{
	struct trace_fixture *f = *state;
	struct ft_model *m;
	uint32_t seqs[] = { 0xfffffffe, 0xffffffff, 0, 1, 0xfffffff0 };

	for (unsigned int i = 0; i < 5; i++)
		FENCE(0, (100 + i) * MS, "dma_fence_init", 9, seqs[i]);
	m = trace_fixture_analyze(f);
	/* the wrap to 0 is in order; 0xfffffff0 after 1 is a regression */
	assert_int_equal(timeline(m, 9)->out_of_order, 1);
	assert_int_equal(timeline(m, 9)->fences, 5);
}

static void test_key_collisions(void **state)
{
	struct trace_fixture *f = *state;
	struct ft_model *m;

	/* stub fences are all (0, 0): the second is a fence of its own */
	assert_int_equal(tb_fence(f->tb, 0, 10 * MS, "dma_fence_init", "stub", "stub", 0, 0), 0);
	assert_int_equal(tb_fence(f->tb, 0, 11 * MS, "dma_fence_init", "stub", "stub", 0, 0), 0);
	assert_int_equal(tb_fence(f->tb, 0, 12 * MS, "dma_fence_signaled", "stub", "stub", 0, 0), 0);
	/* merged arrays: a fresh context each, seqno 1 */
	assert_int_equal(tb_fence(f->tb, 1, 13 * MS, "dma_fence_init", "dma_fence_array",
				  "unbound", 100, 1), 0);
	assert_int_equal(tb_fence(f->tb, 1, 14 * MS, "dma_fence_init", "dma_fence_array",
				  "unbound", 101, 1), 0);
	f->each_context = 1;	/* per-context rows, as --by context keeps them */
	m = trace_fixture_analyze(f);
	assert_int_equal(timeline(m, 0)->key_reused, 1);
	assert_int_equal(timeline(m, 0)->fences, 2);
	assert_int_equal(timeline(m, 0)->signaled, 1);
	assert_int_equal(timeline(m, 0)->latency.max, 2 * MS);	/* the older one's */
	assert_int_equal(timeline(m, 0)->unsignaled_at_end, 1);
	assert_int_equal(timeline(m, 0)->out_of_order, 0);
	assert_int_equal(timeline(m, 100)->fences, 1);
	assert_int_equal(timeline(m, 101)->fences, 1);
	assert_int_equal(m->fences.timelines.n, 3);
}

/*
 * dma_fence events carry context and seqno as 32 bits: fences 0x1_00000005
 * and 0x2_00000005 of a timeline with 64-bit seqnos both read as seqno 5.
 * Documented (model.h): the second is a fence of its own, counted as
 * key_reused (a collision), not as a seqno regression; each signal goes
 * to the oldest fence of the key not yet signalled, a destroy to the
 * oldest signalled.  A third fence while the second is live collides too.
 */
static void test_seqno_truncated_to_32_bits(void **state)
{
	struct trace_fixture *f = *state;
	const struct ft_timeline *t;
	struct ft_model *m;
	const char *text;

	GFX(0, 1 * MS, "dma_fence_init", (uint32_t)0x100000005ull);
	GFX(0, 2 * MS, "dma_fence_init", (uint32_t)0x200000005ull);	/* the same key */
	GFX(1, 10 * MS, "dma_fence_signaled", 5);	/* the older fence's signal */
	GFX(1, 20 * MS, "dma_fence_signaled", 5);	/* the newer one's */
	GFX(1, 21 * MS, "dma_fence_destroy", 5);	/* the older one */
	GFX(0, 30 * MS, "dma_fence_init", (uint32_t)0x300000005ull);	/* the newer one is live */
	GFX(1, 31 * MS, "dma_fence_signaled", 5);
	m = trace_fixture_analyze(f);
	t = timeline(m, 9);
	assert_int_equal(t->fences, 3);
	assert_int_equal(t->key_reused, 2);
	assert_int_equal(t->out_of_order, 0);
	assert_int_equal(t->signaled, 3);
	assert_int_equal(t->latency.count, 3);
	assert_int_equal(t->latency.min, 1 * MS);	/* 31 ms - the third init at 30 ms */
	assert_int_equal(t->latency.max, 18 * MS);	/* 20 ms - the second init at 2 ms */
	assert_int_equal(t->destroyed_unsignaled, 0);
	assert_int_equal(t->unsignaled_at_end, 0);
	text = trace_fixture_report(f, 0);
	assert_non_null(strstr(text, "  (context, seqno) reused while live: 2\n"));
	assert_non_null(strstr(text, "  seqno regressions at creation: 0\n"));
}

static void test_unknown_events_and_lost(void **state)
{
	struct trace_fixture *f = *state;
	unsigned char payload[8] = { 0 };
	struct ft_model *m;

	FENCE(0, 1 * MS, "dma_fence_init", 3, 1);
	assert_int_equal(tb_add(f->tb, 0, 2 * MS, 4000, payload, sizeof(payload)), 0);
	assert_int_equal(tb_missed(f->tb, 1, 5), 0);
	FENCE(1, 3 * MS, "dma_fence_signaled", 3, 1);
	/* a timeline that lives after the loss is not suspect */
	FENCE(1, 10 * MS, "dma_fence_init", 5, 1);
	FENCE(1, 11 * MS, "dma_fence_signaled", 5, 1);
	f->each_context = 1;	/* per-context rows, as --by context keeps them */
	m = trace_fixture_analyze(f);
	assert_true(model_lost_between(m, timeline(m, 3)->first_ts, timeline(m, 3)->last_ts));
	assert_false(model_lost_between(m, timeline(m, 5)->first_ts, timeline(m, 5)->last_ts));
	assert_int_equal(f->a.dec.unknown, 1);
	assert_int_equal(m->events, 4);
	assert_int_equal(m->lost, 5);
	assert_int_equal(timeline(m, 3)->signaled, 1);
}

static void test_no_fence_events(void **state)
{
	struct trace_fixture *f = *state;
	struct ft_model *m;
	uint32_t seqs[] = { 1, 2, 3, 4, 5, 7, 8 };

	for (unsigned int i = 0; i < 7; i++)
		assert_int_equal(tb_vblank(f->tb, 0, seqs[i] * 16 * MS, 0, seqs[i],
					   (int64_t)(seqs[i] * 16 * MS), 1), 0);
	m = trace_fixture_analyze(f);
	assert_int_equal(m->fences.timelines.n, 0);
	assert_int_equal(m->display.crtcs.n, 0);
	assert_int_equal(m->display.pipes.n, 1);
	assert_int_equal(m->display.pipes.items[0].vblanks, 7);
	assert_int_equal(m->display.pipes.items[0].missed, 1);
	assert_int_equal(hist_percentile(&m->display.pipes.items[0].period, 0.5), 16 * MS);
}

static void commit(struct trace_fixture *f, uint64_t t, uint32_t out_seqno, uint64_t b_wait_ms)
{
	tb_set_pid(f->tb, 50);
	assert_int_equal(tb_fence(f->tb, 1, t, "dma_fence_init", "vkms", "CRTC:51-crtc-0", 1,
				  out_seqno), 0);
	FENCE(1, t + 100000, "dma_fence_wait_start", 3, out_seqno);
	FENCE(1, t + 1 * MS, "dma_fence_wait_end", 3, out_seqno);
	assert_int_equal(tb_fence(f->tb, 1, t + 1 * MS, "dma_fence_wait_start", "sw_sync",
				  "producer-B", 4, out_seqno), 0);
	assert_int_equal(tb_fence(f->tb, 1, t + (1 + b_wait_ms) * MS, "dma_fence_wait_end",
				  "sw_sync", "producer-B", 4, out_seqno), 0);
	tb_set_pid(f->tb, 0);
}

static void test_late_frame_and_its_blocking_fence(void **state)
{
	struct trace_fixture *f = *state;
	const struct ft_late_frame *l;
	const struct ft_crtc *c;
	struct ft_model *m;

	for (uint32_t s = 1; s <= 2; s++) {
		FENCE(1, s * MS, "dma_fence_init", 3, s);
		assert_int_equal(tb_fence(f->tb, 1, s * MS, "dma_fence_init", "sw_sync",
					  "producer-B", 4, s), 0);
	}
	trace_fixture_land(f, 100, 0, NULL);
	commit(f, 100 * 16 * MS + 1 * MS, 1, 2);	/* B takes 2 ms: lands on 101 */
	trace_fixture_land(f, 101, 1, NULL);
	commit(f, 101 * 16 * MS + 1 * MS, 2, 39);	/* B takes 39 ms: lands on 104 */
	trace_fixture_land(f, 102, 0, NULL);
	trace_fixture_land(f, 103, 0, NULL);
	trace_fixture_land(f, 104, 2, NULL);
	m = trace_fixture_analyze(f);
	assert_int_equal(m->display.crtcs.n, 1);
	c = &m->display.crtcs.items[0];
	assert_int_equal(c->crtc_id, 51);
	assert_string_equal(c->name, "crtc-0");
	assert_int_equal(c->pipe, 0);
	assert_int_equal(c->frames, 2);
	assert_int_equal(c->late_count, 1);
	l = &c->late[0];
	assert_int_equal(l->out_seqno, 2);
	assert_int_equal(l->target_seq, 102);
	assert_int_equal(l->landed_seq, 104);
	assert_int_equal(l->late_by_ns, (104 * 16 * MS + 20000) - (102 * 16 * MS + 30000));
	assert_true(l->blocking.known);
	assert_int_equal(l->blocking.context, 4);
	assert_int_equal(l->blocking.seqno, 2);
	assert_int_equal(l->blocking.wait_ns, 39 * MS);
	assert_string_equal(model_context_row(m, l->blocking.ctx)->name, "producer-B");
	/* the waits section: pid 50 waited four times, on two timelines */
	assert_int_equal(m->waits.by_task.n, 1);
	assert_int_equal(m->waits.by_task.items[0].count, 4);
	assert_int_equal(m->waits.by_task.items[0].max_ns, 39 * MS);
	assert_int_equal(m->waits.by_timeline.n, 2);
	/* the stalls section: only B's 39 ms wait passes 33 ms, and it held up out-fence 2 */
	assert_int_equal(m->waits.long_waits_total, 1);
	assert_int_equal(m->waits.long_waits[0].key, 4ull << 32 | 2);
	assert_int_equal(m->waits.long_waits[0].end - m->waits.long_waits[0].start, 39 * MS);
	assert_int_equal(m->waits.long_waits[0].out_seqno, 2);
	assert_int_equal(m->waits.long_waits[0].pid, 50);
}

/* No signal events for the in-fences (a capture that lost them): the wait
 * that lasted is the blocking one, not the instant wait that ended after it. */
static void test_blocking_without_signal_events(void **state)
{
	struct trace_fixture *f = *state;
	uint64_t t = 200 * 16 * MS + MS;
	struct ft_model *m;

	FENCE(1, MS, "dma_fence_init", 3, 1);
	assert_int_equal(tb_fence(f->tb, 1, MS, "dma_fence_init", "sw_sync", "producer-B", 4, 1), 0);
	trace_fixture_land(f, 200, 0, NULL);
	tb_set_pid(f->tb, 50);
	assert_int_equal(tb_fence(f->tb, 1, t, "dma_fence_init", "vkms", "CRTC:51-crtc-0", 1, 1), 0);
	FENCE(1, t + 100000, "dma_fence_wait_start", 3, 1);
	FENCE(1, t + 60 * MS, "dma_fence_wait_end", 3, 1);
	assert_int_equal(tb_fence(f->tb, 1, t + 60 * MS + 10000, "dma_fence_wait_start", "sw_sync",
				  "producer-B", 4, 1), 0);
	assert_int_equal(tb_fence(f->tb, 1, t + 60 * MS + 13000, "dma_fence_wait_end", "sw_sync",
				  "producer-B", 4, 1), 0);
	tb_set_pid(f->tb, 0);
	for (uint32_t s = 201; s <= 204; s++)
		trace_fixture_land(f, s, s == 204 ? 1 : 0, NULL);
	m = trace_fixture_analyze(f);
	assert_int_equal(m->display.crtcs.items[0].late_count, 1);
	assert_int_equal(m->display.crtcs.items[0].late[0].blocking.context, 3);
}

static const struct ft_wait_stat *wait_stat(const struct ft_wait_stat *s, unsigned int n, uint64_t id)
{
	for (unsigned int i = 0; i < n; i++)
		if (s[i].id == id)
			return &s[i];
	fail_msg("no wait statistics for %llu", (unsigned long long)id);
	return NULL;
}

/*
 * Stock events say nothing of how a wait ended: one that ends before its
 * fence signalled was interrupted (or timed out); a wait on a fence the
 * trace never saw created is not judged.
 */
static void test_waits_interrupted(void **state)
{
	struct trace_fixture *f = *state;
	const struct ft_wait_stat *s;
	struct ft_model *m;

	FENCE(0, 1 * MS, "dma_fence_init", 5, 1);
	FENCE(0, 1 * MS, "dma_fence_init", 5, 2);
	tb_set_pid(f->tb, 60);
	FENCE(1, 2 * MS, "dma_fence_wait_start", 5, 1);
	FENCE(0, 5 * MS, "dma_fence_signaled", 5, 1);		/* signalled: the wait ends */
	FENCE(1, 5 * MS + 1000, "dma_fence_wait_end", 5, 1);
	FENCE(1, 6 * MS, "dma_fence_wait_start", 5, 2);
	FENCE(1, 9 * MS, "dma_fence_wait_end", 5, 2);		/* before its signal */
	tb_set_pid(f->tb, 61);
	FENCE(1, 10 * MS, "dma_fence_wait_start", 7, 1);	/* created before the trace */
	FENCE(1, 11 * MS, "dma_fence_wait_end", 7, 1);
	tb_set_pid(f->tb, 0);
	FENCE(0, 20 * MS, "dma_fence_signaled", 5, 2);
	m = trace_fixture_analyze(f);
	s = wait_stat(m->waits.by_task.items, m->waits.by_task.n, 60);
	assert_int_equal(s->count, 2);
	assert_int_equal(s->interrupted, 1);
	s = wait_stat(m->waits.by_task.items, m->waits.by_task.n, 61);
	assert_int_equal(s->count, 1);
	assert_int_equal(s->interrupted, 0);
	s = wait_stat(m->waits.by_timeline.items, m->waits.by_timeline.n, model_context_index(m, 5));
	assert_int_equal(s->count, 2);
	assert_int_equal(s->interrupted, 1);
}

/*
 * A recorder whose stats say it took more events from a CPU than the file
 * holds (a trace-cmd per-CPU recorder that saved nothing): the difference
 * is lost, said, and every span may be short.
 */
static void test_missing_events(void **state)
{
	static const char *const stats[] = { "CPU: 0\nentries: 5\noverrun: 0\nread events: 0\n",
					     "CPU: 1\nentries: 0\noverrun: 0\nread events: 2\n" };
	struct trace_fixture *f = *state;
	struct ft_model *m;

	tb_set_cpu_stats(f->tb, stats);
	FENCE(1, 1 * MS, "dma_fence_init", 5, 1);
	FENCE(1, 2 * MS, "dma_fence_signaled", 5, 1);
	m = trace_fixture_analyze(f);
	assert_int_equal(m->missing, 5);
	assert_int_equal(m->lost, 5);
	assert_true(model_lost_between(m, 1 * MS, 2 * MS));
}

static void test_json_escapes_names(void **state)
{
	struct trace_fixture *f = *state;
	const char *json;

	assert_int_equal(tb_fence(f->tb, 0, MS, "dma_fence_init", "sw_sync",
				  "</script>\"x\\", 7, 1), 0);
	trace_fixture_analyze(f);
	json = trace_fixture_report(f, 1);
	assert_non_null(strstr(json, "\"timeline\": \"\\u003c/script\\u003e\\\"x\\\\\""));
	assert_null(strstr(json, "</script>"));
}

static void test_bad_files(void **state)
{
	struct analysis a;
	char err[256];
	FILE *junk;

	(void)state;
	assert_int_equal(analysis_run(&a, "/nonexistent/trace.dat", NULL, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "/nonexistent/trace.dat"));
	analysis_free(&a);
	junk = fopen("/tmp/test-report-junk.dat", "w");
	fputs("this is not a trace file at all, but long enough to look at\n", junk);
	fclose(junk);
	assert_int_equal(analysis_run(&a, "/tmp/test-report-junk.dat", NULL, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "not a trace-cmd file"));
	analysis_free(&a);
	unlink("/tmp/test-report-junk.dat");
}

static void test_drm_map(void **state)
{
	static const char text[] =
		"# fence-trace DRM devices\n"
		"device 1 vkms\n"
		"plane 1 31 plane-0\n"
		"crtc 1 51 crtc-0 0\n"
		"device 2 virtio_gpu\n"
		"crtc 2 33 crtc-0 0\n"
		"crtc 2 38 crtc-1 1\n"
		"crtc 3 40 crtc-0 0\n"		/* no such device: skipped */
		"crtc 1 x crtc-0 0\n"		/* not a number: skipped */
		"crtc 1 52 crtc-9 0 extra\n"	/* too many fields: skipped */
		"bogus\n";
	const struct drm_map_crtc *c;
	struct drm_map map;
	FILE *in = fmemopen((void *)text, sizeof(text) - 1, "r");

	(void)state;
	assert_int_equal(drm_map_read(&map, in), 0);
	fclose(in);
	assert_int_equal(map.n_crtcs, 3);
	assert_int_equal(map.skipped, 4);
	c = drm_map_find(&map, "virtio_gpu", 38, "crtc-1");
	assert_non_null(c);
	assert_int_equal(c->minor, 2);
	assert_int_equal(c->index, 1);
	assert_null(drm_map_find(&map, "vkms", 33, "crtc-0"));
}

int run_report_tests(void)
{
	const struct CMUnitTest tests[] = {
		trace_fixture_stock_test(test_timeline_counts_across_cpus),
		trace_fixture_stock_test(test_seqno_wrap_and_regression),
		trace_fixture_stock_test(test_key_collisions),
		trace_fixture_stock_test(test_seqno_truncated_to_32_bits),
		trace_fixture_stock_test(test_unknown_events_and_lost),
		trace_fixture_stock_test(test_no_fence_events),
		trace_fixture_stock_test(test_late_frame_and_its_blocking_fence),
		trace_fixture_stock_test(test_blocking_without_signal_events),
		trace_fixture_stock_test(test_waits_interrupted),
		trace_fixture_stock_test(test_missing_events),
		trace_fixture_stock_test(test_json_escapes_names),
		cmocka_unit_test(test_bad_files),
		cmocka_unit_test(test_drm_map),
	};

	return cmocka_run_group_tests_name("report", tests, NULL, NULL);
}
