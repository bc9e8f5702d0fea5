// SPDX-License-Identifier: GPL-2.0
/*
 * golden-frames.c - frames.dat: a compositor on CRTC 51 whose frames meet
 * every class of the frame timeline (lib/model-frames.c) once, on a stock
 * kernel's events, with vblanks at 60 Hz (vblank N at N frame periods);
 * frames-sched.dat: the same with the scheduler's events of the waiter
 * (record --sched): the CPU it woke on held by a starver (pid 70) in the
 * wakeup frame, idle in the others, and other tasks' switches around.
 */
#include <stdlib.h>

#include "golden-traces.h"

#define VB(n) ((uint64_t)(n) * FRAME_NS)

/* A commit of pid 47: made, B's fence signalled (0: not traced), its waiter woken. */
struct gf_commit {
	uint64_t submit, signal, woken;
	uint32_t lands;		/* the vblank its out-fence is signalled on */
};

static const struct gf_commit commits[] = {
	{ VB(100) + MS, VB(101) - 2 * MS, VB(101) - 2 * MS + 20000, 101 },	/* on time, ready late */
	{ VB(101) + MS, VB(101) + 3 * MS, VB(101) + 3 * MS + 20000, 102 },	/* on time */
	{ VB(102) + MS, VB(103) + 4 * MS, VB(103) + 4 * MS + 20000, 104 },	/* producer */
	{ VB(103) + 6 * MS, VB(103) + 7 * MS, VB(103) + 7 * MS + 20000, 105 },	/* queued */
	{ VB(105) + MS, VB(105) + 3 * MS, VB(105) + 3 * MS + 20000, 106 },	/* on time */
	{ VB(106) + MS, VB(107) - 5 * MS, VB(107) + 2 * MS, 108 },		/* wakeup */
	{ VB(108) + MS, VB(108) + 3 * MS, VB(108) + 3 * MS + 20000, 110 },	/* driver */
	{ VB(112) + MS, VB(112) + 3 * MS, VB(112) + 3 * MS + 20000, 113 },	/* after 2 missing */
	{ VB(113) + MS, 0, VB(114) + 5 * MS, 115 },				/* unknown */
	{ VB(115) + MS, VB(116) + 5 * MS, VB(116) + 5 * MS + 20000, 117 },	/* 116 untraced */
	{ VB(117) + MS, VB(117) + 3 * MS, VB(117) + 3 * MS + 20000, 118 },	/* on time */
};

#define N_COMMITS (sizeof(commits) / sizeof(commits[0]))
#define MISSING_VBLANK 116

enum gf_kind { GF_SUBMIT, GF_SIGNAL, GF_WOKEN, GF_VBLANK, GF_WAKEUP, GF_SWITCH_IN, GF_SWITCH_ELSEWHERE };

#define WAKEUP_FRAME 6		/* the commit of class wakeup (1-based) */
#define STARVER_PID 70
#define WAITER_CPU 1

struct gf_step {
	uint64_t ts;
	enum gf_kind kind;
	uint32_t n;		/* the commit (1-based: its seqnos), or the vblank */
};

static int step_cmp(const void *a, const void *b)
{
	const struct gf_step *x = a, *y = b;

	return x->ts < y->ts ? -1 : x->ts > y->ts;
}

static uint32_t landing(uint32_t vbl)
{
	for (uint32_t i = 0; i < N_COMMITS; i++)
		if (commits[i].lands == vbl)
			return i + 1;
	return 0;
}

static void play(struct gt *g, const struct gf_step *st)
{
	const struct gf_commit *c = st->kind == GF_VBLANK ? NULL : &commits[st->n - 1];

	switch (st->kind) {
	case GF_SUBMIT:
		gt_pid(g, 47);
		gt_fence(g, 1, c->submit, "dma_fence_init", &gt_out, st->n);
		gt_fence(g, 1, c->submit + 1000, "dma_fence_init", &gt_b, st->n);
		gt_fence(g, 1, c->submit + 2000, "dma_fence_wait_start", &gt_b, st->n);
		break;
	case GF_SIGNAL:
		gt_pid(g, 40);
		gt_fence(g, 0, c->signal, "dma_fence_signaled", &gt_b, st->n);
		break;
	case GF_WOKEN:
		gt_pid(g, 47);
		gt_fence(g, 1, c->woken, "dma_fence_wait_end", &gt_b, st->n);
		break;
	case GF_VBLANK:
		gt_land(g, st->n, landing(st->n));
		break;
	case GF_WAKEUP:		/* the signaller wakes the waiter */
		gt_pid(g, 40);
		gt_sched_wakeup(g, 0, st->ts, 47, WAITER_CPU);
		break;
	case GF_SWITCH_ELSEWHERE:	/* the producer leaves CPU 0: it holds up nobody */
		gt_pid(g, 40);
		gt_sched_switch(g, 0, st->ts, 40, 0);
		break;
	case GF_SWITCH_IN:	/* its CPU passes to it: from the starver, or idle */
		gt_pid(g, st->n == WAKEUP_FRAME ? STARVER_PID : 0);
		gt_sched_switch(g, WAITER_CPU, st->ts, st->n == WAKEUP_FRAME ? STARVER_PID : 0, 47);
		break;
	}
}

/* The scheduler's events of commit @i's waiter, and a switch on the other CPU. */
static unsigned int sched_steps(struct gf_step *st, uint32_t i)
{
	const struct gf_commit *c = &commits[i];
	uint64_t woke = c->signal ? c->signal + 30000 : 0;

	if (!woke)
		return 0;
	st[0] = (struct gf_step){ woke, GF_WAKEUP, i + 1 };
	st[1] = (struct gf_step){ woke + 10000, GF_SWITCH_ELSEWHERE, i + 1 };
	st[2] = (struct gf_step){ c->woken - 5000, GF_SWITCH_IN, i + 1 };
	return 3;
}

static void frames(struct gt *g, int sched)
{
	struct gf_step st[6 * N_COMMITS + 32];
	unsigned int n = 0;

	for (uint32_t i = 0; i < N_COMMITS; i++) {
		st[n++] = (struct gf_step){ commits[i].submit, GF_SUBMIT, i + 1 };
		if (commits[i].signal)
			st[n++] = (struct gf_step){ commits[i].signal, GF_SIGNAL, i + 1 };
		st[n++] = (struct gf_step){ commits[i].woken, GF_WOKEN, i + 1 };
		if (sched)
			n += sched_steps(&st[n], i);
	}
	for (uint32_t v = 99; v <= 119; v++)
		if (v != MISSING_VBLANK)
			st[n++] = (struct gf_step){ VB(v), GF_VBLANK, v };
	qsort(st, n, sizeof(*st), step_cmp);
	for (unsigned int i = 0; i < n; i++)
		play(g, &st[i]);
}

void gt_frames(struct gt *g)
{
	frames(g, 0);
}

void gt_frames_sched(struct gt *g)
{
	frames(g, 1);
}
