// SPDX-License-Identifier: GPL-2.0
/*
 * producer.c - the "renderer" threads of fence-workload: sw_sync
 * timelines, or vgem fences (--vgem).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <poll.h>
#include <sys/prctl.h>
#include <time.h>
#include <unistd.h>

#include "producer.h"
#include "starve.h"
#include "sync.h"

/* Runs in the producer thread: sw_sync names the timeline after it. */
static int open_named_timeline(struct producer *p)
{
	char name[16];

	snprintf(name, sizeof(name), "producer-%c", p->label);
	prctl(PR_SET_NAME, name);
	if (p->vgem >= 0)
		return 0;	/* vgem names its fences itself */
	p->timeline = sw_sync_timeline_open();
	p->value = 0;
	return p->timeline < 0 ? p->timeline : 0;
}

static void sleep_until(uint64_t ns)
{
	struct timespec ts = { .tv_sec = ns / 1000000000ull, .tv_nsec = ns % 1000000000ull };

	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
		;
}

/* Sleep until @ns, or until @fd (an eventfd) is readable: then drain it. */
static void sleep_until_released(uint64_t ns, int fd)
{
	struct pollfd pfd = { .fd = fd, .events = POLLIN };
	uint64_t value, now;

	while ((now = now_ns()) < ns) {
		uint64_t ms = (ns - now + 999999) / 1000000;

		if (poll(&pfd, 1, ms > 60000 ? 60000 : (int)ms) > 0) {
			if (read(fd, &value, sizeof(value)) < 0)
				value = 0;	/* nothing to drain: released all the same */
			return;
		}
	}
}

/* Signal the frame's fence: the timeline's next value, or its vgem fence. */
static int signal_fence(struct producer *p)
{
	int ret;

	if (p->vgem < 0)
		return sw_sync_timeline_inc(p->timeline, 1);
	ret = vgem_fence_signal(p->vgem, &p->pending);
	vgem_pending_drop(p->vgem, &p->pending);
	return ret;
}

/**
 * thread_sleeps() - is thread @tid of this process asleep in the kernel
 * (state S or D in its /proc stat)?  When it cannot tell, it says yes: a
 * thread must not wait for ever on a state it cannot see.
 */
bool thread_sleeps(pid_t tid)
{
	char path[64], buf[512], *end;
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/self/task/%d/stat", (int)tid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return true;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return true;
	buf[n] = '\0';
	end = strrchr(buf, ')');	/* the name in (...) may hold anything */
	return !end || end[1] != ' ' || end[2] == 'S' || end[2] == 'D';
}

/*
 * The starver always says when it holds the CPU or gave up, at most
 * STARVE_WAIT_NS after it started: twice that is only a net against a
 * hang, should it never say.
 */
#define STARVER_WAIT_NS (2 * STARVE_WAIT_NS)

/*
 * The time the producer's delay starts: the frame's start, or with a gate
 * the first moment (polled each ms) the compositor's thread sleeps in its
 * waiting call (or has left it: then at once); in a starved frame, also
 * not before the starver holds its CPU (polled each 0.1 ms, bounded).
 */
static uint64_t delay_start(const struct producer *p)
{
	uint64_t until;
	int state;

	if (!p->gate)
		return p->start_ns;
	while ((state = atomic_load(&p->gate->state)) == GATE_BEFORE ||
	       (state == GATE_INSIDE && !thread_sleeps(p->gate->tid)))
		usleep(1000);
	until = now_ns() + STARVER_WAIT_NS;
	while (atomic_load(&p->gate->starve) == STARVE_WAITING && now_ns() < until)
		usleep(100);
	return now_ns();
}

static void render(struct producer *p)
{
	int ret = 0;

	p->times.start_ns = delay_start(p);
	p->times.due_ns = p->times.start_ns + p->delay_ns;
	if (p->fate == FATE_SLOW && p->release_fd >= 0)
		sleep_until_released(p->times.due_ns, p->release_fd);
	else
		sleep_until(p->times.due_ns);
	p->times.woke_ns = now_ns();
	switch (p->fate) {
	case FATE_NORMAL:
	case FATE_SLOW:
		ret = signal_fence(p);
		break;
	case FATE_NEVER:
		break;
	case FATE_ERROR:
		/*
		 * Closing a sw_sync timeline signals its pending fences with
		 * -ENOENT: the only way to fail a fence from user space.
		 * (vgem cannot: the plan refuses --error with --vgem.)
		 */
		close(p->timeline);
		ret = open_named_timeline(p);
		break;
	}
	p->times.done_ns = now_ns();
	if (ret && !p->error)
		p->error = ret;
}

static void *producer_main(void *arg)
{
	struct producer *p = arg;
	int ret = open_named_timeline(p);

	pthread_mutex_lock(&p->lock);
	p->error = ret;
	p->ready = 1;
	pthread_cond_broadcast(&p->cond);
	while (!p->quit) {
		if (!p->busy) {
			pthread_cond_wait(&p->cond, &p->lock);
			continue;
		}
		pthread_mutex_unlock(&p->lock);
		render(p);
		pthread_mutex_lock(&p->lock);
		p->busy = 0;
		pthread_cond_broadcast(&p->cond);
	}
	pthread_mutex_unlock(&p->lock);
	return NULL;
}

/*
 * Start the thread and wait until its timeline is open.  @vgem_fd: the
 * vgem device to make fences with, or -1 for a sw_sync timeline.
 */
int producer_start(struct producer *p, char label, int vgem_fd)
{
	memset(p, 0, sizeof(*p));
	p->label = label;
	p->timeline = -1;
	p->vgem = vgem_fd;
	p->release_fd = -1;
	pthread_mutex_init(&p->lock, NULL);
	pthread_cond_init(&p->cond, NULL);
	if (pthread_create(&p->thread, NULL, producer_main, p))
		return -EAGAIN;
	pthread_mutex_lock(&p->lock);
	while (!p->ready)
		pthread_cond_wait(&p->cond, &p->lock);
	pthread_mutex_unlock(&p->lock);
	return p->error;
}

/*
 * A sync_file fd for the next value on the timeline, or a new vgem fence;
 * the producer is idle.  A vgem fence never signalled (--never) is left to
 * vgem's own timeout: its buffer is closed here.
 */
int producer_fence(struct producer *p)
{
	if (p->vgem < 0)
		return sw_sync_fence_create(p->timeline, ++p->value, NULL);
	vgem_pending_drop(p->vgem, &p->pending);
	return vgem_fence_new(p->vgem, &p->pending);
}

/*
 * Render frame @frame: signal its fence (as @fate says) @delay_ns after
 * @start_ns, or with @gate after the compositor's thread sleeps in its
 * waiting call.
 */
void producer_render(struct producer *p, unsigned int frame, enum frame_fate fate,
		     uint64_t start_ns, uint64_t delay_ns, const struct block_gate *gate)
{
	pthread_mutex_lock(&p->lock);
	p->frame = frame;
	p->fate = fate;
	p->start_ns = start_ns;
	p->delay_ns = delay_ns;
	p->gate = gate;
	p->busy = 1;
	pthread_cond_broadcast(&p->cond);
	pthread_mutex_unlock(&p->lock);
}

/* Wait for the frame's render to end; @times gets its times. */
void producer_wait_idle(struct producer *p, struct render_times *times)
{
	pthread_mutex_lock(&p->lock);
	while (p->busy)
		pthread_cond_wait(&p->cond, &p->lock);
	*times = p->times;
	pthread_mutex_unlock(&p->lock);
}

void producer_stop(struct producer *p)
{
	pthread_mutex_lock(&p->lock);
	p->quit = 1;
	pthread_cond_broadcast(&p->cond);
	pthread_mutex_unlock(&p->lock);
	pthread_join(p->thread, NULL);
	if (p->timeline >= 0)
		close(p->timeline);
	if (p->vgem >= 0)
		vgem_pending_drop(p->vgem, &p->pending);
}
