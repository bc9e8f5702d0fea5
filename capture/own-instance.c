// SPDX-License-Identifier: GPL-2.0
/*
 * own-instance.c - the private tracefs instances fence-trace makes, named
 * "fence-trace-KIND-PID", and the clean-up of those whose process is gone.
 *
 * A tool killed with SIGKILL, or one that crashed, leaves its instance
 * behind with its events enabled: every fence init then keeps paying for
 * an event nobody reads (a filtered dma_fence_init, 850-1090 instructions
 * a fence by the README's benchmarks).  So the first instance a process makes first removes the
 * fence-trace instances of processes that no longer exist.  A pid reused
 * since by another process keeps its stale instance until that one ends.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <tracefs.h>

#include "own-instance.h"
#include "say.h"

#define PREFIX "fence-trace-"

/* The pid an instance name of ours ends with ("-PID"), or 0. */
static long owner_pid(const char *name)
{
	const char *dash = strrchr(name, '-');
	char *end;
	long pid;

	if (strncmp(name, PREFIX, strlen(PREFIX)) || !dash)
		return 0;
	pid = strtol(dash + 1, &end, 10);
	return *end || pid <= 0 ? 0 : pid;
}

static int remove_if_stale(const char *name, void *ctx)
{
	struct tracefs_instance *inst;
	long pid = owner_pid(name);

	(void)ctx;
	if (!pid || kill((pid_t)pid, 0) == 0 || errno != ESRCH)
		return 0;
	inst = tracefs_instance_alloc(NULL, name);
	if (inst && tracefs_instance_destroy(inst) == 0)
		say("removed tracefs instance %s, left by process %ld, which is gone",
			name, pid);
	tracefs_instance_free(inst);
	return 0;
}

/**
 * own_instance_create() - create this process's tracefs instance of @kind
 * @kind: what it is for ("names", "series", ...), or NULL for the recorder
 *
 * Return: the instance (tracefs_instance_destroy() and _free() it), or NULL.
 */
struct tracefs_instance *own_instance_create(const char *kind)
{
	static int swept;
	char name[64];

	if (!swept) {
		swept = 1;
		tracefs_instances_walk(remove_if_stale, NULL);
	}
	if (kind)
		snprintf(name, sizeof(name), PREFIX "%s-%d", kind, (int)getpid());
	else
		snprintf(name, sizeof(name), PREFIX "%d", (int)getpid());
	return tracefs_instance_create(name);
}
