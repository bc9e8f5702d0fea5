/* SPDX-License-Identifier: GPL-2.0 */
/* logscan.h - classify kernel log lines for the guest lab. */
#ifndef FENCE_TRACE_LOGSCAN_H
#define FENCE_TRACE_LOGSCAN_H

enum log_verdict {
	LOG_OK,
	LOG_PROBLEM,	/* panic, oops, BUG, WARNING, lockdep, sanitizer, leak */
	LOG_EXPECTED,	/* a WARNING the caller said would come */
};

const char *logscan_kernel_message(const char *line);
enum log_verdict logscan_classify(const char *line, const char *expect_warning);

#endif
