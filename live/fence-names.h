/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fence-names.h - driver and timeline names of fence contexts, for the BPF
 * tools: BPF cannot call a fence's get_driver_name/get_timeline_name, so a
 * private tracefs instance records dma_fence_init with a filter that drops
 * every context already named: a low-rate stream of first fences.
 *
 * On demand (names_start_on_demand(), for `fence-trace latency`), the
 * event is on only while the tool has asked for a context's name
 * (names_want()) that no fence has yet given, filtered to those contexts:
 * a tracefs event costs every fence init even when its filter drops it,
 * and under TCG that was most of what `latency` cost.  The price: a
 * context is named by its next fence after the tool asked, and one that
 * makes no more fences within NAMES_PATIENCE_NS stays unnamed, and says
 * so (and is asked for again after NAMES_RETRY_S).  A kind of fence whose
 * names are fixed is named with names_set().
 */
#ifndef FENCE_TRACE_FENCE_NAMES_H
#define FENCE_TRACE_FENCE_NAMES_H

#include <stdint.h>

#include "keymap.h"

#define NAMES_MAX 4096
#define NAMES_FILTER_MAX 48	/* contexts in the filter at most */
#define NAMES_PATIENCE_NS 3000000000ull	/* on demand: wait this long for a fence */
#define NAMES_GIVEN_UP 1024
#define NAMES_RETRY_S 30		/* on demand: ask again for a name given up this long ago */

struct live_reader;

struct fence_name {
	uint64_t context;
	char driver[32], timeline[32];
};

struct wanted_name {
	uint64_t context, since_ns;
};

struct fence_names {
	struct live_reader *live;	/* dma_fence_init, from tracefs (capture/live-reader.c) */
	struct fence_name names[NAMES_MAX];
	unsigned int n, filtered;
	uint64_t dropped;	/* inits of unnamed contexts once names[] was full */
	int changed;
	struct keymap index;		/* context -> names[] */
	int on_demand, enabled;
	/* on demand only */
	struct wanted_name wanted[NAMES_FILTER_MAX];
	unsigned int n_wanted;
	uint64_t given_up[NAMES_GIVEN_UP];	/* a ring: not asked for again */
	unsigned int n_given_up;
	struct keymap given_up_index;	/* context -> when given up, CLOCK_MONOTONIC s */
	char filter[2048];	/* the one the event has */
};

int names_start(struct fence_names *n);
int names_start_on_demand(struct fence_names *n);
int names_want(struct fence_names *n, uint64_t context);
void names_set(struct fence_names *n, uint64_t context, const char *driver, const char *timeline);
void names_poll(struct fence_names *n);
const struct fence_name *names_find(const struct fence_names *n, uint64_t context);
const char *names_unknown(const struct fence_names *n);
void names_stop(struct fence_names *n);

#endif
