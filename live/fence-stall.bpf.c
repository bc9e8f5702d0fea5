// SPDX-License-Identifier: GPL-2.0
/*
 * fence-stall.bpf.c - what `fence-trace stall` needs to explain a stuck
 * wait the moment it gets long: every dma_fence wait in progress with the
 * fence's identity, the members of a merged fence, who created the fence,
 * and per fence context the last signal; and, for each wait longer than
 * the threshold, how it ended.
 *
 * tp_btf hooks with raw_tp twins, as in fence-latency.bpf.c.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>

#include "fence-names.bpf.h"
#include "fence-stall.h"

char LICENSE[] SEC("license") = "GPL";

/* Set by user space at any time: waits shorter than this end quietly. */
volatile __u64 threshold_ns = 33000000;

/*
 * Every dma_fence wait begun while attached, long or short: when stall
 * reports none, this says whether it saw no wait at all or none long.
 */
__u64 waits_begun;

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, FS_MAX_WAITS);
	__type(key, struct fs_wait_key);
	__type(value, struct fs_wait);
} waits SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, FS_CREATOR_SLOTS);
	__type(key, __u32);
	__type(value, struct fs_creator);
} creators SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, FS_SIGNAL_SLOTS);
	__type(key, __u32);
	__type(value, struct fs_signal);
} last_signal SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, FS_MAX_PIPES);
	__type(key, __s32);
	__type(value, struct fs_vblank);
} vblanks SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 64 * 1024);
} ends SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 4);
	__type(key, __u32);
	__type(value, __u64);
} drops SEC(".maps");		/* 0 waits full, 1 a live fence's creator forgotten, 2 ringbuf full */

/* One scratch wait per CPU: too big for the BPF stack. */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct fs_wait);
} scratch SEC(".maps");

static __always_inline void drop(__u32 which)
{
	__u64 *c = bpf_map_lookup_elem(&drops, &which);

	if (c)
		(*c)++;
}

static __always_inline void describe(struct dma_fence *f, struct fs_fence *out)
{
	out->ptr = (__u64)f;
	out->context = BPF_CORE_READ(f, context);
	out->seqno = BPF_CORE_READ(f, seqno);
	out->signaled = BPF_CORE_READ(f, flags) & 1;	/* DMA_FENCE_FLAG_SIGNALED_BIT */
}

static __always_inline void describe_members(struct dma_fence *f, struct fs_wait *w)
{
	struct dma_fence_array *a = (struct dma_fence_array *)f;
	struct dma_fence **fences;

	if (fence_ops_kind(f) != FENCE_OPS_ARRAY)
		return;
	w->is_array = 1;
	w->n_members = BPF_CORE_READ(a, num_fences);
	fences = BPF_CORE_READ(a, fences);
	for (int i = 0; i < FS_MEMBERS; i++) {
		struct dma_fence *m = NULL;

		if (i >= w->n_members)
			break;
		bpf_probe_read_kernel(&m, sizeof(m), &fences[i]);
		if (m) {
			describe(m, &w->members[i]);
			fence_name_once(m, w->members[i].context);
		}
	}
}

/*
 * The creators and last_signal slots are written in place, the key last:
 * a reader that finds its key finds what was written before it (x86 keeps
 * stores in order; WRITE_ONCE keeps the compiler from moving them).  Two
 * CPUs writing one slot at once, a fence each, leave one of the two.
 */
#define WRITE_ONCE(x, v) (*(volatile typeof(x) *)&(x) = (v))
#define READ_ONCE(x) (*(volatile typeof(x) *)&(x))

/*
 * The address of the fence the hook's first argument points to, as a
 * number: tp_btf types that argument, and the verifier allows no
 * arithmetic on a typed pointer, so it is read from the context.
 */
static __always_inline __u64 fence_addr(unsigned long long *ctx)
{
	__u64 addr = 0;

	bpf_probe_read_kernel(&addr, sizeof(addr), ctx);
	return addr;
}

static __always_inline struct fs_creator *creator_slot(__u64 addr)
{
	__u32 slot = fs_creator_slot(addr);

	return bpf_map_lookup_elem(&creators, &slot);
}

static __always_inline int on_init(unsigned long long *ctx, struct dma_fence *fence)
{
	__u64 addr = fence_addr(ctx), held;
	struct fs_creator *c = creator_slot(addr);

	/* named now: a fence only polled (the series' poll events) is never waited on here */
	fence_name_once(fence, BPF_CORE_READ(fence, context));
	if (!c)
		return 0;
	held = READ_ONCE(c->fence);
	if (held && held != addr)
		drop(1);	/* a live fence's creator forgotten for this one */
	WRITE_ONCE(c->fence, 0);
	c->ts = bpf_ktime_get_ns();
	c->tgid = bpf_get_current_pid_tgid() >> 32;
	bpf_get_current_comm(c->comm, sizeof(c->comm));
	WRITE_ONCE(c->fence, addr);
	return 0;
}

static __always_inline int on_destroy(unsigned long long *ctx)
{
	__u64 addr = fence_addr(ctx);
	struct fs_creator *c = creator_slot(addr);

	if (c && READ_ONCE(c->fence) == addr)
		WRITE_ONCE(c->fence, 0);
	return 0;
}

static __always_inline int on_signaled(struct dma_fence *fence)
{
	__u64 context = BPF_CORE_READ(fence, context);
	__u32 slot = context & (FS_SIGNAL_SLOTS - 1);
	struct fs_signal *s = bpf_map_lookup_elem(&last_signal, &slot);

	if (!s)
		return 0;
	WRITE_ONCE(s->context, 0);
	s->seqno = BPF_CORE_READ(fence, seqno);
	s->ts = bpf_ktime_get_ns();
	s->error = BPF_CORE_READ(fence, error);
	WRITE_ONCE(s->context, context + 1);
	return 0;
}

/* The hook's fence's creator into @w, if its slot still holds it (read twice: not overwritten meanwhile). */
static __always_inline void creator_into(unsigned long long *ctx, struct fs_wait *w)
{
	__u64 addr = fence_addr(ctx);
	struct fs_creator *c = creator_slot(addr);

	if (!c || READ_ONCE(c->fence) != addr)
		return;
	w->creator = *c;
	if (READ_ONCE(c->fence) != addr)
		__builtin_memset(&w->creator, 0, sizeof(w->creator));
}

static __always_inline int on_wait_start(unsigned long long *ctx, struct dma_fence *fence)
{
	struct fs_wait_key key = { .pid_tgid = bpf_get_current_pid_tgid(), .fence = (__u64)fence };
	struct fs_wait *w;
	__u32 zero = 0;

	__sync_fetch_and_add(&waits_begun, 1);
	w = bpf_map_lookup_elem(&scratch, &zero);
	if (!w)
		return 0;
	__builtin_memset(w, 0, sizeof(*w));
	w->start = bpf_ktime_get_ns();
	w->tgid = key.pid_tgid >> 32;
	w->pid = (__u32)key.pid_tgid;
	bpf_get_current_comm(w->comm, sizeof(w->comm));
	describe(fence, &w->fence);
	fence_name_once(fence, w->fence.context);
	describe_members(fence, w);
	creator_into(ctx, w);
	if (bpf_map_update_elem(&waits, &key, w, BPF_ANY))
		drop(0);
	return 0;
}

/*
 * When the fence signalled, by its own clock (CLOCK_MONOTONIC, what
 * SYNC_IOC_FILE_INFO reports too), or 0.  The timestamp shares a union with
 * the callback list and is valid once DMA_FENCE_FLAG_TIMESTAMP_BIT is set,
 * which the kernel does after writing it.  A woken waiter can run
 * milliseconds after the signal on a busy machine; this tells the two apart.
 */
static __always_inline __u64 signal_time(struct dma_fence *fence)
{
	__u64 bit = bpf_core_enum_value(enum dma_fence_flag_bits, DMA_FENCE_FLAG_TIMESTAMP_BIT);

	if (!(BPF_CORE_READ(fence, flags) & (1ull << bit)))
		return 0;
	return BPF_CORE_READ(fence, timestamp);
}

static __always_inline int on_wait_end(struct dma_fence *fence)
{
	struct fs_wait_key key = { .pid_tgid = bpf_get_current_pid_tgid(), .fence = (__u64)fence };
	struct fs_wait *w = bpf_map_lookup_elem(&waits, &key);
	__u64 now = bpf_ktime_get_ns();
	struct fs_end *e;

	if (!w) {
		/* a wait found at start, its fence unknown: a task waits on one at a time */
		key.fence = 0;
		w = bpf_map_lookup_elem(&waits, &key);
		if (w)
			fence_name_once(fence, BPF_CORE_READ(fence, context));
	}
	if (!w)
		return 0;
	if (now - w->start >= threshold_ns) {
		e = bpf_ringbuf_reserve(&ends, sizeof(*e), 0);
		if (e) {
			e->start = w->start;
			e->end = now;
			e->fence = key.fence;
			e->context = key.fence ? w->fence.context : BPF_CORE_READ(fence, context);
			e->seqno = key.fence ? w->fence.seqno : BPF_CORE_READ(fence, seqno);
			e->before_tool = w->before_tool;
			e->tgid = w->tgid;
			e->pid = w->pid;
			e->error = BPF_CORE_READ(fence, error);
			e->signaled = BPF_CORE_READ(fence, flags) & 1;
			e->signal_ts = signal_time(fence);
			bpf_ringbuf_submit(e, 0);
		} else {
			drop(2);
		}
	}
	bpf_map_delete_elem(&waits, &key);
	return 0;
}

/*
 * Vblank times per pipe, for thresholds counted in vblanks (user space
 * takes the mean period, as single intervals jitter, under TCG a lot) and
 * for the target vblank of a commit whose in-fence wait stalls.
 */
static __always_inline int on_vblank(int crtc)
{
	struct fs_vblank *v = bpf_map_lookup_elem(&vblanks, &crtc), fresh = {};
	__u64 now = bpf_ktime_get_ns();

	if (!v) {
		fresh.first_ts = now;
		fresh.last_ts = now;
		fresh.recent[0] = now;
		bpf_map_update_elem(&vblanks, &crtc, &fresh, BPF_NOEXIST);
		return 0;
	}
	v->last_ts = now;
	v->count++;
	v->recent[v->count & (FS_VBLANK_RING - 1)] = now;
	return 0;
}

SEC("tp_btf/drm_vblank_event")
int BPF_PROG(tp_btf_vblank, int crtc) { return on_vblank(crtc); }
SEC("raw_tp/drm_vblank_event")
int BPF_PROG(raw_tp_vblank, int crtc) { return on_vblank(crtc); }

SEC("tp_btf/dma_fence_init")
int BPF_PROG(tp_btf_init, struct dma_fence *fence) { return on_init(ctx, fence); }
SEC("tp_btf/dma_fence_destroy")
int BPF_PROG(tp_btf_destroy, struct dma_fence *fence) { return on_destroy(ctx); }
SEC("tp_btf/dma_fence_signaled")
int BPF_PROG(tp_btf_signaled, struct dma_fence *fence) { return on_signaled(fence); }
SEC("tp_btf/dma_fence_wait_start")
int BPF_PROG(tp_btf_wait_start, struct dma_fence *fence) { return on_wait_start(ctx, fence); }
SEC("tp_btf/dma_fence_wait_end")
int BPF_PROG(tp_btf_wait_end, struct dma_fence *fence) { return on_wait_end(fence); }

SEC("raw_tp/dma_fence_init")
int BPF_PROG(raw_tp_init, struct dma_fence *fence) { return on_init(ctx, fence); }
SEC("raw_tp/dma_fence_destroy")
int BPF_PROG(raw_tp_destroy, struct dma_fence *fence) { return on_destroy(ctx); }
SEC("raw_tp/dma_fence_signaled")
int BPF_PROG(raw_tp_signaled, struct dma_fence *fence) { return on_signaled(fence); }
SEC("raw_tp/dma_fence_wait_start")
int BPF_PROG(raw_tp_wait_start, struct dma_fence *fence) { return on_wait_start(ctx, fence); }
SEC("raw_tp/dma_fence_wait_end")
int BPF_PROG(raw_tp_wait_end, struct dma_fence *fence) { return on_wait_end(fence); }
