/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fence-ops.h - kinds of fence told apart by their ops (fence-ops.bpf.h),
 * for the BPF programs and their user space alike.
 */
#ifndef FENCE_TRACE_FENCE_OPS_H
#define FENCE_TRACE_FENCE_OPS_H

/*
 * Kinds whose driver and timeline names are fixed (what their ops return
 * in 6.1), so user space names their contexts without the names stream:
 * merged fences make a new context each, with one fence, and so does vgem
 * (the fences Mesa-style tests and the lab's distro workload attach to a
 * buffer), as real drivers' per-job fences do.
 */
enum fence_ops {
	FENCE_OPS_OTHER, FENCE_OPS_ARRAY, FENCE_OPS_CHAIN, FENCE_OPS_VGEM,
};

/* The driver and timeline names of a kind that has fixed ones, else NULL. */
static inline const char *fence_ops_driver(unsigned int kind)
{
	switch (kind) {
	case FENCE_OPS_ARRAY: return "dma_fence_array";
	case FENCE_OPS_CHAIN: return "dma_fence_chain";
	case FENCE_OPS_VGEM: return "vgem";
	default: return 0;
	}
}

static inline const char *fence_ops_timeline(unsigned int kind)
{
	return kind == FENCE_OPS_OTHER ? 0 : "unbound";
}

#endif
