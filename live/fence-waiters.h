/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fence-waiters.h - what fence-waiters.bpf.c's task iterators write for
 * `fence-trace stall` at start (stall-before.c): the tasks asleep now, with
 * their kernel stacks and the fence a dma_fence_default_wait() of theirs
 * waits on, and the unsignalled sync_files held, with the tasks waiting on
 * them.
 */
#ifndef FENCE_TRACE_FENCE_WAITERS_H
#define FENCE_TRACE_FENCE_WAITERS_H

#define FW_STACK 32			/* kernel stack entries kept */
#define FW_WAITERS 4			/* waiters kept per sync_file */
#define FW_NAME 32			/* a timeline name read from the kernel */

/* A task asleep (TASK_INTERRUPTIBLE or TASK_UNINTERRUPTIBLE). */
struct fw_task {
	__u32 pid, tgid;
	char comm[16];
	__u32 state, n_stack;		/* n_stack: entries in @stack */
	__u64 switches;			/* nvcsw + nivcsw: moves when it runs again */
	__u64 asleep_ns;		/* has not run for at least this long */
	__u64 stack[FW_STACK];
	/* the fence of its dma_fence_default_wait(), found on its stack; 0 none */
	__u64 fence, context, seqno, ops;
	char timeline[FW_NAME];		/* its name where its ops tell how to read it, else "" */
	__u32 signaled;
	__u32 scan;			/* -v: FW_SCAN_* */
};

/* How the stack scan went, for -v. */
#define FW_SCAN_READ_FAILED	1
#define FW_SCAN_CALLBACK_SEEN	2	/* dma_fence_default_wait_cb's address on the stack */
#define FW_SCAN_MATCHED		4	/* followed by this task */
#define FW_SCAN_NO_HEAD		8	/* but its list led to no fence */

/* An unsignalled sync_file a process holds, and who waits on it. */
struct fw_file {
	__u32 tgid, fd;
	__u64 sync_file, fence, context, seqno, ops;
	char timeline[FW_NAME];		/* as fw_task's */
	__u32 n_waiters, n_pollers;	/* in dma_fence_default_wait(); in poll/select */
	__u32 waiters[FW_WAITERS], pollers[FW_WAITERS];
	__u32 epoll;			/* epoll instances watching it */
	__u32 n_epollers;		/* tasks in epoll_wait() on one of them */
	__u32 epollers[FW_WAITERS];
	__u32 n_entries;		/* -v: its wait queue's entries, its fence's callbacks */
	__u64 first_wake, first_cb;	/* -v: the first entry's function, callback's */
};

#endif
