// SPDX-License-Identifier: GPL-2.0
/*
 * golden-stock.c - the golden inputs made of a stock 6.1 kernel's events
 * (dma_fence:*, drm_vblank_event, drm_vblank_event_delivered): what
 * trace-cmd captures on a kernel without the fence-trace series.
 */
#include "golden-traces.h"

static const struct gt_timeline gt_c = { "sw_sync", "producer-C", 7 };

/*
 * Producers A and B create their fences on CPUs 0 and 2 and signal them
 * on 1 and 3, the four CPUs' events interleaved in time (the reader
 * merges them); A's fences are emitted to the hardware (emit latency),
 * A's latency grows, B's shrinks; A's seqno 5 is destroyed
 * unsignalled and B's 8 is still pending at the end.  One event carries a
 * time extend it does not need (the kernel forces one now and then).
 */
void gt_cpus(struct gt *g)
{
	for (uint32_t s = 1; s <= 8; s++) {
		uint64_t t = 1000 * MS + s * 3 * MS;

		gt_pid(g, 40);
		gt_fence(g, s % 2 ? 0 : 2, t, "dma_fence_init", &gt_a, s);
		gt_fence(g, s % 2 ? 0 : 2, t + 50000 * s, "dma_fence_emit", &gt_a, s);
		gt_fence(g, s % 2 ? 2 : 0, t + 500000, "dma_fence_init", &gt_b, s);
		gt_pid(g, 0);
		if (s != 5)
			gt_fence(g, 1, t + 200000 * s, "dma_fence_signaled", &gt_a, s);
		if (s == 4)
			g->err = g->err ?: tb_force_extend(g->tb, 3);
		if (s != 8)
			gt_fence(g, 3, t + 2500000 - 200000 * s, "dma_fence_signaled", &gt_b, s);
	}
	gt_fence(g, 1, 1040 * MS, "dma_fence_destroy", &gt_a, 5);
	gt_fence(g, 3, 1041 * MS, "dma_fence_destroy", &gt_b, 1);
}

/* Seqnos across the 32-bit wrap (in order), then one that goes back. */
void gt_wrap(struct gt *g)
{
	static const struct gt_timeline w = { "sw_sync", "wrapping", 9 };
	static const uint32_t seqs[] = { 0xfffffffc, 0xfffffffd, 0xfffffffe, 0xffffffff,
					 0, 1, 2, 3, 0xfffffff0 };

	for (unsigned int i = 0; i < sizeof(seqs) / sizeof(seqs[0]); i++) {
		uint64_t t = (100 + 10 * i) * MS;

		gt_fence(g, 0, t, "dma_fence_init", &w, seqs[i]);
		gt_fence(g, 1, t + (i + 1) * 500000, "dma_fence_signaled", &w, seqs[i]);
	}
}

/*
 * Fence keys (context, seqno) that collide: stub fences are all (0, 0);
 * seqnos of 64 bits read as their low 32 (0x1_00000005 and 0x2_00000005
 * are both 5) while the first is live; merged arrays take a fresh context
 * each, seqno 1.
 */
void gt_collide(struct gt *g)
{
	static const struct gt_timeline stub = { "stub", "stub", 0 };
	static const struct gt_timeline gfx = { "amdgpu", "gfx_0.0.0", 9 };
	static const struct gt_timeline arr1 = { "dma_fence_array", "unbound", 100 };
	static const struct gt_timeline arr2 = { "dma_fence_array", "unbound", 101 };

	gt_fence(g, 0, 10 * MS, "dma_fence_init", &stub, 0);
	gt_fence(g, 0, 11 * MS, "dma_fence_init", &stub, 0);
	gt_fence(g, 0, 12 * MS, "dma_fence_signaled", &stub, 0);
	gt_fence(g, 1, 13 * MS, "dma_fence_init", &arr1, 1);
	gt_fence(g, 1, 14 * MS, "dma_fence_init", &arr2, 1);
	gt_fence(g, 1, 15 * MS, "dma_fence_signaled", &arr2, 1);
	gt_fence(g, 0, 21 * MS, "dma_fence_init", &gfx, (uint32_t)0x100000005ull);
	gt_fence(g, 0, 22 * MS, "dma_fence_init", &gfx, (uint32_t)0x200000005ull);
	gt_fence(g, 1, 30 * MS, "dma_fence_signaled", &gfx, 5);
	gt_fence(g, 1, 40 * MS, "dma_fence_signaled", &gfx, 5);
	gt_fence(g, 1, 41 * MS, "dma_fence_destroy", &gfx, 5);
	gt_fence(g, 0, 50 * MS, "dma_fence_init", &gfx, (uint32_t)0x300000005ull);
	gt_fence(g, 1, 51 * MS, "dma_fence_signaled", &gfx, 5);
}

/*
 * Vblanks and nothing else: pipe 0 at 60 Hz missing vblank 6, pipe 1 at
 * 50 Hz without a high-precision timestamp.
 */
void gt_nofence(struct gt *g)
{
	for (uint32_t s = 1; s <= 8; s++)
		if (s != 6)
			gt_land(g, s, 0);
	for (uint32_t s = 1; s <= 5; s++)
		g->err = g->err ?: tb_vblank(g->tb, 1, s * 20 * MS, 1, s, (int64_t)(s * 20 * MS), 0);
}

/*
 * Frame @f of the compositor (pid 47): committed 1 ms into vblank period
 * *@vbl, it waits for producer A's fence then B's (the producer, pid 40,
 * signals them after @a_ms and then @b_ms more); its out-fence signals at
 * the first vblank after B's fence.
 */
static void frame(struct gt *g, const struct gt_timeline *b, uint32_t f, uint64_t a_ms,
		  uint64_t b_ms, uint32_t *vbl)
{
	uint64_t t = *vbl * FRAME_NS + 1 * MS, a_done = t + a_ms * MS, b_done = a_done + b_ms * MS;

	gt_pid(g, 40);
	gt_fence(g, 1, t, "dma_fence_init", &gt_a, f);
	gt_fence(g, 1, t + 1000, "dma_fence_init", b, f);
	gt_pid(g, 47);
	gt_fence(g, 1, t + 2000, "dma_fence_init", &gt_out, f);
	gt_fence(g, 1, t + 3000, "dma_fence_wait_start", &gt_a, f);
	gt_pid(g, 40);
	gt_fence(g, 1, a_done, "dma_fence_signaled", &gt_a, f);
	gt_pid(g, 47);
	gt_fence(g, 1, a_done + 1000, "dma_fence_wait_end", &gt_a, f);
	gt_fence(g, 1, a_done + 2000, "dma_fence_wait_start", b, f);
	gt_pid(g, 40);
	gt_fence(g, 1, b_done, "dma_fence_signaled", b, f);
	gt_pid(g, 47);
	gt_fence(g, 1, b_done + 1000, "dma_fence_wait_end", b, f);
	for ((*vbl)++; *vbl * FRAME_NS + 20000 <= b_done + 1000; (*vbl)++)
		gt_land(g, *vbl, 0);
	gt_land(g, *vbl, f);
	gt_fence(g, 0, *vbl * FRAME_NS + 40000, "dma_fence_destroy", &gt_a, f);
	gt_fence(g, 0, *vbl * FRAME_NS + 41000, "dma_fence_destroy", b, f);
}

/* 24 frames; frame 5 waits 40 ms for B, frame 12 60 ms for A: both late. */
void gt_late(struct gt *g)
{
	uint32_t vbl = 100;

	gt_land(g, vbl, 0);
	for (uint32_t f = 1; f <= 24; f++)
		frame(g, &gt_b, f, f == 12 ? 60 : 1, f == 5 ? 40 : 2, &vbl);
}

/*
 * The same compositor run twice as long with producer B renamed C (a
 * timeline gone, one new for diff), every 4th frame slow on C and frame
 * 12 only 30 ms slow on A.
 */
void gt_late_worse(struct gt *g)
{
	uint32_t vbl = 100;

	gt_land(g, vbl, 0);
	for (uint32_t f = 1; f <= 48; f++)
		frame(g, &gt_c, f, f == 12 ? 30 : 1, f % 4 == 1 ? 40 : 3, &vbl);
}

/*
 * Six frames with events lost: 5 on CPU 1 while frame 3 waits (a page
 * that says how many), an unknown count on CPU 0 during frame 5 (a page
 * that does not), when its out-fence signal is among what was lost.  The
 * recorder's stats say CPU 1 took more events than the file holds (a
 * trace-cmd recorder that did not save them all): missing events.
 */
void gt_lost(struct gt *g)
{
	static const char *const stats[] = {
		"CPU: 0\nentries: 0\noverrun: 0\nread events: 20\n",
		"CPU: 1\nentries: 3\noverrun: 0\nread events: 200\n",
	};
	uint32_t vbl = 100;

	tb_set_cpu_stats(g->tb, stats);

	gt_land(g, vbl, 0);
	for (uint32_t f = 1; f <= 6; f++) {
		if (f == 3)
			g->err = g->err ?: tb_missed(g->tb, 1, 5);
		if (f == 5)
			g->err = g->err ?: tb_missed(g->tb, 0, -1);
		frame(g, &gt_b, f, 1, f == 3 ? 30 : 2, &vbl);
	}
}

/*
 * Display without in-fences: CRTC 51 (vkms) shows frames 1-4, frame 3
 * two vblanks late with no wait to blame, and out-fence 5 signals with no
 * vblank event delivered before it (unpaired); CRTC 60 (virtio_gpu, no
 * vblank interrupt) signals its out-fences after a delivered event that
 * no vblank event follows (fake vblanks).
 */
void gt_display(struct gt *g)
{
	static const struct gt_timeline virtio = { "virtio_gpu", "CRTC:60-crtc-0", 2 };
	uint32_t vbl = 100;

	gt_land(g, vbl, 0);
	for (uint32_t f = 1; f <= 4; f++) {
		uint64_t t = vbl * FRAME_NS + MS;

		gt_pid(g, 47);
		gt_fence(g, 1, t, "dma_fence_init", &gt_out, f);
		gt_fence(g, 1, t + 2000, "dma_fence_init", &virtio, f);
		g->err = g->err ?: tb_vblank_delivered(g->tb, 1, t + 5 * MS, 0, 1, f);
		gt_fence(g, 1, t + 5 * MS + 10000, "dma_fence_signaled", &virtio, f);
		for (uint32_t n = f == 3 ? 3 : 1; n > 1; n--)
			gt_land(g, ++vbl, 0);
		gt_land(g, ++vbl, f);
	}
	gt_pid(g, 47);
	gt_fence(g, 1, vbl * FRAME_NS + MS, "dma_fence_init", &gt_out, 5);
	gt_fence(g, 0, vbl * FRAME_NS + 5 * MS, "dma_fence_signaled", &gt_out, 5);
}

/*
 * Two-digit counts of everything the anomalies, waits and stalls count
 * (single digits print the same in any base or width): 12 fences never
 * signalled, 11 destroyed unsignalled, 10 seqno regressions, 10 keys
 * reused while live (the first fence signalled, so not sw_sync's
 * duplicate), 10 duplicates (sw_sync's, for a value still pending: this
 * stock kernel frees them untraced), 12 signals of fences made before the
 * trace, 10 vblank gaps, 12 pages with an unknown number of events lost,
 * and 11 waits of 40 ms by the waiter (pid 60), interrupted: all stalls.
 */
void gt_many(struct gt *g)
{
	static const struct gt_timeline many = { "sw_sync", "many", 12 };
	static const struct gt_timeline old = { "sw_sync", "before-the-trace", 13 };

	for (uint32_t s = 1; s <= 12; s++)
		gt_fence(g, 0, s * MS, "dma_fence_init", &many, s);
	for (uint32_t s = 101; s <= 111; s++) {
		gt_fence(g, 0, (s - 80) * MS, "dma_fence_init", &many, s);
		gt_fence(g, 0, (s - 80) * MS + 1000, "dma_fence_destroy", &many, s);
	}
	for (uint32_t i = 0; i < 10; i++) {
		gt_fence(g, 0, (40 + i) * MS, "dma_fence_init", &many, 50 - i);
		gt_fence(g, 0, (40 + i) * MS + 1000, "dma_fence_signaled", &many, 50 - i);
		gt_fence(g, 0, (40 + i) * MS + 2000, "dma_fence_init", &many, 50 - i);
		gt_fence(g, 0, (40 + i) * MS + 4000, "dma_fence_signaled", &many, 50 - i);
	}
	for (uint32_t i = 0; i < 10; i++) {
		gt_fence(g, 0, (60 + i) * MS, "dma_fence_init", &many, 70 + i);
		gt_fence(g, 0, (60 + i) * MS + 1000, "dma_fence_init", &many, 70 + i);
		gt_fence(g, 0, (60 + i) * MS + 2000, "dma_fence_signaled", &many, 70 + i);
	}
	for (uint32_t s = 1; s <= 11; s++) {
		gt_pid(g, 60);
		gt_fence(g, 1, (100 + 50 * s) * MS, "dma_fence_wait_start", &many, s);
		gt_fence(g, 1, (140 + 50 * s) * MS, "dma_fence_wait_end", &many, s);
		gt_pid(g, 0);
		g->err = g->err ?: tb_missed(g->tb, 1, -1);
		gt_fence(g, 1, (141 + 50 * s) * MS, "dma_fence_signaled", &old, s);
	}
	g->err = g->err ?: tb_missed(g->tb, 1, -1);
	gt_fence(g, 1, 800 * MS, "dma_fence_signaled", &old, 12);
	for (uint32_t v = 1; v <= 21; v += 2)
		gt_land(g, 60 + v, 0);
}

/*
 * contexts: the shapes that take a fresh fence context per fence.  Two
 * sw_sync timelines named "compositor" (context 6 with 5 fences: its own
 * row; context 7 with one: the one-fence group of that name), 40
 * SYNC_IOC_MERGE arrays (one fence each, 0.1 ms to 4 ms), 12 vgem per-job
 * contexts (one left unsignalled, one destroyed unsignalled) and two
 * dma_fence_chain contexts of 3 fences each (merges: grouped however many
 * fences they hold).  More than --by context's 10 rows in two groups.
 */
void gt_contexts(struct gt *g)
{
	static const struct gt_timeline comp = { "sw_sync", "compositor", 6 };
	static const struct gt_timeline comp2 = { "sw_sync", "compositor", 7 };
	struct gt_timeline one = { "dma_fence_array", "unbound", 0 };
	uint64_t t = MS;

	for (uint32_t s = 1; s <= 5; s++) {
		gt_fence(g, 0, t += MS, "dma_fence_init", &comp, s);
		gt_fence(g, 0, t += (s + 1) * MS, "dma_fence_signaled", &comp, s);
	}
	gt_fence(g, 0, t += MS, "dma_fence_init", &comp2, 1);
	gt_fence(g, 0, t += 3 * MS, "dma_fence_signaled", &comp2, 1);
	for (uint32_t i = 0; i < 40; i++) {
		one.context = 1000 + i;
		gt_fence(g, 1, t += MS, "dma_fence_init", &one, 1);
		gt_fence(g, 1, t += (1 + (i * 7) % 40) * 100000, "dma_fence_signaled", &one, 1);
		gt_fence(g, 1, t += 1000, "dma_fence_destroy", &one, 1);
	}
	one.driver = "vgem";
	for (uint32_t i = 0; i < 12; i++) {
		one.context = 2000 + i;
		gt_fence(g, 0, t += MS, "dma_fence_init", &one, 1);
		if (i != 3 && i != 7)
			gt_fence(g, 0, t += (2 + i) * 100000, "dma_fence_signaled", &one, 1);
		if (i != 3)
			gt_fence(g, 0, t += 1000, "dma_fence_destroy", &one, 1);
	}
	one.driver = "dma_fence_chain";
	for (uint32_t i = 0; i < 6; i++) {
		one.context = 3000 + i % 2;
		gt_fence(g, 1, t += MS, "dma_fence_init", &one, 1 + i / 2);
		gt_fence(g, 1, t += (1 + i) * 200000, "dma_fence_signaled", &one, 1 + i / 2);
	}
}
