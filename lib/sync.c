// SPDX-License-Identifier: GPL-2.0
/*
 * sync.c - sw_sync timelines and sync_file queries (see sync.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "sync.h"

uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

/*
 * sw_sync names the timeline after the opening task's comm, so a producer
 * thread sets its name (prctl PR_SET_NAME) before calling this.
 */
int sw_sync_timeline_open(void)
{
	int fd = open(SW_SYNC_PATH, O_RDWR | O_CLOEXEC);

	return fd < 0 ? -errno : fd;
}

/* A fence on @timeline that signals when the timeline reaches @value. */
int sw_sync_fence_create(int timeline, uint32_t value, const char *name)
{
	struct sw_sync_create_fence_data data = { .value = value };

	snprintf(data.name, sizeof(data.name), "%s", name ? name : "");
	if (ioctl(timeline, SW_SYNC_IOC_CREATE_FENCE, &data))
		return -errno;
	return data.fence;
}

int sw_sync_timeline_inc(int timeline, uint32_t count)
{
	return ioctl(timeline, SW_SYNC_IOC_INC, &count) ? -errno : 0;
}

/**
 * sync_name_parse() - context and seqno from a sync_file's default name
 *
 * A sync_file with no user name is called "%s-%s%llu-%lld" (driver,
 * timeline, context, seqno) by sync_file_get_name(), truncated to 31
 * bytes.  The timeline is glued to the context, so the known driver and
 * timeline prefix must be stripped before parsing.
 *
 * Return: 0 on success, -1 when @name is not of that form or was cut short.
 */
int sync_name_parse(const char *name, const char *driver, const char *timeline,
		    uint64_t *context, int64_t *seqno)
{
	size_t dl = strlen(driver), tl = strlen(timeline);
	unsigned long long ctx;
	long long seq;
	int used = 0;

	if (strlen(name) >= 31)
		return -1;	/* possibly truncated: the seqno may be cut */
	if (strncmp(name, driver, dl) != 0 || name[dl] != '-' ||
	    strncmp(name + dl + 1, timeline, tl) != 0)
		return -1;
	name += dl + 1 + tl;
	if (name[0] < '0' || name[0] > '9')
		return -1;
	if (sscanf(name, "%llu-%lld%n", &ctx, &seq, &used) != 2 || name[used] != '\0')
		return -1;
	*context = ctx;
	*seqno = seq;
	return 0;
}

int sync_file_summary(int fd, struct sync_summary *out)
{
	struct sync_fence_info fences[8];
	struct sync_file_info info;

	memset(out, 0, sizeof(*out));
	memset(&info, 0, sizeof(info));
	memset(fences, 0, sizeof(fences));
	info.num_fences = 8;
	info.sync_fence_info = (uintptr_t)fences;
	if (ioctl(fd, SYNC_IOC_FILE_INFO, &info))
		return -errno;
	memcpy(out->name, info.name, sizeof(out->name) - 1);
	out->status = info.status;
	out->num_fences = info.num_fences;
	if (info.num_fences == 0)
		return 0;
	memcpy(out->timeline, fences[0].obj_name, sizeof(out->timeline) - 1);
	memcpy(out->driver, fences[0].driver_name, sizeof(out->driver) - 1);
	out->timestamp_ns = fences[0].timestamp_ns;
	if (info.num_fences == 1)
		out->have_seqno = sync_name_parse(out->name, out->driver, out->timeline,
						  &out->context, &out->seqno) == 0;
	return 0;
}

int sync_file_merge(int a, int b, const char *name)
{
	struct sync_merge_data data = { .fd2 = b };

	snprintf(data.name, sizeof(data.name), "%s", name);
	if (ioctl(a, SYNC_IOC_MERGE, &data))
		return -errno;
	return data.fence;
}

/**
 * sync_file_grab() - a copy, in this process, of task @pid's fd @fd (to read
 * a sync_file another task holds: pidfd_getfd, which needs ptrace rights)
 *
 * Return: the new fd, or -1 with errno set.
 */
int sync_file_grab(int pid, int fd)
{
	int pidfd = (int)syscall(SYS_pidfd_open, pid, 0), copy;

	if (pidfd < 0)
		return -1;
	copy = (int)syscall(SYS_pidfd_getfd, pidfd, fd, 0);
	close(pidfd);
	return copy;
}

/* 1 when signalled, 0 on timeout, negative errno on error. */
int sync_file_wait(int fd, int timeout_ms)
{
	struct pollfd pfd = { .fd = fd, .events = POLLIN };
	int ret;

	do {
		ret = poll(&pfd, 1, timeout_ms);
	} while (ret < 0 && errno == EINTR);
	if (ret < 0)
		return -errno;
	return ret > 0 ? 1 : 0;
}
