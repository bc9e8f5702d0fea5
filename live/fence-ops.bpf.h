/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fence-ops.bpf.h - a fence's kind (enum fence_ops) from its ops pointer,
 * for the BPF programs.  The ops are untyped weak ksyms: kernel BTF
 * describes no global variables but per-CPU ones, and a kernel without one
 * of them only never sees that kind.
 */
#ifndef FENCE_TRACE_FENCE_OPS_BPF_H
#define FENCE_TRACE_FENCE_OPS_BPF_H

#include "fence-ops.h"

extern const void dma_fence_array_ops __ksym __weak;
extern const void dma_fence_chain_ops __ksym __weak;
/* static in vgem (often a module): found in kallsyms when it is loaded */
extern const void vgem_fence_ops __ksym __weak;

static __always_inline enum fence_ops fence_ops_kind(struct dma_fence *f)
{
	const void *ops = BPF_CORE_READ(f, ops);

	if (&dma_fence_array_ops && ops == &dma_fence_array_ops)
		return FENCE_OPS_ARRAY;
	if (&dma_fence_chain_ops && ops == &dma_fence_chain_ops)
		return FENCE_OPS_CHAIN;
	if (&vgem_fence_ops && ops == &vgem_fence_ops)
		return FENCE_OPS_VGEM;
	return FENCE_OPS_OTHER;
}

#endif
