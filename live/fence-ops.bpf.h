/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fence-ops.bpf.h - a fence's kind (enum fence_ops) from its ops pointer,
 * and its names read from the fence itself for the kinds that allow it,
 * for the BPF programs.  BPF cannot call the ops' name callbacks; these
 * read what the 6.1 callbacks return.  The ops are untyped weak ksyms
 * (static in their drivers, so found in kallsyms, modules' too): a kernel
 * without one of them only never sees that kind.
 */
#ifndef FENCE_TRACE_FENCE_OPS_BPF_H
#define FENCE_TRACE_FENCE_OPS_BPF_H

#include "fence-ops.h"

extern const void dma_fence_array_ops __ksym __weak;
extern const void dma_fence_chain_ops __ksym __weak;
extern const void vgem_fence_ops __ksym __weak;
extern const void virtio_gpu_fence_ops __ksym __weak;
extern const void timeline_fence_ops __ksym __weak;	/* sw_sync's */
extern const void drm_crtc_fence_ops __ksym __weak;

static __always_inline enum fence_ops fence_ops_of(const void *ops)
{
	if (&dma_fence_array_ops && ops == &dma_fence_array_ops)
		return FENCE_OPS_ARRAY;
	if (&dma_fence_chain_ops && ops == &dma_fence_chain_ops)
		return FENCE_OPS_CHAIN;
	if (&vgem_fence_ops && ops == &vgem_fence_ops)
		return FENCE_OPS_VGEM;
	if (&virtio_gpu_fence_ops && ops == &virtio_gpu_fence_ops)
		return FENCE_OPS_VIRTIO_GPU;
	/* sw_sync built without BTF (an out-of-tree module): its timeline is unreadable */
	if (&timeline_fence_ops && ops == &timeline_fence_ops && bpf_core_type_exists(struct sync_timeline))
		return FENCE_OPS_SW_SYNC;
	/* drm as a module built without BTF: no struct drm_crtc to read through */
	if (&drm_crtc_fence_ops && ops == &drm_crtc_fence_ops && bpf_core_type_exists(struct drm_crtc))
		return FENCE_OPS_CRTC;
	return FENCE_OPS_OTHER;
}

static __always_inline enum fence_ops fence_ops_kind(struct dma_fence *f)
{
	return fence_ops_of(BPF_CORE_READ(f, ops));
}

/*
 * The variable names of @f, of kind @kind, into @driver and @timeline
 * (32 bytes each); the fixed ones come from fence_ops_driver() and
 * fence_ops_timeline() in user space.  Both kinds keep their timeline
 * around the fence's lock: container_of(fence->lock, ...), as the ops do.
 * The type checks repeat fence_ops_of()'s because the verifier cannot tell
 * @kind's value: they make each read dead code on a kernel without the type,
 * whose CO-RE relocations libbpf has then poisoned.
 * Return: 0, or negative when a read failed.
 */
static __always_inline int fence_names_read(struct dma_fence *f, enum fence_ops kind,
					    char *driver, char *timeline)
{
	char *lock = (char *)BPF_CORE_READ(f, lock);

	if (kind == FENCE_OPS_SW_SYNC && bpf_core_type_exists(struct sync_timeline)) {
		struct sync_timeline *tl = (void *)(lock - bpf_core_field_offset(struct sync_timeline, lock));

		return bpf_probe_read_kernel_str(timeline, 32, &tl->name) < 0 ? -1 : 0;
	}
	if (kind == FENCE_OPS_CRTC && bpf_core_type_exists(struct drm_crtc)) {
		struct drm_crtc *crtc = (void *)(lock - bpf_core_field_offset(struct drm_crtc, fence_lock));
		const char *name = BPF_CORE_READ(crtc, dev, driver, name);

		if (bpf_probe_read_kernel_str(driver, 32, name) < 0)
			return -1;
		return bpf_probe_read_kernel_str(timeline, 32, &crtc->timeline_name) < 0 ? -1 : 0;
	}
	return 0;
}

#endif
