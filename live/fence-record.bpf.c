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

#include "fence-names.bpf.h"
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

/* dma_fence_init also names each new context (fence-names.bpf.h). */
SEC("tp_btf/dma_fence_init")
int BPF_PROG(tp_btf_init, struct dma_fence *f)
{
	/* keyed as the events have it: the trace events' 32 bits */
	fence_name_once(f, (__u32)f->context);
	return emit_fence(FR_INIT, (__u32)f->context, (__u32)f->seqno);
}
SEC("raw_tp/dma_fence_init")
int BPF_PROG(raw_tp_init, struct dma_fence *f)
{
	__u64 context = BPF_CORE_READ(f, context);

	fence_name_once(f, (__u32)context);
	return emit_fence(FR_INIT, (__u32)context, (__u32)BPF_CORE_READ(f, seqno));
}

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
