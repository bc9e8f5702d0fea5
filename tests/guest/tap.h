/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tap.h - a tiny TAP runner for the guest tests, in the manner of the
 * kernel's kselftest harness: a table of cases, each run in a forked child
 * with a deadline, so one crash or hang cannot take the others down.  A
 * case that passes (or skips) but leaves more file descriptors open than
 * it found fails, listing them.
 */
#ifndef FENCE_TRACE_TAP_H
#define FENCE_TRACE_TAP_H

#define TAP_PASS 0
#define TAP_FAIL 1
#define TAP_SKIP 77

struct tap_case {
	const char *name;
	int (*run)(void);	/* TAP_PASS, TAP_FAIL or TAP_SKIP */
	unsigned int timeout_s;
	int separate;		/* runs only when named with --only */
};

/* Diagnostics go to stdout as "# ..." lines, which TAP consumers keep. */
void tap_diag(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Record a skip reason, then return TAP_SKIP. */
int tap_skip(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Evaluate a check: on failure print where and what, and return 0. */
int tap_check(int ok, const char *file, int line, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
#define CHECK(cond, ...) \
	do { if (!tap_check(!!(cond), __FILE__, __LINE__, __VA_ARGS__)) return TAP_FAIL; } while (0)

int tap_main(const struct tap_case *cases, unsigned int n, int argc, char **argv);

#endif
