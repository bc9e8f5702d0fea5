// SPDX-License-Identifier: GPL-2.0
/*
 * fd-leak.c - file descriptors a test case left open (see fd-leak.h).
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fd-leak.h"
#include "tap.h"

/**
 * fd_snapshot_take() - record which fds are open now
 *
 * The directory's own fd is left out: it is open only while we look.
 * Return: 0, or -1 when /proc/self/fd cannot be read.
 */
int fd_snapshot_take(struct fd_snapshot *s)
{
	DIR *d = opendir("/proc/self/fd");
	struct dirent *e;

	if (!d)
		return -1;
	memset(s, 0, sizeof(*s));
	while ((e = readdir(d))) {
		int fd;

		if (e->d_name[0] == '.')
			continue;
		fd = atoi(e->d_name);
		if (fd == dirfd(d))
			continue;
		s->count++;
		if (fd < FD_SNAPSHOT_MAX)
			s->open[fd] = 1;
	}
	closedir(d);
	return 0;
}

/* One TAP diagnostic per fd open now and not in @before. */
static void list_new_fds(const struct fd_snapshot *before, const struct fd_snapshot *now,
			 const char *name)
{
	for (int fd = 0; fd < FD_SNAPSHOT_MAX; fd++) {
		char link[32], target[256];
		ssize_t n;

		if (!now->open[fd] || before->open[fd])
			continue;
		snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
		n = readlink(link, target, sizeof(target) - 1);
		target[n < 0 ? 0 : n] = '\0';
		tap_diag("%s: fd %d left open -> %s", name, fd, n < 0 ? "?" : target);
	}
}

/**
 * fd_snapshot_report_growth() - compare the open fds with @before
 * @name: the case, for the diagnostics
 *
 * Return: 1 (after one diagnostic per new fd) when more fds are open now
 * than in @before, 0 otherwise, or when they cannot be counted.
 */
int fd_snapshot_report_growth(const struct fd_snapshot *before, const char *name)
{
	static struct fd_snapshot now;

	if (fd_snapshot_take(&now) || now.count <= before->count)
		return 0;
	tap_diag("%s: %u fd(s) open before the case, %u after", name, before->count, now.count);
	list_new_fds(before, &now, name);
	return 1;
}
