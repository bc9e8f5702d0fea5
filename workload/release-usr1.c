// SPDX-License-Identifier: GPL-2.0
/*
 * release-usr1.c - --release-on-usr1: SIGUSR1 is blocked in every thread
 * (a handler would interrupt the compositor's blocking commit, and its
 * restart would find the in-fence fds --close-in-fences closed); one
 * thread takes it with sigwait() and wakes each producer through its
 * eventfd.
 */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <sys/eventfd.h>
#include <sys/prctl.h>
#include <unistd.h>

#include "release-usr1.h"

struct releaser {
	struct producer *producers;
	unsigned int n;
};

static struct releaser releaser;	/* one per process: SIGUSR1 is */

static void *release_thread(void *arg)
{
	const struct releaser *r = arg;
	sigset_t usr1;
	uint64_t one = 1;
	int sig;

	sigemptyset(&usr1);
	sigaddset(&usr1, SIGUSR1);
	prctl(PR_SET_NAME, "release-usr1");
	while (sigwait(&usr1, &sig) == 0)
		for (unsigned int i = 0; i < r->n; i++)
			if (write(r->producers[i].release_fd, &one, sizeof(one)) < 0)
				one = 1;	/* full: a release is pending anyway */
	return NULL;
}

/**
 * release_block_usr1() - before the producers start: block SIGUSR1 (they
 * inherit the mask)
 *
 * Return: 0, or an errno.
 */
int release_block_usr1(void)
{
	sigset_t usr1;

	sigemptyset(&usr1);
	sigaddset(&usr1, SIGUSR1);
	return pthread_sigmask(SIG_BLOCK, &usr1, NULL);
}

/**
 * release_on_usr1() - after: each producer's eventfd, and the thread that
 * writes them
 *
 * Return: 0, or an errno.
 */
int release_on_usr1(struct producer *producers, unsigned int n)
{
	pthread_t t;
	int err;

	for (unsigned int i = 0; i < n; i++) {
		producers[i].release_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
		if (producers[i].release_fd < 0)
			return errno;
	}
	releaser = (struct releaser){ producers, n };
	err = pthread_create(&t, NULL, release_thread, &releaser);
	if (!err)
		pthread_detach(t);
	return err;
}
