// SPDX-License-Identifier: GPL-2.0
/*
 * test-tracedat-v7-stats.c - the recorder's per-CPU stats (CPUSTAT) of v7
 * files count lost events as those of v6 files do: trace-cmd's own
 * compressed capture (committed), and files `trace-cmd convert` makes of a
 * builder's v6 file, compressed and not.  Converting a file touches no
 * tracing; those cases are skipped when trace-cmd is not installed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze.h"
#include "source.h"
#include "tmpdir.h"
#include "fixture-formats.h"
#include "trace-builder.h"
#include "unit.h"

/* trace-cmd 3.1.6 left CPU 1's 17 events in the ring: "entries: 17", "read events: 0". */
#define GUEST_TC "tests/golden/inputs/guest-tc.dat"

static char dir[64];

static int setup(void **state)
{
	(void)state;
	return tmpdir_make(dir, sizeof(dir), "tracedat-v7-stats");
}

static int teardown(void **state)
{
	(void)state;
	return tmpdir_remove(dir);
}

static int count_cb(struct tep_record *rec, void *ctx)
{
	(void)rec;
	++*(unsigned long long *)ctx;
	return 0;
}

/* What a file's stats say: its overrun and the events it misses. */
struct stats_seen {
	const char *reader;
	long long overrun;
	unsigned long long events, missing;
};

static void read_stats(const char *path, struct stats_seen *s)
{
	struct ft_source_info info;
	struct ft_source *src;
	char err[256];

	src = source_open(path, SOURCE_READER_FAST, err, sizeof(err));
	if (!src)
		fail_msg("%s", err);
	source_info(src, &info);
	s->reader = info.reader;
	s->overrun = info.overrun;
	s->events = 0;
	assert_int_equal(source_iterate(src, count_cb, &s->events, err, sizeof(err)), 0);
	s->missing = source_missing(src);
	source_close(src);
}

/* The committed zstd capture goes through the fast reader, stats and all. */
static void test_trace_cmd_capture_misses_cpu1(void **state)
{
	struct stats_seen s;

	(void)state;
	read_stats(GUEST_TC, &s);
	assert_string_equal(s.reader, "fast");
	assert_int_equal(s.events, 55);
	assert_int_equal(s.overrun, 0);		/* known, and none: not -1 */
	assert_int_equal(s.missing, 17);
}

/* ... and the report counts them as lost, not exact ring overruns. */
static void test_trace_cmd_capture_report_counts(void **state)
{
	struct analysis a;
	char err[256];

	(void)state;
	if (analysis_run(&a, GUEST_TC, NULL, err, sizeof(err)))
		fail_msg("%s", err);
	assert_int_equal(a.info.cpus, 2);
	assert_int_equal(a.model.missing, 17);
	assert_int_equal(a.model.lost, 17);
	assert_false(a.model.lost_exact);
	analysis_free(&a);
}

/*
 * Two CPUs: CPU 0 saved 2 of its 2 read + 1 left, and its ring overwrote
 * 4; CPU 1 saved nothing of the 3 left in its ring, so a v7 BUFFER option
 * lists no data for it.  Missing: 1 + 3.
 */
static void build(const char *path)
{
	static const char *const stats[] = {
		"CPU: 0\nentries: 1\noverrun: 4\ncommit overrun: 0\ndropped events: 0\nread events: 2\n",
		"CPU: 1\nentries: 3\noverrun: 0\ncommit overrun: 0\ndropped events: 0\nread events: 0\n",
	};
	struct trace_builder *tb = tb_new(2, TB_FIXTURES);

	assert_non_null(tb);
	tb_set_cpu_stats(tb, stats);
	assert_int_equal(tb_fence(tb, 0, 1000000, "dma_fence_init", "sw_sync", "p", 5, 1), 0);
	assert_int_equal(tb_fence(tb, 0, 2000000, "dma_fence_signaled", "sw_sync", "p", 5, 1), 0);
	assert_int_equal(tb_write(tb, path), 0);
	tb_free(tb);
}

/* @compression's v7 of the builder's file says what the v6 says. */
static void check_converted(const char *compression, const char *want_reader)
{
	const char *v6 = tmpdir_join(dir, "b6.dat"), *v7 = tmpdir_join(dir, "b7.dat");
	struct stats_seen a, b;
	char cmd[384];

	if (!have_trace_cmd())
		skip_because("trace-cmd is not installed\n");
	build(v6);
	snprintf(cmd, sizeof(cmd), "trace-cmd convert -i '%s' -o '%s' --file-version 7 "
		 "--compression %s >/dev/null 2>&1", v6, v7, compression);
	if (system(cmd))
		skip_because("trace-cmd convert cannot write v7 with %s\n", compression);
	read_stats(v6, &a);
	read_stats(v7, &b);
	assert_string_equal(b.reader, want_reader);
	assert_int_equal(a.events, 2);
	assert_int_equal(a.overrun, 4);
	assert_int_equal(a.missing, 4);
	assert_int_equal(b.events, a.events);
	assert_int_equal(b.overrun, a.overrun);
	assert_int_equal(b.missing, a.missing);
}

static void test_converted_v7_zstd(void **state)
{
	(void)state;
	check_converted("zstd", "fast");
}

static void test_converted_v7_uncompressed(void **state)
{
	(void)state;
	check_converted("none", "fast");
}

int run_tracedat_v7_stats_tests(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_trace_cmd_capture_misses_cpu1),
		cmocka_unit_test(test_trace_cmd_capture_report_counts),
		cmocka_unit_test(test_converted_v7_zstd),
		cmocka_unit_test(test_converted_v7_uncompressed),
	};

	return cmocka_run_group_tests_name("tracedat v7 stats", tests, setup, teardown);
}
