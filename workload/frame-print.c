// SPDX-License-Identifier: GPL-2.0
/*
 * frame-print.c - fence-workload's ground truth: one key=value line per
 * frame, times in CLOCK_MONOTONIC nanoseconds (tests/lab/check-* read it).
 */
#include <inttypes.h>
#include <stdio.h>

#include "frame-result.h"

static void print_fence(const char *prefix, const struct sync_summary *s)
{
	printf(" %s_signal_ns=%" PRIu64 " %s_status=%d %s_timeline=%s %s_context=%" PRIu64
	       " %s_seqno=%" PRId64, prefix, s->timestamp_ns, prefix, s->status, prefix,
	       s->timeline, prefix, s->have_seqno ? s->context : 0, prefix,
	       s->have_seqno ? s->seqno : -1);
}

/* The producer's own times: when its delay started, was due, and it signalled. */
static void print_times(const char *prefix, const struct render_times *t)
{
	printf(" %s_start_ns=%" PRIu64 " %s_due_ns=%" PRIu64 " %s_woke_ns=%" PRIu64
	       " %s_done_ns=%" PRIu64, prefix, t->start_ns, prefix, t->due_ns, prefix,
	       t->woke_ns, prefix, t->done_ns);
}

/**
 * frame_print() - frame @frame's ground-truth line on stdout
 * @plan: what was asked of it
 * @n_producers: 1 with --no-overlay, else 2
 * @frame: its number
 * @r: what was seen of it
 */
void frame_print(const struct workload_plan *plan, unsigned int n_producers, unsigned int frame,
		 const struct frame_result *r)
{
	printf("frame=%u submit_ns=%" PRIu64 " return_ns=%" PRIu64, frame, r->submit_ns,
	       r->return_ns);
	print_fence("a", &r->in[0]);
	print_times("a", &r->times[0]);
	if (n_producers > 1) {
		print_fence("b", &r->in[1]);
		print_times("b", &r->times[1]);
	}
	print_fence("out", &r->out);
	printf(" out_seen_ns=%" PRIu64 " ebusy=%u queued=%d hold_ms=%u starve_from_ns=%" PRIu64
	       " starve_to_ns=%" PRIu64, r->out_seen_ns, r->ebusy, plan_queued(plan, frame),
	       plan_hold_ms(plan, frame), r->starve.from_ns, r->starve.to_ns);
	printf(" rejected=%d", r->rejected);
	if (plan->flip_event)
		printf(" flip_seq=%u flip_ns=%" PRIu64, r->flip_seq, r->flip_ns);
	if (r->vblank_known)	/* on time when flip_seq is the one after */
		printf(" vblank_before=%u vblank_before_ns=%" PRIu64, r->vblank_before, r->vblank_before_ns);
	printf("\n");
	fflush(stdout);
}
