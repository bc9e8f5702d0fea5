// SPDX-License-Identifier: GPL-2.0
/*
 * report-frames-text.c - `report --section frames` as text: per CRTC the
 * outcome of every frame judged, the frames that failed, the class of each
 * late one, the blame of each repeated vblank, the pacing, then one line
 * per late frame, per failed frame and per run of repeats with its cause
 * (definitions: lib/model-frames.c, lib/model-failed-frames.c, the README's
 * "Frames").
 */
#include <inttypes.h>
#include <stdio.h>

#include "report.h"

static double share(uint64_t part, uint64_t whole)
{
	return whole ? 100.0 * (double)part / (double)whole : 0.0;
}

static void margin_line(FILE *out, const struct ft_model *m, const struct ft_frame_stats *fs)
{
	char a[24], b[24];

	if (m->display.latch_margin_ns >= 0)
		fprintf(out, "  latch margin %s (given)\n", report_dur(a, sizeof(a), fs->margin_ns));
	else if (fs->margin_known)
		fprintf(out, "  latch margin %s (estimated: the least time a frame on time was ready before its vblank)\n",
			report_dur(a, sizeof(a), fs->margin_ns));
	else
		fprintf(out, "  latch margin 0 ns (no frame on time to estimate it from)\n");
	if (fs->tail_margin_known && fs->hw_margin_known)
		fprintf(out, "  commit stages of frames on time (series): tail began, hw_done at least %s, %s "
			"before the vblank\n", report_dur(a, sizeof(a), fs->tail_margin_ns),
			report_dur(b, sizeof(b), fs->hw_margin_ns));
}

static void counts(FILE *out, const struct ft_model *m, const struct ft_crtc *c)
{
	const struct ft_frame_stats *fs = &c->fs;

	fprintf(out, "  frames: %" PRIu64 " judged: %" PRIu64 " on time, %" PRIu64 " late (%.1f%%)",
		ft_frames_judged(c), fs->on_time, c->late_count,
		share(c->late_count, ft_frames_judged(c)));
	if (fs->unjudged)
		fprintf(out, "; %" PRIu64 " not judged (no target vblank in reach)", fs->unjudged);
	if (report_errors_known(m))
		fprintf(out, "; %" PRIu64 " with an in-fence error\n", fs->error_fence);
	else
		fprintf(out, "; in-fence errors not traced (needs the series' dma_fence_error)\n");
	fprintf(out, "  late by class:");
	for (int k = FT_CLASS_PRODUCER; k < FT_CLASSES; k++)
		fprintf(out, "%s %s %" PRIu64, k == FT_CLASS_PRODUCER ? "" : ",",
			report_frame_class_name((enum ft_frame_class)k), fs->by_class[k]);
	fprintf(out, "\n");
}

/* Frames whose commit was rejected after their out-fence was made. */
static void failed_count(FILE *out, const struct ft_model *m, const struct ft_crtc *c)
{
	if (!report_failed_known(m)) {
		fprintf(out, "  failed: not known (dma_fence_destroy or dma_fence_signaled not recorded)\n");
		return;
	}
	fprintf(out, "  failed: %" PRIu64 " (commit rejected after its out-fence was made: never shown)",
		c->fs.failed);
	if (c->fs.failed_or_lost)
		fprintf(out, "; %" PRIu64 " more out-fences destroyed unsignalled while events were lost"
			" (failed, or their signal lost)", c->fs.failed_or_lost);
	if (c->fs.retried)
		fprintf(out, "; %" PRIu64 " dropped by commits the kernel made again (EDEADLK backoff,"
			" a restart after a signal: not failed)", c->fs.retried);
	fprintf(out, "\n");
}

static void failed_line(FILE *out, const struct ft_model *m, const struct ft_failed_frame *f)
{
	char a[24], e[24];

	fprintf(out, "  %8u %14.6f %11s  %s", f->out_seqno, f->submit_ns / 1e9,
		report_dur(a, sizeof(a), f->ended_ns - f->submit_ns), report_task_name(m, f->pid));
	if (f->commit)
		fprintf(out, "; commit %" PRIu64 " failed with %d (%s)", f->commit, f->err,
			errname(f->err, e, sizeof(e)));
	else if (f->lost)
		fprintf(out, "; events were lost meanwhile: failed, or its signal lost");
	else
		fprintf(out, "; error not traced (needs the series' drm_fence_out_discard)");
	fprintf(out, "\n");
}

static void failed_frames(FILE *out, const struct ft_model *m, const struct ft_crtc *c,
			  const struct report_opts *o)
{
	unsigned int selected = 0;

	for (unsigned int i = 0; i < c->n_failed; i++)
		selected += report_failed_selected(m, c, &c->failed[i], o);
	if (!selected)
		return;
	fprintf(out, "  failed frames%s:\n", c->fs.failed + c->fs.failed_or_lost > c->n_failed ?
		" (the first ones, kept in detail)" : "");
	fprintf(out, "  %8s %14s %11s  %s\n", "out-seq", "made at (s)", "dropped in", "task; cause");
	for (unsigned int i = 0; i < c->n_failed; i++)
		if (report_failed_selected(m, c, &c->failed[i], o))
			failed_line(out, m, &c->failed[i]);
}

/* The vblanks from the first frame to the last that repeated the one before. */
static uint64_t repeats_total(const struct ft_frame_stats *fs)
{
	uint64_t repeats = 0;

	for (int k = 0; k < FT_REPEAT_KINDS; k++)
		repeats += fs->repeats[k];
	return repeats;
}

static void vblanks(FILE *out, const struct ft_frame_stats *fs, uint64_t repeats)
{
	fprintf(out, "  vblanks from the first frame to the last: %" PRIu64 " new, %" PRIu64 " repeated (%.1f%%):",
		fs->new_vblanks, repeats, share(repeats, fs->new_vblanks + repeats));
	for (int k = 0; k < FT_REPEAT_KINDS; k++)
		fprintf(out, "%s %s %" PRIu64, k ? "," : "", report_repeat_kind_name((enum ft_repeat_kind)k),
			fs->repeats[k]);
	fprintf(out, "\n");
}

static void pacing(FILE *out, const struct ft_frame_stats *fs, uint64_t repeats)
{
	char a[24], b[24], c[24];
	uint64_t span = fs->last_ns - fs->first_ns;
	const char *sep = "";

	fprintf(out, "  pacing: present to present p50 %s, p99 %s, max %s; in vblanks",
		report_pct(a, sizeof(a), &fs->present_ns, 0.5),
		report_pct(b, sizeof(b), &fs->present_ns, 0.99),
		report_pct(c, sizeof(c), &fs->present_ns, 1.0));
	for (int k = 0; k < FT_PRESENT_SLOTS; k++)
		if (fs->present_vblanks[k]) {
			fprintf(out, "%s %d%s: %" PRIu64, sep, k + 1, k + 1 == FT_PRESENT_SLOTS ? "+" : "",
				fs->present_vblanks[k]);
			sep = ",";
		}
	if (!fs->present_ns.count)
		fprintf(out, " -");
	fprintf(out, "; repeats %.2f/s, longest run %" PRIu64 "\n",
		span ? (double)repeats * 1e9 / (double)span : 0.0, fs->longest_repeat_run);
}

/* The in-fence a late frame waited on last: "producer-B (sw_sync) context 4 seqno 2". */
static void in_fence(FILE *out, const struct ft_model *m, const struct ft_blocking *b)
{
	if (b->known && b->ctx != FT_NONE)
		fprintf(out, "%s (%s) context %" PRIu64 " seqno %" PRIu64,
			model_context_row(m, b->ctx)->name, model_context_row(m, b->ctx)->driver,
			b->context, b->seqno);
	else
		fprintf(out, "context %" PRIu64 " seqno %" PRIu64, b->context, b->seqno);
	if (b->plane >= 0)
		fprintf(out, " on plane %d", b->plane);
	if (b->merged)
		fprintf(out, " (the last of merged fence context %" PRIu64 " seqno %" PRIu64 ")",
			b->merged_context, b->merged_seqno);
}

/* A driver frame: what was in time, then the part whose stage ended past its deadline. */
static void driver_cause(FILE *out, const struct ft_late_frame *l, const char *past)
{
	uint64_t ready;
	char d[24];

	if (l->driver_part == FT_DRIVER_PART_SUBMIT) {
		fprintf(out, "submit: the commit entered %s past the deadline (inside the latch margin)", past);
		return;
	}
	fprintf(out, "%s", l->blocking.known ? "in-fences signalled and waiter woken before the deadline"
		: "no in-fence waited on; the commit was ready before the deadline");
	switch (l->driver_part) {
	case FT_DRIVER_PART_TAIL_START:
		fprintf(out, "; tail-start: its commit tail began %s later than any frame on time began its own", past);
		break;
	case FT_DRIVER_PART_COMMIT_TAIL:
		ready = ft_late_ready_from(l, l->tail_ns);	/* begun, fences waited, way clear */
		fprintf(out, "; commit-tail: hw_done %s later than any frame on time reached it, %s after its tail was ready",
			past, report_dur(d, sizeof(d), l->hw_done_ns > ready ? l->hw_done_ns - ready : 0));
		break;
	case FT_DRIVER_PART_LATCH:
		fprintf(out, "; latch: its tail and hw_done as early as frames on time (hw_done %s before the target vblank), "
			"the flip taken later", report_dur(d, sizeof(d), l->target_ns - l->hw_done_ns));
		break;
	default:
		fprintf(out, " (which part of the driver: needs the series' drm_fence_commit_tail and drm_fence_hw_done)");
		break;
	}
}

/*
 * What kept a woken waiter from its CPU, from the scheduler's events: the
 * task that CPU ran longest until the waiter's turn.  Without them, how to
 * get it.
 */
static void wakeup_detail(FILE *out, const struct ft_model *m, const struct ft_late_frame *l)
{
	const struct ft_wakeup *w = &l->wakeup;
	uint64_t runnable = ft_late_runnable_ns(l);
	char d[24];

	if (!m->dec->have_set[FT_SET_SCHED]) {
		fprintf(out, " (record --sched names what held its CPU)");
		return;
	}
	if (!w->traced) {
		fprintf(out, " (no wakeup of it after the signal traced)");
		return;
	}
	report_dur(d, sizeof(d), runnable > l->ready_ns ? runnable - l->ready_ns : 0);
	fprintf(out, "; runnable %s after the signal", d);
	if (w->held_by == FT_HELD_UNKNOWN)
		fprintf(out, ", on CPU %d: what held it is not traced", w->cpu);
	else if (w->held_by == l->waiter_pid)
		fprintf(out, ", still on CPU %d", w->cpu);
	else if (!w->held_by)
		fprintf(out, ", CPU %d idle: a slow wake-up", w->cpu);
	else
		fprintf(out, ", CPU %d held by %s (pid %d) for %s", w->cpu,
			report_holder_name(m, w->held_by), w->held_by,
			report_dur(d, sizeof(d), w->held_ns));
}

/**
 * report_frame_cause() - a late frame's cause in words, as its report line
 * and the timeline page's details give it
 * @out: where to write
 * @m: the model
 * @l: the late frame
 */
void report_frame_cause(FILE *out, const struct ft_model *m, const struct ft_late_frame *l)
{
	char a[24], b[24];

	report_dur(a, sizeof(a), l->past_deadline_ns);
	switch (l->cls) {
	case FT_CLASS_PRODUCER:
		in_fence(out, m, &l->blocking);
		fprintf(out, " signalled %s past the deadline", a);
		break;
	case FT_CLASS_QUEUED:
		if (l->queued_inferred)
			fprintf(out, "the frame before still in the way until %s past the deadline (it landed on this one's target: inferred)", a);
		else
			fprintf(out, "waited for an earlier commit until %s past the deadline (commit stall)", a);
		break;
	case FT_CLASS_WAKEUP:
		in_fence(out, m, &l->blocking);
		fprintf(out, " signalled in time, its waiter (%s) ran %s past the deadline, %s after the signal",
			report_task_name(m, l->waiter_pid), a,
			report_dur(b, sizeof(b), l->woken_ns - l->ready_ns));
		wakeup_detail(out, m, l);
		break;
	case FT_CLASS_DRIVER:
		driver_cause(out, l, a);
		break;
	default:
		fprintf(out, "%s", l->lost ? "events were lost while it was in flight"
			: "its in-fence's signal is not in the trace (producer or wakeup?)");
		break;
	}
}

static void late_line(FILE *out, const struct ft_model *m, const struct ft_late_frame *l)
{
	char a[24], e[24];

	fprintf(out, "  %8u %8u%s %8u %3d %11s  %-9s ", l->out_seqno, l->target_seq,
		l->target_estimated ? "~" : " ", l->landed_seq, (int)(l->landed_seq - l->target_seq),
		l->late_by_known ? report_dur(a, sizeof(a), l->late_by_ns) : "?",
		report_frame_class_name(l->cls));
	report_frame_cause(out, m, l);
	for (int k = FT_CLASS_PRODUCER; k < FT_CLASSES; k++)
		if (l->contributing & (1u << k))
			fprintf(out, "; also past it: %s", report_frame_class_name((enum ft_frame_class)k));
	if (l->in_error)
		fprintf(out, "; in-fence error %d (%s)", l->in_error, errname(l->in_error, e, sizeof(e)));
	fprintf(out, "\n");
}

static void late_frames(FILE *out, const struct ft_model *m, const struct ft_crtc *c,
			const struct report_opts *o)
{
	if (!c->n_late)
		return;
	fprintf(out, "  late frames%s (~: the target vblank's time estimated from the period):\n",
		c->late_count > c->n_late ? " (the first ones, kept in detail)" : "");
	fprintf(out, "  %8s %9s %8s %3s %11s  %-9s %s\n", "out-seq", "target", "landed", "by",
		"late by", "class", "cause");
	for (unsigned int i = 0; i < c->n_late; i++)
		if (report_late_selected(m, c, &c->late[i], o))
			late_line(out, m, &c->late[i]);
}

static void run_cause(FILE *out, const struct ft_crtc *c, const struct ft_repeat_run *r)
{
	switch (r->kind) {
	case FT_REPEAT_WAITING_FENCE:
		fprintf(out, "out-seq %u was pending on an in-fence", r->frame_out_seqno);
		if (r->late >= 0 && (unsigned int)r->late < c->n_late)
			fprintf(out, " (its class: %s)", report_frame_class_name(c->late[r->late].cls));
		break;
	case FT_REPEAT_QUEUED:
		fprintf(out, "out-seq %u was pending behind an earlier commit", r->frame_out_seqno);
		break;
	case FT_REPEAT_DRIVER:
		fprintf(out, "out-seq %u was ready, the driver did not show it", r->frame_out_seqno);
		break;
	case FT_REPEAT_WAITING_POLL:
		fprintf(out, "no commit pending, a sync_file poll in progress; out-seq %u came next",
			r->frame_out_seqno);
		break;
	case FT_REPEAT_COMPOSITOR_LATE:
		fprintf(out, "no commit pending past the compositor's cadence (%u vblank%s); out-seq %u came next",
			r->cadence, r->cadence == 1 ? "" : "s", r->frame_out_seqno);
		break;
	default:
		fprintf(out, "not known (out-seq %u pending, or its target not in reach)",
			r->frame_out_seqno);
		break;
	}
}

/* One line per run of repeats of one blame, idle runs aside. */
static void repeat_runs(FILE *out, const struct ft_model *m, const struct ft_crtc *c,
			const struct report_opts *o)
{
	unsigned int selected = 0;

	for (unsigned int i = 0; i < c->n_runs; i++)
		selected += report_run_selected(m, c, &c->runs[i], o);
	if (!selected)
		return;
	fprintf(out, "  repeated vblanks in runs of one blame%s (idle ones counted above, not listed):\n",
		c->runs_total > c->n_runs ? " (the first ones, kept in detail)" : "");
	fprintf(out, "  %8s %8s %6s  %-16s %s\n", "first", "last", "count", "blame", "cause");
	for (unsigned int i = 0; i < c->n_runs; i++) {
		const struct ft_repeat_run *r = &c->runs[i];

		if (!report_run_selected(m, c, r, o))
			continue;
		fprintf(out, "  %8u %8u %6u  %-16s ", r->first_seq, r->first_seq + r->count - 1,
			r->count, report_repeat_kind_name(r->kind));
		run_cause(out, c, r);
		fprintf(out, "\n");
	}
}

static void no_frame(FILE *out, const struct ft_model *m, const struct ft_crtc *c,
		     const struct report_opts *o)
{
	fprintf(out, "  no frame landed on a traced vblank%s\n", c->fake_vblank ?
		" (fake vblanks only: nothing can be judged)" : "");
	failed_count(out, m, c);	/* its commits may all have failed */
	failed_frames(out, m, c, o);
}

/**
 * report_text_frames() - the frames section
 * @out: where to write
 * @m: the model
 * @o: the filters (--crtc, --pid, --timeline, --context)
 */
void report_text_frames(FILE *out, const struct ft_model *m, const struct report_opts *o)
{
	fprintf(out, "\nFrames (target: the first vblank after the commit; deadline: target - latch margin;\n"
		"  a late frame's class is what was ready last past the deadline)\n");
	for (unsigned int i = 0; i < m->display.crtcs.n; i++) {
		const struct ft_crtc *c = &m->display.crtcs.items[i];
		uint64_t repeats;

		if (!report_crtc_selected(c, o))
			continue;
		fprintf(out, "CRTC %u (%s on %s)\n", c->crtc_id, c->name, c->driver);
		if (!c->fs.new_vblanks) {
			no_frame(out, m, c, o);
			continue;
		}
		counts(out, m, c);
		failed_count(out, m, c);
		margin_line(out, m, &c->fs);
		repeats = repeats_total(&c->fs);
		vblanks(out, &c->fs, repeats);
		pacing(out, &c->fs, repeats);
		late_frames(out, m, c, o);
		failed_frames(out, m, c, o);
		repeat_runs(out, m, c, o);
	}
	if (!m->display.crtcs.n)
		fprintf(out, "  no CRTC out-fence timeline in this trace\n");
}
