// SPDX-License-Identifier: GPL-2.0
/*
 * timeline-synth.c - a synthetic compositor trace for the timeline
 * benchmark: frames at 60 Hz on one vkms CRTC, two producer timelines
 * (A, B) whose fences the commit waits for, out-fences signalled at the
 * vblank in the kernel's order (delivered, signal, vblank), every 50th
 * frame slow by 40 ms (late).  About 15 events per frame.
 *
 *   timeline-synth [-n EVENTS] [-b NAME] [-s EVERY] FILE   (run from the repo root)
 *
 * -b names producer B's timeline (the escaping tests use a hostile name);
 * -s makes every EVERY-th frame the slow one instead of every 50th (the
 * diff tests compare late-frame rates).
 */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "synth-time.h"
#include "fixture-formats.h"
#include "trace-builder.h"
#include "vblank-land.h"

static const char *b_name = "producer-B";
static unsigned long slow_every = 50;

static int fence(struct trace_builder *tb, unsigned int cpu, uint64_t ts, const char *ev,
		 char who, uint32_t seqno)
{
	if (who == 'O')
		return tb_fence(tb, cpu, ts, ev, "vkms", "CRTC:51-crtc-0", 1, seqno);
	return tb_fence(tb, cpu, ts, ev, "sw_sync", who == 'A' ? "producer-A" : b_name,
			who == 'A' ? 6 : 7, seqno);
}

/* Frame @f: committed at the start of vblank period @v; lands on @v + 1 or later. */
static int frame(struct trace_builder *tb, uint32_t f, uint64_t *vbl_seq)
{
	uint64_t t = *vbl_seq * FRAME_NS + 1 * MS, slow = f % slow_every == slow_every - 1 ? 40 * MS : 2 * MS;
	uint64_t done = t + slow + 1 * MS, land;
	int err = 0;

	tb_set_pid(tb, 47);
	err |= fence(tb, 1, t, "dma_fence_init", 'A', f);
	err |= fence(tb, 1, t + 1000, "dma_fence_init", 'B', f);
	err |= fence(tb, 1, t + 2000, "dma_fence_init", 'O', f);
	err |= fence(tb, 1, t + 3000, "dma_fence_wait_start", 'A', f);
	err |= fence(tb, 1, t + 1 * MS, "dma_fence_signaled", 'A', f);
	err |= fence(tb, 1, t + 1 * MS + 1000, "dma_fence_wait_end", 'A', f);
	err |= fence(tb, 1, t + 1 * MS + 2000, "dma_fence_wait_start", 'B', f);
	err |= fence(tb, 1, done, "dma_fence_signaled", 'B', f);
	err |= fence(tb, 1, done + 1000, "dma_fence_wait_end", 'B', f);
	tb_set_pid(tb, 0);
	/* vblanks until the one after the commit finished */
	do {
		(*vbl_seq)++;
		land = *vbl_seq * FRAME_NS;
		err |= vblank_land(tb, &(struct vblank_land){ .t = land, .seq = (uint32_t)*vbl_seq,
							     .out_seqno = land > done ? f : 0 });
	} while (land <= done);
	err |= fence(tb, 0, land + 40000, "dma_fence_destroy", 'A', f);
	err |= fence(tb, 0, land + 41000, "dma_fence_destroy", 'B', f);
	err |= fence(tb, 0, land + 42000, "dma_fence_destroy", 'O', f);
	return err;
}

int main(int argc, char **argv)
{
	unsigned long events = 1000000, per_frame = 15;	/* about 15.1 events a frame */
	struct trace_builder *tb;
	uint64_t vbl = 100;
	int opt, ret = 1;

	while ((opt = getopt(argc, argv, "n:b:s:")) != -1) {
		if (opt == 'n')
			events = strtoul(optarg, NULL, 10);
		else if (opt == 'b')
			b_name = optarg;
		else if (opt == 's' && strtoul(optarg, NULL, 10) > 1)
			slow_every = strtoul(optarg, NULL, 10);
		else
			goto usage;
	}
	if (optind + 1 != argc)
		goto usage;
	tb = tb_new(2, TB_FIXTURES);
	if (!tb) {
		fprintf(stderr, "timeline-synth: cannot read %s (run from the repo root)\n", TB_FIXTURES);
		return 1;
	}
	for (uint32_t f = 1; f <= events / per_frame; f++)
		if (frame(tb, f, &vbl))
			goto out;
	ret = tb_write(tb, argv[optind]) ? 1 : 0;
out:
	if (ret)
		fprintf(stderr, "timeline-synth: %s\n", tb_error(tb));
	tb_free(tb);
	return ret;
usage:
	fprintf(stderr, "usage: timeline-synth [-n EVENTS] [-b NAME] [-s EVERY] FILE\n");
	return 2;
}
