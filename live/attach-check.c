// SPDX-License-Identifier: GPL-2.0
/*
 * attach-check.c - load and attach a BPF tool's programs for a moment, as
 * the tool itself would pick them, and count what attached (see
 * attach-check.h).  A probe program on dma_fence_init alone said record
 * --bpf "can work" on a kernel where its vblank programs could not attach.
 */
#include <string.h>

#include <bpf/libbpf.h>

#include "attach-check.h"
#include "bpf-flavour.h"
#include "fence-latency.h"	/* before the skeletons: their .bss use these types */
#include "fence-latency.skel.h"
#include "fence-record.skel.h"
#include "fence-stall.h"
#include "fence-stall.skel.h"

/*
 * Load and attach @s's programs as picked and count what linked: the part
 * every tool's check shares (libbpf's generic skeleton calls).
 */
static void load_and_count(struct bpf_object_skeleton *s, struct attach_report *r)
{
	r->err = bpf_object__load_skeleton(s);
	if (!r->err)
		r->err = bpf_object__attach_skeleton(s);
	for (int i = 0; i < s->prog_cnt; i++) {
		if (!bpf_program__autoload(*s->progs[i].prog))
			continue;
		r->wanted++;
		if (*s->progs[i].link)
			r->attached++;
	}
}

static void check_latency(struct attach_report *r)
{
	struct fence_latency_bpf *skel = fence_latency_bpf__open();

	if (!skel) {
		r->err = -1;
		return;
	}
	r->tp_btf = bpf_tp_btf_usable("dma_fence_init");
	bpf_pick_flavour(skel->obj, r->tp_btf, r->skipped, sizeof(r->skipped));
	load_and_count(skel->skeleton, r);
	fence_latency_bpf__destroy(skel);
}

static void check_stall(struct attach_report *r)
{
	struct fence_stall_bpf *skel = fence_stall_bpf__open();

	if (!skel) {
		r->err = -1;
		return;
	}
	r->tp_btf = bpf_tp_btf_usable("dma_fence_wait_start");
	bpf_pick_flavour(skel->obj, r->tp_btf, r->skipped, sizeof(r->skipped));
	load_and_count(skel->skeleton, r);
	fence_stall_bpf__destroy(skel);
}

static void check_record(struct attach_report *r)
{
	struct fence_record_bpf *skel = fence_record_bpf__open();

	if (!skel) {
		r->err = -1;
		return;
	}
	r->tp_btf = bpf_tp_btf_usable("dma_fence_init");
	bpf_pick_flavour(skel->obj, r->tp_btf, r->skipped, sizeof(r->skipped));
	load_and_count(skel->skeleton, r);
	fence_record_bpf__destroy(skel);
}

/**
 * attach_check() - load and attach @tool's programs, then detach them
 * @r: what attached; r->err the load's or attach's error (-EPERM: not root)
 */
void attach_check(enum attach_tool tool, struct attach_report *r)
{
	memset(r, 0, sizeof(*r));
	libbpf_set_print(NULL);
	if (tool == ATTACH_LATENCY)
		check_latency(r);
	else if (tool == ATTACH_STALL)
		check_stall(r);
	else
		check_record(r);
}
