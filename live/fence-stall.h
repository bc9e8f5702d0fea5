/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fence-stall.h - what fence-stall.bpf.c and `fence-trace stall` share.
 */
#ifndef FENCE_TRACE_FENCE_STALL_H
#define FENCE_TRACE_FENCE_STALL_H

#define FS_MEMBERS 8			/* members of a merged fence kept */
#define FS_MAX_WAITS 4096
#define FS_CREATOR_SLOTS 65536		/* the creators table: a power of two */
#define FS_SIGNAL_SLOTS 4096		/* the last_signal table: a power of two */

struct fs_fence {
	__u64 ptr, context, seqno;
	__u32 signaled;			/* when the wait began */
	__u32 pad;
};

/*
 * Who created a fence: a slot of the creators table, direct-mapped by the
 * fence's address (fs_creator_slot()), written at its init, emptied at its
 * destroy.  In a wait, a copy (fence 0 and ts 0: created before the tool
 * started, or its slot taken by a newer fence).
 */
struct fs_creator {
	__u64 fence;			/* the fence this slot is about; 0 empty */
	__u64 ts;
	__u32 tgid, pad;
	char comm[16];
};

/*
 * The creators slot of the fence at @ptr.  Fences are slab objects whose
 * addresses differ in the middle bits: a Fibonacci hash spreads them.
 * Direct-mapped, not a BPF hash map: two map updates a fence cost more
 * than the fence event itself; a live fence's slot taken by a newer one
 * is counted (drops key 1).
 */
static inline __u32 fs_creator_slot(__u64 ptr)
{
	return (__u32)((ptr * 0x9E3779B97F4A7C15ull) >> 48) & (FS_CREATOR_SLOTS - 1);
}

/* A dma_fence wait in progress, as the wait began. */
struct fs_wait {
	__u64 start;
	__u32 tgid, pid;
	char comm[16];
	struct fs_fence fence;
	__u32 is_array, n_members;	/* n_members: all of them, even past FS_MEMBERS */
	struct fs_fence members[FS_MEMBERS];
	struct fs_creator creator;	/* ts 0: created before the tool started */
	__u32 before_tool, pad;		/* 1: found asleep in it at start (stall-before.c) */
};

/* fence 0: a wait found at start whose fence is unknown (stall-before.c) */
struct fs_wait_key {
	__u64 pid_tgid, fence;
};

/* Sent when a wait longer than the threshold ends. */
struct fs_end {
	__u64 start, end, fence, context, seqno;
	__u64 signal_ts;		/* the fence's own signal time; 0 if none */
	__u32 tgid, pid;
	__s32 error;			/* the fence's error, 0 if none */
	__u32 signaled;			/* 0: the wait ended unsignalled (interrupted, timed out) */
	__u32 before_tool, pad;		/* the wait began before the tool started */
};

/*
 * The last signal on a fence context: a slot of the last_signal table,
 * direct-mapped by the context's low bits.  Contexts are handed out in
 * sequence, so two share a slot only 4096 contexts apart (merges make one
 * each): the newer one's signal overwrites the older's until that signals
 * again.  A hash map kept the first 4096 contexts signalled and no more.
 */
struct fs_signal {
	__u64 context;			/* the context + 1 (0 is a real one); 0 empty */
	__u64 seqno, ts;
	__s32 error;
	__u32 pad;
};

#define FS_VBLANK_RING 16		/* a power of two */
#define FS_MAX_PIPES 64			/* vblank pipes kept (the vblanks map) */

/*
 * Per vblank pipe: the mean period so far, and the last vblanks' times
 * (vblank number count is at recent[count % FS_VBLANK_RING]), from which
 * stall finds a commit's target vblank.
 */
struct fs_vblank {
	__u64 first_ts, last_ts, count;
	__u64 recent[FS_VBLANK_RING];
};

#endif
