// SPDX-License-Identifier: GPL-2.0
/*
 * test-lockdown.c - the lockdown level read from files shaped like
 * securityfs's (lib/lockdown.c): the bracketed word of each level, and
 * NULL for a missing file, one with no brackets, an empty bracket or a
 * word longer than the caller's buffer.
 */
#include <stdio.h>
#include <string.h>

#include "lockdown.h"
#include "tmpdir.h"
#include "unit.h"

static const char *level_of(const char *dir, const char *text, char *buf, size_t len)
{
	assert_int_equal(tmpdir_write(dir, "lockdown", text), 0);
	return lockdown_level_at(tmpdir_join(dir, "lockdown"), buf, len);
}

static void test_each_level(void **state)
{
	char dir[256], buf[32];

	(void)state;
	assert_int_equal(tmpdir_make(dir, sizeof(dir), "test-lockdown"), 0);
	assert_string_equal(level_of(dir, "[none] integrity confidentiality\n", buf, sizeof(buf)), "none");
	assert_string_equal(level_of(dir, "none [integrity] confidentiality\n", buf, sizeof(buf)), "integrity");
	assert_string_equal(level_of(dir, "none integrity [confidentiality]\n", buf, sizeof(buf)),
			    "confidentiality");
	assert_int_equal(tmpdir_remove(dir), 0);
}

static void test_not_a_level(void **state)
{
	char dir[256], buf[32];

	(void)state;
	assert_int_equal(tmpdir_make(dir, sizeof(dir), "test-lockdown"), 0);
	assert_null(lockdown_level_at(tmpdir_join(dir, "absent"), buf, sizeof(buf)));
	assert_null(level_of(dir, "none integrity confidentiality\n", buf, sizeof(buf)));
	assert_null(level_of(dir, "none [] confidentiality\n", buf, sizeof(buf)));
	assert_null(level_of(dir, "[integrity\n", buf, sizeof(buf)));
	assert_null(level_of(dir, "none [confidentiality]\n", buf, 8));
	assert_string_equal(level_of(dir, "[integrity]", buf, 10), "integrity");
	assert_int_equal(tmpdir_remove(dir), 0);
}

int run_lockdown_tests(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_each_level),
		cmocka_unit_test(test_not_a_level),
	};

	return cmocka_run_group_tests_name("kernel lockdown level (securityfs)", tests, NULL, NULL);
}
