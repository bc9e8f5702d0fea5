// SPDX-License-Identifier: GPL-2.0
/*
 * starve.c - see starve.h.  The starver waits on another CPU, as an
 * ordinary thread, until the compositor sleeps in the kernel (its commit
 * waits on the in-fences); only then does it move to the compositor's CPU
 * as SCHED_FIFO and spin there: before that it would hold the compositor
 * up before its ioctl, which only makes the frame's target later.
 */
#include <errno.h>
#include <sched.h>
#include <sys/prctl.h>
#include <unistd.h>

#include "producer.h"
#include "starve.h"
#include "sync.h"

/**
 * starve_pin() - pin the calling thread to @cpu
 *
 * Return: 0, or an errno.
 */
int starve_pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return sched_setaffinity(0, sizeof(set), &set) ? errno : 0;
}

static void *starve_run(void *arg)
{
	struct sched_param rt = { .sched_priority = 1 };
	struct starver *s = arg;
	uint64_t end = now_ns() + STARVE_WAIT_NS;

	/* named, for a trace with the scheduler's events to say who held the CPU */
	prctl(PR_SET_NAME, "starver");
	while (now_ns() < end && !thread_sleeps(s->victim))
		usleep(100);
	s->error = starve_pin(s->cpu);
	if (!s->error && sched_setscheduler(0, SCHED_FIFO, &rt))
		s->error = errno;
	if (s->error) {
		atomic_store(s->held, STARVE_GAVE_UP);	/* the producers wait no more */
		return NULL;
	}
	s->from_ns = now_ns();
	atomic_store(s->held, STARVE_HELD);	/* the fences may signal: it cannot run */
	end = s->from_ns + s->ms * 1000000ull;
	while (now_ns() < end)
		;	/* the CPU is ours: the compositor, woken, cannot run */
	s->to_ns = now_ns();
	return NULL;
}

/**
 * starve_start() - take @cpu from thread @victim for @ms once it sleeps
 * @held: set to STARVE_HELD once the CPU is taken, STARVE_GAVE_UP if it cannot be
 *
 * Return: 0, or an errno when the thread could not be made.
 */
int starve_start(struct starver *s, pid_t victim, int cpu, unsigned int ms, atomic_int *held)
{
	*s = (struct starver){ .victim = victim, .cpu = cpu, .ms = ms, .held = held };
	return pthread_create(&s->thread, NULL, starve_run, s);
}

void starve_join(struct starver *s)
{
	pthread_join(s->thread, NULL);
}
