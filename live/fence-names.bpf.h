/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fence-names.bpf.h - the names of each fence context a program sees, read
 * from the fence the moment it is seen (fence-ops.bpf.h) and sent once per
 * context through the ring buffer fence_names, which user space hands to
 * names_attach() (fence-names.c).  A context of a kind that cannot be read
 * is sent too, unnamed, so user space asks the tracefs stream for it.
 *
 * Include it once per BPF object, after vmlinux.h and the libbpf headers.
 */
#ifndef FENCE_TRACE_FENCE_NAMES_BPF_H
#define FENCE_TRACE_FENCE_NAMES_BPF_H

#include "fence-ops.bpf.h"

/* Room for 11,000 contexts between two reads (every 100 ms or less) */
struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 1024 * 1024);
} fence_names SEC(".maps");

/* Set before load: name nothing here, as if no kind were known (what the names cost without the readers) */
const volatile bool fn_stream_only = false;

/*
 * The contexts sent so far, direct-mapped by their low bits: a context
 * found in its slot costs a load and a compare.  Contexts are handed out
 * in sequence, so slots are shared only past FN_SLOTS contexts at once;
 * one pushed out is sent again, a harmless repeat.
 */
#define FN_SLOTS 4096
__u64 fn_sent[FN_SLOTS];
__u64 fn_lost;			/* names records the full ring had no room for */

/* Send @f's names unless its context was sent already. */
static __always_inline void fence_name_once(struct dma_fence *f, __u64 context)
{
	__u64 *slot = &fn_sent[context & (FN_SLOTS - 1)];
	struct fence_name_rec *n;

	/* context + 1: context 0 is a real one, and .bss starts zeroed */
	if (*slot == context + 1)
		return;
	n = bpf_ringbuf_reserve(&fence_names, sizeof(*n), 0);
	if (!n) {
		__sync_fetch_and_add(&fn_lost, 1);	/* unmarked: sent again next time */
		return;
	}
	n->context = context;
	n->kind = fn_stream_only ? FENCE_OPS_OTHER : fence_ops_kind(f);
	n->pad = 0;
	n->driver[0] = n->timeline[0] = '\0';
	if (fence_names_read(f, n->kind, n->driver, n->timeline))
		n->kind = FENCE_OPS_OTHER;
	bpf_ringbuf_submit(n, BPF_RB_NO_WAKEUP);
	*slot = context + 1;
}

#endif
