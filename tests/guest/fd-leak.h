/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fd-leak.h - did a test case leave file descriptors open?  The TAP runner
 * takes a snapshot of /proc/self/fd before each case and compares after it.
 */
#ifndef FENCE_TRACE_FD_LEAK_H
#define FENCE_TRACE_FD_LEAK_H

#define FD_SNAPSHOT_MAX 1024

struct fd_snapshot {
	unsigned int count;
	unsigned char open[FD_SNAPSHOT_MAX];	/* 1 for each open fd below the max */
};

int fd_snapshot_take(struct fd_snapshot *s);
int fd_snapshot_report_growth(const struct fd_snapshot *before, const char *name);

#endif
