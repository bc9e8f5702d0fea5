// SPDX-License-Identifier: GPL-2.0
/*
 * proc-comm.c - a task's name, as /proc/PID/comm says it now: the live
 * tools name the tasks the kernel gives them by pid (holders, pollers,
 * creators).  A task gone since is "?".
 */
#include <stdio.h>
#include <string.h>

#include "proc-comm.h"

/**
 * proc_comm() - @pid's name, into @buf (@len bytes; 16 hold any)
 *
 * Return: 0, or -1 with "?" in @buf when /proc has no such task.
 */
int proc_comm(int pid, char *buf, size_t len)
{
	char path[64];
	FILE *f;
	int ok;

	snprintf(path, sizeof(path), "/proc/%d/comm", pid);
	f = pid > 0 ? fopen(path, "r") : NULL;
	ok = f && fgets(buf, (int)len, f);
	if (f)
		fclose(f);
	if (!ok) {
		snprintf(buf, len, "?");
		return -1;
	}
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}
