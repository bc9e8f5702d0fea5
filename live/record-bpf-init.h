/* SPDX-License-Identifier: GPL-2.0 */
/*
 * record-bpf-init.h - which of fence-record.bpf.c's two tp_btf
 * dma_fence_init programs to load: the one that also names each new fence
 * context through the series' kfunc bpf_dma_fence_get_names(), where the
 * kernel has it, or the plain one (then names need the tracefs stream).
 * For record --bpf and the ring-floor benchmark, which must load the same.
 */
#ifndef FENCE_TRACE_RECORD_BPF_INIT_H
#define FENCE_TRACE_RECORD_BPF_INIT_H

#include "bpf-flavour.h"
#include "fence-record.skel.h"

/*
 * After bpf_pick_flavour(), which leaves every tp_btf program off when
 * @tp_btf is 0 (raw_tp programs cannot call kfuncs anyway): of the two
 * tp_btf init programs, keep one.
 * Return: 1 when the kernel names contexts (no names stream needed).
 */
static inline int record_pick_init(struct fence_record_bpf *skel, int tp_btf, int want_kfunc)
{
	int named = tp_btf && want_kfunc && bpf_kfunc_in_btf(NAMES_KFUNC) == 1;

	if (tp_btf) {
		bpf_program__set_autoload(skel->progs.tp_btf_init, !named);
		bpf_program__set_autoload(skel->progs.tp_btf_init_named, named);
	}
	return named;
}

#endif
