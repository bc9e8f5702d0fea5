// SPDX-License-Identifier: GPL-2.0
/*
 * stall-tables.c - the two direct-mapped tables of fence-stall.bpf.c read
 * from user space: a slot answers only for the key it holds.
 */
#include <bpf/bpf.h>

#include "fence-stall.skel.h"
#include "stall.h"

/**
 * stall_last_signal() - the last signal on @context since the programs
 * attached, into @s
 *
 * Return: 0, or -1 when none is known (none yet, or its slot holds a
 * context 4096 apart that signalled since).
 */
int stall_last_signal(struct stall_ctx *c, uint64_t context, struct fs_signal *s)
{
	__u32 slot = (__u32)(context & (FS_SIGNAL_SLOTS - 1));

	if (bpf_map_lookup_elem(bpf_map__fd(c->skel->maps.last_signal), &slot, s))
		return -1;
	return s->context == context + 1 ? 0 : -1;
}

/**
 * stall_creator() - who created the fence at @fence, into @cr
 *
 * Return: 0, or -1 when unknown (created before the programs attached,
 * destroyed, or its slot taken by a newer fence: counted as a drop).
 */
int stall_creator(struct stall_ctx *c, uint64_t fence, struct fs_creator *cr)
{
	__u32 slot = fs_creator_slot(fence);

	if (!fence || bpf_map_lookup_elem(bpf_map__fd(c->skel->maps.creators), &slot, cr))
		return -1;
	return cr->fence == fence ? 0 : -1;
}
