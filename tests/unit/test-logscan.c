// SPDX-License-Identifier: GPL-2.0
/* test-logscan.c - which kernel log lines fail a guest run. */
#include "logscan.h"
#include "unit.h"

struct line_case {
	const char *line;
	const char *expect;
	enum log_verdict verdict;
};

#define KWARN "WARNING: CPU: 1 PID: 77 at drivers/gpu/drm/drm_atomic_helper.c:1521 " \
	"drm_atomic_helper_wait_for_fences+0x9e/0x100"

/* The kernel's lines: each carries the printk time stamp. */
static const struct line_case kernel_cases[] = {
	{ "[    1.200000] vkms: initialised", NULL, LOG_OK },
	{ "[    3.100000] " KWARN, NULL, LOG_PROBLEM },
	{ "[    3.100000] " KWARN, "drm_atomic_helper_wait_for_fences", LOG_EXPECTED },
	/* An expected warning excuses only itself. */
	{ "[    0.500000] WARNING: CPU: 0 PID: 1 at kernel/foo.c:1 foo+0x1/0x2",
	  "drm_atomic_helper_wait_for_fences", LOG_PROBLEM },
	{ "[    2.000000] BUG: kernel NULL pointer dereference, address: 0000000000000008", NULL,
	  LOG_PROBLEM },
	{ "[   12.345678] Kernel panic - not syncing: Attempted to kill init! exitcode=0x0000000b",
	  NULL, LOG_PROBLEM },
	{ "[    2.000001] Oops: 0002 [#1] PREEMPT SMP", NULL, LOG_PROBLEM },
	{ "[    4.000000] WARNING: possible circular locking dependency detected", NULL, LOG_PROBLEM },
	{ "[    4.000000] BUG: KASAN: use-after-free in dma_fence_signal+0x12/0x40", NULL,
	  LOG_PROBLEM },
	{ "[    4.000000] UBSAN: shift-out-of-bounds in drivers/dma-buf/sw_sync.c:1:2", NULL,
	  LOG_PROBLEM },
	{ "[   30.000000] kmemleak: 2 new suspected memory leaks (see /sys/kernel/debug/kmemleak)",
	  NULL, LOG_PROBLEM },
	{ "[    0.100000] kmemleak: Kernel memory leak detector initialized (mem pool available: 15845)",
	  NULL, LOG_OK },
	{ "[  125.000000] INFO: task kworker/0:1:12 blocked for more than 120 seconds.", NULL,
	  LOG_PROBLEM },
	/* A loglevel before the stamp (dmesg -r, /dev/kmsg), a caller id after it. */
	{ "<4>[    3.100000] " KWARN, NULL, LOG_PROBLEM },
	{ "[    3.100000][    T1] BUG: sleeping function called from invalid context", NULL,
	  LOG_PROBLEM },
	{ "[    3.100000][    C0] " KWARN, NULL, LOG_PROBLEM },
	/* A kernel line that landed in the middle of the command's on the console. */
	{ "step 3 of 5: [    3.100000] " KWARN, NULL, LOG_PROBLEM },
	/* Past 99999 s the seconds are wider than the padding. */
	{ "[123456.000001] BUG: soft lockup - CPU#0 stuck for 22s!", NULL, LOG_PROBLEM },
	/* A marker is a word: "DEBUG:" is no "BUG:", in a kernel line either. */
	{ "[    5.000000] [drm] DEBUG: plane 31 updated", NULL, LOG_OK },
};

/* The command's own output: no stamp, never a kernel problem, never the expected warning. */
static const struct line_case command_cases[] = {
	{ "igt_kms-DEBUG: x", NULL, LOG_OK },
	{ "WARNING: events were lost (ring buffer overrun: use -b to enlarge it)", NULL, LOG_OK },
	{ "fence-trace report: WARNING: x", NULL, LOG_OK },
	{ "BUG: kernel NULL pointer dereference, address: 0000000000000008", NULL, LOG_OK },
	{ "Kernel panic - not syncing: said by a test, not the kernel", NULL, LOG_OK },
	{ KWARN, "drm_atomic_helper_wait_for_fences", LOG_OK },
	{ "# warning: none of this is a kernel report", NULL, LOG_OK },
	/* Not printk's stamp: six digits after the point, a closing bracket. */
	{ "[    3.1] " KWARN, NULL, LOG_OK },
	{ "[1.000000 s] BUG: x", NULL, LOG_OK },
	{ "[ .000000] BUG: x", NULL, LOG_OK },
	{ "[", NULL, LOG_OK },
	{ "", NULL, LOG_OK },
};

static void check_cases(const struct line_case *cases, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		enum log_verdict v = logscan_classify(cases[i].line, cases[i].expect);

		if (v != cases[i].verdict)
			fail_msg("line %zu '%s': verdict %d, want %d", i, cases[i].line, v,
				 cases[i].verdict);
	}
}

static void test_kernel_lines(void **state)
{
	(void)state;
	check_cases(kernel_cases, sizeof(kernel_cases) / sizeof(kernel_cases[0]));
}

static void test_command_lines(void **state)
{
	(void)state;
	check_cases(command_cases, sizeof(command_cases) / sizeof(command_cases[0]));
}

/* The message is what follows the stamp (and a caller id, judged as text). */
static void test_kernel_message(void **state)
{
	(void)state;
	assert_string_equal(logscan_kernel_message("[    1.200000] vkms: initialised"),
			    "vkms: initialised");
	assert_string_equal(logscan_kernel_message("<6>[    1.200000] x"), "x");
	assert_string_equal(logscan_kernel_message("out [x] [    1.200000] y"), "y");
	assert_null(logscan_kernel_message("fence-trace-lab: exit=0"));
	assert_null(logscan_kernel_message("[drm] not stamped"));
}

int run_logscan_tests(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_kernel_lines),
		cmocka_unit_test(test_command_lines),
		cmocka_unit_test(test_kernel_message),
	};

	return cmocka_run_group_tests_name("logscan", tests, NULL, NULL);
}
