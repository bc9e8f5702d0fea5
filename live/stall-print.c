// SPDX-License-Identifier: GPL-2.0
/*
 * stall-print.c - what `fence-trace stall` says about a stuck wait: the
 * task, the fence (driver, timeline, context, seqno), how far behind its
 * timeline is, who created it, the members of a merged fence and which of
 * them are still pending, and the kernel's own view (debugfs); then how
 * and when the stall ended.  Text, or one JSON object per line.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "fence-stall.skel.h"
#include "decode.h"
#include "errname.h"
#include "json-str.h"
#include "proc-comm.h"
#include "report.h"
#include "stall.h"
#include "stall-before.h"
#include "stall-debugfs.h"
#include "sync.h"
#include "time-span.h"

static void name_of(struct stall_ctx *c, uint64_t context, const char **driver, const char **timeline)
{
	const struct fence_name *n = names_find(&c->names, context);

	if (!n)
		names_want(&c->names, context);	/* a poll's fence: no program saw it */
	*driver = n ? n->driver : "?";
	*timeline = n ? n->timeline : names_unknown(&c->names);
}

/* A wait found at start: the names found then, else the stream's. */
static void wait_name(struct stall_ctx *c, const struct fs_wait *w, const struct before_wait *b,
		      const char **driver, const char **timeline)
{
	name_of(c, w->fence.context, driver, timeline);
	if (!b)
		return;
	if (!w->fence.ptr) {
		*driver = "fence unknown";
		*timeline = "(see where it waits)";
	} else if (b->names.driver[0]) {
		*driver = b->names.driver;
		*timeline = b->names.timeline;
	} else if (**driver == '?' && b->names.timeline[0]) {
		*timeline = b->names.timeline;
	}
}

/* Is member @m signalled now?  Its own flag then, or its timeline since. */
static int member_signaled(struct stall_ctx *c, const struct fs_fence *m)
{
	struct fs_signal s;

	if (m->signaled)
		return 1;
	return stall_last_signal(c, m->context, &s) == 0 && s.seqno >= m->seqno;
}

static void behind(struct stall_ctx *c, const struct fs_fence *f, uint64_t now)
{
	struct fs_signal s;
	uint64_t fresh;

	if (stall_last_signal(c, f->context, &s)) {
		printf("  timeline: nothing signalled on context %" PRIu64 " since the tool started\n",
		       (uint64_t)f->context);
		return;
	}
	/*
	 * @now was read before the lookup: the timeline may have signalled
	 * since.  Read the clock again, after it.
	 */
	fresh = now_ns();
	if (fresh > now)
		now = fresh;
	printf("  timeline: last signalled seqno %" PRIu64 ", %.1f ms ago; this fence is %" PRId64
	       " behind it%s\n", (uint64_t)s.seqno, span_ms(now, s.ts, &c->backwards),
	       (int64_t)(f->seqno - s.seqno), s.error ? " (that signal carried an error)" : "");
}

static void members(struct stall_ctx *c, const struct fs_wait *w)
{
	const char *drv, *tl;

	printf("  merged fence (dma_fence_array) of %u:\n", w->n_members);
	for (unsigned int i = 0; i < w->n_members && i < FS_MEMBERS; i++) {
		const struct fs_fence *m = &w->members[i];

		name_of(c, m->context, &drv, &tl);
		printf("    member %s %s context %" PRIu64 " seqno %" PRIu64 ": %s\n", drv, tl,
		       (uint64_t)m->context, (uint64_t)m->seqno,
		       member_signaled(c, m) ? "signalled" : "PENDING (holds the wait)");
	}
	if (w->n_members > FS_MEMBERS)
		printf("    ... and %u more\n", w->n_members - FS_MEMBERS);
}

/* Which commit and plane the wait belongs to: the series knows. */
static void attribution(struct stall_ctx *c, const struct fs_wait *w)
{
	const struct series_wait *sw = c->have_series ?
		series_wait_of(&c->series, w->fence.context, w->fence.seqno, w->pid) : NULL;

	if (sw)
		printf("  commit %" PRIu64 ", plane %u: an atomic commit's in-fence wait\n",
		       sw->commit, sw->plane);
	else if (c->have_series)
		printf("  not an atomic commit's in-fence wait (no drm_fence_wait_begin for it)\n");
	else
		printf("  commit, CRTC and plane: not attributable without the fence-trace kernel series\n");
}

/* At most @max bytes of @s (a comm need not be NUL-terminated), as JSON. */
static void json_field(const char *s, size_t max)
{
	char buf[128];

	snprintf(buf, sizeof(buf), "%.*s", (int)(max < sizeof(buf) ? max : sizeof(buf) - 1), s);
	json_str(stdout, buf);
}

static const char *const sources[] = {
	[BEFORE_UNKNOWN] = "null", [BEFORE_STACK] = "\"stack\"", [BEFORE_SYNC_FILE] = "\"sync_file\"",
};

/* What only a wait found at start has: null otherwise. */
static void before_json(const struct before_wait *b)
{
	printf(", \"began_before_tool\": %s, \"where\": ", b ? "true" : "false");
	if (b)
		json_field(b->where, sizeof(b->where));
	else
		printf("null");
	printf(", \"fence_found_by\": %s", b ? sources[b->source] : "null");
	if (b)
		printf(", \"names_by_ops\": %s", b->names.from_ops ? "true" : "false");
}

static void start_json(struct stall_ctx *c, const struct fs_wait *w, const struct before_wait *b,
		       uint64_t now)
{
	const char *drv, *tl;
	struct fs_signal s;
	int have = stall_last_signal(c, w->fence.context, &s) == 0;

	char last[32] = "null";

	wait_name(c, w, b, &drv, &tl);
	if (have)
		snprintf(last, sizeof(last), "%" PRIu64, (uint64_t)s.seqno);
	printf("{\"event\": \"stall\", \"start_ns\": %" PRIu64 ", \"waited_ns\": %" PRIu64
	       ", \"tgid\": %u, \"pid\": %u, \"comm\": ", (uint64_t)w->start,
	       span_ns(now, w->start, &c->backwards), w->tgid, w->pid);
	json_field(w->comm, sizeof(w->comm));
	printf(", \"context\": %" PRIu64 ", \"seqno\": %" PRIu64 ", \"driver\": ",
	       (uint64_t)w->fence.context, (uint64_t)w->fence.seqno);
	json_field(drv, 32);
	printf(", \"timeline\": ");
	json_field(tl, 80);
	{
		const struct series_wait *sw = c->have_series ?
			series_wait_of(&c->series, w->fence.context, w->fence.seqno, w->pid) : NULL;

		if (sw)
			printf(", \"commit\": %" PRIu64 ", \"plane\": %u", sw->commit, sw->plane);
		else if (b && b->names.commit >= 0)
			printf(", \"commit\": %" PRId64 ", \"plane\": %d", b->names.commit, b->names.plane);
		else
			printf(", \"commit\": null, \"plane\": null");
	}
	printf(", \"last_signaled_seqno\": %s, \"creator_tgid\": %u, \"pending_members\": [",
	       last, w->creator.tgid);
	for (unsigned int i = 0, k = 0; w->is_array && i < w->n_members && i < FS_MEMBERS; i++)
		if (!member_signaled(c, &w->members[i]))
			printf("%s{\"context\": %" PRIu64 ", \"seqno\": %" PRIu64 "}", k++ ? ", " : "",
			       (uint64_t)w->members[i].context, (uint64_t)w->members[i].seqno);
	printf("]");
	before_json(b);
	stall_debugfs_json(&(struct stall_target){ -1, w->fence.context, w->fence.seqno });
	printf("}\n");
}

/*
 * What a wait found at start adds: that it began before the tool, since
 * when at least, where it waits and how its fence was found.
 */
static void before_text(struct stall_ctx *c, const struct before_wait *b, const struct fs_wait *w,
			uint64_t now)
{
	printf("  began before fence-trace started: waiting since at least %.3f s (CLOCK_MONOTONIC), %.1f ms ago: the task has not run since then, and it ran when the wait began\n",
	       w->start / 1e9, span_ms(now, w->start, &c->backwards));
	printf("  where: %s\n", b->where);
	if (b->source == BEFORE_UNKNOWN)
		printf("  fence: unknown (no dma_fence_default_wait callback of this task on its stack, none on a held sync_file's fence)\n");
	else
		printf("  fence: found %s\n", b->source == BEFORE_STACK ?
		       "on the task's kernel stack (its dma_fence_default_wait callback)" :
		       "by this task's wait callback on a held sync_file's fence");
	if (b->names.holders[0])
		printf("  held as a sync_file by %s\n", b->names.holders);
	if (b->names.from_ops)
		printf("  names: known by the fence's ops (no sync_file held on it, no series' fence_timeline lists it)\n");
	if (b->names.commit >= 0)
		printf("  commit %" PRId64 ", plane %d: an atomic commit's in-fence wait, %.1f ms old by the series' fence_timeline\n",
		       b->names.commit, b->names.plane, b->names.kernel_age_ns / 1e6);
}

void stall_print_start(struct stall_ctx *c, struct stall_seen *s, uint64_t now)
{
	const struct fs_wait *w = &s->wait;
	const struct before_wait *b = NULL;
	const char *drv, *tl;

	if (w->before_tool)
		b = stall_before_find(c, &(struct fs_wait_key){ (uint64_t)w->tgid << 32 | w->pid, w->fence.ptr });
	if (c->json) {
		start_json(c, w, b, now);
		fflush(stdout);	/* a script watches for this line while the wait lasts */
		stall_class_start(c, s, now);
		return;
	}
	wait_name(c, w, b, &drv, &tl);
	printf("STALL: %.16s-%u (thread %u) has waited %s%.1f ms on %s %s context %" PRIu64 " seqno %" PRIu64 "%s\n",
	       w->comm, w->tgid, w->pid, b ? "at least " : "", span_ms(now, w->start, &c->backwards), drv, tl,
	       (uint64_t)w->fence.context, (uint64_t)w->fence.seqno, b ? " [began before the tool]" : "");
	if (b)
		before_text(c, b, w, now);
	if (!b || w->fence.ptr)
		behind(c, &w->fence, now);
	if (w->creator.ts)
		printf("  created by %.16s-%u, %.1f ms ago\n", w->creator.comm, w->creator.tgid,
		       span_ms(now, w->creator.ts, &c->backwards));
	else
		printf("  created before the tool started: creator unknown\n");
	if (w->is_array)
		members(c, w);
	if (!b || b->names.commit < 0)
		attribution(c, w);
	stall_class_start(c, s, now);
	stall_debugfs_text(&(struct stall_target){ -1, w->fence.context, w->fence.seqno });
	fflush(stdout);
}

void stall_print_end(struct stall_ctx *c, const struct fs_end *e, const struct fs_wait *w)
{
	const char *how = !e->signaled ? "the wait ended unsignalled (interrupted or timed out)" :
			  e->error ? "the fence signalled with an error" : "the fence signalled";

	if (c->json) {
		printf("{\"event\": \"cleared\", \"start_ns\": %" PRIu64 ", \"end_ns\": %" PRIu64
		       ", \"stall_ns\": %" PRIu64 ", \"signal_ns\": %" PRIu64 ", \"tgid\": %u, \"pid\": %u, "
		       "\"context\": %" PRIu64 ", \"seqno\": %" PRIu64 ", \"signaled\": %s, \"error\": %d"
		       ", \"began_before_tool\": %s}\n",
		       (uint64_t)e->start, (uint64_t)e->end, span_ns(e->end, e->start, &c->backwards),
		       (uint64_t)e->signal_ts, e->tgid, e->pid, (uint64_t)e->context, (uint64_t)e->seqno,
		       e->signaled ? "true" : "false", e->error, e->before_tool ? "true" : "false");
	} else {
		printf("CLEARED after %s%.1f ms%s: %s%s context %" PRIu64 " seqno %" PRIu64 " (error %d)%s\n",
		       e->before_tool ? "at least " : "", span_ms(e->end, e->start, &c->backwards),
		       e->before_tool ? " (the wait began before the tool)" : "", how,
		       w ? "" : " [stall began and ended between polls]",
		       (uint64_t)e->context, (uint64_t)e->seqno, e->error,
		       e->error == -2 ? ": -ENOENT, a sw_sync timeline closed with it pending" : "");
		if (e->signal_ts >= e->start && e->signal_ts <= e->end)
			printf("  signalled %s%.1f ms into the wait%s; the waiter ran %.3f ms after the signal\n",
			       e->before_tool ? "at least " : "", (e->signal_ts - e->start) / 1e6,
			       e->before_tool ? " (its start: before the tool)" : "",
			       (e->end - e->signal_ts) / 1e6);
		if (e->error && !c->have_series)
			printf("  what a commit waiting on it did next: not traced without the fence-trace kernel series\n");
	}
	fflush(stdout);
}

static void creator_of(struct stall_ctx *c, uint64_t fence, uint64_t now)
{
	struct fs_creator cr;

	if (stall_creator(c, fence, &cr) == 0)
		printf("  created by %.16s-%u, %.1f ms ago\n", cr.comm, cr.tgid,
		       span_ms(now, cr.ts, &c->backwards));
	else
		printf("  created before the tool started: creator unknown\n");
}

/* A compositor polling a sync_file: no dma_fence_wait, but the series sees it. */
void stall_print_poll(struct stall_ctx *c, const struct series_poll *p, uint64_t now)
{
	struct fs_fence f = { .ptr = p->fence, .context = p->context, .seqno = p->seqno };
	const char *drv, *tl;
	char comm[32];

	names_poll(&c->names);
	proc_comm(p->pid, comm, sizeof(comm));
	name_of(c, p->context, &drv, &tl);
	if (c->json) {
		printf("{\"event\": \"poll_stall\", \"start_ns\": %" PRIu64 ", \"waited_ns\": %" PRIu64
		       ", \"pid\": %d, \"context\": %" PRIu64 ", \"seqno\": %" PRIu64 ", \"timeline\": ",
		       p->ts, span_ns(now, p->ts, &c->backwards), p->pid, p->context, p->seqno);
		json_field(tl, 80);
		stall_debugfs_json(&(struct stall_target){ -1, p->context, p->seqno });
		printf("}\n");
		fflush(stdout);
		return;
	}
	printf("STALL: %s-%d has polled a sync_file for %.1f ms (a poll() wait, outside dma_fence_wait) on %s %s context %" PRIu64 " seqno %" PRIu64 "\n",
	       comm, p->pid, span_ms(now, p->ts, &c->backwards), drv, tl, p->context, p->seqno);
	behind(c, &f, now);
	creator_of(c, p->fence, now);
	stall_debugfs_text(&(struct stall_target){ -1, p->context, p->seqno });
	fflush(stdout);
}

void stall_print_poll_end(struct stall_ctx *c, const struct series_poll *p, uint64_t end)
{
	if (c->json)
		printf("{\"event\": \"poll_cleared\", \"start_ns\": %" PRIu64 ", \"end_ns\": %" PRIu64
		       ", \"stall_ns\": %" PRIu64 ", \"pid\": %d, \"context\": %" PRIu64 ", \"seqno\": %" PRIu64 "}\n",
		       p->ts, end, span_ns(end, p->ts, &c->backwards), p->pid, p->context, p->seqno);
	else
		printf("CLEARED after %.1f ms: the polled sync_file became ready (context %" PRIu64 " seqno %" PRIu64 ")\n",
		       span_ms(end, p->ts, &c->backwards), p->context, p->seqno);
	fflush(stdout);
}

/* A commit's in-fence signalled with an error (series' dma_fence_error). */
void stall_print_error_fence(struct stall_ctx *c, const struct series_wait *w, int error, int ret)
{
	const char *drv, *tl;
	char e[24];

	name_of(c, w->context, &drv, &tl);
	if (c->json) {
		printf("{\"event\": \"error_fence\", \"commit\": %" PRIu64 ", \"plane\": %u, \"context\": %" PRIu64
		       ", \"seqno\": %" PRIu64 ", \"error\": %d, \"wait_ret\": %d, \"wait_ns\": %" PRIu64 "}\n",
		       w->commit, w->plane, w->context, w->seqno, error, ret,
		       span_ns(w->end, w->ts, &c->backwards));
		fflush(stdout);
		return;
	}
	printf("ERROR FENCE: commit %" PRIu64 ", plane %u: its in-fence %s %s context %" PRIu64 " seqno %" PRIu64
	       " signalled with an error (%s) after %.1f ms\n", w->commit, w->plane, drv, tl, w->context,
	       w->seqno, errname(error, e, sizeof(e)), span_ms(w->end, w->ts, &c->backwards));
	printf("  the commit's wait returned %d: the atomic helpers ignore a fence's error, so the commit goes on%s\n",
	       ret, ret ? " (here the wait itself failed)" : " with the buffer the failed job left");
	fflush(stdout);
}

/* What the commit did with it: flipped (@err 0) at vblank @vblank, or failed. */
void stall_print_error_outcome(struct stall_ctx *c, const struct series_error_wait *e, int err,
			       uint64_t vblank, uint64_t ts)
{
	char b[24];

	if (c->json) {
		printf("{\"event\": \"error_outcome\", \"commit\": %" PRIu64 ", \"context\": %" PRIu64 ", \"seqno\": %" PRIu64
		       ", \"outcome\": \"%s\", \"commit_error\": %d, \"vblank\": %" PRIu64 ", \"after_ns\": %" PRIu64 "}\n",
		       e->commit, e->context, e->seqno, err ? "failed" : "shown", err, err ? 0 : vblank,
		       span_ns(ts, e->ts, &c->backwards));
	} else if (err) {
		printf("  commit %" PRIu64 " then failed with %s: its out-fence is discarded, the frame not shown\n",
		       e->commit, errname(err, b, sizeof(b)));
	} else {
		printf("  commit %" PRIu64 " flipped at vblank %" PRIu64 ", %.1f ms later: the frame was shown despite the failed fence (context %" PRIu64 " seqno %" PRIu64 ")\n",
		       e->commit, vblank, span_ms(ts, e->ts, &c->backwards), e->context, e->seqno);
	}
	fflush(stdout);
}

/* EBUSY retries every ms: a stall only once they have lasted the threshold. */
static int ebusy_due(struct stall_ctx *c, uint64_t ts, int64_t waits_on, uint64_t *duration_ns)
{
	if (waits_on != c->ebusy_on) {
		c->ebusy_on = waits_on;
		c->ebusy_first_ts = ts;
		c->ebusy_said = 0;
	}
	if (c->ebusy_said || span_ns(ts, c->ebusy_first_ts, &c->backwards) < c->threshold_ns)
		return 0;
	c->ebusy_said = 1;
	*duration_ns = span_ns(ts, c->ebusy_first_ts, &c->backwards);
	return 1;
}

/*
 * Its own flip timing out (10 s) is driver.  Held behind an earlier commit
 * (or its EBUSY) across a vblank, ending at @ts, it missed its target:
 * queued.  With no vblank in the hold (a --threshold under a period, or
 * the vblank off) it may yet make it: not known.
 */
static enum ft_frame_class commit_stall_class(struct stall_ctx *c, uint64_t commit,
					      int64_t waits_on, uint64_t ts, uint64_t duration_ns)
{
	if (waits_on == (int64_t)commit)
		return FT_CLASS_DRIVER;
	if (!stall_vblank_within(c, ts > duration_ns ? ts - duration_ns : 0, ts))
		return FT_CLASS_UNKNOWN;
	return FT_CLASS_QUEUED;
}

static void commit_stall_text(struct stall_ctx *c, uint64_t ts, uint64_t commit, uint32_t crtc,
			      int64_t waits_on, const char *what, int stage, int ret, uint64_t duration_ns)
{
	char e[24];

	if (stage == FT_STALL_EBUSY)
		printf("COMMIT STALL: commits on CRTC %u have got EBUSY for %.1f ms (now commit %" PRIu64 "): commit %" PRId64 " still holds the CRTC (not an in-fence stall of their own)\n",
		       crtc, duration_ns / 1e6, commit, waits_on);
	else if (waits_on == (int64_t)commit)
		printf("COMMIT STALL: commit %" PRIu64 " on CRTC %u: its own %s timed out after %.1f ms (%s): the flip never completed (not an in-fence, not an earlier commit)\n",
		       commit, crtc, what, duration_ns / 1e6, errname(ret, e, sizeof(e)));
	else
		printf("COMMIT STALL: commit %" PRIu64 " on CRTC %u waited %.1f ms for commit %" PRId64 "'s %s (ret %d): behind an earlier commit, not an in-fence\n",
		       commit, crtc, duration_ns / 1e6, waits_on, what, ret);
	switch (commit_stall_class(c, commit, waits_on, ts, duration_ns)) {
	case FT_CLASS_QUEUED:
		printf("  frame class: queued: held behind an earlier commit across a vblank, past its target\n");
		break;
	case FT_CLASS_DRIVER:
		printf("  frame class: driver: its own flip never completed\n");
		break;
	default:
		printf("  frame class: not known: no vblank while it was held (it may yet make its target)\n");
	}
}

/*
 * A commit held up by an earlier one (the series' drm_fence_commit_stall):
 * told apart from an in-fence stall, and explained by what the earlier
 * commit is (or was) waiting on when the series knows.  Waiting on itself
 * is wait_for_flip_done() timing out.
 */
void stall_print_commit_stall(struct stall_ctx *c, uint64_t ts, uint64_t commit, uint32_t crtc,
			      int64_t waits_on, int stage, int ret, uint64_t duration_ns)
{
	const char *what = ft_stall_stage_name(stage);
	const struct series_wait *w;
	enum ft_frame_class cls;
	const char *drv, *tl;

	if (stage == FT_STALL_EBUSY ? !ebusy_due(c, ts, waits_on, &duration_ns) : duration_ns < c->threshold_ns)
		return;
	c->stalls++;
	w = waits_on >= 0 && waits_on != (int64_t)commit ?
	    series_wait_of_commit(&c->series, (uint64_t)waits_on) : NULL;
	if (c->json) {
		printf("{\"event\": \"commit_stall\", \"commit\": %" PRIu64 ", \"crtc\": %u, \"waits_on\": %" PRId64
		       ", \"stage\": \"%s\", \"ret\": %d, \"duration_ns\": %" PRIu64 ", \"timed_out\": %s, \"blocker_plane\": %d"
		       ", \"blocker_context\": %" PRIu64 ", \"blocker_seqno\": %" PRIu64 ", \"class\": ", commit, crtc,
		       waits_on, what, ret, duration_ns, waits_on == (int64_t)commit ? "true" : "false",
		       w ? (int)w->plane : -1, w ? w->context : 0, w ? w->seqno : 0);
		cls = commit_stall_class(c, commit, waits_on, ts, duration_ns);
		if (cls == FT_CLASS_UNKNOWN)
			printf("null");
		else
			json_str(stdout, report_frame_class_name(cls));
		stall_debugfs_json(&(struct stall_target){ crtc, 0, 0 });
		printf("}\n");
		fflush(stdout);
		return;
	}
	commit_stall_text(c, ts, commit, crtc, waits_on, what, stage, ret, duration_ns);
	if (w) {
		name_of(c, w->context, &drv, &tl);
		printf("  commit %" PRId64 " %s on plane %u's in-fence: %s %s context %" PRIu64 " seqno %" PRIu64 ", for %.1f ms\n",
		       waits_on, w->end ? "had waited" : "is waiting", w->plane, drv, tl, w->context, w->seqno,
		       span_ms(w->end ? w->end : now_ns(), w->ts, &c->backwards));
	}
	stall_debugfs_text(&(struct stall_target){ crtc, 0, 0 });
	fflush(stdout);
}
