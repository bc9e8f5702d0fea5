// SPDX-License-Identifier: GPL-2.0
/*
 * logscan-rules.c - which kernel log lines mean the run went wrong.
 *
 * The markers are the ones the kernel itself prints at the start of each
 * report (panic(), __warn(), die(), lockdep, KASAN/UBSAN, kmemleak), so
 * one line per report is flagged, not every line of its backtrace.
 */
#include <string.h>

#include "logscan.h"

static const char *const problem_markers[] = {
	"Kernel panic",
	"Oops:",
	"BUG:",			/* BUG(), sleeping in atomic, KASAN, bad page... */
	"WARNING:",		/* WARN*(), lockdep splats, RCU splats */
	"general protection fault",
	"INFO: possible recursive locking",
	"INFO: task ",		/* hung tasks */
	"UBSAN:",
	"kmemleak: ",		/* "kmemleak: N new suspected memory leaks" */
	"refcount_t:",
	"list_add corruption",
	"list_del corruption",
};

/* kmemleak also prints harmless status lines; only leak reports count. */
static int is_kmemleak_noise(const char *line)
{
	return strstr(line, "kmemleak: ") && !strstr(line, "suspected memory leak");
}

/**
 * logscan_classify() - is this console/dmesg line a kernel problem report?
 * @line: one line, without its newline
 * @expect_warning: NULL, or a pattern marking WARNING lines as expected
 */
enum log_verdict logscan_classify(const char *line, const char *expect_warning)
{
	for (size_t i = 0; i < sizeof(problem_markers) / sizeof(problem_markers[0]); i++) {
		if (!strstr(line, problem_markers[i]))
			continue;
		if (is_kmemleak_noise(line))
			return LOG_OK;
		if (expect_warning && strstr(line, "WARNING:") &&
		    strstr(line, expect_warning))
			return LOG_EXPECTED;
		return LOG_PROBLEM;
	}
	return LOG_OK;
}
