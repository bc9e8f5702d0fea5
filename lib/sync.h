/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sync.h - sw_sync timelines and sync_file queries for the lab programs.
 *
 * sw_sync lives in debugfs and its ioctls are not in the uapi headers, so
 * they are defined here from drivers/dma-buf/sw_sync.c.
 */
#ifndef FENCE_TRACE_SYNC_H
#define FENCE_TRACE_SYNC_H

#include <stddef.h>
#include <stdint.h>
#include <linux/sync_file.h>

#define SW_SYNC_PATH "/sys/kernel/debug/sync/sw_sync"

struct sw_sync_create_fence_data {
	uint32_t value;
	char name[32];
	int32_t fence;
};

#define SW_SYNC_IOC_MAGIC 'W'
#define SW_SYNC_IOC_CREATE_FENCE _IOWR(SW_SYNC_IOC_MAGIC, 0, struct sw_sync_create_fence_data)
#define SW_SYNC_IOC_INC _IOW(SW_SYNC_IOC_MAGIC, 1, uint32_t)

/* What SYNC_IOC_FILE_INFO says about a sync_file's first fence. */
struct sync_summary {
	char name[32];		/* the sync_file's name */
	char timeline[32];	/* obj_name of the first fence */
	char driver[32];
	int32_t status;		/* 1 signalled, 0 active, < 0 error */
	uint32_t num_fences;
	uint64_t timestamp_ns;	/* CLOCK_MONOTONIC signal time, 0 if active */
	uint64_t context;	/* parsed from name, when it carries them */
	int64_t seqno;
	int have_seqno;
};

int sw_sync_timeline_open(void);
int sw_sync_fence_create(int timeline, uint32_t value, const char *name);
int sw_sync_timeline_inc(int timeline, uint32_t count);
int sync_file_summary(int fd, struct sync_summary *out);
int sync_file_merge(int a, int b, const char *name);
int sync_file_wait(int fd, int timeout_ms);
int sync_file_grab(int pid, int fd);
int sync_name_parse(const char *name, const char *driver, const char *timeline,
		    uint64_t *context, int64_t *seqno);
uint64_t now_ns(void);

#endif
