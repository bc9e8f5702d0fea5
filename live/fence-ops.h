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
 * merged fences make a new context each, with one fence.
 */
enum fence_ops {
	FENCE_OPS_OTHER, FENCE_OPS_ARRAY, FENCE_OPS_CHAIN,
};

#endif
