// SPDX-License-Identifier: GPL-2.0
/*
 * fence-latency.bpf.c - dma_fence signal latency and wait durations,
 * aggregated in the kernel into log2 histograms per fence context (and per
 * waiting task), for `fence-trace latency`.
 *
 * Each hook exists as tp_btf (cheapest) and raw_tp (for kernels whose BTF
 * the loader cannot use for tp_btf); user space picks one set at runtime.
 * Fences are keyed by their address while they live.  Every map is
 * bounded; what does not fit is counted, never silently lost.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>

#include "fence-latency.h"
#include "fence-names.bpf.h"

char LICENSE[] SEC("license") = "GPL";

const volatile bool targ_ms = false;		/* milliseconds, not microseconds */
const volatile bool targ_waits = false;		/* also wait durations */
const volatile bool targ_per_task = false;	/* waits per waiting task too */


struct wait_key {
	__u64 pid_tgid;
	__u64 fence;
};

/*
 * The fences in flight: a set-associative table in .bss (user space reads
 * it through the skeleton's mmap), not a hash map.  Under TCG a hash map
 * update and delete per fence (bucket locks, the free list) were most of
 * what these programs cost; a slot costs a few loads and stores and two
 * compare-and-swaps.  A fence whose set is full is counted (FL_DROP_LIVE);
 * with 8 ways that takes thousands of live fences in one set's share.
 */
struct fl_live live[FL_MAX_LIVE];

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, FL_MAX_WAITS);
	__type(key, struct wait_key);
	__type(value, __u64);
} waits SEC(".maps");

/*
 * The series' plane waits in progress, by plane state: its wait events
 * carry no duration, which is the time from drm_fence_wait_begin to _end.
 * A commit waits on its planes one at a time, so a few are in flight.
 */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 256);
	__type(key, __u64);
	__type(value, __u64);
} plane_waits SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, FL_MAX_HISTS);
	__type(key, struct fl_key);
	__type(value, struct fl_hist);
} hists SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, FL_COUNTERS);
	__type(key, __u32);
	__type(value, __u64);
} counters SEC(".maps");

static __always_inline void count(__u32 which)
{
	__u64 *c = bpf_map_lookup_elem(&counters, &which);

	if (c)
		(*c)++;
}

static __always_inline __u32 log2_slot(__u64 v)
{
	__u32 slot = 0;

	/* bounded loop the 5.x+ verifier accepts: at most 64 steps */
	for (int i = 0; i < 64 && v > 1; i++) {
		v >>= 1;
		slot++;
	}
	return slot < FL_SLOTS ? slot : FL_SLOTS - 1;
}

static __always_inline void hist_add_ctx(__u64 id, __u32 kind, __u64 context, __u64 ns, int error)
{
	struct fl_key key = { .id = id, .kind = kind, .context = context };
	struct fl_hist *h, zero = {};
	__u64 v = targ_ms ? ns / 1000000 : ns / 1000;

	h = bpf_map_lookup_elem(&hists, &key);
	if (!h) {
		/* May race with another CPU inserting it: look up again anyway. */
		zero.new_ns = bpf_ktime_get_ns();
		bpf_get_current_comm(zero.comm, sizeof(zero.comm));
		bpf_map_update_elem(&hists, &key, &zero, BPF_NOEXIST);
		h = bpf_map_lookup_elem(&hists, &key);
		if (!h) {
			count(FL_DROP_HIST);
			return;
		}
	}
	__sync_fetch_and_add(&h->slots[log2_slot(v)], 1);
	__sync_fetch_and_add(&h->count, 1);
	__sync_fetch_and_add(&h->sum, v);
	if (v > h->max)
		h->max = v;
	if (error)
		__sync_fetch_and_add(&h->errors, 1);
}

static __always_inline void hist_add(__u64 id, __u32 kind, __u64 ns, int error)
{
	hist_add_ctx(id, kind, 0, ns, error);
}

#define barrier() asm volatile("" ::: "memory")

/*
 * What a fence event hands over, read once by each flavour's hook: tp_btf
 * gets the fence as a typed pointer, whose fields are plain loads; raw_tp
 * gets a number, read through bpf_probe_read_kernel() (a helper call per
 * field, most of what a cheap program costs).
 *
 * The key is the fence's address where a number can be had cheaply.  The
 * verifier allows no arithmetic on a typed pointer but the difference of
 * two pointers, which for a root tracer (CAP_PERFMON) it turns into a
 * number: tp_btf's key is the fence's distance from live[], the same for
 * a fence in every program, which is all a key must be.  Either flavour's
 * keys are 8-aligned (the low bit free for live_claim()) and never 0.
 */
#define BTF_KEY(f) ((__u64)(f) - (__u64)live)
#define RAW_KEY(f) ((__u64)(f))

struct fence_args {
	__u64 key, context, seqno;
	struct dma_fence *fence;
};

#define BTF_ARGS(f) ((struct fence_args){ BTF_KEY(f), (f)->context, (f)->seqno, (f) })
#define RAW_ARGS(f) ((struct fence_args){ RAW_KEY(f), BPF_CORE_READ(f, context), BPF_CORE_READ(f, seqno), (f) })

static __always_inline struct fl_live *live_way(__u64 fence, int way)
{
	return &live[((fl_live_set(fence) * FL_LIVE_WAYS) + way) & (FL_MAX_LIVE - 1)];
}

/* Empty the slot if @fence holds it; 1 if it did. */
static __always_inline int live_take(struct fl_live *s, __u64 fence)
{
	return __sync_val_compare_and_swap(&s->fence, fence, 0) == fence;
}

/* The slot holding @fence, or NULL. */
static __always_inline struct fl_live *live_find(__u64 fence)
{
#pragma unroll
	for (int way = 0; way < FL_LIVE_WAYS; way++) {
		struct fl_live *s = live_way(fence, way);

		if (*(volatile __u64 *)&s->fence == fence)
			return s;
	}
	return NULL;
}

/*
 * A slot for @fence, claimed (low bit set): its own old one if the address
 * is still there (a fence freed without a destroy event), else an empty one.
 */
static __always_inline struct fl_live *live_claim(__u64 fence)
{
	struct fl_live *s = live_find(fence);

	if (s && __sync_val_compare_and_swap(&s->fence, fence, fence | 1) == fence)
		return s;
#pragma unroll
	for (int way = 0; way < FL_LIVE_WAYS; way++) {
		s = live_way(fence, way);
		if (*(volatile __u64 *)&s->fence == 0 &&
		    __sync_val_compare_and_swap(&s->fence, 0, fence | 1) == 0)
			return s;
	}
	return NULL;
}

static __always_inline int on_init(struct fence_args a)
{
	struct fl_live *s;

	fence_name_once(a.fence, a.context);
	s = live_claim(a.key);

	if (!s) {
		count(FL_DROP_LIVE);
		return 0;
	}
	s->ts = bpf_ktime_get_ns();
	s->context = a.context;
	s->seqno = a.seqno;
	s->tgid = bpf_get_current_pid_tgid() >> 32;
	barrier();
	*(volatile __u64 *)&s->fence = a.key;	/* filled: readers may use it */
	return 0;
}

static __always_inline int on_signaled(struct dma_fence *fence, __u64 key, int error)
{
	struct fl_live *s = live_find(key);
	__u64 ts, context;

	if (!s) {
		count(FL_UNKNOWN_SIGNAL);
		return 0;
	}
	ts = s->ts;
	context = s->context;
	barrier();
	/* Signalled: keep nothing, so destroy can tell signalled from not. */
	if (!live_take(s, key)) {	/* taken meanwhile (a racing destroy) */
		count(FL_UNKNOWN_SIGNAL);
		return 0;
	}
	hist_add_ctx(context, FL_SIGNAL, 0, bpf_ktime_get_ns() - ts, error);
	return 0;
}

static __always_inline int on_destroy(__u64 key)
{
	struct fl_live *s = live_find(key);

	if (s && live_take(s, key))
		count(FL_DESTROYED_UNSIGNALED);
	return 0;
}

static __always_inline int on_wait_start(struct dma_fence *fence)
{
	struct wait_key key = { .pid_tgid = bpf_get_current_pid_tgid(), .fence = (__u64)fence };
	__u64 ts = bpf_ktime_get_ns();

	if (!targ_waits)
		return 0;
	fence_name_once(fence, BPF_CORE_READ(fence, context));	/* it may predate the tool */
	if (bpf_map_update_elem(&waits, &key, &ts, BPF_ANY))
		count(FL_DROP_WAIT);
	return 0;
}

static __always_inline int on_wait_end(struct dma_fence *fence)
{
	struct wait_key key = { .pid_tgid = bpf_get_current_pid_tgid(), .fence = (__u64)fence };
	__u64 *start, ns, context;

	if (!targ_waits)
		return 0;
	start = bpf_map_lookup_elem(&waits, &key);
	if (!start)
		return 0;
	ns = bpf_ktime_get_ns() - *start;
	bpf_map_delete_elem(&waits, &key);
	context = BPF_CORE_READ(fence, context);
	hist_add_ctx(context, FL_WAIT_CONTEXT, 0, ns, 0);
	if (targ_per_task)
		hist_add_ctx(key.pid_tgid >> 32, FL_WAIT_TASK, context, ns, 0);
	return 0;
}

SEC("tp_btf/dma_fence_init")
int BPF_PROG(tp_btf_init, struct dma_fence *fence) { return on_init(BTF_ARGS(fence)); }
SEC("tp_btf/dma_fence_signaled")
int BPF_PROG(tp_btf_signaled, struct dma_fence *fence) { return on_signaled(fence, BTF_KEY(fence), fence->error); }
SEC("tp_btf/dma_fence_destroy")
int BPF_PROG(tp_btf_destroy, struct dma_fence *fence) { return on_destroy(BTF_KEY(fence)); }
SEC("tp_btf/dma_fence_wait_start")
int BPF_PROG(tp_btf_wait_start, struct dma_fence *fence) { return on_wait_start(fence); }
SEC("tp_btf/dma_fence_wait_end")
int BPF_PROG(tp_btf_wait_end, struct dma_fence *fence) { return on_wait_end(fence); }

SEC("raw_tp/dma_fence_init")
int BPF_PROG(raw_tp_init, struct dma_fence *fence) { return on_init(RAW_ARGS(fence)); }
SEC("raw_tp/dma_fence_signaled")
int BPF_PROG(raw_tp_signaled, struct dma_fence *fence) { return on_signaled(fence, RAW_KEY(fence), BPF_CORE_READ(fence, error)); }
SEC("raw_tp/dma_fence_destroy")
int BPF_PROG(raw_tp_destroy, struct dma_fence *fence) { return on_destroy(RAW_KEY(fence)); }
SEC("raw_tp/dma_fence_wait_start")
int BPF_PROG(raw_tp_wait_start, struct dma_fence *fence) { return on_wait_start(fence); }
SEC("raw_tp/dma_fence_wait_end")
int BPF_PROG(raw_tp_wait_end, struct dma_fence *fence) { return on_wait_end(fence); }

/*
 * The fence-trace series' tracepoints: skipped (not loaded) on kernels
 * without them.  An out-fence is signalled with its vblank's timestamp,
 * so the distance that matters is how long after that vblank the signal
 * really ran; and the series says which plane waited how long.
 */
static __always_inline int on_out_signal(const struct drm_pending_vblank_event *e, ktime_t time)
{
	__u64 now = bpf_ktime_get_ns();

	hist_add(BPF_CORE_READ(e, pipe), FL_OUT_VBLANK, now > (__u64)time ? now - (__u64)time : 0, 0);
	return 0;
}

static __always_inline int on_plane_wait_begin(const struct drm_plane_state *ps)
{
	__u64 key = (__u64)ps, now = bpf_ktime_get_ns();

	if (targ_waits)
		bpf_map_update_elem(&plane_waits, &key, &now, BPF_ANY);
	return 0;
}

/* Only the first two arguments: the same on every version of the series. */
static __always_inline int on_plane_wait(const struct drm_plane_state *ps)
{
	__u64 key = (__u64)ps, now = bpf_ktime_get_ns();
	__u64 *begin;

	if (!targ_waits)
		return 0;
	begin = bpf_map_lookup_elem(&plane_waits, &key);
	if (!begin)
		return 0;	/* begun before the tool: its duration unknown */
	if (now > *begin)
		hist_add(BPF_CORE_READ(ps, plane, base.id), FL_PLANE_WAIT, now - *begin, 0);
	bpf_map_delete_elem(&plane_waits, &key);
	return 0;
}

SEC("tp_btf/drm_fence_out_signal")
int BPF_PROG(tp_btf_out_signal, struct drm_device *dev, const struct drm_pending_vblank_event *e,
	     u64 seq, ktime_t time) { return on_out_signal(e, time); }
SEC("raw_tp/drm_fence_out_signal")
int BPF_PROG(raw_tp_out_signal, struct drm_device *dev, const struct drm_pending_vblank_event *e,
	     u64 seq, ktime_t time) { return on_out_signal(e, time); }
SEC("tp_btf/drm_fence_wait_begin")
int BPF_PROG(tp_btf_plane_wait_begin, const struct drm_atomic_state *state,
	     const struct drm_plane_state *ps) { return on_plane_wait_begin(ps); }
SEC("raw_tp/drm_fence_wait_begin")
int BPF_PROG(raw_tp_plane_wait_begin, const struct drm_atomic_state *state,
	     const struct drm_plane_state *ps) { return on_plane_wait_begin(ps); }
SEC("tp_btf/drm_fence_wait_end")
int BPF_PROG(tp_btf_plane_wait, const struct drm_atomic_state *state,
	     const struct drm_plane_state *ps) { return on_plane_wait(ps); }
SEC("raw_tp/drm_fence_wait_end")
int BPF_PROG(raw_tp_plane_wait, const struct drm_atomic_state *state,
	     const struct drm_plane_state *ps) { return on_plane_wait(ps); }
