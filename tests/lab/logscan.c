// SPDX-License-Identifier: GPL-2.0
/*
 * logscan - fail a guest run whose kernel log shows trouble.
 *
 *   logscan [--expect-warning PATTERN] FILE...
 *
 * Reports every panic, oops, BUG, WARNING, lockdep, KASAN/UBSAN or kmemleak
 * line in the given logs (the serial console and the guest's dmesg) as
 * "FILE:LINE: text" and exits 1; exits 0 when the logs are clean.  Only
 * the kernel's lines are judged, told from the command's output by their
 * printk time stamp (logscan-rules.c); logs without a single stamped line
 * fail too (exit 1), since then nothing could be judged.  With
 * --expect-warning, WARNING lines containing PATTERN are expected, not
 * trouble, and the run fails when none appears: a test that provokes a
 * known warning proves both that the warning still fires and that the scan
 * sees it.
 */
#include <stdio.h>
#include <string.h>

#include "logscan.h"

static int scan_file(const char *path, const char *expect, int *expected_seen,
		     unsigned int *kernel_lines)
{
	char line[4096];
	int problems = 0;
	unsigned int n = 0;
	FILE *f = fopen(path, "r");

	if (!f) {
		fprintf(stderr, "logscan: cannot open %s\n", path);
		return -1;
	}
	while (fgets(line, sizeof(line), f)) {
		enum log_verdict v;

		n++;
		line[strcspn(line, "\r\n")] = '\0';
		if (logscan_kernel_message(line))
			(*kernel_lines)++;
		v = logscan_classify(line, expect);
		if (v == LOG_EXPECTED)
			*expected_seen = 1;
		if (v == LOG_PROBLEM) {
			printf("%s:%u: %s\n", path, n, line);
			problems++;
		}
	}
	fclose(f);
	return problems;
}

int main(int argc, char **argv)
{
	const char *expect = NULL;
	int i = 1, total = 0, expected_seen = 0;
	unsigned int kernel_lines = 0;

	if (argc > 2 && strcmp(argv[1], "--expect-warning") == 0) {
		expect = argv[2];
		i = 3;
	}
	if (i >= argc) {
		fprintf(stderr, "usage: logscan [--expect-warning PATTERN] FILE...\n");
		return 2;
	}
	for (; i < argc; i++) {
		int p = scan_file(argv[i], expect, &expected_seen, &kernel_lines);

		if (p < 0)
			return 2;
		total += p;
	}
	/* A kernel without CONFIG_PRINTK_TIME, or printk.time=0: blind. */
	if (!kernel_lines) {
		printf("logscan: no line carries a printk time stamp ([    1.234567]): kernel messages\n"
		       "logscan: cannot be told from the command's output (CONFIG_PRINTK_TIME off, or\n"
		       "logscan: printk.time=0?)\n");
		return 1;
	}
	if (expect && !expected_seen) {
		printf("logscan: the expected warning (%s) did not appear\n", expect);
		return 1;
	}
	return total ? 1 : 0;
}
