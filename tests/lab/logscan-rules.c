// SPDX-License-Identifier: GPL-2.0
/*
 * logscan-rules.c - which kernel log lines mean the run went wrong.
 *
 * Only the kernel's own lines are judged: the console also carries the
 * command's output, and "igt_kms-DEBUG: x" or report's "WARNING: events
 * were lost" are no kernel report.  The lab kernels stamp every line with
 * the printk time (CONFIG_PRINTK_TIME, kernel/config/base.config); the
 * command's output has no stamp.  The console stays the source all the
 * same: after a panic it is the only record.
 *
 * The markers are the ones the kernel itself prints at the start of each
 * report (panic(), __warn(), die(), lockdep, KASAN/UBSAN, kmemleak), so
 * one line per report is flagged, not every line of its backtrace.
 */
#include <ctype.h>
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

/* "[    1.234567]": printk's "[%5lu.%06lu]".  Return: its length, or 0. */
static size_t stamp_len(const char *s)
{
	size_t i = 1, digits;

	if (s[0] != '[')
		return 0;
	while (s[i] == ' ')
		i++;
	for (digits = 0; isdigit((unsigned char)s[i]); i++)
		digits++;
	if (!digits || s[i++] != '.')
		return 0;
	for (digits = 0; isdigit((unsigned char)s[i]); i++)
		digits++;
	return digits == 6 && s[i] == ']' ? i + 1 : 0;
}

/**
 * logscan_kernel_message() - the kernel's message in a console/dmesg line
 * @line: one line, without its newline
 *
 * The message follows the first printk time stamp, wherever it is: a
 * "<4>" level may come before it, a "[  T1]" caller id after it, and on
 * the serial console a kernel line can land in the middle of a line of
 * the command's output (which never completes a kernel line: printk
 * writes each whole).
 *
 * Return: the text after the stamp and its space, or NULL when @line has
 * none (output of the command, not of the kernel).
 */
const char *logscan_kernel_message(const char *line)
{
	for (const char *s = strchr(line, '['); s; s = strchr(s + 1, '[')) {
		size_t n = stamp_len(s);

		if (n)
			return s + n + (s[n] == ' ');
	}
	return NULL;
}

/* @marker in @msg as a word of its own: "BUG:", not the end of "DEBUG:". */
static int has_marker(const char *msg, const char *marker)
{
	for (const char *s = strstr(msg, marker); s; s = strstr(s + 1, marker))
		if (s == msg || !isalnum((unsigned char)s[-1]))
			return 1;
	return 0;
}

/* kmemleak also prints harmless status lines; only leak reports count. */
static int is_kmemleak_noise(const char *msg)
{
	return strstr(msg, "kmemleak: ") && !strstr(msg, "suspected memory leak");
}

/**
 * logscan_classify() - is this console/dmesg line a kernel problem report?
 * @line: one line, without its newline
 * @expect_warning: NULL, or a pattern marking WARNING lines as expected
 *
 * Lines without a printk time stamp are the command's and always LOG_OK:
 * they can neither fail the run nor stand in for an expected warning.
 */
enum log_verdict logscan_classify(const char *line, const char *expect_warning)
{
	const char *msg = logscan_kernel_message(line);

	if (!msg)
		return LOG_OK;
	for (size_t i = 0; i < sizeof(problem_markers) / sizeof(problem_markers[0]); i++) {
		if (!has_marker(msg, problem_markers[i]))
			continue;
		if (is_kmemleak_noise(msg))
			return LOG_OK;
		if (expect_warning && has_marker(msg, "WARNING:") && strstr(msg, expect_warning))
			return LOG_EXPECTED;
		return LOG_PROBLEM;
	}
	return LOG_OK;
}
