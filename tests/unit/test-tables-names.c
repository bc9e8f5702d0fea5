// SPDX-License-Identifier: GPL-2.0
/*
 * test-tables-names.c - what names export --tables' folders: the host and
 * release in a UNAME option (lib/uname-fields.c) in trace-cmd's layout,
 * in fence-trace's before 0.2.0 and in none, and a value made safe as a
 * Hive partition (output/tables-files.c).
 */
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

int run_tables_names_tests(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_uname),
		cmocka_unit_test(test_partition_value),
	};

	return cmocka_run_group_tests_name("export --tables: host, release and partition names", tests,
					   NULL, NULL);
}
