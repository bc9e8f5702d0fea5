// SPDX-License-Identifier: GPL-2.0
/*
 * test-report-sections.c - what report's sections print, as text, JSON and
 * CSV, from constructed traces: emit latency, the log2 histograms, the
 * out-of-order column, vblank jitter, the anomalies object, poll waits,
 * the filters and the time window.  The numbers themselves are
 * test-report.c's business; here, that each one reaches each output.
 */
#include <stdio.h>
#include <string.h>

#include "report.h"
#include "series-formats.h"
#include "trace-fixture.h"
#include "unit.h"

static const struct report_opts all = { SEC_ALL, NULL, -1, -1, -1, 0, 0 };

/* Fail, showing the output, unless @text has @want. */
static void assert_has(const char *text, const char *want)
{
	if (!strstr(text, want)) {
		fprintf(stderr, "%s", text);
		fail_msg("no \"%s\" in the text above", want);
	}
}

static void assert_lacks(const char *text, const char *unwanted)
{
	if (strstr(text, unwanted)) {
		fprintf(stderr, "%s", text);
		fail_msg("\"%s\" should not be in the text above", unwanted);
	}
}

/* Context 3: seqno 1 emitted at 2 ms, signalled at 5 ms; seqno 2 never emitted. */
static void emitted_and_not(struct trace_fixture *f)
{
	FENCE(0, 1 * MS, "dma_fence_init", 3, 1);
	FENCE(0, 1 * MS, "dma_fence_init", 3, 2);
	FENCE(0, 2 * MS, "dma_fence_emit", 3, 1);
	FENCE(1, 4 * MS, "dma_fence_signaled", 3, 2);
	FENCE(1, 5 * MS, "dma_fence_signaled", 3, 1);
	assert_int_equal(tb_fence(f->tb, 1, 6 * MS, "dma_fence_init", "sw_sync", "producer-B", 4, 1), 0);
	assert_int_equal(tb_fence(f->tb, 1, 7 * MS, "dma_fence_signaled", "sw_sync", "producer-B", 4, 1), 0);
	trace_fixture_analyze(f);
}

#define MERGES 100000

/* Lines from the "Timelines" heading up to the emit-latency table. */
static unsigned int timelines_lines(const char *s)
{
	const char *p = strstr(s, "\nTimelines ("), *end = strstr(s, "\nEmit latency");
	unsigned int n = 0;

	assert_non_null(p);
	assert_non_null(end);
	for (; p < end; p++)
		n += *p == '\n';
	return n;
}

/*
 * A compositor that merges a fence per frame: 100 k dma_fence_array
 * contexts of one fence each beside one sw_sync timeline.  The table stays
 * a handful of lines, the merges one row with every figure, and the model
 * keeps no row (no histogram) per merge context.
 */
static void test_merge_heavy_table_is_short(void **state)
{
	struct trace_fixture *f = *state;
	const struct ft_model *m;
	const char *s;
	uint64_t t = MS;

	for (uint32_t i = 0; i < MERGES; i++) {
		FENCE(0, t += 1000, "dma_fence_init", 3, i + 1);
		assert_int_equal(tb_fence(f->tb, 0, t += 1000, "dma_fence_init", "dma_fence_array",
					  "unbound", 100 + i, 1), 0);
		FENCE(1, t += 1000 + (i % 4) * 1000, "dma_fence_signaled", 3, i + 1);
		assert_int_equal(tb_fence(f->tb, 1, t += 1000, "dma_fence_signaled", "dma_fence_array",
					  "unbound", 100 + i, 1), 0);
		assert_int_equal(tb_fence(f->tb, 1, t += 1000, "dma_fence_destroy", "dma_fence_array",
					  "unbound", 100 + i, 1), 0);
	}
	m = trace_fixture_analyze(f);
	assert_int_equal(m->fences.contexts.n, MERGES + 1);
	assert_int_equal(m->fences.timelines.n, 1);		/* producer-A's own row only */
	/* producer-A's group (empty: its context got a row of its own), the merges' */
	assert_int_equal(m->fences.groups.n, 2);
	assert_int_equal(m->fences.groups.items[0].contexts, 0);
	assert_int_equal(m->fences.groups.items[1].contexts, MERGES);
	assert_int_equal(m->fences.groups.items[1].signaled, MERGES);
	assert_int_equal(m->fences.groups.items[1].latency.count, MERGES);
	s = trace_fixture_render(f, report_text, &all);
	assert_true(timelines_lines(s) <= 8);
	assert_has(s, "\n  100000  dma_fence_ar unbound               100000   100000      ?         0         0"
		   "            0     3.0 us     5.0 us     5.0 us     5.0 us  100000 merges, members ?\n");
}

static void test_emit_latency(void **state)
{
	struct trace_fixture *f = *state;
	const char *s;

	emitted_and_not(f);
	s = trace_fixture_render(f, report_text, &all);
	assert_has(s, "Emit latency (dma_fence_emit -> dma_fence_signaled, fences that were emitted)\n"
		   " context  driver       timeline             emitted        p50        p90        p99        max\n"
		   "       3  sw_sync      producer-A                 1    3.00 ms    3.00 ms    3.00 ms    3.00 ms\n");
	assert_lacks(strstr(s, "Emit latency"), "producer-B");
	s = trace_fixture_render(f, report_json, &all);
	assert_has(s, "\"emit_latency_ns\": {\"count\": 1, \"p50\": 3000000, \"p90\": 3000000, \"p99\": 3000000, \"max\": 3000000, \"log2_us\": [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, ");
	assert_has(s, "\"emit_latency_ns\": null}");
	s = trace_fixture_render(f, report_csv, &all);
	assert_has(s, ",emitted,emit_p50_ns,emit_p90_ns,emit_p99_ns,emit_max_ns,contexts,group_kind,key_reused,duplicates\n");
	assert_has(s, "\n3,sw_sync,producer-A,2,2,,0,0,0,");
	assert_has(s, ",1,3000000,3000000,3000000,3000000,1,,0,0\n");
	assert_has(s, ",0,,,,,1,one_fence,0,0\n");	/* producer-B held one fence: a group */
}

static void test_no_emit_said(void **state)
{
	struct trace_fixture *f = *state;

	FENCE(0, 1 * MS, "dma_fence_init", 3, 1);
	FENCE(0, 2 * MS, "dma_fence_signaled", 3, 1);
	trace_fixture_analyze(f);
	assert_has(trace_fixture_render(f, report_text, &all),
		   "  no signalled fence was emitted (its driver does not trace dma_fence_emit)\n");
}

static void test_log2_histogram(void **state)
{
	struct trace_fixture *f = *state;
	struct report_opts hist = all;
	const char *s;

	emitted_and_not(f);		/* producer-A: 3 ms and 4 ms; B: 1 ms */
	s = trace_fixture_render(f, report_text, &all);
	assert_lacks(s, "nsecs");
	hist.hist = 1;
	s = trace_fixture_render(f, report_text, &hist);
	assert_has(s, "\nSignal latency of context 3 (sw_sync producer-A):\n"
		   "              nsecs        : count    distribution\n"
		   "     2097152 -> 4194303    : 2        |****************************************|\n"
		   "\nSignal latency of the group sw_sync producer-B (1 contexts):\n"
		   "              nsecs        : count    distribution\n"
		   "      524288 -> 1048575    : 1        |****************************************|\n");
	s = trace_fixture_render(f, report_json, &all);
	assert_has(s, "\"signal_latency_log2\": [{\"from_ns\": 2097152, \"to_ns\": 4194303, \"count\": 2}]");
	assert_has(s, "\"signal_latency_log2\": [{\"from_ns\": 524288, \"to_ns\": 1048575, \"count\": 1}]");
}

static void test_log2_gaps_and_empty(void **state)
{
	struct trace_fixture *f = *state;
	const char *s;

	FENCE(0, 1 * MS, "dma_fence_init", 3, 1);
	FENCE(0, 1 * MS, "dma_fence_init", 3, 2);
	FENCE(0, 1 * MS, "dma_fence_init", 3, 3);	/* never signalled */
	FENCE(1, 1 * MS + 1, "dma_fence_signaled", 3, 1);	/* 1 ns: bucket 0 */
	FENCE(1, 1 * MS + 4, "dma_fence_signaled", 3, 2);	/* 4 ns: bucket 2 */
	assert_int_equal(tb_fence(f->tb, 1, 2 * MS, "dma_fence_init", "sw_sync", "producer-B", 4, 1), 0);
	trace_fixture_analyze(f);
	s = trace_fixture_render(f, report_json, &all);
	assert_has(s, "\"signal_latency_log2\": [{\"from_ns\": 0, \"to_ns\": 1, \"count\": 1}, "
		   "{\"from_ns\": 2, \"to_ns\": 3, \"count\": 0}, {\"from_ns\": 4, \"to_ns\": 7, \"count\": 1}]");
	assert_has(s, "\"signal_latency_log2\": []");
}

static void test_out_of_order_column(void **state)
{
	struct trace_fixture *f = *state;

	FENCE(0, 1 * MS, "dma_fence_init", 3, 5);
	FENCE(0, 2 * MS, "dma_fence_init", 3, 4);
	FENCE(0, 3 * MS, "dma_fence_init", 3, 3);
	trace_fixture_analyze(f);
	assert_has(trace_fixture_render(f, report_text, &all),
		   " context  driver       timeline              fences signaled errors unsig@end destroyed out-of-order        p50        p90        p99        max\n"
		   "       3  sw_sync      producer-A                 3        0      ?         3         0            2          ?          ?          ?          ?\n");
}

/*
 * Vblanks 16, 17, 16 and 18 ms apart on the pipe CRTC 51's out-fence
 * signal pairs with: std dev sqrt(2.75 / 4) ms = 829156 ns, max - min 2 ms
 * (the p50, from the histogram, is a bucket's middle: 16.02 ms).
 */
static void test_vblank_jitter(void **state)
{
	static const uint64_t at_ms[] = { 100, 116, 133, 149, 167 };
	struct trace_fixture *f = *state;
	const char *s;

	assert_int_equal(tb_fence(f->tb, 1, 90 * MS, "dma_fence_init", "vkms", "CRTC:51-crtc-0", 1, 1), 0);
	for (uint32_t i = 0; i < 5; i++) {
		uint64_t t = at_ms[i] * MS;

		assert_int_equal(tb_vblank_delivered(f->tb, 0, t - 20000, 0, 0, i + 1), 0);
		if (i == 1)
			assert_int_equal(tb_fence(f->tb, 0, t - 10000, "dma_fence_signaled", "vkms",
						  "CRTC:51-crtc-0", 1, 1), 0);
		assert_int_equal(tb_vblank(f->tb, 0, t, 0, i + 1, (int64_t)t, 1), 0);
	}
	trace_fixture_analyze(f);
	s = trace_fixture_render(f, report_text, &all);
	assert_has(s, "  vblanks: 5, period p50 16.02 ms (min 16.00 ms, max 18.00 ms), jitter: std dev 829.2 us, max - min 2.00 ms, missed 0\n");
	s = trace_fixture_render(f, report_json, &all);
	assert_has(s, "\"vblank_period_min_ns\": 16000000, \"vblank_period_max_ns\": 18000000, "
		   "\"vblank_period_stddev_ns\": 829156, \"vblank_period_range_ns\": 2000000, ");
}

/*
 * What no sample can tell is unknown, "?", never "0 ns": a CRTC with one
 * vblank (no period yet), and one whose only out-fence never signalled.
 */
static void test_no_sample_is_unknown(void **state)
{
	struct trace_fixture *f = *state;
	const char *s;

	assert_int_equal(tb_fence(f->tb, 1, 90 * MS, "dma_fence_init", "vkms", "CRTC:51-crtc-0", 1, 1), 0);
	assert_int_equal(tb_fence(f->tb, 1, 91 * MS, "dma_fence_init", "vkms", "CRTC:52-crtc-1", 2, 1), 0);
	assert_int_equal(tb_vblank_delivered(f->tb, 0, 100 * MS - 20000, 0, 0, 1), 0);
	assert_int_equal(tb_fence(f->tb, 0, 100 * MS - 10000, "dma_fence_signaled", "vkms",
				  "CRTC:51-crtc-0", 1, 1), 0);
	assert_int_equal(tb_vblank(f->tb, 0, 100 * MS, 0, 1, (int64_t)(100 * MS), 1), 0);
	trace_fixture_analyze(f);
	s = trace_fixture_render(f, report_text, &all);
	assert_has(s, "  vblanks: 1, period p50 ? (min ?, max ?), jitter: std dev ?, max - min ?, missed 0\n");
	assert_has(s, ": 0 frames, out-fence latency p50 ?, p99 ?, max ?\n");
	assert_lacks(s, " 0 ns");
}

/* A CRTC whose pipe is not known (no vblank paired): jitter is null. */
static void test_vblank_jitter_unknown(void **state)
{
	struct trace_fixture *f = *state;

	assert_int_equal(tb_fence(f->tb, 1, 90 * MS, "dma_fence_init", "vkms", "CRTC:51-crtc-0", 1, 1), 0);
	assert_int_equal(tb_fence(f->tb, 1, 95 * MS, "dma_fence_signaled", "vkms", "CRTC:51-crtc-0", 1, 1), 0);
	trace_fixture_analyze(f);
	assert_has(trace_fixture_render(f, report_json, &all),
		   "\"vblank_period_min_ns\": null, \"vblank_period_max_ns\": null, "
		   "\"vblank_period_stddev_ns\": null, \"vblank_period_range_ns\": null, ");
}

/* Seqno 5, 4, 3 on context 3 (two regressions); 3 never signals; 4 is destroyed unsignalled. */
static void regressions(struct trace_fixture *f)
{
	FENCE(0, 1 * MS, "dma_fence_init", 3, 5);
	FENCE(0, 2 * MS, "dma_fence_init", 3, 4);
	FENCE(0, 3 * MS, "dma_fence_init", 3, 3);
	FENCE(0, 4 * MS, "dma_fence_signaled", 3, 5);
	FENCE(0, 5 * MS, "dma_fence_destroy", 3, 4);
	FENCE(0, 6 * MS, "dma_fence_signaled", 8, 1);	/* created before the trace */
	trace_fixture_analyze(f);
}

static void test_anomalies_json(void **state)
{
	struct trace_fixture *f = *state;
	struct report_opts only = all;

	regressions(f);
	assert_has(trace_fixture_render(f, report_json, &all),
		   "  \"anomalies\": {\"never_signaled\": 1, \"errors\": null, \"destroyed_unsignaled\": 1, "
		   "\"discarded_out_fences\": null, \"seqno_regressions\": 2, \"key_reused\": 0, "
		   "\"duplicates\": 0, \"duplicates_traced\": false, \"vblank_gaps\": 0, \"signals_of_unknown_fences\": 1, \"lost_events\": 0, "
		   "\"lost_unknown_pages\": 0},\n");
	only.sections = SEC_TIMELINES;
	assert_lacks(trace_fixture_render(f, report_json, &only), "anomalies");
}

static void test_anomalies_csv(void **state)
{
	struct trace_fixture *f = *state;
	struct report_opts only = all;

	regressions(f);
	only.sections = SEC_ANOMALIES;
	assert_string_equal(trace_fixture_render(f, report_csv, &only),
			    "anomaly,count\nnever_signaled,1\nerrors,\ndestroyed_unsignaled,1\n"
			    "discarded_out_fences,\nseqno_regressions,2\nkey_reused,0\nduplicates,0\n"
			    "duplicates_traced,0\nvblank_gaps,0\n"
			    "signals_of_unknown_fences,1\nlost_events,0\nlost_unknown_pages,0\n");
}

static void test_stalls_csv(void **state)
{
	struct trace_fixture *f = *state;
	struct report_opts only = all;

	FENCE(0, 1 * MS, "dma_fence_init", 3, 1);
	tb_set_pid(f->tb, 60);
	FENCE(1, 2 * MS, "dma_fence_wait_start", 3, 1);
	FENCE(0, 52 * MS, "dma_fence_signaled", 3, 1);
	FENCE(1, 52 * MS + 1000, "dma_fence_wait_end", 3, 1);
	FENCE(1, 60 * MS, "dma_fence_wait_start", 3, 1);	/* short: not a stall */
	FENCE(1, 61 * MS, "dma_fence_wait_end", 3, 1);
	tb_set_pid(f->tb, 0);
	trace_fixture_analyze(f);
	only.sections = SEC_STALLS;
	assert_string_equal(trace_fixture_render(f, report_csv, &only),
			    "pid,comm,start_ns,end_ns,context,seqno,signaled,out_fence_seqno,error,outcome\n"
			    "60,?,2000000,52001000,3,1,1,0,,unknown\n");
}

/* The series' sync_file poll: begin by the waiter, ready (maybe elsewhere) by sync_file. */
static void poll_event(struct trace_fixture *f, uint64_t ts, const char *name, uint64_t file,
		       uint32_t seqno)
{
	struct payload p;

	series_poll(&p, file, 0xffff0000 + file, 3, seqno);
	trace_fixture_event(f, 0, ts, name, p.b, p.len);
}

static void test_polls_json(void **state)
{
	struct trace_fixture *f = *state;
	struct report_opts other_pid = all;
	const char *s;

	FENCE(0, 1 * MS, "dma_fence_init", 3, 1);
	tb_set_pid(f->tb, 70);
	poll_event(f, 2 * MS, "sync_file_poll_begin", 0xa0, 1);
	tb_set_pid(f->tb, 0);
	poll_event(f, 7 * MS, "sync_file_poll_ready", 0xa0, 1);
	trace_fixture_analyze(f);
	s = trace_fixture_render(f, report_json, &all);
	assert_has(s, "\"polls\": {\"by_task\": [\n    {\"pid\": 70, \"comm\": \"?\", \"polls\": 1, "
		   "\"total_ns\": 5000000, \"max_ns\": 5000000, \"p99_ns\": 5000000}\n  ], "
		   "\"by_timeline\": [\n  ], \"by_group\": [\n    {\"group\": 0, \"kind\": \"one_fence\", "
		   "\"driver\": \"sw_sync\", \"timeline\": \"producer-A\", \"contexts\": 1, \"polls\": 1, "
		   "\"total_ns\": 5000000, \"max_ns\": 5000000, \"p99_ns\": 5000000}\n  ]}},\n");
	other_pid.pid = 71;
	assert_has(trace_fixture_render(f, report_json, &other_pid), "\"polls\": {\"by_task\": [\n  ], ");
}

static void in_fence(struct trace_fixture *f, uint64_t ts, const char *ev, uint32_t ctx,
		     uint32_t seqno)
{
	assert_int_equal(tb_fence(f->tb, 1, ts, ev, "sw_sync", ctx == 3 ? "producer-A" : "producer-B",
				  ctx, seqno), 0);
}

/* Task @pid commits out-fence @out just after vblank @seq, waiting 39 ms on in-fence @ctx. */
static void late_commit(struct trace_fixture *f, uint32_t seq, uint32_t out, uint32_t ctx, int pid)
{
	uint64_t t = seq * 16 * MS + MS;

	tb_set_pid(f->tb, pid);
	assert_int_equal(tb_fence(f->tb, 1, t, "dma_fence_init", "vkms", "CRTC:51-crtc-0", 1, out), 0);
	in_fence(f, t + 100000, "dma_fence_wait_start", ctx, out);
	in_fence(f, t + 39 * MS, "dma_fence_signaled", ctx, out);
	in_fence(f, t + 39 * MS + 1000, "dma_fence_wait_end", ctx, out);
	tb_set_pid(f->tb, 0);
}

/* Out-fence 1 (pid 50) late behind producer-A, out-fence 2 (pid 51) behind producer-B. */
static void two_late_frames(struct trace_fixture *f)
{
	for (uint32_t s = 1; s <= 2; s++) {
		in_fence(f, s * MS, "dma_fence_init", 3, s);
		in_fence(f, s * MS, "dma_fence_init", 4, s);
	}
	trace_fixture_land(f, 100, 0, NULL);
	late_commit(f, 100, 1, 3, 50);
	for (uint32_t seq = 101; seq <= 104; seq++)
		trace_fixture_land(f, seq, seq == 104 ? 1 : 0, NULL);
	late_commit(f, 104, 2, 4, 51);
	for (uint32_t seq = 105; seq <= 108; seq++)
		trace_fixture_land(f, seq, seq == 108 ? 2 : 0, NULL);
	trace_fixture_analyze(f);
	assert_int_equal(f->a.model.display.crtcs.items[0].late_count, 2);
}

#define LATE_A "         1       1.601000      101      104   47.99 ms  sw_sync producer-A context 3 seqno 1"
#define LATE_B "         2       1.665000      105      108   47.99 ms  sw_sync producer-B context 4 seqno 2"

static void test_filter_timeline(void **state)
{
	struct trace_fixture *f = *state;
	struct report_opts o = all;
	const char *s;

	two_late_frames(f);
	s = trace_fixture_render(f, report_text, &o);
	assert_has(s, "  late frames: 2\n");
	assert_has(s, LATE_A);
	assert_has(s, LATE_B);
	o.timeline = "producer-B";
	s = trace_fixture_render(f, report_text, &o);
	assert_has(s, "  late frames: 1 of 2 kept by --pid/--timeline/--context\n");
	assert_has(s, LATE_B);
	assert_lacks(s, LATE_A);
	assert_has(s, "  waited timeline        context   waits      total        max        p99 interrupted\n"
		   "  producer-B                   4       1   38.90 ms   38.90 ms   38.90 ms           0\n"
		   "\nDisplay");
	s = trace_fixture_render(f, report_json, &o);
	assert_has(s, "\"late_frame_count\": 2, \"late_frame_selected_count\": 1, ");
	assert_lacks(s, "{\"out_fence_seqno\": 1,");
	assert_lacks(s, "\"timeline\": \"producer-A\"");
	s = trace_fixture_render(f, report_csv, &o);
	assert_has(s, "\n51,2,51,");
	assert_lacks(s, "\n51,1,50,");
}

static void test_filter_context(void **state)
{
	struct trace_fixture *f = *state;
	struct report_opts o = all;
	const char *s;

	two_late_frames(f);
	o.context = 3;
	s = trace_fixture_render(f, report_text, &o);
	assert_has(s, LATE_A);
	assert_lacks(s, LATE_B);
	assert_lacks(s, "  producer-B    ");
	o.context = 1;			/* the CRTC's own timeline keeps all its late frames */
	s = trace_fixture_render(f, report_text, &o);
	assert_has(s, "  late frames: 2 of 2 kept by --pid/--timeline/--context\n");
	assert_has(s, LATE_A);
	assert_has(s, LATE_B);
}

static void test_filter_pid_counts_late_frames(void **state)
{
	struct trace_fixture *f = *state;
	struct report_opts o = all;
	const char *s;

	two_late_frames(f);
	o.pid = 51;
	s = trace_fixture_render(f, report_text, &o);
	assert_has(s, "  late frames: 1 of 2 kept by --pid/--timeline/--context\n");
	assert_has(s, LATE_B);
	assert_lacks(s, LATE_A);
	assert_has(trace_fixture_render(f, report_json, &o), "\"late_frame_selected_count\": 1, ");
}

static void test_window_stated(void **state)
{
	struct trace_fixture *f = *state;
	const char *s;

	FENCE(0, 1 * MS, "dma_fence_init", 3, 1);
	trace_fixture_analyze(f);
	s = trace_fixture_render(f, report_text, &all);
	assert_lacks(s, "window:");
	assert_has(trace_fixture_render(f, report_json, &all), "\"window\": {\"from_ns\": 0, \"to_ns\": null},\n");
	f->from_ns = 1500000000;
	f->to_ns = 2250000000;
	s = trace_fixture_render(f, report_text, &all);
	assert_has(s, "\nwindow: 1.500000 s to 2.250000 s of the trace (--from/--to): events outside it were not read\n");
	assert_has(trace_fixture_render(f, report_json, &all),
		   "\"window\": {\"from_ns\": 1500000000, \"to_ns\": 2250000000},\n");
	f->to_ns = 0;
	assert_has(trace_fixture_render(f, report_text, &all), "\nwindow: 1.500000 s to the end of the trace");
}

int run_report_sections_tests(void)
{
	const struct CMUnitTest tests[] = {
		trace_fixture_stock_test(test_emit_latency),
		trace_fixture_stock_test(test_merge_heavy_table_is_short),
		trace_fixture_stock_test(test_no_emit_said),
		trace_fixture_stock_test(test_log2_histogram),
		trace_fixture_stock_test(test_log2_gaps_and_empty),
		trace_fixture_stock_test(test_out_of_order_column),
		trace_fixture_stock_test(test_no_sample_is_unknown),
		trace_fixture_stock_test(test_vblank_jitter),
		trace_fixture_stock_test(test_vblank_jitter_unknown),
		trace_fixture_stock_test(test_anomalies_json),
		trace_fixture_stock_test(test_anomalies_csv),
		trace_fixture_stock_test(test_stalls_csv),
		trace_fixture_series_test(test_polls_json),
		trace_fixture_stock_test(test_filter_timeline),
		trace_fixture_stock_test(test_filter_context),
		trace_fixture_stock_test(test_filter_pid_counts_late_frames),
		trace_fixture_stock_test(test_window_stated),
	};

	return cmocka_run_group_tests_name("report-sections", tests, NULL, NULL);
}
