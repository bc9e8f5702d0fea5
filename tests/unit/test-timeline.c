// SPDX-License-Identifier: GPL-2.0
/*
 * test-timeline.c - the timeline page and the Perfetto export on a
 * constructed trace.dat: a late frame blocked by a producer whose timeline
 * is named like a script injection.  The name must come out escaped, the
 * late frame must become one arrow / flow between existing spans.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "timeline.h"
#include "trace-builder.h"
#include "unit.h"

#define MS 1000000ull
#define HOSTILE "</script><script>alert(1)</script>"
#define HOSTILE_ESCAPED "\\u003c/script\\u003e\\u003cscript\\u003ealert(1)\\u003c/script\\u003e"

struct fixture {
	struct trace_builder *tb;
	struct analysis a;
	struct tl_data d;
	char path[64];
	char *text;
	size_t len;
};

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));

	f->tb = tb_new(2, NULL);
	if (!f->tb)
		return -1;
	tb_set_options(f->tb, "local global [mono] boot", "Linux 6.1.192+ test", NULL);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;

	tl_free(&f->d);
	analysis_free(&f->a);
	tb_free(f->tb);
	if (f->path[0])
		unlink(f->path);
	free(f->text);
	free(f);
	return 0;
}

static void fence(struct fixture *f, unsigned int cpu, uint64_t ts, const char *ev,
		  int out, uint32_t seqno)
{
	assert_int_equal(tb_fence(f->tb, cpu, ts, ev, out ? "vkms" : "sw_sync",
				  out ? "CRTC:51-crtc-0" : HOSTILE, out ? 1 : 4, seqno), 0);
}

/* delivered, out-fence signal, vblank: the kernel's order at a vblank */
static void land(struct fixture *f, uint32_t seq, uint32_t out_seqno)
{
	uint64_t t = seq * 16 * MS;

	assert_int_equal(tb_vblank_delivered(f->tb, 0, t + 10000, 0, 0, seq), 0);
	if (out_seqno)
		fence(f, 0, t + 20000, "dma_fence_signaled", 1, out_seqno);
	assert_int_equal(tb_vblank(f->tb, 0, t + 30000, 0, seq, (int64_t)t, 1), 0);
}

/* A commit at @t whose in-fence (the hostile timeline) signals @b_ms later. */
static void commit(struct fixture *f, uint64_t t, uint32_t seqno, uint64_t b_ms)
{
	tb_set_pid(f->tb, 50);
	fence(f, 1, t, "dma_fence_init", 1, seqno);
	fence(f, 1, t + 1 * MS, "dma_fence_wait_start", 0, seqno);
	fence(f, 1, t + (1 + b_ms) * MS, "dma_fence_signaled", 0, seqno);
	fence(f, 1, t + (1 + b_ms) * MS + 1000, "dma_fence_wait_end", 0, seqno);
	tb_set_pid(f->tb, 0);
}

/* Frame 2 waits 39 ms for its in-fence: committed before 102, lands on 104. */
static void collect(struct fixture *f)
{
	char err[256];
	int fd;

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
	snprintf(f->path, sizeof(f->path), "/tmp/test-timeline-XXXXXX");
	fd = mkstemp(f->path);
	assert_true(fd >= 0);
	close(fd);
	if (tb_write(f->tb, f->path))
		fail_msg("tb_write: %s", tb_error(f->tb));
	if (tl_collect(&f->d, &f->a, f->path, err, sizeof(err)))
		fail_msg("tl_collect: %s", err);
}

typedef int (*writer)(FILE *out, const struct tl_data *d, const struct tl_source *src);

static const char *render(struct fixture *f, writer w)
{
	FILE *out = open_memstream(&f->text, &f->len);

	assert_non_null(out);
	assert_int_equal(w(out, &f->d, &(struct tl_source){ f->path, "mono" }), 0);
	assert_int_equal(fclose(out), 0);
	return f->text;
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

int run_timeline_tests(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_collects_spans_rows_and_missed_vblanks, setup, teardown),
		cmocka_unit_test_setup_teardown(test_html_escapes_hostile_names, setup, teardown),
		cmocka_unit_test_setup_teardown(test_perfetto_escapes_and_links_the_late_frame, setup, teardown),
	};

	return cmocka_run_group_tests_name("timeline", tests, NULL, NULL);
}
