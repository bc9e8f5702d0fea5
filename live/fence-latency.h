/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fence-latency.h - what fence-latency.bpf.c and `fence-trace latency`
 * share: plain __u32/__u64 structs, no kernel headers.
 */
#ifndef FENCE_TRACE_FENCE_LATENCY_H
#define FENCE_TRACE_FENCE_LATENCY_H

#define FL_SLOTS 32			/* log2 buckets */
#define FL_LIVE_WAYS 8			/* slots per set of the live table */
#define FL_LIVE_SET_BITS 13
#define FL_MAX_LIVE (FL_LIVE_WAYS << FL_LIVE_SET_BITS)	/* slots for fences in flight */
#define FL_MAX_HISTS 4096		/* histograms (contexts, tasks) */
#define FL_MAX_WAITS 4096		/* waits in progress at once */

enum fl_kind {
	FL_SIGNAL = 0,			/* init -> signaled, per fence context */
	FL_WAIT_CONTEXT = 1,		/* wait_start -> wait_end, per waited context */
	FL_WAIT_TASK = 2,		/* the same, per waiting task (tgid) */
	/* with the fence-trace kernel series only */
	FL_OUT_VBLANK = 3,		/* out-fence signal - its vblank's time, per vblank pipe */
	FL_PLANE_WAIT = 4,		/* a commit's in-fence wait, per DRM plane id */
};

struct fl_key {
	__u64 id;			/* fence context, or tgid */
	__u32 kind;			/* enum fl_kind */
	__u32 pad;
	/*
	 * FL_WAIT_TASK: the waited fence context, so -C and -T can choose a
	 * task's waits (user space merges a task's chosen contexts); else 0.
	 */
	__u64 context;
};

struct fl_hist {
	__u32 slots[FL_SLOTS];
	__u64 count, sum, max;		/* in the histogram's unit */
	__u64 errors;			/* FL_SIGNAL: signalled with an error */
	__u64 new_ns;			/* when this key was first seen */
	char comm[16];			/* the task that added the first sample */
};

/*
 * An unsignalled fence created since the tool started, in one of the
 * FL_LIVE_WAYS slots of the set its key hashes to (fl_live_set()).  The
 * key stands for the fence while it lives: its address, or for tp_btf its
 * distance from the table (fence-latency.bpf.c); 8-aligned, never 0.
 * A slot is claimed with a compare-and-swap from 0 to the key with its
 * low bit set, filled, then given the plain key; signal and destroy take
 * it back to 0 with a compare-and-swap.  A reader that sees the same plain
 * key before and after copying the rest has a consistent record.
 */
struct fl_live {
	__u64 fence;			/* its key; 0: empty; low bit: being written */
	__u64 ts;			/* creation, CLOCK_MONOTONIC ns */
	__u64 context, seqno;
	__u32 tgid;			/* the creating task (process) */
	__u32 pad;
};

/* Fibonacci hashing of a fence's key to its set of live slots. */
static inline __u32 fl_live_set(__u64 fence)
{
	return (__u32)((fence * 0x9E3779B97F4A7C15ull) >> (64 - FL_LIVE_SET_BITS));
}

enum fl_counter {
	FL_DROP_LIVE,			/* a fence's set of live slots full: its latency not measured */
	FL_DROP_HIST,			/* histogram map full: a sample not counted */
	FL_DROP_WAIT,			/* wait map full: a wait not measured */
	FL_UNKNOWN_SIGNAL,		/* signal of a fence not tracked (created before we started, or evicted) */
	FL_DESTROYED_UNSIGNALED,
	FL_COUNTERS,
};

#endif
