/* SPDX-License-Identifier: GPL-2.0 */
/* latency.h - `fence-trace latency`: its context and its outputs. */
#ifndef FENCE_TRACE_LATENCY_H
#define FENCE_TRACE_LATENCY_H

#include <stdint.h>
#include <linux/types.h>

#include "fence-latency.h"
#include "fence-names.h"

struct fence_latency_bpf;

struct latency_ctx {
	long long context;		/* -C, or -1 */
	const char *timeline;		/* -T substring */
	int per_task, waits, ms, json, verbose, raw_tp;
	unsigned int interval, count;	/* 0: once, at Ctrl-C */
	struct fence_latency_bpf *skel;
	struct fence_names names;
	struct latency_task {		/* -P: a task's waits on the chosen contexts */
		uint64_t tgid;
		struct fl_hist h;
	} *tasks;			/* FL_MAX_HISTS */
	unsigned int n_tasks;
};

int latency_load(struct latency_ctx *c);
void latency_unload(struct latency_ctx *c);
void latency_want_names(struct latency_ctx *c);
unsigned int latency_live_copy(struct latency_ctx *c, struct fl_live *out, unsigned int max);
uint64_t latency_counter(struct latency_ctx *c, enum fl_counter which);
void latency_print_text(struct latency_ctx *c);
void latency_print_json(struct latency_ctx *c);
void latency_clear(struct latency_ctx *c);

#endif
