/* SPDX-License-Identifier: GPL-2.0 */
/*
 * stall-before.h - the waits already in progress when `fence-trace stall`
 * starts (stall-before.c), for its printer.
 */
#ifndef FENCE_TRACE_STALL_BEFORE_H
#define FENCE_TRACE_STALL_BEFORE_H

#include <stdint.h>
#include <linux/types.h>

#include "fence-stall.h"

#define BEFORE_MAX 64

/* How the fence of a wait found at start was found. */
enum before_source {
	BEFORE_UNKNOWN, BEFORE_STACK, BEFORE_SYNC_FILE,
};

struct before_names {
	char driver[32], timeline[64];	/* "" when unknown */
	int from_ops;			/* known by the fence's ops (no sync_file, no series) */
	char holders[96];		/* "comm-pid fd N, ..." of the sync_files held on it */
	int64_t commit;			/* the series' fence_timeline: its commit, -1 */
	int32_t plane;
	int64_t kernel_age_ns;		/* and how long the commit has waited, -1 */
};

/* A task asleep in a dma_fence wait when the tool started. */
struct before_wait {
	struct fs_wait_key key;		/* as seeded into the waits map */
	char where[200];		/* what waits, and the stack from the wait up */
	enum before_source source;
	struct before_names names;
};

/* A task in poll()/select() or epoll_wait() on a sync_file when the tool started. */
struct before_poll {
	uint32_t pid, tgid, fd;		/* the poller; the holder (tgid) and its fd */
	int epoll;			/* in epoll_wait() on an epoll watching it */
	char comm[16], holder[16];
	uint64_t context, seqno, start;	/* start: at the latest then */
	struct before_names names;
	int reported, cleared;
};

/* Where the atomic helpers make a commit wait on a completion (stall-before.c). */
struct behind_wait {
	const char *function, *stage, *what;	/* on the stack; "hw_done", ...; in plain words */
};

/* A commit blocked behind an earlier one (or its own flip) when the tool started. */
struct before_behind {
	uint32_t pid, tgid;
	char comm[16];
	const struct behind_wait *kind;
	char where[200];		/* the stack from the waiting function up */
	uint64_t start;			/* at the latest then */
	uint64_t switches;		/* the task's, when found: it moves when it runs */
	int reported, cleared;
};

struct fence_waiters_bpf;

struct stall_before {
	struct fence_waiters_bpf *skel;	/* loaded before the tool says it watches */
	struct ksyms *ksyms;
	int load_err, ksyms_err;
	uint64_t load_ns, ksyms_ns;	/* -v: what loading took, kallsyms of it */
	struct before_wait waits[BEFORE_MAX];
	struct before_poll polls[BEFORE_MAX];
	struct before_behind behinds[BEFORE_MAX];
	unsigned int n_waits, n_polls, n_behinds;
	unsigned int dropped;		/* found past BEFORE_MAX of its kind: not kept */
	uint64_t behind_checked;	/* when the tasks were last read for them */
};

struct stall_ctx;

void stall_before_load(struct stall_ctx *c);
void stall_before_take(struct stall_ctx *c);
void stall_before_free(struct stall_ctx *c);
int stall_before_scan(struct stall_ctx *c, uint64_t now);
unsigned int stall_before_going(const struct stall_ctx *c);
const struct before_wait *stall_before_find(const struct stall_ctx *c, const struct fs_wait_key *k);

void stall_print_before_wait(struct stall_ctx *c, const struct fs_wait *w, uint64_t now);
void stall_print_before_poll(struct stall_ctx *c, const struct before_poll *p, uint64_t now);
void stall_print_before_poll_end(struct stall_ctx *c, const struct before_poll *p, uint64_t signal_ts,
				 uint64_t now);
void stall_print_before_behind(struct stall_ctx *c, const struct before_behind *b, uint64_t now);
void stall_print_before_behind_end(struct stall_ctx *c, const struct before_behind *b, uint64_t now);

#endif
