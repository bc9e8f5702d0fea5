/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fence-ops.h - kinds of fence told apart by their ops (fence-ops.bpf.h),
 * and the names record the BPF programs send for each fence context they
 * see (fence-names.bpf.h), for the programs and their user space alike.
 */
#ifndef FENCE_TRACE_FENCE_OPS_H
#define FENCE_TRACE_FENCE_OPS_H

/*
 * The kinds whose names the BPF side reads from the fence itself, as their
 * ops' get_driver_name/get_timeline_name do in 6.1: merged fences, vgem
 * and virtio-gpu (fixed names; merges and vgem make a context per fence,
 * as real drivers' per-job fences do), sw_sync (its timeline's name) and
 * CRTC out-fences (the CRTC's timeline name, its device's driver).  Any
 * other kind is named by the tracefs stream (fence-names.c).
 */
enum fence_ops {
	FENCE_OPS_OTHER, FENCE_OPS_ARRAY, FENCE_OPS_CHAIN, FENCE_OPS_VGEM,
	FENCE_OPS_VIRTIO_GPU, FENCE_OPS_SW_SYNC, FENCE_OPS_CRTC,
};

/*
 * A context's names, sent once per context a program sees.  Kind
 * FENCE_OPS_OTHER (a kind the BPF side cannot read, or a read that
 * failed): unnamed here, for the tracefs stream to name.
 */
struct fence_name_rec {
	__u64 context;
	__u32 kind;			/* enum fence_ops */
	__u32 pad;
	char driver[32], timeline[32];	/* NUL-terminated, as struct fence_name holds them */
};

/* The driver name of a kind whose driver name is fixed, else NULL. */
static inline const char *fence_ops_driver(unsigned int kind)
{
	switch (kind) {
	case FENCE_OPS_ARRAY: return "dma_fence_array";
	case FENCE_OPS_CHAIN: return "dma_fence_chain";
	case FENCE_OPS_VGEM: return "vgem";
	case FENCE_OPS_VIRTIO_GPU: return "virtio_gpu";
	case FENCE_OPS_SW_SYNC: return "sw_sync";
	default: return 0;
	}
}

/* The timeline name of a kind whose timeline name is fixed, else NULL. */
static inline const char *fence_ops_timeline(unsigned int kind)
{
	switch (kind) {
	case FENCE_OPS_ARRAY: case FENCE_OPS_CHAIN: case FENCE_OPS_VGEM: return "unbound";
	case FENCE_OPS_VIRTIO_GPU: return "controlq";
	default: return 0;
	}
}

#endif
