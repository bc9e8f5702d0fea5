// SPDX-License-Identifier: GPL-2.0
/*
 * stall-class.c - the frame class of a commit whose in-fence wait stalls,
 * judged live by the report's definitions (lib/model-frames.c), but said
 * only once it is certain: stall sees the target vblank and the fence's
 * signal as they happen, not the whole trace, and knows no latch margin
 * unless the user gives one.
 *
 * - The target is the first vblank after the commit's atomic ioctl
 *   entered, read from the last vblanks of each pipe (fence-stall.bpf.c).
 *   With more than one CRTC the commit's own is not known: the latest of
 *   the pipes' targets bounds it.  Where the vblank is not in the ring (off
 *   while the commit waited, or rolled out) the pipe's mean period bounds it.
 * - producer: the in-fence signalled, or is still pending, past that
 *   target; that is past any deadline, whatever the latch margin.
 * - wakeup: the in-fence signalled before the target, and its waiter ran
 *   (or has still not run) past it.  Without a margin that holds for any
 *   margin smaller than the time from the signal to the target, and the
 *   verdict says so; past that margin it would be producer.
 * - queued and driver come from the series' commit stalls (stall-print.c).
 */
#include <string.h>

#include "stall-class.h"

#define RING_MASK (FS_VBLANK_RING - 1)

enum vblank_found { VBLANK_NOT_YET, VBLANK_AT, VBLANK_NOT_KEPT };

/* The first vblank of @v after @entry_ns, when the ring can say. */
static enum vblank_found vblank_after(const struct fs_vblank *v, uint64_t entry_ns,
				      uint64_t watch_start_ns, uint64_t *at)
{
	uint64_t oldest = v->count >= RING_MASK ? v->count - RING_MASK : 0;

	for (uint64_t i = oldest; i <= v->count; i++) {
		uint64_t ts = v->recent[i & RING_MASK];

		if (ts <= entry_ns)
			continue;
		/* one before the oldest kept (or the tool's start) may be later still */
		if (i == oldest && (oldest > 0 || entry_ns < watch_start_ns))
			return VBLANK_NOT_KEPT;
		*at = ts;
		return VBLANK_AT;
	}
	return VBLANK_NOT_YET;
}

/**
 * fs_vblank_period() - a pipe's mean vblank period since the tool started
 * @v: the pipe's vblanks
 *
 * Return: the period in ns, 0 under 4 vblanks (too few to trust).
 */
uint64_t fs_vblank_period(const struct fs_vblank *v)
{
	if (v->count < 4 || v->last_ts <= v->first_ts)
		return 0;
	return (v->last_ts - v->first_ts) / v->count;
}

/* The latest the target can be on a pipe whose vblank was not traced. */
static uint64_t period_bound(const struct fs_vblank *v, uint64_t entry_ns)
{
	uint64_t period = fs_vblank_period(v);

	/* half a period more: single intervals jitter (under TCG a lot) */
	return period ? entry_ns + period + period / 2 : 0;
}

void stall_target_of(const struct fs_vblank *pipes, unsigned int n, uint64_t entry_ns,
		     uint64_t watch_start_ns, uint64_t now, struct stall_target *t)
{
	int exact = 1;

	memset(t, 0, sizeof(*t));
	if (!entry_ns) {
		t->why = "when its commit entered is not known";
		return;
	}
	if (!n) {
		t->why = "no vblank seen since the tool started (a display without vblank interrupts, as virtio-gpu in QEMU, cannot be judged)";
		return;
	}
	for (unsigned int i = 0; i < n; i++) {
		uint64_t at = 0;

		if (vblank_after(&pipes[i], entry_ns, watch_start_ns, &at) != VBLANK_AT) {
			at = period_bound(&pipes[i], entry_ns);
			exact = 0;
			if (!at || at > now) {
				t->at_ns = 0;
				t->why = at ? "its target vblank has not passed yet" :
					 "the vblank period is not known yet";
				return;
			}
		}
		if (at > t->at_ns)
			t->at_ns = at;
	}
	t->exact = exact && n == 1;
}

static void judge_wakeup(const struct stall_frame *f, uint64_t deadline, int margin_given,
			 uint64_t now, struct stall_verdict *v)
{
	uint64_t woken = f->woken_ns ? f->woken_ns : now;

	if (f->signal_ns > deadline) {
		/* past a deadline set by the user's margin, not past the target */
		if (!f->signal_exact) {
			v->why = "the fence's own signal time is not known (its timeline signalled a later one)";
			return;
		}
		v->cls = FT_CLASS_PRODUCER;
		v->past_ns = f->signal_ns - deadline;
		return;
	}
	if (woken <= deadline) {
		v->why = "its in-fence and its waiter were in time: a miss would be queued or driver";
		return;
	}
	v->cls = FT_CLASS_WAKEUP;
	v->past_ns = woken - deadline;
	v->pending = !f->woken_ns;
	if (!margin_given)
		v->margin_under_ns = deadline - f->signal_ns;
}

void stall_class_judge(const struct stall_frame *f, const struct stall_target *t,
		       int64_t margin_ns, uint64_t now, struct stall_verdict *v)
{
	uint64_t target = t->at_ns;

	memset(v, 0, sizeof(*v));
	v->cls = FT_CLASS_UNKNOWN;
	if (!target) {
		v->why = t->why;
		return;
	}
	if (!f->signal_ns && now <= target) {
		v->why = "its target vblank has not passed yet";
		return;
	}
	if (!f->signal_ns || (f->signal_exact && f->signal_ns > target)) {
		v->cls = FT_CLASS_PRODUCER;
		v->pending = !f->signal_ns;
		v->past_ns = (f->signal_ns ? f->signal_ns : now) - target;
		return;
	}
	if (!t->exact) {
		v->why = "its target vblank was not traced (several CRTCs, or its vblank was off): producer or wakeup cannot be told";
		return;
	}
	if (f->signal_ns > target) {
		v->why = "the fence's own signal time is not known (its timeline signalled a later one)";
		return;
	}
	if (margin_ns >= 0)
		judge_wakeup(f, target > (uint64_t)margin_ns ? target - (uint64_t)margin_ns : 0, 1, now, v);
	else
		judge_wakeup(f, target, 0, now, v);
}
