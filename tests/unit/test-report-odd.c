// SPDX-License-Identifier: GPL-2.0
/*
 * test-report-odd.c - traces that are readable but odd, through the real
 * reader, decoder, model and report: an event whose format lacks a field
 * the catalogue expects (the event is not decoded, the report says why),
 * time stamps near 2^64 (read as they are), time going back on a CPU (a
 * damaged file: one-line error), and clocks that disagree across CPUs (a
 * signal merged before its fence's init: counted, no bogus latency).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze.h"
#include "fixture-formats.h"
#include "series-formats.h"
#include "tmpdir.h"
#include "trace-fixture.h"
#include "unit.h"

/* Rewrite @path with its first @from replaced by @to (-1 if none). */
static int replace_in_file(const char *path, const char *from, const char *to)
{
	char text[8192], *at;
	FILE *fp = fopen(path, "r");
	size_t n;

	if (!fp)
		return -1;
	n = fread(text, 1, sizeof(text) - 1, fp);
	fclose(fp);
	text[n] = '\0';
	at = strstr(text, from);
	if (!at || n == sizeof(text) - 1)	/* no match, or a file longer than the buffer */
		return -1;
	fp = fopen(path, "w");
	if (!fp)
		return -1;
	fprintf(fp, "%.*s%s%s", (int)(at - text), text, to, at + strlen(from));
	return fclose(fp);
}

/* A stock fixture whose dma_fence_init calls its seqno field "seq_no". */
static int setup_renamed_field(void **state)
{
	struct trace_fixture *f = calloc(1, sizeof(*f));
	char path[128];

	if (!f)
		return -1;
	*state = f;
	if (tmpdir_make(f->formats, sizeof(f->formats), "test-odd-fmt") ||
	    formats_copy(TB_FIXTURES, f->formats, "", 0))
		return -1;
	snprintf(path, sizeof(path), "%s/dma_fence-dma_fence_init.format", f->formats);
	if (replace_in_file(path, " seqno;", " seq_no;"))
		return -1;
	f->tb = tb_new(2, f->formats);
	return f->tb ? 0 : -1;
}

static void test_event_lacks_field(void **state)
{
	struct trace_fixture *f = *state;
	struct ft_model *m;

	FENCE(0, 10 * MS, "dma_fence_init", 3, 1);
	FENCE(1, 12 * MS, "dma_fence_signaled", 3, 1);
	assert_int_equal(tb_vblank(f->tb, 0, 13 * MS, 0, 1, 13 * MS, 1), 0);
	m = trace_fixture_analyze(f);
	assert_string_equal(m->dec->problems, "dma_fence_init lacks field seqno");
	assert_int_equal(m->dec->have_event[FT_EV_FENCE_INIT], 0);
	assert_int_equal(m->dec->have_event[FT_EV_FENCE_SIGNALED], 1);
	/* the init is not decoded: its signal has no fence to match */
	assert_int_equal(m->fences.timelines.n, 0);
	assert_int_equal(m->fences.signal_unknown, 1);
	assert_int_equal(m->events, 2);
	assert_non_null(strstr(trace_fixture_report(f, 0), "\nnote: dma_fence_init lacks field seqno\n"));
	assert_non_null(strstr(trace_fixture_report(f, 1),
			       "\n  \"problems\": \"dma_fence_init lacks field seqno\",\n"));
}

/* Time stamps past 2^63 (no signed arithmetic anywhere) read as they are. */
static void test_huge_timestamps(void **state)
{
	struct trace_fixture *f = *state;
	const uint64_t base = 0xf000000000000000ull;
	const struct ft_timeline *t;
	struct ft_model *m;

	FENCE(0, base, "dma_fence_init", 3, 1);
	FENCE(1, base + 3 * MS, "dma_fence_signaled", 3, 1);
	f->each_context = 1;	/* per-context rows, as --by context keeps them */
	m = trace_fixture_analyze(f);
	assert_int_equal(m->fences.timelines.n, 1);
	t = &m->fences.timelines.items[0];
	assert_int_equal(t->signaled, 1);
	assert_int_equal(t->latency.count, 1);
	assert_int_equal(t->latency.max, 3 * MS);
	assert_true(m->first_ts == base);
	assert_non_null(strstr(trace_fixture_report(f, 0), "span 0.003 s"));
	assert_non_null(strstr(trace_fixture_report(f, 1), "\"events\": 2,"));
}

/* A page stamped before the event ahead of it: analysis fails, one line. */
static void test_time_goes_back(void **state)
{
	struct trace_fixture *f = *state;
	const uint64_t early = 5 * MS;
	struct analysis a;
	char err[256];

	for (uint32_t s = 0; s < 200; s++)	/* two pages on CPU 0 */
		FENCE(0, 10 * MS + s, "dma_fence_init", 3, s);
	assert_true(tb_pages(f->tb, 0) >= 2);
	memcpy(tb_page(f->tb, 0, 1), &early, 8);
	trace_fixture_write(f);
	assert_int_equal(analysis_run(&a, f->path, NULL, err, sizeof(err)), -1);
	analysis_free(&a);
	assert_null(strchr(err, '\n'));
	if (strncmp(err, f->path, strlen(f->path)) || strstr(err + 1, f->path) ||
	    !strstr(err, ": cpu0 page 1: time goes back (5000000 ns after 100000"))
		fail_msg("error \"%s\"", err);
}

/*
 * CPU clocks that disagree: the signal, on CPU 1, stamped before its
 * fence's init on CPU 0, is merged first.  Tolerated: counted as a signal
 * of an unknown fence, the fence left unsignalled, no latency made up.
 */
static void test_clocks_disagree_across_cpus(void **state)
{
	struct trace_fixture *f = *state;
	const struct ft_timeline *t;
	struct ft_model *m;

	FENCE(1, 20 * MS - 2000, "dma_fence_signaled", 3, 1);
	FENCE(0, 20 * MS, "dma_fence_init", 3, 1);
	FENCE(0, 21 * MS, "dma_fence_init", 3, 2);
	FENCE(1, 23 * MS, "dma_fence_signaled", 3, 2);
	m = trace_fixture_analyze(f);
	assert_int_equal(m->fences.signal_unknown, 1);
	assert_int_equal(m->fences.timelines.n, 1);
	t = &m->fences.timelines.items[0];
	assert_int_equal(t->fences, 2);
	assert_int_equal(t->signaled, 1);
	assert_int_equal(t->unsignaled_at_end, 1);
	assert_int_equal(t->latency.count, 1);
	assert_int_equal(t->latency.max, 2 * MS);
	assert_non_null(strstr(trace_fixture_report(f, 0),
			       "signals of fences created before the trace: 1\n"));
}

int run_report_odd_tests(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_event_lacks_field, setup_renamed_field,
						trace_fixture_teardown),
		trace_fixture_stock_test(test_huge_timestamps),
		trace_fixture_stock_test(test_time_goes_back),
		trace_fixture_stock_test(test_clocks_disagree_across_cpus),
	};

	return cmocka_run_group_tests_name("report_odd_input", tests, NULL, NULL);
}
