/* SPDX-License-Identifier: GPL-2.0 */
/* top.h - `fence-trace top`: its state, shared with top-pending.c. */
#ifndef FENCE_TRACE_TOP_H
#define FENCE_TRACE_TOP_H

#include <stdint.h>
#include <termios.h>

#include "latency.h"

#define TOP_MAX_ROWS 256
#define TOP_MAX_PENDING 4096
#define TOP_MAX_HELD 1024

struct top_row {
	uint64_t context, signaled, p99_us, errors, oldest_ns;
	unsigned int outstanding;
};

/* A sync_file fd that user space holds on an unsignalled fence. */
struct held_fence {
	int pid, fd;
	char comm[16], driver[32], timeline[32];
	uint64_t context, seqno;
	int have_seqno, matched;
};

struct top_ctx {
	int pending, tty;
	unsigned int delay, count;
	struct latency_ctx lat;
	struct top_row rows[TOP_MAX_ROWS];
	unsigned int n_rows;
	struct fl_key hkey;
	struct termios saved;
	struct fl_live live[FL_MAX_LIVE];	/* the live table copied; --pending: oldest first */
	unsigned int n_live, n_unlisted;	/* listed (the oldest); past TOP_MAX_PENDING */
	unsigned int n_unlisted_held;		/* of those, held as sync_file fds */
	struct held_fence held[TOP_MAX_HELD];
	unsigned int n_held;
};

void top_pending(struct top_ctx *t);
int top_find_held(struct held_fence *held, unsigned int max);

#endif
