// SPDX-License-Identifier: GPL-2.0
/*
 * fence-record.bpf.c - the stock fence and vblank events into a ring
 * buffer, for `fence-trace record --bpf`: the same events tracefs records,
 * without formatting two strings per fence event in the kernel.  A full
 * ring buffer drops the record and counts it.
 *
 * tp_btf hooks with raw_tp twins, as in fence-latency.bpf.c.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>

#include "fence-record.h"

char LICENSE[] SEC("license") = "GPL";

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 16 * 1024 * 1024);
} events SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64);
} dropped SEC(".maps");

/* A ring record of @size bytes, or NULL with the drop counted (ring full). */
static __always_inline void *reserve(__u64 size)
{
	void *e = bpf_ringbuf_reserve(&events, size, 0);
	__u32 zero = 0;
	__u64 *d;

	if (!e) {
		d = bpf_map_lookup_elem(&dropped, &zero);
		if (d)
			(*d)++;
	}
	return e;
}

static __always_inline void fill(struct fr_event *e, __u16 type)
{
	e->ts = bpf_ktime_get_ns();
	e->pid = (__u32)bpf_get_current_pid_tgid();
	e->cpu = (__u16)bpf_get_smp_processor_id();
	e->type = type;
}

/*
 * No wake-up per record: user space drains the ring every 50 ms with
 * ring_buffer__consume() (which, unlike __poll(), needs no wake-up).
 */
static __always_inline int emit_fence(__u16 type, __u32 context, __u32 seqno)
{
	struct fr_fence *e = reserve(sizeof(*e));

	if (!e)
		return 0;
	fill(&e->hdr, type);
	e->context = context;
	e->seqno = seqno;
	bpf_ringbuf_submit(e, BPF_RB_NO_WAKEUP);
	return 0;
}

static __always_inline int emit_vblank(__u16 type, int crtc, __u32 seq, __u64 time_or_file)
{
	struct fr_vblank *e = reserve(sizeof(*e));

	if (!e)
		return 0;
	fill(&e->hdr, type);
	e->crtc = crtc;
	e->seq = seq;
	e->time_or_file = time_or_file;
	bpf_ringbuf_submit(e, BPF_RB_NO_WAKEUP);
	return 0;
}

/*
 * The series' kfunc (kernel/patches/0011): the fence's names, which a BPF
 * program cannot get through the fence's ops.  Weak: the programs that call
 * it are loaded only where the kernel's BTF has it.
 */
extern int bpf_dma_fence_get_names(struct dma_fence *fence, char *driver, __u32 driver__sz,
				   char *timeline, __u32 timeline__sz) __ksym __weak;

/*
 * The contexts named so far, direct-mapped by their low bits: a context
 * found in its slot costs a load and a compare per fence init.  Contexts
 * are handed out in sequence, so slots are shared only past NAMED_SLOTS
 * live contexts; one pushed out is named again, a harmless repeat.
 */
#define NAMED_SLOTS 4096
__u64 named[NAMED_SLOTS];
__u64 names_dropped;		/* name records the full ring had no room for */

static __always_inline void name_context(struct dma_fence *f)
{
	__u64 ctx = f->context;
	__u64 *slot = &named[ctx & (NAMED_SLOTS - 1)];
	char driver[32], timeline[32];
	struct fr_name *n;

	/* slot + 1: context 0 is a real one, and .bss starts zeroed */
	if (*slot == ctx + 1)
		return;
	n = bpf_ringbuf_reserve(&events, sizeof(*n), 0);
	if (!n) {
		/* not an event: apart from dropped; unmarked, so asked again */
		__sync_fetch_and_add(&names_dropped, 1);
		return;
	}
	/*
	 * Into the stack first: the verifier takes no kfunc call with two
	 * pointers into one ring buffer record.
	 */
	if (bpf_dma_fence_get_names(f, driver, sizeof(driver), timeline, sizeof(timeline))) {
		bpf_ringbuf_discard(n, BPF_RB_NO_WAKEUP);
		return;
	}
	__builtin_memcpy(n->driver, driver, sizeof(driver));
	__builtin_memcpy(n->timeline, timeline, sizeof(timeline));
	fill(&n->hdr, FR_NAME);
	n->context = ctx;
	bpf_ringbuf_submit(n, BPF_RB_NO_WAKEUP);
	*slot = ctx + 1;
}

/* dma_fence_init that also names each new context (the series' kfunc). */
SEC("tp_btf/dma_fence_init")
int BPF_PROG(tp_btf_init_named, struct dma_fence *f)
{
	name_context(f);
	return emit_fence(FR_INIT, (__u32)f->context, (__u32)f->seqno);
}

/*
 * tp_btf types the fence, so its fields are plain loads; raw_tp's is a
 * number, read through bpf_probe_read_kernel(), a helper call per field.
 */
#define FENCE_HOOK(name, type)							\
	SEC("tp_btf/dma_fence_" #name)						\
	int BPF_PROG(tp_btf_##name, struct dma_fence *f)			\
	{ return emit_fence(type, (__u32)f->context, (__u32)f->seqno); }	\
	SEC("raw_tp/dma_fence_" #name)						\
	int BPF_PROG(raw_tp_##name, struct dma_fence *f)			\
	{ return emit_fence(type, (__u32)BPF_CORE_READ(f, context), (__u32)BPF_CORE_READ(f, seqno)); }

FENCE_HOOK(init, FR_INIT)
FENCE_HOOK(emit, FR_EMIT)
FENCE_HOOK(enable_signal, FR_ENABLE_SIGNAL)
FENCE_HOOK(signaled, FR_SIGNALED)
FENCE_HOOK(wait_start, FR_WAIT_START)
FENCE_HOOK(wait_end, FR_WAIT_END)
FENCE_HOOK(destroy, FR_DESTROY)

SEC("tp_btf/drm_vblank_event")
int BPF_PROG(tp_btf_vblank, int crtc, unsigned int seq, ktime_t time)
{
	return emit_vblank(FR_VBLANK, crtc, seq, (__u64)time);
}
SEC("raw_tp/drm_vblank_event")
int BPF_PROG(raw_tp_vblank, int crtc, unsigned int seq, ktime_t time)
{
	return emit_vblank(FR_VBLANK, crtc, seq, (__u64)time);
}

SEC("tp_btf/drm_vblank_event_delivered")
int BPF_PROG(tp_btf_delivered, struct drm_file *file, int crtc, unsigned int seq)
{
	return emit_vblank(FR_VBLANK_DELIVERED, crtc, seq, (__u64)file);
}
SEC("raw_tp/drm_vblank_event_delivered")
int BPF_PROG(raw_tp_delivered, struct drm_file *file, int crtc, unsigned int seq)
{
	return emit_vblank(FR_VBLANK_DELIVERED, crtc, seq, (__u64)file);
}
