// SPDX-License-Identifier: GPL-2.0
/* test-logscan.c - which kernel log lines fail a guest run. */
#include "logscan.h"
#include "unit.h"

struct line_case {
	const char *line;
	const char *expect;
	enum log_verdict verdict;
};

static const struct line_case cases[] = {
	{ "[    1.2] vkms: initialised", NULL, LOG_OK },
	{ "[    3.1] WARNING: CPU: 1 PID: 77 at drivers/gpu/drm/drm_atomic_helper.c:1521 "
	  "drm_atomic_helper_wait_for_fences+0x9e/0x100", NULL, LOG_PROBLEM },
	{ "[    3.1] WARNING: CPU: 1 PID: 77 at drivers/gpu/drm/drm_atomic_helper.c:1521 "
	  "drm_atomic_helper_wait_for_fences+0x9e/0x100", "drm_atomic_helper_wait_for_fences",
	  LOG_EXPECTED },
	/* An expected warning excuses only itself. */
	{ "WARNING: CPU: 0 PID: 1 at kernel/foo.c:1 foo+0x1/0x2",
	  "drm_atomic_helper_wait_for_fences", LOG_PROBLEM },
	{ "BUG: kernel NULL pointer dereference, address: 0000000000000008", NULL, LOG_PROBLEM },
	{ "Kernel panic - not syncing: Attempted to kill init!", NULL, LOG_PROBLEM },
	{ "Oops: 0002 [#1] PREEMPT SMP", NULL, LOG_PROBLEM },
	{ "WARNING: possible circular locking dependency detected", NULL, LOG_PROBLEM },
	{ "BUG: KASAN: use-after-free in dma_fence_signal+0x12/0x40", NULL, LOG_PROBLEM },
	{ "UBSAN: shift-out-of-bounds in drivers/dma-buf/sw_sync.c:1:2", NULL, LOG_PROBLEM },
	{ "kmemleak: 2 new suspected memory leaks (see /sys/kernel/debug/kmemleak)", NULL,
	  LOG_PROBLEM },
	{ "kmemleak: Kernel memory leak detector initialized (mem pool available: 15845)",
	  NULL, LOG_OK },
	{ "INFO: task kworker/0:1:12 blocked for more than 120 seconds.", NULL, LOG_PROBLEM },
	/* Our own program's output mentioning the word in lower case is fine. */
	{ "# warning: none of this is a kernel report", NULL, LOG_OK },
};

static void test_classify_lines(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		enum log_verdict v = logscan_classify(cases[i].line, cases[i].expect);

		if (v != cases[i].verdict)
			fail_msg("line %zu '%s': verdict %d, want %d", i, cases[i].line, v,
				 cases[i].verdict);
	}
}

int run_logscan_tests(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_classify_lines),
	};

	return cmocka_run_group_tests_name("logscan", tests, NULL, NULL);
}
