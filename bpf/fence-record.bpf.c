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

static __always_inline int emit(__u16 type, __u64 a, __u64 b, __u64 c)
{
	struct fr_event *e = bpf_ringbuf_reserve(&events, sizeof(*e), 0);
	__u32 zero = 0;
	__u64 *d;

	if (!e) {
		d = bpf_map_lookup_elem(&dropped, &zero);
		if (d)
			(*d)++;
		return 0;
	}
	e->ts = bpf_ktime_get_ns();
	e->a = a;
	e->b = b;
	e->c = c;
	e->pid = (__u32)bpf_get_current_pid_tgid();
	e->cpu = (__u16)bpf_get_smp_processor_id();
	e->type = type;
	/*
	 * No wake-up per record: user space drains the ring every 50 ms with
	 * ring_buffer__consume() (which, unlike __poll(), needs no wake-up).
	 */
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
	n->hdr.ts = bpf_ktime_get_ns();
	n->hdr.a = ctx;
	n->hdr.b = n->hdr.c = 0;
	n->hdr.pid = (__u32)bpf_get_current_pid_tgid();
	n->hdr.cpu = (__u16)bpf_get_smp_processor_id();
	n->hdr.type = FR_NAME;
	bpf_ringbuf_submit(n, BPF_RB_NO_WAKEUP);
	*slot = ctx + 1;
}

/* dma_fence_init that also names each new context (the series' kfunc). */
SEC("tp_btf/dma_fence_init")
int BPF_PROG(tp_btf_init_named, struct dma_fence *f)
{
	name_context(f);
	return emit(FR_INIT, f->context, f->seqno, 0);
}

/*
 * tp_btf types the fence, so its fields are plain loads; raw_tp's is a
 * number, read through bpf_probe_read_kernel(), a helper call per field.
 */
#define FENCE_HOOK(name, type)							\
	SEC("tp_btf/dma_fence_" #name)						\
	int BPF_PROG(tp_btf_##name, struct dma_fence *f)			\
	{ return emit(type, f->context, f->seqno, 0); }				\
	SEC("raw_tp/dma_fence_" #name)						\
	int BPF_PROG(raw_tp_##name, struct dma_fence *f)			\
	{ return emit(type, BPF_CORE_READ(f, context), BPF_CORE_READ(f, seqno), 0); }

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
	return emit(FR_VBLANK, (__u64)crtc, seq, (__u64)time);
}
SEC("raw_tp/drm_vblank_event")
int BPF_PROG(raw_tp_vblank, int crtc, unsigned int seq, ktime_t time)
{
	return emit(FR_VBLANK, (__u64)crtc, seq, (__u64)time);
}

SEC("tp_btf/drm_vblank_event_delivered")
int BPF_PROG(tp_btf_delivered, struct drm_file *file, int crtc, unsigned int seq)
{
	return emit(FR_VBLANK_DELIVERED, (__u64)crtc, seq, (__u64)file);
}
SEC("raw_tp/drm_vblank_event_delivered")
int BPF_PROG(raw_tp_delivered, struct drm_file *file, int crtc, unsigned int seq)
{
	return emit(FR_VBLANK_DELIVERED, (__u64)crtc, seq, (__u64)file);
}
