// SPDX-License-Identifier: GPL-2.0
/*
 * merge-synth.c - a trace.dat shaped like a compositor that merges a fence
 * per frame: two sw_sync timelines (one per CPU) make a fence a frame, and
 * every frame SYNC_IOC_MERGE puts both into a dma_fence_array with a fresh
 * context and seqno 1, which signals with the later of the two and is then
 * destroyed.  MERGES frames make MERGES one-fence contexts: what the
 * timelines table and the model's memory must stay readable and bounded
 * under.  --waits: the compositor also waits on each merged fence
 * (dma_fence_wait_start/end, from the merge to its signal), so that as
 * many contexts are waited on as merged: what the per-timeline wait
 * statistics must keep up with.
 *
 *   merge-synth [--waits] MERGES FILE
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parse-num.h"
#include "fixture-formats.h"
#include "trace-builder.h"

#define FIRST_MERGE_CONTEXT 1000	/* sw_sync took 8 and 9 */

struct frame_event {
	unsigned int cpu;
	const char *event, *driver, *timeline;
	uint64_t context, seqno;
	uint64_t at;			/* ns after the frame began */
	int wait;			/* with --waits only */
};

static int one_frame(struct trace_builder *tb, unsigned int f, uint64_t t0, int waits)
{
	uint64_t merge = FIRST_MERGE_CONTEXT + f, late = 40000 + (f % 50) * 1000;
	const struct frame_event evs[] = {
		{ 0, "dma_fence_init", "sw_sync", "compositor", 8, f + 1, 0, 0 },
		{ 1, "dma_fence_init", "sw_sync", "compositor", 9, f + 1, 1000, 0 },
		{ 0, "dma_fence_init", "dma_fence_array", "unbound", merge, 1, 2000, 0 },
		{ 0, "dma_fence_wait_start", "dma_fence_array", "unbound", merge, 1, 3000, 1 },
		{ 0, "dma_fence_signaled", "sw_sync", "compositor", 8, f + 1, 30000, 0 },
		{ 1, "dma_fence_signaled", "sw_sync", "compositor", 9, f + 1, late, 0 },
		{ 1, "dma_fence_signaled", "dma_fence_array", "unbound", merge, 1, late + 500, 0 },
		{ 0, "dma_fence_wait_end", "dma_fence_array", "unbound", merge, 1, late + 600, 1 },
		{ 1, "dma_fence_destroy", "dma_fence_array", "unbound", merge, 1, late + 900, 0 },
		{ 0, "dma_fence_destroy", "sw_sync", "compositor", 8, f + 1, late + 1000, 0 },
		{ 1, "dma_fence_destroy", "sw_sync", "compositor", 9, f + 1, late + 1100, 0 },
	};

	for (size_t i = 0; i < sizeof(evs) / sizeof(evs[0]); i++) {
		if (evs[i].wait && !waits)
			continue;
		tb_set_pid(tb, 100 + (int)evs[i].cpu);
		if (tb_fence(tb, evs[i].cpu, t0 + evs[i].at, evs[i].event, evs[i].driver,
			     evs[i].timeline, evs[i].context, evs[i].seqno))
			return -1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	unsigned int n;
	struct trace_builder *tb;
	int waits = argc > 1 && !strcmp(argv[1], "--waits");

	argc -= waits;
	argv += waits;
	if (argc != 3 || parse_uint(argv[1], 100000000u, &n)) {
		fprintf(stderr, "usage: merge-synth [--waits] MERGES FILE (run from the repo root)\n");
		return 2;
	}
	tb = tb_new(2, TB_FIXTURES);
	if (!tb) {
		fprintf(stderr, "merge-synth: cannot read %s\n", TB_FIXTURES);
		return 1;
	}
	tb_set_options(tb, "local global [mono]", "Linux synthetic", "100 compositor\n101 compositor\n");
	for (unsigned int f = 0; f < n; f++)
		if (one_frame(tb, f, 1000000 + (uint64_t)f * 16666667, waits)) {
			fprintf(stderr, "merge-synth: %s\n", tb_error(tb));
			return 1;
		}
	if (tb_write(tb, argv[2])) {
		fprintf(stderr, "merge-synth: %s\n", tb_error(tb));
		return 1;
	}
	tb_free(tb);
	return 0;
}
