// SPDX-License-Identifier: GPL-2.0
/* test-workload-plan.c - fence-workload's command line. */
#include <string.h>

#include "unit.h"
#include "workload-plan.h"

static int parse(struct workload_plan *plan, char *err, const char *const *args)
{
	char *argv[32];
	int argc = 0;

	argv[argc++] = "fence-workload";
	for (; *args; args++)
		argv[argc++] = (char *)*args;
	argv[argc] = NULL;
	return plan_parse_args(plan, argc, argv, err, 256);
}

static void test_defaults_and_overrides(void **state)
{
	static const char *const args[] = { "-n", "20", "-A", "4", "--slow", "3:B:40",
					     "--never", "7:A", "--error", "9:b", "--nonblock",
					     "--share-never", NULL };
	struct workload_plan plan;
	char err[256] = "";
	unsigned int ms;

	(void)state;
	assert_int_equal(parse(&plan, err, args), 0);
	assert_int_equal(plan.frames, 20);
	assert_int_equal(plan.nonblock, 1);
	assert_int_equal(plan.share_never, 1);
	assert_int_equal(plan_fate(&plan, 3, 1, &ms), FATE_SLOW);
	assert_int_equal(ms, 40);
	assert_int_equal(plan_fate(&plan, 3, 0, &ms), FATE_NORMAL);
	assert_int_equal(ms, 4);
	assert_int_equal(plan_fate(&plan, 7, 0, &ms), FATE_NEVER);
	assert_int_equal(plan_fate(&plan, 9, 1, &ms), FATE_ERROR);
	assert_int_equal(plan_fate(&plan, 0, 1, &ms), FATE_NORMAL);
	assert_int_equal(ms, 5);
}

struct bad_case {
	const char *const args[6];
	const char *message;
};

static const struct bad_case bad[] = {
	{ { "-n", "ten" }, "--frames: 'ten' is not a whole number" },
	{ { "-n", "-1" }, "--frames: '-1' is not a whole number" },
	{ { "-n", "0" }, "--frames must be at least 1" },
	{ { "-A", "5x" }, "--delay-a: '5x' is not a whole number" },
	{ { "--slow", "3:B" }, "bad frame override '3:B'" },
	{ { "--slow", "3:C:5" }, "bad frame override '3:C:5'" },
	{ { "--never", "3:A:5" }, "bad frame override '3:A:5'" },
	{ { "--never", "12:A" }, "override names frame 12, but only 10 frames" },
	{ { "--share-never", "--slow", "1:B:5" }, "--share-never needs a --never fence to share" },
	{ { "--no-overlay", "--error", "1:B" }, "override names producer B" },
	{ { "--bogus" }, "unknown option '--bogus'" },
	{ { "--device" }, "option '--device' needs an argument" },
	{ { "stray" }, "unexpected argument 'stray'" },
};

static void test_bad_arguments(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct workload_plan plan;
		char err[256] = "";

		if (parse(&plan, err, bad[i].args) != -1)
			fail_msg("case %zu accepted", i);
		if (!strstr(err, bad[i].message))
			fail_msg("case %zu: message '%s', want '%s'", i, err, bad[i].message);
	}
}

static void test_help(void **state)
{
	static const char *const args[] = { "--help", NULL };
	struct workload_plan plan;
	char err[256];

	(void)state;
	assert_int_equal(parse(&plan, err, args), 1);
}

int run_workload_plan_tests(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_defaults_and_overrides),
		cmocka_unit_test(test_bad_arguments),
		cmocka_unit_test(test_help),
	};

	return cmocka_run_group_tests_name("workload_plan", tests, NULL, NULL);
}
