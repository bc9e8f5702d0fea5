// SPDX-License-Identifier: GPL-2.0
/*
 * test-timeline.c - the timeline page and the Perfetto export on a
 * constructed trace.dat: a late frame blocked by a producer whose timeline
 * is named like a script injection.  The name must come out escaped, the
 * late frame must become one arrow / flow between existing spans.  As a
 * stock kernel traces it (commits inferred from out-fences, no planes),
 * and with the kernel series' commit and plane events added.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "series-formats.h"
#include "timeline.h"
#include "trace-fixture.h"
#include "unit.h"

#define HOSTILE "</script><script>alert(1)</script>"
#define HOSTILE_ESCAPED "\\u003c/script\\u003e\\u003cscript\\u003ealert(1)\\u003c/script\\u003e"

/* The shared trace fixture, and the page's data collected from it. */
struct fixture {
	struct trace_fixture trace;
	struct tl_data d;
};

static int teardown(void **state)
{
	struct fixture *f = *state;

	if (!f)
		return 0;
	tl_free(&f->d);
	trace_fixture_fini(&f->trace);
	free(f);
	return 0;
}

static int setup_with(void **state, int series)
{
	struct fixture *f = calloc(1, sizeof(*f));

	*state = f;
	if (f && !trace_fixture_init(&f->trace, series))
		return 0;
	teardown(state);	/* cmocka does not call it when setup fails */
	return -1;
}

static int setup(void **state) { return setup_with(state, 0); }
static int setup_series(void **state) { return setup_with(state, 1); }

static void fence(struct trace_fixture *f, unsigned int cpu, uint64_t ts, const char *ev,
		  int out, uint32_t seqno)
{
	assert_int_equal(tb_fence(f->tb, cpu, ts, ev, out ? "vkms" : "sw_sync",
				  out ? "CRTC:51-crtc-0" : HOSTILE, out ? 1 : 4, seqno), 0);
}

/*
 * The series' events.  Commit ids are the out-fence's seqno + 6; the
 * planes' in-fences are on the hostile timeline (context 4).
 */
#define COMMIT_ID(out_seqno) ((out_seqno) + 6ull)
#define PLANE_A 31
#define PLANE_B 33
#define HOSTILE_CTX 4

static void add(struct trace_fixture *f, unsigned int cpu, uint64_t ts, const char *name,
		const struct payload *p)
{
	trace_fixture_event(f, cpu, ts, name, p->b, p->len);
}

/* drm_fence_wait_begin (@end 0) or _end of @plane on the hostile timeline */
static void plane_wait(struct trace_fixture *f, uint64_t ts, int end, uint32_t out_seqno,
		       uint32_t plane, uint32_t seqno)
{
	struct payload p;
	const char *name = series_plane_wait(&p, end, COMMIT_ID(out_seqno), plane, HOSTILE_CTX, seqno);

	add(f, 1, ts, name, &p);
}

/* The ioctl: out-fence created, commit, both planes' in-fences. */
static void series_ioctl(struct trace_fixture *f, uint64_t t, uint32_t seqno)
{
	struct payload p;

	series_out_create(&p, COMMIT_ID(seqno), 51, 1, seqno, "crtc-0");
	add(f, 1, t, "drm_fence_out_create", &p);
	series_commit(&p, COMMIT_ID(seqno), 0);
	add(f, 1, t + 100, "drm_fence_commit", &p);
	for (uint32_t id = PLANE_A; id <= PLANE_B; id += PLANE_B - PLANE_A) {
		series_plane(&p, COMMIT_ID(seqno), id, 51, HOSTILE_CTX, seqno);
		add(f, 1, t + 200 + id, "drm_fence_plane", &p);
	}
}

/* At the vblank, as send_vblank_event() traces it: flip done before the signal. */
static void series_flip(struct trace_fixture *f, uint64_t t, uint32_t seq, uint32_t out_seqno)
{
	struct payload p;

	series_flip_done(&p, COMMIT_ID(out_seqno), 51, seq);
	add(f, 0, t + 15000, "drm_fence_flip_done", &p);
}

/* After the vblank, the commit is cleaned up. */
static void series_cleanup(struct trace_fixture *f, uint64_t t, uint32_t out_seqno)
{
	struct payload p;

	series_cleanup_done(&p, COMMIT_ID(out_seqno));
	add(f, 0, t + 35000, "drm_fence_cleanup_done", &p);
}

/* The vblank, with the series' flip and cleanup when the fixture has their formats. */
static void land(struct trace_fixture *f, uint32_t seq, uint32_t out_seqno)
{
	static const struct tf_land series = {
		.before_signal = series_flip, .after_vblank = series_cleanup,
	};

	trace_fixture_land(f, seq, out_seqno, f->formats[0] ? &series : NULL);
}

/* A commit at @t whose in-fence (the hostile timeline) signals @b_ms later. */
static void commit(struct trace_fixture *f, uint64_t t, uint32_t seqno, uint64_t b_ms)
{
	int series = f->formats[0] != '\0';

	tb_set_pid(f->tb, 50);
	if (series)
		series_ioctl(f, t, seqno);
	fence(f, 1, t + 1000, "dma_fence_init", 1, seqno);
	if (series)
		plane_wait(f, t + 1 * MS - 1000, 0, seqno, PLANE_A, seqno);
	fence(f, 1, t + 1 * MS, "dma_fence_wait_start", 0, seqno);
	fence(f, 1, t + (1 + b_ms) * MS, "dma_fence_signaled", 0, seqno);
	fence(f, 1, t + (1 + b_ms) * MS + 1000, "dma_fence_wait_end", 0, seqno);
	if (series)
		plane_wait(f, t + (1 + b_ms) * MS + 2000, 1, seqno, PLANE_A, seqno);
	tb_set_pid(f->tb, 0);
}

/*
 * Frame 2 waits 39 ms for its in-fence: committed before 102, lands on 104.
 * With the series' events too when the fixture has their formats.
 */
static void late_frame_events(struct trace_fixture *f)
{
	for (uint32_t s = 1; s <= 2; s++)
		fence(f, 1, s * MS, "dma_fence_init", 0, s);
	land(f, 100, 0);
	commit(f, 100 * 16 * MS + 1 * MS, 1, 2);
	land(f, 101, 1);
	commit(f, 101 * 16 * MS + 1 * MS, 2, 39);
	land(f, 102, 0);
	land(f, 103, 0);
	land(f, 104, 2);
	land(f, 107, 0);			/* 105 and 106 missed */
}

/* The late frame's trace, written and collected for the page. */
static void collect(struct fixture *f)
{
	char err[256];

	late_frame_events(&f->trace);
	trace_fixture_write(&f->trace);
	if (tl_collect(&f->d, &f->trace.a, f->trace.path, err, sizeof(err)))
		fail_msg("tl_collect: %s", err);
}

typedef int (*writer)(FILE *out, const struct tl_data *d, const struct tl_source *src);

static const char *render(struct fixture *f, writer w)
{
	FILE *out = trace_fixture_text(&f->trace);

	assert_int_equal(w(out, &f->d, &(struct tl_source){ f->trace.path, "mono" }), 0);
	assert_int_equal(fclose(out), 0);
	return f->trace.text;
}

static int count(const char *s, const char *what)
{
	int n = 0;

	for (s = strstr(s, what); s; s = strstr(s + 1, what))
		n++;
	return n;
}

static void test_collects_spans_rows_and_missed_vblanks(void **state)
{
	struct fixture *f = *state;

	collect(f);
	assert_int_equal(f->d.fences.n, 4);		/* 2 in-fences, 2 out-fences */
	assert_int_equal(f->d.waits.n, 2);
	assert_int_equal(f->d.tasks.n, 1);
	assert_int_equal(f->d.vblanks.n, 6);
	assert_int_equal(f->d.missed.n, 1);
	assert_int_equal(TL_AT(f->d.missed, struct tl_missed, 0)->from, 104);
	/* the two in-fences overlap in time: two rows on their timeline */
	assert_int_equal(TL_AT(f->d.fences, struct tl_span, 0)->row, 0);
	assert_int_equal(TL_AT(f->d.fences, struct tl_span, 1)->row, 1);
	assert_true(tl_find_fence(&f->d, 1, 2) >= 0);
	assert_int_equal(tl_find_fence(&f->d, 1, 9), -1);
}

/* An event of sw_sync fence @seqno of context 4 by task @pid. */
static void shared(struct trace_fixture *f, int pid, uint64_t ts, const char *ev, uint32_t seqno)
{
	tb_set_pid(f->tb, pid);
	fence(f, 0, ts, ev, 0, seqno);
	tb_set_pid(f->tb, 0);
}

static const struct tl_span *span(const struct fixture *f, size_t i)
{
	assert_true(i < f->d.fences.n);
	return TL_AT(f->d.fences, struct tl_span, i);
}

/*
 * Spans follow the model's fences, not their keys (the series kernel:
 * duplicates' destroys traced).  Value 5: a duplicate made second and
 * dropped at once, not drawn; the original ends at its signal.  Value 6:
 * the duplicate made first got the signal, which goes back to the
 * original.  Value 7: a collision, two real fences, each ends at its own
 * signal; the first is destroyed (not drawn as ending then).
 */
static void test_spans_follow_fences_not_keys(void **state)
{
	struct fixture *f = *state;
	char err[256];

	shared(&f->trace, 10, 1 * MS, "dma_fence_init", 5);
	shared(&f->trace, 11, 2 * MS, "dma_fence_init", 5);
	shared(&f->trace, 11, 2 * MS + 1000, "dma_fence_destroy", 5);
	shared(&f->trace, 0, 4 * MS, "dma_fence_signaled", 5);
	shared(&f->trace, 11, 10 * MS, "dma_fence_init", 6);		/* the duplicate */
	shared(&f->trace, 10, 10 * MS + 1000, "dma_fence_init", 6);
	shared(&f->trace, 0, 12 * MS, "dma_fence_signaled", 6);		/* the original's */
	shared(&f->trace, 11, 13 * MS, "dma_fence_destroy", 6);
	shared(&f->trace, 10, 20 * MS, "dma_fence_init", 7);
	shared(&f->trace, 0, 21 * MS, "dma_fence_signaled", 7);
	shared(&f->trace, 12, 22 * MS, "dma_fence_init", 7);
	shared(&f->trace, 12, 22 * MS + 500, "dma_fence_signaled", 7);	/* at creation */
	shared(&f->trace, 10, 30 * MS, "dma_fence_destroy", 7);
	trace_fixture_write(&f->trace);
	if (tl_collect(&f->d, &f->trace.a, f->trace.path, err, sizeof(err)))
		fail_msg("tl_collect: %s", err);
	assert_int_equal(f->d.fences.n, 4);
	assert_int_equal(span(f, 0)->seqno, 5);
	assert_int_equal(span(f, 0)->t0, 1 * MS);
	assert_int_equal(span(f, 0)->t1, 4 * MS);
	assert_true(span(f, 0)->done);
	assert_int_equal(span(f, 1)->seqno, 6);
	assert_int_equal(span(f, 1)->t0, 10 * MS + 1000);
	assert_int_equal(span(f, 1)->t1, 12 * MS);
	assert_true(span(f, 1)->done);
	assert_int_equal(span(f, 2)->t0, 20 * MS);
	assert_int_equal(span(f, 2)->t1, 21 * MS);
	assert_int_equal(span(f, 3)->t0, 22 * MS);
	assert_int_equal(span(f, 3)->t1, 22 * MS + 500);
	assert_true(span(f, 2)->done && span(f, 3)->done);
}

static void test_html_escapes_hostile_names(void **state)
{
	struct fixture *f = *state;
	const char *html;

	collect(f);
	html = render(f, tl_write_html);
	assert_null(strstr(html, "</script><script>alert(1)"));
	assert_non_null(strstr(html, HOSTILE_ESCAPED));
	/* the template was filled in: no marker left, the script is there */
	assert_null(strstr(html, "/*@"));
	assert_non_null(strstr(html, "window.fenceTimeline"));
	/* exactly the page's own two script elements end */
	assert_int_equal(count(html, "</script>"), 2);
	/* the late frame: out-fence seqno 2, blocked by in-fence seqno 2 */
	assert_non_null(strstr(html, "\"late\":[{\"crtc\":0,\"fence\":3,\"seq\":2,"));
	assert_non_null(strstr(html, "\"block\":{\"fence\":1,"));
}

static void test_perfetto_escapes_and_links_the_late_frame(void **state)
{
	struct fixture *f = *state;
	const char *json, *s, *e;

	collect(f);
	json = render(f, tl_write_perfetto);
	assert_null(strstr(json, HOSTILE));
	assert_non_null(strstr(json, HOSTILE_ESCAPED));
	assert_non_null(strstr(json, "\"traceEvents\":["));
	s = strstr(json, "\"ph\":\"s\",\"id\":1");
	e = strstr(json, "\"ph\":\"f\",\"id\":1");
	assert_non_null(s);
	assert_non_null(e);
	assert_non_null(strstr(e, "\"bp\":\"e\""));
	assert_non_null(strstr(json, "\"name\":\"vblank 104\""));
	assert_non_null(strstr(json, "\"name\":\"missed 2 vblank(s) after 104\""));
}

static const struct tl_commit *commit_at(struct fixture *f, size_t i)
{
	return TL_AT(f->d.commits, struct tl_commit, i);
}

/* A stock kernel: no planes; one inferred commit per out-fence, waits linked to theirs. */
static void test_stock_commits_are_inferred_from_out_fences(void **state)
{
	struct fixture *f = *state;
	const struct tl_span *out2, *wait2;
	const char *text;

	collect(f);
	assert_int_equal(f->d.series, 0);
	assert_int_equal(f->d.planes.n, 0);
	assert_int_equal(f->d.plane_waits.n, 0);
	assert_int_equal(f->d.commits.n, 2);
	out2 = TL_AT(f->d.fences, struct tl_span, commit_at(f, 1)->out);
	assert_int_equal(out2->seqno, 2);
	assert_true(commit_at(f, 1)->inferred && commit_at(f, 1)->flipped);
	assert_int_equal(commit_at(f, 1)->t0, out2->t0);
	assert_int_equal(commit_at(f, 1)->t1, out2->t1);
	assert_int_equal(commit_at(f, 1)->crtc, 0);
	assert_int_equal(commit_at(f, 1)->pid, 50);
	/* the second wait held up the second commit: linked to its out-fence */
	wait2 = TL_AT(f->d.waits, struct tl_span, 1);
	assert_int_equal(wait2->link, commit_at(f, 1)->out);
	text = render(f, tl_write_html);
	assert_non_null(strstr(text, "\"series\":false,\"crtc_rows\":[1],\"planes\":[]"));
	assert_non_null(strstr(text, "\"commits\":{\"flag_bits\":{\"flipped\":1,\"failed\":2,\"inferred\":4},\"pid\":[50,50]}"));
	assert_non_null(strstr(text, "\"comms\":{\"50\":"));
	text = render(f, tl_write_perfetto);
	assert_non_null(strstr(text, "crtc-0 commits (inferred from out-fences)"));
	assert_non_null(strstr(text, "\"name\":\"commit (out-fence 2)\""));
	/* the late frame's flow ends on the commit it delayed */
	assert_non_null(strstr(text, "\"ph\":\"f\",\"id\":1,\"pid\":1,\"tid\":2000000,\"bp\":\"e\""));
}

/* The kernel series: commits ioctl -> flip done, plane lanes with their waits. */
static void test_series_commits_and_plane_waits(void **state)
{
	struct fixture *f = *state;
	const struct tl_span *w;
	const struct tl_commit *c;
	const char *text;
	long out2;

	collect(f);
	assert_int_equal(f->d.series, 1);
	assert_int_equal(f->d.commits.n, 2);
	assert_int_equal(f->d.planes.n, 2);
	assert_int_equal(TL_AT(f->d.planes, struct tl_plane, 1)->id, PLANE_B);
	assert_int_equal(TL_AT(f->d.planes, struct tl_plane, 1)->crtc_id, 51);
	c = commit_at(f, 1);
	out2 = tl_find_fence(&f->d, 1, 2);
	assert_true(c->id == COMMIT_ID(2) && !c->inferred && c->flipped && !c->failed);
	assert_int_equal(c->out, out2);
	assert_int_equal(c->crtc, 0);
	assert_int_equal(c->vblank, 104);
	assert_int_equal(c->t0, 101 * 16 * MS + 1 * MS);		/* out_create in the ioctl */
	assert_int_equal(c->t1, 104 * 16 * MS + 15000);		/* flip_done */
	/* plane 31's wait: begin -> end, on the hostile timeline, held up commit 8 */
	assert_int_equal(f->d.plane_waits.n, 2);
	w = TL_AT(f->d.plane_waits, struct tl_span, 1);
	assert_int_equal(w->link, 1);
	assert_int_equal(w->lane, 0);
	assert_int_equal(w->seqno, 2);
	assert_string_equal(f->trace.a.model.fences.timelines.items[w->timeline].name, HOSTILE);
	assert_int_equal(w->t1 - w->t0, 39 * MS + 3000);
	assert_true(w->done && !w->failed);
	text = render(f, tl_write_html);
	assert_non_null(strstr(text, "\"series\":true,\"crtc_rows\":[1],\"planes\":[{\"id\":31,\"crtc\":51,\"rows\":1},"));
	assert_non_null(strstr(text, "\"id\":[7,8],"));
	assert_non_null(strstr(text, "\"vblank\":[101,104],\"flags\":[1,1]"));
	text = render(f, tl_write_perfetto);
	assert_non_null(strstr(text, "\"name\":\"commit 8\",\"cat\":\"commit\",\"ph\":\"X\",\"pid\":1,\"tid\":2000000"));
	assert_non_null(strstr(text, "\"out_fence_seqno\":2,\"vblank\":104"));
	assert_non_null(strstr(text, "\"args\":{\"name\":\"plane 31 (CRTC 51)\"}"));
	/* plane waits are named by their timeline (escaped), on the planes' process */
	assert_non_null(strstr(text, "{\"name\":\"" HOSTILE_ESCAPED "\",\"cat\":\"in-fence\",\"ph\":\"X\",\"pid\":4,\"tid\":1"));
	assert_non_null(strstr(text, "\"ph\":\"f\",\"id\":1,\"pid\":1,\"tid\":2000000,\"bp\":\"e\""));
}

int run_timeline_tests(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_collects_spans_rows_and_missed_vblanks, setup, teardown),
		cmocka_unit_test_setup_teardown(test_html_escapes_hostile_names, setup, teardown),
		cmocka_unit_test_setup_teardown(test_perfetto_escapes_and_links_the_late_frame, setup, teardown),
		cmocka_unit_test_setup_teardown(test_stock_commits_are_inferred_from_out_fences, setup, teardown),
		cmocka_unit_test_setup_teardown(test_series_commits_and_plane_waits, setup_series, teardown),
		cmocka_unit_test_setup_teardown(test_spans_follow_fences_not_keys, setup_series, teardown),
	};

	return cmocka_run_group_tests_name("timeline", tests, NULL, NULL);
}
