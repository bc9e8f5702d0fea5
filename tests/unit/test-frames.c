// SPDX-License-Identifier: GPL-2.0
/*
 * test-frames.c - the frame timeline (lib/model-frames.c): each late
 * frame's class, each repeated vblank's blame, the latch margin, targets
 * missing from the trace, on stock-kernel traces built event by event.
 *
 * Vblank N is at N * 16 ms (traced 30 us later, trace_fixture_land); a
 * commit is pid 50's out-fence on CRTC 51 and one in-fence of producer-B.
 */
#include "series-formats.h"
#include "timeline.h"
#include "trace-fixture.h"
#include "unit.h"

#define VB(n) ((uint64_t)(n) * 16 * MS + 30000)	/* when vblank n is traced */

/* A commit: submitted, its in-fence signalled, its waiter woken; where it lands. */
struct commit_times {
	uint32_t out_seqno;
	uint64_t submit, signal, woken;	/* signal 0: never traced */
	uint32_t lands;			/* the vblank its out-fence is signalled on */
};

/* A compositor's sync_file poll (series events), from @begin to @ready. */
struct poll_times {
	uint64_t begin, ready;
};

/* What the trace holds: vblanks @from..@to but @missing, the commits, the polls. */
struct frames_script {
	uint32_t from, to, missing;
	const struct commit_times *c;
	unsigned int n;
	const struct poll_times *polls;
	unsigned int n_polls;
};

enum step_kind { STEP_SUBMIT, STEP_SIGNAL, STEP_WOKEN, STEP_VBLANK, STEP_POLL_BEGIN, STEP_POLL_READY };

struct step {
	uint64_t ts;
	enum step_kind kind;
	const struct commit_times *c;
	uint32_t seq;
};

static int step_cmp(const void *a, const void *b)
{
	const struct step *x = a, *y = b;

	return x->ts < y->ts ? -1 : x->ts > y->ts;
}

static uint32_t out_landing(const struct frames_script *sc, uint32_t seq)
{
	for (unsigned int i = 0; i < sc->n; i++)
		if (sc->c[i].lands == seq)
			return sc->c[i].out_seqno;
	return 0;
}

static void b_event(struct trace_fixture *f, unsigned int cpu, uint64_t ts, const char *ev,
		    uint32_t seqno)
{
	assert_int_equal(tb_fence(f->tb, cpu, ts, ev, "sw_sync", "producer-B", 4, seqno), 0);
}

/* One step; the commit's own on CPU 1 as pid 50, the rest on CPU 0. */
static void play_step(struct trace_fixture *f, const struct frames_script *sc, const struct step *st)
{
	const struct commit_times *c = st->c;

	tb_set_pid(f->tb, st->kind == STEP_SUBMIT || st->kind == STEP_WOKEN ? 50 : 0);
	switch (st->kind) {
	case STEP_SUBMIT:
		assert_int_equal(tb_fence(f->tb, 1, c->submit, "dma_fence_init", "vkms",
					  "CRTC:51-crtc-0", 1, c->out_seqno), 0);
		b_event(f, 1, c->submit, "dma_fence_init", c->out_seqno);
		b_event(f, 1, c->submit + 1000, "dma_fence_wait_start", c->out_seqno);
		break;
	case STEP_SIGNAL: b_event(f, 0, c->signal, "dma_fence_signaled", c->out_seqno); break;
	case STEP_WOKEN: b_event(f, 1, c->woken, "dma_fence_wait_end", c->out_seqno); break;
	case STEP_VBLANK: trace_fixture_land(f, st->seq, out_landing(sc, st->seq), NULL); break;
	case STEP_POLL_BEGIN:
	case STEP_POLL_READY: {
		struct payload p;

		series_poll(&p, 0xa0 + st->seq, 0xffff00a0 + st->seq, 9, 1);
		trace_fixture_event(f, 0, st->ts, st->kind == STEP_POLL_BEGIN ? "sync_file_poll_begin"
				    : "sync_file_poll_ready", p.b, p.len);
		break;
	}
	}
	tb_set_pid(f->tb, 0);
}

/* Build @sc's events in time order (each CPU's events must come in order). */
static void play_events(struct trace_fixture *f, const struct frames_script *sc)
{
	struct step st[256];
	unsigned int n = 0;

	for (unsigned int i = 0; i < sc->n; i++) {
		st[n++] = (struct step){ sc->c[i].submit, STEP_SUBMIT, &sc->c[i], 0 };
		if (sc->c[i].signal)
			st[n++] = (struct step){ sc->c[i].signal, STEP_SIGNAL, &sc->c[i], 0 };
		st[n++] = (struct step){ sc->c[i].woken, STEP_WOKEN, &sc->c[i], 0 };
	}
	for (unsigned int i = 0; i < sc->n_polls; i++) {
		st[n++] = (struct step){ sc->polls[i].begin, STEP_POLL_BEGIN, NULL, i };
		st[n++] = (struct step){ sc->polls[i].ready, STEP_POLL_READY, NULL, i };
	}
	for (uint32_t s = sc->from; s <= sc->to; s++)
		if (s != sc->missing)
			st[n++] = (struct step){ (uint64_t)s * 16 * MS, STEP_VBLANK, NULL, s };
	assert_true(n <= 256);
	qsort(st, n, sizeof(*st), step_cmp);
	for (unsigned int i = 0; i < n; i++)
		play_step(f, sc, &st[i]);
}

static struct ft_model *play(struct trace_fixture *f, const struct frames_script *sc)
{
	play_events(f, sc);
	return trace_fixture_analyze(f);
}

static const struct ft_crtc *crtc(struct ft_model *m)
{
	assert_int_equal(m->display.crtcs.n, 1);
	return &m->display.crtcs.items[0];
}

/* A commit ready 2 ms after it was made: on time for the vblank after @seq. */
#define PROMPT(out, seq) { out, VB(seq) + MS, VB(seq) + 2 * MS, VB(seq) + 2 * MS + 10000, (seq) + 1 }

/* One frame on time (on 100), then @late, meant for 101; vblanks 99..@to. */
static const struct ft_crtc *after_one(struct trace_fixture *f, struct commit_times late, uint32_t to)
{
	struct commit_times c[] = { PROMPT(1, 99), late };
	struct frames_script sc = { 99, to, 0, c, 2, NULL, 0 };

	return crtc(play(f, &sc));
}

/* Its in-fence signalled 5 ms past its target vblank: producer. */
static void test_producer(void **state)
{
	struct trace_fixture *f = *state;
	const struct ft_crtc *cr = after_one(f, (struct commit_times){
		2, VB(100) + MS, VB(101) + 5 * MS, VB(101) + 5 * MS + 10000, 102 }, 102);
	const struct ft_late_frame *l = &cr->late[0];

	assert_int_equal(cr->fs.on_time, 1);
	assert_int_equal(cr->late_count, 1);
	assert_int_equal(cr->fs.by_class[FT_CLASS_PRODUCER], 1);
	assert_int_equal(l->target_seq, 101);
	assert_int_equal(l->landed_seq, 102);
	assert_int_equal(l->cls, FT_CLASS_PRODUCER);
	assert_int_equal(l->contributing, 0);
	/* the frame on time was ready 16 ms - 2 ms ahead: the margin */
	assert_int_equal(cr->fs.margin_ns, VB(100) - (VB(99) + 2 * MS + 10000));
	assert_int_equal(l->past_deadline_ns, 5 * MS + cr->fs.margin_ns);
	/* vblank 101 showed the frame before: the commit waited on its fence */
	assert_int_equal(cr->fs.repeats[FT_REPEAT_WAITING_FENCE], 1);
	assert_int_equal(cr->fs.new_vblanks, 2);
	assert_int_equal(cr->fs.longest_repeat_run, 1);
}

/* Signalled 2 ms before the deadline, but its waiter ran 3 ms after the target: wakeup. */
static void test_wakeup(void **state)
{
	struct trace_fixture *f = *state;
	const struct ft_crtc *cr = after_one(f, (struct commit_times){
		2, VB(100) + MS, VB(100) + 1500000, VB(101) + 3 * MS, 102 }, 102);

	assert_int_equal(cr->late[0].cls, FT_CLASS_WAKEUP);
	assert_int_equal(cr->late[0].past_deadline_ns, 3 * MS + cr->fs.margin_ns);
	assert_int_equal(cr->fs.repeats[FT_REPEAT_WAITING_FENCE], 1);
}

/* Everything was ready as early as the frame on time, and it still missed: driver. */
static void test_driver(void **state)
{
	struct trace_fixture *f = *state;
	struct commit_times late = PROMPT(2, 100);
	const struct ft_crtc *cr;

	late.lands = 102;
	cr = after_one(f, late, 102);
	assert_int_equal(cr->late[0].cls, FT_CLASS_DRIVER);
	assert_int_equal(cr->late[0].past_deadline_ns, 0);
	assert_int_equal(cr->fs.repeats[FT_REPEAT_DRIVER], 1);
}

/*
 * The second commit's fence is late and it lands on 102; the third,
 * ready at once, targets 102 too and can only follow on 103: queued,
 * inferred (a stock kernel traces no commit stall).
 */
static void test_queued_behind_a_late_frame(void **state)
{
	struct trace_fixture *f = *state;
	struct commit_times c[] = {
		PROMPT(1, 99),
		{ 2, VB(100) + MS, VB(101) + 5 * MS, VB(101) + 5 * MS + 10000, 102 },
		{ 3, VB(101) + 6 * MS, VB(101) + 7 * MS, VB(101) + 7 * MS + 10000, 103 },
	};
	struct frames_script sc = { 99, 103, 0, c, 3, NULL, 0 };
	const struct ft_crtc *cr = crtc(play(f, &sc));

	assert_int_equal(cr->late_count, 2);
	assert_int_equal(cr->late[0].cls, FT_CLASS_PRODUCER);
	assert_int_equal(cr->late[1].cls, FT_CLASS_QUEUED);
	assert_true(cr->late[1].queued_inferred);
	assert_int_equal(cr->late[1].queued_until_ns, VB(102));
	assert_int_equal(cr->fs.repeats[FT_REPEAT_WAITING_FENCE], 1);	/* 101 */
	assert_int_equal(cr->fs.new_vblanks, 3);
	assert_int_equal(cr->fs.present_vblanks[0], 1);	/* 102 -> 103 */
	assert_int_equal(cr->fs.present_vblanks[1], 1);	/* 100 -> 102 */
}

/* Frames on time every vblank, then the compositor skips two: compositor-late. */
static void test_compositor_late(void **state)
{
	struct trace_fixture *f = *state;
	struct commit_times c[] = {
		PROMPT(1, 99), PROMPT(2, 100), PROMPT(3, 101), PROMPT(4, 102), PROMPT(5, 105),
	};
	struct frames_script sc = { 99, 106, 0, c, 5, NULL, 0 };
	const struct ft_crtc *cr = crtc(play(f, &sc));

	assert_int_equal(cr->fs.on_time, 5);
	assert_int_equal(cr->late_count, 0);
	assert_int_equal(cr->fs.repeats[FT_REPEAT_COMPOSITOR_LATE], 2);	/* 104, 105 */
	assert_int_equal(cr->fs.repeats[FT_REPEAT_IDLE], 0);
	assert_int_equal(cr->fs.longest_repeat_run, 2);
	assert_int_equal(cr->fs.present_vblanks[0], 3);
	assert_int_equal(cr->fs.present_vblanks[2], 1);
}

/* A 30 fps compositor: every other vblank repeats, in keeping with its cadence. */
static void test_idle_at_half_rate(void **state)
{
	struct trace_fixture *f = *state;
	struct commit_times c[] = {
		PROMPT(1, 99), PROMPT(2, 101), PROMPT(3, 103), PROMPT(4, 105), PROMPT(5, 107),
	};
	struct frames_script sc = { 99, 108, 0, c, 5, NULL, 0 };
	const struct ft_crtc *cr = crtc(play(f, &sc));

	assert_int_equal(cr->fs.on_time, 5);
	/* the first gap comes before any cadence is known: held to one vblank */
	assert_int_equal(cr->fs.repeats[FT_REPEAT_COMPOSITOR_LATE], 1);
	assert_int_equal(cr->fs.repeats[FT_REPEAT_IDLE], 3);
	assert_int_equal(cr->fs.present_vblanks[1], 4);
	/* idle runs are counted, not listed: only the first gap's run is */
	assert_int_equal(cr->runs_total, 1);
	assert_int_equal(cr->n_runs, 1);
	assert_int_equal(cr->runs[0].kind, FT_REPEAT_COMPOSITOR_LATE);
	assert_int_equal(cr->runs[0].first_seq, 101);
	assert_int_equal(cr->runs[0].count, 1);
}

/*
 * A late frame first, then frames on time that were ready 12 ms ahead of
 * their vblanks at the least: the margin comes out at 12 ms, and at the
 * end of the trace the late frame, whose fence signalled 4 ms before its
 * target, is classed again against it: producer, not driver.
 */
static void test_margin_estimated_then_reclassified(void **state)
{
	struct trace_fixture *f = *state;
	struct commit_times c[] = {
		{ 1, VB(99) + MS, VB(100) - 4 * MS, VB(100) - 4 * MS + 10000, 101 },
		{ 2, VB(101) + MS, VB(102) - 12 * MS - 10000, VB(102) - 12 * MS, 102 },
		{ 3, VB(102) + MS, VB(103) - 13 * MS - 10000, VB(103) - 13 * MS, 103 },
	};
	struct frames_script sc = { 98, 103, 0, c, 3, NULL, 0 };
	const struct ft_crtc *cr = crtc(play(f, &sc));

	assert_true(cr->fs.margin_known);
	assert_int_equal(cr->fs.margin_ns, 12 * MS);
	assert_int_equal(cr->late[0].cls, FT_CLASS_PRODUCER);
	assert_int_equal(cr->fs.by_class[FT_CLASS_PRODUCER], 1);
	assert_int_equal(cr->fs.by_class[FT_CLASS_DRIVER], 0);
	assert_int_equal(cr->late[0].past_deadline_ns, 8 * MS);
}

/* The user's margin wins over the estimate. */
static void test_margin_given(void **state)
{
	struct trace_fixture *f = *state;
	const struct ft_crtc *cr;

	f->latch_margin_ns = 5 * MS;
	cr = after_one(f, (struct commit_times){
		2, VB(100) + MS, VB(101) - 4 * MS, VB(101) - 4 * MS + 10000, 102 }, 102);
	assert_int_equal(cr->fs.margin_ns, 5 * MS);
	assert_int_equal(cr->late[0].cls, FT_CLASS_PRODUCER);
	assert_int_equal(cr->late[0].past_deadline_ns, 1 * MS);
}

/* The fence's signal is not in the trace: producer and wakeup look alike. */
static void test_untraced_signal_is_unknown(void **state)
{
	struct trace_fixture *f = *state;
	const struct ft_crtc *cr = after_one(f, (struct commit_times){
		2, VB(100) + MS, 0, VB(101) + 5 * MS, 102 }, 102);

	assert_int_equal(cr->late[0].cls, FT_CLASS_UNKNOWN);
	assert_int_equal(cr->fs.repeats[FT_REPEAT_UNKNOWN], 1);
}

/*
 * The target vblank's event is missing (a vkms timer overrun): its time
 * comes from the one before and the period, marked estimated, and the
 * frame is still late by its sequence.
 */
static void test_target_missing_is_estimated(void **state)
{
	struct trace_fixture *f = *state;
	struct commit_times c[] = {
		PROMPT(1, 99),
		{ 2, VB(100) + MS, VB(101) + 5 * MS, VB(101) + 5 * MS + 10000, 102 },
	};
	struct frames_script sc = { 97, 102, 101, c, 2, NULL, 0 };
	const struct ft_crtc *cr = crtc(play(f, &sc));
	const struct ft_late_frame *l = &cr->late[0];

	/* its repeat of 101 is its wait: blamed on its final class */
	assert_int_equal(cr->n_runs, 1);
	assert_int_equal(cr->runs[0].first_seq, 101);
	assert_int_equal(cr->runs[0].late, 0);
	assert_int_equal(cr->runs[0].kind, FT_REPEAT_WAITING_FENCE);
	assert_int_equal(l->target_seq, 101);
	assert_true(l->target_estimated);
	assert_int_equal(l->target_ns, VB(101));
	assert_true(l->late_by_known);
	assert_int_equal(l->late_by_ns, (VB(102) - 10000) - VB(101));
	assert_int_equal(l->cls, FT_CLASS_PRODUCER);
}

/*
 * As above, but with a late frame before (no margin estimate yet, so the
 * second one is driver at its time): the vblank it left the first frame
 * on is its wait, and goes from driver to waiting-fence with its class.
 */
static const struct commit_times reclassed[] = {
	{ 1, VB(97) + MS, VB(98) + 5 * MS, VB(98) + 5 * MS + 10000, 99 },
	{ 2, VB(99) + MS, VB(100) - 4 * MS, VB(100) - 4 * MS + 10000, 101 },
	{ 3, VB(101) + MS, VB(102) - 12 * MS - 10000, VB(102) - 12 * MS, 102 },
};
static const struct frames_script reclassed_script = { 97, 102, 0, reclassed, 3, NULL, 0 };

static void test_run_follows_reclass(void **state)
{
	struct trace_fixture *f = *state;
	const struct frames_script sc = reclassed_script;
	const struct ft_crtc *cr = crtc(play(f, &sc));

	assert_int_equal(cr->late_count, 2);
	assert_int_equal(cr->late[1].cls, FT_CLASS_PRODUCER);
	assert_int_equal(cr->n_runs, 1);
	assert_int_equal(cr->runs[0].first_seq, 100);
	assert_int_equal(cr->runs[0].late, 1);
	assert_int_equal(cr->runs[0].kind, FT_REPEAT_WAITING_FENCE);
	assert_int_equal(cr->fs.repeats[FT_REPEAT_WAITING_FENCE], 1);
	assert_int_equal(cr->fs.repeats[FT_REPEAT_DRIVER], 0);
}

/*
 * The same trace as the timeline page and Perfetto see it: frame 2 landed
 * as driver and is drawn with its final class, producer.
 */
static void test_timeline_frames_take_the_final_class(void **state)
{
	struct trace_fixture *f = *state;
	const struct frames_script sc = reclassed_script;
	const struct tl_frame *fr;
	struct tl_data d;
	char err[256];

	play_events(f, &sc);
	trace_fixture_write(f);
	assert_int_equal(tl_collect(&d, &f->a, f->path, err, sizeof(err)), 0);
	assert_int_equal(d.frames.n, 3);
	fr = TL_AT(d.frames, struct tl_frame, 1);
	assert_int_equal(fr->out_seqno, 2);
	assert_int_equal(fr->outcome, FT_LANDED_LATE);
	assert_int_equal(fr->cls, FT_CLASS_DRIVER);	/* when it landed */
	assert_int_equal(tl_frame_class(&d, fr), FT_CLASS_PRODUCER);
	assert_int_equal(fr->target_seq, 100);
	assert_int_equal(fr->landed_seq, 101);
	assert_int_equal(tl_frame_class(&d, TL_AT(d.frames, struct tl_frame, 2)), FT_CLASS_ON_TIME);
	assert_int_equal(tl_vblank_time(&d, 0, 100), VB(100));
	tl_free(&d);
}

/* No vblank before the commit: the pipe's first one after it is the target. */
static void test_first_frame_targets_first_vblank(void **state)
{
	struct trace_fixture *f = *state;
	struct commit_times c[] = { { 1, VB(99) + MS, VB(99) + 2 * MS, VB(99) + 3 * MS, 100 } };
	struct frames_script sc = { 100, 100, 0, c, 1, NULL, 0 };
	const struct ft_crtc *cr = crtc(play(f, &sc));

	assert_int_equal(cr->fs.on_time, 1);
	assert_int_equal(cr->fs.unjudged, 0);
}

/*
 * Nothing pending for vblanks 101 and 102, but the compositor was polling
 * a sync_file across both (series events): waiting-poll, not compositor-late.
 */
static void test_waiting_poll(void **state)
{
	struct trace_fixture *f = *state;
	struct commit_times c[] = { PROMPT(1, 99), PROMPT(2, 102) };
	struct poll_times polls[] = { { VB(100) + MS, VB(102) + 500000 } };
	struct frames_script sc = { 99, 103, 0, c, 2, polls, 1 };
	const struct ft_crtc *cr = crtc(play(f, &sc));

	assert_int_equal(cr->fs.on_time, 2);
	assert_int_equal(cr->fs.repeats[FT_REPEAT_WAITING_POLL], 2);
	assert_int_equal(cr->fs.repeats[FT_REPEAT_COMPOSITOR_LATE], 0);
	assert_int_equal(cr->n_runs, 1);
	assert_int_equal(cr->runs[0].kind, FT_REPEAT_WAITING_POLL);
	assert_int_equal(cr->runs[0].count, 2);
}

/*
 * Four vblanks with nothing pending, a poll across the middle two: three
 * runs in vblank order, each of one blame, each naming the frame after.
 */
static void test_repeat_runs_split_by_blame(void **state)
{
	struct trace_fixture *f = *state;
	struct commit_times c[] = { PROMPT(1, 99), PROMPT(2, 104) };
	struct poll_times polls[] = { { VB(101) + MS, VB(103) + 500000 } };
	struct frames_script sc = { 99, 105, 0, c, 2, polls, 1 };
	const struct ft_crtc *cr = crtc(play(f, &sc));
	const struct { uint32_t first, count; enum ft_repeat_kind kind; } want[] = {
		{ 101, 1, FT_REPEAT_COMPOSITOR_LATE },
		{ 102, 2, FT_REPEAT_WAITING_POLL },
		{ 104, 1, FT_REPEAT_COMPOSITOR_LATE },
	};

	assert_int_equal(cr->n_runs, 3);
	assert_int_equal(cr->runs_total, 3);
	for (unsigned int i = 0; i < 3; i++) {
		assert_int_equal(cr->runs[i].first_seq, want[i].first);
		assert_int_equal(cr->runs[i].count, want[i].count);
		assert_int_equal(cr->runs[i].kind, want[i].kind);
		assert_int_equal(cr->runs[i].frame_out_seqno, 2);
		assert_int_equal(cr->runs[i].late, -1);
	}
}

int run_frames_tests(void)
{
	const struct CMUnitTest tests[] = {
		trace_fixture_stock_test(test_producer),
		trace_fixture_stock_test(test_wakeup),
		trace_fixture_stock_test(test_driver),
		trace_fixture_stock_test(test_queued_behind_a_late_frame),
		trace_fixture_stock_test(test_compositor_late),
		trace_fixture_stock_test(test_idle_at_half_rate),
		trace_fixture_stock_test(test_margin_estimated_then_reclassified),
		trace_fixture_stock_test(test_run_follows_reclass),
		trace_fixture_stock_test(test_timeline_frames_take_the_final_class),
		trace_fixture_stock_test(test_margin_given),
		trace_fixture_stock_test(test_untraced_signal_is_unknown),
		trace_fixture_stock_test(test_target_missing_is_estimated),
		trace_fixture_stock_test(test_first_frame_targets_first_vblank),
		trace_fixture_series_test(test_waiting_poll),
		trace_fixture_series_test(test_repeat_runs_split_by_blame),
	};

	return cmocka_run_group_tests_name("frames", tests, NULL, NULL);
}
