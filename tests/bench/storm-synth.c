// SPDX-License-Identifier: GPL-2.0
/*
 * storm-synth.c - a trace.dat shaped like a fence-storm recording (two
 * CPUs, one sw_sync timeline each, every fence created, signalled and
 * destroyed in turn), of any size: for measuring report's per-event cost
 * at sizes a TCG guest would take hours to record.
 *
 *   storm-synth EVENTS FILE
 */
#include <stdio.h>
#include <stdlib.h>

#include "parse-num.h"
#include "fixture-formats.h"
#include "trace-builder.h"

int main(int argc, char **argv)
{
	static const char *const events[] = {
		"dma_fence_init", "dma_fence_signaled", "dma_fence_destroy",
	};
	unsigned int n;
	struct trace_builder *tb;
	uint64_t ts[2] = { 1000000, 1000500 };

	if (argc != 3 || parse_uint(argv[1], 2000000000u, &n)) {
		fprintf(stderr, "usage: storm-synth EVENTS FILE (run from the repo root)\n");
		return 2;
	}
	tb = tb_new(2, TB_FIXTURES);
	if (!tb) {
		fprintf(stderr, "storm-synth: cannot read %s\n", TB_FIXTURES);
		return 1;
	}
	tb_set_options(tb, "local global [mono]", "Linux synthetic", "100 fence-storm\n101 fence-storm\n");
	for (unsigned int i = 0; i < n; i++) {
		unsigned int cpu = (i / 3) % 2, fence = i / 6;

		ts[cpu] += 2000 + (i % 3) * 1500;	/* ~5 us a fence, as in the guest */
		tb_set_pid(tb, 100 + (int)cpu);
		if (tb_fence(tb, cpu, ts[cpu], events[i % 3], "sw_sync", "fence-storm", 8 + cpu, fence + 1)) {
			fprintf(stderr, "storm-synth: %s\n", tb_error(tb));
			return 1;
		}
	}
	if (tb_write(tb, argv[2])) {
		fprintf(stderr, "storm-synth: %s\n", tb_error(tb));
		return 1;
	}
	tb_free(tb);
	return 0;
}
