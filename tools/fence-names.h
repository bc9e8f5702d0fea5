/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fence-names.h - driver and timeline names of fence contexts, for the BPF
 * tools: BPF cannot call a fence's get_driver_name/get_timeline_name, so a
 * private tracefs instance records dma_fence_init with a filter that drops
 * every context already named: a low-rate stream of first fences.
 */
#ifndef FENCE_TRACE_FENCE_NAMES_H
#define FENCE_TRACE_FENCE_NAMES_H

#include <stdint.h>

#define NAMES_MAX 4096
#define NAMES_FILTER_MAX 48	/* contexts excluded by the filter at most */

struct tracefs_instance;
struct tep_handle;

struct fence_name {
	uint64_t context;
	char driver[32], timeline[32];
};

struct fence_names {
	struct tracefs_instance *inst;
	struct tep_handle *tep;
	struct fence_name names[NAMES_MAX];
	unsigned int n, filtered;
	uint64_t dropped;	/* inits of unnamed contexts once names[] was full */
	int changed;
};

int names_start(struct fence_names *n);
void names_poll(struct fence_names *n);
const struct fence_name *names_find(const struct fence_names *n, uint64_t context);
const char *names_unknown(const struct fence_names *n);
void names_stop(struct fence_names *n);

#endif
