/* SPDX-License-Identifier: GPL-2.0 */
/*
 * attach-check.h - does every program a BPF tool would load here load and
 * attach, in the flavour the tool would pick?  What `fence-trace check`
 * promises for latency, stall and record --bpf, tried rather than guessed
 * from one probe program.
 */
#ifndef FENCE_TRACE_ATTACH_CHECK_H
#define FENCE_TRACE_ATTACH_CHECK_H

enum attach_tool { ATTACH_LATENCY, ATTACH_STALL, ATTACH_RECORD };

struct attach_report {
	int tp_btf;			/* the flavour tried: tp_btf, else raw_tp */
	int err;			/* the load's or attach's negative errno, or 0 */
	unsigned int attached, wanted;	/* programs linked, of those picked */
	char skipped[512];		/* tracepoints the kernel lacks: not tried */
};

void attach_check(enum attach_tool tool, struct attach_report *r);

#endif
