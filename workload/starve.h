/* SPDX-License-Identifier: GPL-2.0 */
/*
 * starve.h - --starve: a real-time thread that takes the compositor's CPU
 * once the compositor sleeps in its commit, so that its in-fences signal
 * in time but the compositor runs only late (the frame timeline's wakeup).
 */
#ifndef FENCE_TRACE_STARVE_H
#define FENCE_TRACE_STARVE_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <sys/types.h>

struct starver {
	pthread_t thread;
	pid_t victim;		/* the compositor's thread */
	int cpu;		/* the CPU it is pinned to */
	unsigned int ms;	/* how long the CPU is taken */
	uint64_t from_ns, to_ns;	/* when it was taken (CLOCK_MONOTONIC), 0 never */
	int error;		/* an errno when it could not be real-time or pinned */
	atomic_int *held;	/* STARVE_HELD once it holds the CPU, else STARVE_GAVE_UP */
};

/* How long the starver waits for the compositor to sleep before it takes the CPU anyway. */
#define STARVE_WAIT_NS 1000000000ull

int starve_pin(int cpu);
int starve_start(struct starver *s, pid_t victim, int cpu, unsigned int ms, atomic_int *held);
void starve_join(struct starver *s);

#endif
