// SPDX-License-Identifier: GPL-2.0
/*
 * test-tables-names.c - what names export --tables' folders: the host and
 * release in a UNAME option (lib/uname-fields.c) in trace-cmd's layout,
 * in fence-trace's before 0.2.0 and in none, a value made safe as a Hive
 * partition (output/tables-files.c), and record's marker line written and
 * read back (lib/capture-marker.c).
 */
#include <errno.h>
#include <string.h>

#include "capture-marker.h"
#include "tables.h"
#include "uname-fields.h"
#include "unit.h"

static void fields(const char *uname, const char *host, const char *release)
{
	char h[64] = "stale", r[64] = "stale";

	uname_fields(uname, h, sizeof(h), r, sizeof(r));
	assert_string_equal(h, host);
	assert_string_equal(r, release);
}

static void test_uname(void **state)
{
	(void)state;
	/* trace-cmd's, and record's since 0.2.0: sysname nodename release machine */
	fields("Linux ci-7 6.1.0-57-amd64 x86_64", "ci-7", "6.1.0-57-amd64");
	fields("Linux (none) 6.1.192+ x86_64", "(none)", "6.1.192+");
	/* record before 0.2.0: sysname release version machine, no host */
	fields("Linux 6.1.192+ #1 SMP Fri Dec  4 19:53:27 UTC 2026 x86_64", "", "6.1.192+");
	fields("Linux 6.1.0", "", "6.1.0");
	fields("Linux", "", "");
	fields("", "", "");
	fields(NULL, "", "");
}

static void partition(const char *in, const char *want)
{
	char out[32];

	tables_partition_value(in, out, sizeof(out));
	assert_string_equal(out, want);
}

static void test_partition_value(void **state)
{
	(void)state;
	partition("6.1.0-57-amd64", "6.1.0-57-amd64");
	partition("6.1.192+", "6.1.192+");
	partition("(none)", "_none_");
	partition("ci/123/trace", "ci_123_trace");
	partition("a=b c", "a_b_c");
	partition("", "unknown");
	partition(NULL, "unknown");
	partition(".", "unknown");
	partition("..", "unknown");
	partition("0123456789012345678901234567890123456789", "0123456789012345678901234567890");
}

static void test_marker_round_trip(void **state)
{
	const struct capture_label in[] = { { "run", "4711" }, { "branch", "fix 2%\n" }, { "e", "" } };
	static struct capture_marker m;
	char line[256];

	(void)state;
	assert_int_equal(capture_marker_format(line, sizeof(line), 1764950400123456789ull, in, 3), 0);
	assert_string_equal(line, "fence-trace-capture: realtime_ns=1764950400123456789 run=4711 branch=fix%202%25%0A e=\n");
	assert_int_equal(capture_marker_parse(line, strlen(line) + 1, &m), 1);
	assert_true(m.have_realtime);
	assert_int_equal(m.realtime_ns, 1764950400123456789ull);
	assert_int_equal(m.n, 3);
	assert_string_equal(m.labels[0].key, "run");
	assert_string_equal(m.labels[0].value, "4711");
	assert_string_equal(m.labels[1].value, "fix 2%\n");
	assert_string_equal(m.labels[2].key, "e");
	assert_string_equal(m.labels[2].value, "");
	/* too long for the buffer: said, not cut */
	assert_int_equal(capture_marker_format(line, 40, 1, in, 3), -ENOSPC);
}

static void test_marker_other_lines(void **state)
{
	static struct capture_marker m;
	const char *bad[] = {
		"fence-trace-capture: run=1",			/* no wall clock */
		"fence-trace-capture: realtime_ns=12x",
		"fence-trace-capture: realtime_ns=1 =v",
		"fence-trace-capture: realtime_ns=1 novalue",
	};

	(void)state;
	assert_int_equal(capture_marker_parse("hello world", 11, &m), 0);
	assert_int_equal(capture_marker_parse("fence-trace capt", 16, &m), 0);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		assert_int_equal(capture_marker_parse(bad[i], strlen(bad[i]), &m), -1);
	/* a key that is no label's, or written twice (by hand): not a label, the first */
	assert_int_equal(capture_marker_parse("fence-trace-capture: realtime_ns=1 A=b", 38, &m), -1);
	assert_int_equal(capture_marker_parse("fence-trace-capture: realtime_ns=1 a=x a=y realtime_ns=2", 57, &m), 1);
	assert_int_equal(m.n, 1);
	assert_string_equal(m.labels[0].value, "x");
	assert_int_equal(m.realtime_ns, 1);
	/* not NUL-terminated: only @len bytes are read */
	assert_int_equal(capture_marker_parse("fence-trace-capture: realtime_ns=5 a=b####", 38, &m), 1);
	assert_string_equal(m.labels[0].value, "b");
}

int run_tables_names_tests(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_uname),
		cmocka_unit_test(test_partition_value),
		cmocka_unit_test(test_marker_round_trip),
		cmocka_unit_test(test_marker_other_lines),
	};

	return cmocka_run_group_tests_name("export --tables: host, release and partition names", tests,
					   NULL, NULL);
}
