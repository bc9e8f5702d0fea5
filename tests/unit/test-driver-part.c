// SPDX-License-Identifier: GPL-2.0
/*
 * test-driver-part.c - which part of the driver a driver-class late frame
 * lost its time in (lib/model-frames.c, classify_driver_part()): its
 * submission past the frame's deadline, else the first of its commit
 * tail's start and hw_done that came later than in any frame on time,
 * else the latch; a hw_done traced after the frame landed; and what is
 * said without the series' tail events.  vkms cannot be made slow, so
 * these traces are built.
 *
 * Vblank N is at N * 16 ms + 30 us (trace_fixture_land, CPU 0).  Frame 1
 * is made 4 ms before vblank 100 and lands on it: the latch margin is
 * 4 ms + 29 us (a commit is made at its first series event, 1 us after its
 * out-fence); its tail began 4 ms - 10 us before vblank 100 and it
 * reached hw_done 3 ms before.  Frame 2 is made after vblank 100, targets
 * 101 (deadline 100 + 12 ms + 1 us; the tail's 100 + 12.01 ms, hw_done's
 * 100 + 13 ms: 101 less what frame 1 had left), has no in-fence, and
 * lands on 102.  Commits are pid 50's on CPU 1, with the series' events.
 */
#include <string.h>

#include "report.h"
#include "series-formats.h"
#include "trace-fixture.h"
#include "unit.h"

#define VB(n) ((uint64_t)(n) * 16 * MS)
#define OUT_CTX 1
#define DEADLINE (VB(100) + 12 * MS + 1000)
#define TAIL_DEADLINE (VB(100) + 12 * MS + 10000)
#define HW_DEADLINE (VB(100) + 13 * MS)

/* Frame 2's stages; 0: not traced.  @after_landing: its hw_done after vblank 102. */
struct stages {
	uint64_t submit, tail, hw_done;
	int after_landing;
};

static void add(struct trace_fixture *f, uint64_t ts, const char *name, const struct payload *p)
{
	tb_set_pid(f->tb, 50);
	trace_fixture_event(f, 1, ts, name, p->b, p->len);
	tb_set_pid(f->tb, 0);
}

/* A commit of out-fence @seqno: made at @s->submit, its tail's two stages where traced. */
static void commit(struct trace_fixture *f, uint64_t id, uint32_t seqno, const struct stages *s)
{
	struct payload p;

	tb_set_pid(f->tb, 50);
	assert_int_equal(tb_fence(f->tb, 1, s->submit, "dma_fence_init", "vkms", "CRTC:51-crtc-0",
				  OUT_CTX, seqno), 0);
	series_out_create(&p, id, 51, OUT_CTX, seqno, "crtc-0");
	add(f, s->submit + 1000, "drm_fence_out_create", &p);
	series_commit(&p, id, 0);
	add(f, s->submit + 2000, "drm_fence_commit", &p);
	series_cleanup_done(&p, id);	/* commit_tail and hw_done have its layout */
	if (s->tail)
		add(f, s->tail, "drm_fence_commit_tail", &p);
	if (s->hw_done)
		add(f, s->hw_done, "drm_fence_hw_done", &p);
}

/* Frame 1 on time, then frame 2 with @late's stages, landing on 102. */
static const struct ft_late_frame *late_frame(struct trace_fixture *f, struct stages late)
{
	struct stages prompt = { VB(100) - 4 * MS, VB(100) - 4 * MS + 10000, VB(100) - 3 * MS, 0 };
	uint64_t hw_done = late.hw_done;
	const struct ft_crtc *c;
	struct ft_model *m;

	trace_fixture_land(f, 99, 0, NULL);
	commit(f, 1, 1, &prompt);
	trace_fixture_land(f, 100, 1, NULL);
	if (late.after_landing)
		late.hw_done = 0;
	commit(f, 2, 2, &late);
	trace_fixture_land(f, 101, 0, NULL);
	trace_fixture_land(f, 102, 2, NULL);
	if (late.after_landing) {
		struct payload p;

		series_cleanup_done(&p, 2);
		add(f, hw_done, "drm_fence_hw_done", &p);
	}
	m = trace_fixture_analyze(f);
	assert_int_equal(m->display.crtcs.n, 1);
	c = &m->display.crtcs.items[0];
	assert_int_equal(c->fs.margin_ns, 4 * MS + 29000);
	assert_int_equal(c->fs.tail_margin_ns, 4 * MS + 20000);
	assert_int_equal(c->fs.hw_margin_ns, 3 * MS + 30000);
	assert_int_equal(c->late_count, 1);
	assert_int_equal(c->late[0].cls, FT_CLASS_DRIVER);
	return &c->late[0];
}

/* Made and begun in time, hw_done 2 ms later than frame 1's: the driver's commit tail. */
static void test_commit_tail(void **state)
{
	struct trace_fixture *f = *state;
	const struct ft_late_frame *l = late_frame(f, (struct stages){
		VB(100) + 2 * MS, VB(100) + 2 * MS + 10000, HW_DEADLINE + 2 * MS, 0 });

	assert_int_equal(l->driver_part, FT_DRIVER_PART_COMMIT_TAIL);
	assert_int_equal(l->past_deadline_ns, 2 * MS);
	assert_non_null(strstr(trace_fixture_report(f, 0), "; commit-tail: hw_done 2.00 ms later than any frame "
			       "on time reached it, 12.99 ms after its tail was ready\n"));
	assert_non_null(strstr(f->text, "  commit stages of frames on time (series): tail began, hw_done at least "
			       "4.02 ms, 3.03 ms before the vblank\n"));
	assert_non_null(strstr(trace_fixture_report(f, 1), "\"past_deadline_ns\": 2000000, "
			       "\"driver_part\": \"commit-tail\", \"commit_tail_ns\": 1602010000, "
			       "\"hw_done_ns\": 1615000000,"));
	assert_non_null(strstr(f->text, "\"tail_margin_ns\": 4020000, \"hw_done_margin_ns\": 3030000,"));
}

/* A hw_done traced after the frame landed (the flip armed before it) still counts. */
static void test_hw_done_after_landing(void **state)
{
	struct trace_fixture *f = *state;
	const struct ft_late_frame *l = late_frame(f, (struct stages){
		VB(100) + 2 * MS, VB(100) + 2 * MS + 10000, VB(102) + MS, 1 });

	assert_int_equal(l->hw_done_ns, VB(102) + MS);
	assert_int_equal(l->driver_part, FT_DRIVER_PART_COMMIT_TAIL);
	assert_int_equal(l->past_deadline_ns, VB(102) + MS - HW_DEADLINE);
}

/* Made in time, its tail (a worker) began 1 ms later than frame 1's did. */
static void test_tail_start(void **state)
{
	struct trace_fixture *f = *state;
	const struct ft_late_frame *l = late_frame(f, (struct stages){
		VB(100) + 2 * MS, TAIL_DEADLINE + MS, TAIL_DEADLINE + 2 * MS, 0 });

	assert_int_equal(l->driver_part, FT_DRIVER_PART_TAIL_START);
	assert_int_equal(l->past_deadline_ns, MS);
	assert_non_null(strstr(trace_fixture_report(f, 0), "; tail-start: its commit tail began 1.00 ms later "
			       "than any frame on time began its own\n"));
}

/*
 * Tail and hw_done as early as frame 1's: latch.  Its hw_done is past the
 * frame's (readiness) deadline, but frame 1 did as late and landed.
 */
static void test_latch(void **state)
{
	struct trace_fixture *f = *state;
	const struct ft_late_frame *l = late_frame(f, (struct stages){
		VB(100) + 2 * MS, VB(100) + 2 * MS + 10000, VB(100) + 12500000, 0 });

	assert_int_equal(l->driver_part, FT_DRIVER_PART_LATCH);
	assert_int_equal(l->past_deadline_ns, 0);
	assert_non_null(strstr(trace_fixture_report(f, 0), "; latch: its tail and hw_done as early as frames on "
			       "time (hw_done 3.53 ms before the target vblank), the flip taken later\n"));
	assert_non_null(strstr(trace_fixture_report(f, 1), "\"past_deadline_ns\": null, \"driver_part\": \"latch\""));
}

/* The commit itself came inside the latch margin: submit, whatever the tail did. */
static void test_submit(void **state)
{
	struct trace_fixture *f = *state;
	const struct ft_late_frame *l = late_frame(f, (struct stages){
		DEADLINE + MS, DEADLINE + MS + 10000, DEADLINE + 2 * MS, 0 });

	assert_int_equal(l->driver_part, FT_DRIVER_PART_SUBMIT);
	assert_int_equal(l->past_deadline_ns, MS + 1000);
	assert_non_null(strstr(trace_fixture_report(f, 0), "driver    submit: the commit entered 1.00 ms "
			       "past the deadline (inside the latch margin)\n"));
	assert_non_null(strstr(trace_fixture_report(f, 1), "\"past_deadline_ns\": 1001000, \"driver_part\": \"submit\""));
}

/* No commit_tail or hw_done traced for it: the part after submit is not guessed. */
static void test_untraced_tail(void **state)
{
	struct trace_fixture *f = *state;
	const struct ft_late_frame *l = late_frame(f, (struct stages){ VB(100) + 2 * MS, 0, 0, 0 });

	assert_int_equal(l->driver_part, FT_DRIVER_PART_UNTRACED);
	assert_non_null(strstr(trace_fixture_report(f, 0), "(which part of the driver: needs the series' "
			       "drm_fence_commit_tail and drm_fence_hw_done)\n"));
	assert_non_null(strstr(trace_fixture_report(f, 1), "\"past_deadline_ns\": null, \"driver_part\": null, "
			       "\"commit_tail_ns\": null, \"hw_done_ns\": null,"));
}

/* The CSV row names the part in its own column, the time past its deadline before it. */
static void test_csv_column(void **state)
{
	struct trace_fixture *f = *state;
	static const struct report_opts frames = { SEC_FRAMES, NULL, -1, -1, -1, 0, 0 };

	late_frame(f, (struct stages){ VB(100) + 2 * MS, TAIL_DEADLINE + MS, TAIL_DEADLINE + 2 * MS, 0 });
	assert_non_null(strstr(trace_fixture_render(f, report_csv, &frames),
			       ",driver,,1000000,tail-start,,1,\n"));
}

int run_driver_part_tests(void)
{
	const struct CMUnitTest tests[] = {
		trace_fixture_series_test(test_commit_tail),
		trace_fixture_series_test(test_hw_done_after_landing),
		trace_fixture_series_test(test_tail_start),
		trace_fixture_series_test(test_latch),
		trace_fixture_series_test(test_submit),
		trace_fixture_series_test(test_untraced_tail),
		trace_fixture_series_test(test_csv_column),
	};

	return cmocka_run_group_tests_name("driver part", tests, NULL, NULL);
}
