/* SPDX-License-Identifier: GPL-2.0 */
/* stall.h - `fence-trace stall`: its state, shared with stall-print.c. */
#ifndef FENCE_TRACE_STALL_H
#define FENCE_TRACE_STALL_H

#include <stdint.h>
#include <linux/types.h>

#include "fence-names.h"
#include "fence-stall.h"
#include "stall-before.h"
#include "stall-series.h"

#define STALL_MAX_TRACKED 256
#define EXIT_STALLED 3

struct fence_stall_bpf;
struct ring_buffer;

/* A wait already reported as stalled, waiting for its end. */
struct stall_seen {
	struct fs_wait_key key;
	uint64_t start;
	struct fs_wait wait;
	/* a commit's in-fence wait (series): its frame class, said once */
	int64_t commit;			/* -1: not a commit's, or not known */
	uint64_t entry_ns;		/* its atomic ioctl entered; 0 unknown */
	int class_said;
};

struct stall_ctx {
	unsigned int threshold_ms, vblanks, duration_s;
	int64_t latch_margin_ns;	/* --latch-margin; -1 not given */
	uint64_t watch_start_ns;	/* the programs attached: vblanks seen since */
	int once, json, raw_tp, verbose;
	uint64_t threshold_ns;
	struct fence_stall_bpf *skel;
	struct ring_buffer *rb;
	struct fence_names names;
	struct stall_seen seen[STALL_MAX_TRACKED];
	unsigned int n_seen, stalls;
	struct stall_series series;	/* the kernel series' view, when it has one */
	int have_series;
	struct stall_before before;	/* the waits in progress at start */
	/* EBUSY retries against one earlier commit: said once, when they last */
	int64_t ebusy_on;
	uint64_t ebusy_first_ts;
	int ebusy_said;
	unsigned int backwards;	/* spans met out of clock order, printed as 0 */
};

void stall_print_start(struct stall_ctx *c, struct stall_seen *s, uint64_t now);
void stall_print_end(struct stall_ctx *c, const struct fs_end *e, const struct fs_wait *w);
void stall_print_poll(struct stall_ctx *c, const struct series_poll *p, uint64_t now);
void stall_print_poll_end(struct stall_ctx *c, const struct series_poll *p, uint64_t end);
void stall_print_error_fence(struct stall_ctx *c, const struct series_wait *w, int error, int ret);
void stall_print_error_outcome(struct stall_ctx *c, const struct series_error_wait *e, int err,
			       uint64_t vblank, uint64_t ts);
void stall_class_start(struct stall_ctx *c, struct stall_seen *s, uint64_t now);
void stall_class_scan(struct stall_ctx *c, uint64_t now);
void stall_class_end(struct stall_ctx *c, struct stall_seen *s, const struct fs_end *e);
int stall_vblank_within(struct stall_ctx *c, uint64_t from, uint64_t to);
int stall_last_signal(struct stall_ctx *c, uint64_t context, struct fs_signal *s);
int stall_creator(struct stall_ctx *c, uint64_t fence, struct fs_creator *cr);

#define STALL_MAX_PIPES FS_MAX_PIPES
unsigned int stall_pipes_read(struct stall_ctx *c, struct fs_vblank *pipes);
void stall_print_commit_stall(struct stall_ctx *c, uint64_t ts, uint64_t commit, uint32_t crtc,
			      int64_t waits_on, int stage, int ret, uint64_t duration_ns);

#endif
