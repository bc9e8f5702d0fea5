// SPDX-License-Identifier: GPL-2.0
/*
 * report-frames-json.c - the frames section of `report --json`: per CRTC
 * the outcomes, classes, repeats and pacing, each late frame and each run
 * of repeats (idle ones aside) kept
 * (docs/schema/report.schema.json, "frames").  A value the trace cannot
 * give is null, never 0.
 */
#include <inttypes.h>
#include <stdio.h>

#include "json-str.h"
#include "report.h"

static void ns_or_null(FILE *out, const char *key, int known, uint64_t ns)
{
	if (known)
		fprintf(out, ", \"%s\": %" PRIu64, key, ns);
	else
		fprintf(out, ", \"%s\": null", key);
}

static void classes(FILE *out, const struct ft_frame_stats *fs)
{
	fprintf(out, ", \"late_by_class\": {");
	for (int k = FT_CLASS_PRODUCER; k < FT_CLASSES; k++)
		fprintf(out, "%s\"%s\": %" PRIu64, k == FT_CLASS_PRODUCER ? "" : ", ",
			report_frame_class_name((enum ft_frame_class)k), fs->by_class[k]);
	fprintf(out, "}, \"repeated_vblanks\": {");
	for (int k = 0; k < FT_REPEAT_KINDS; k++)
		fprintf(out, "%s\"%s\": %" PRIu64, k ? ", " : "",
			report_repeat_kind_name((enum ft_repeat_kind)k), fs->repeats[k]);
	fprintf(out, "}");
}

static void pacing(FILE *out, const struct ft_frame_stats *fs)
{
	const struct hist *h = &fs->present_ns;

	fprintf(out, ", \"present_interval_vblanks\": [");
	for (int k = 0; k < FT_PRESENT_SLOTS; k++)
		fprintf(out, "%s%" PRIu64, k ? ", " : "", fs->present_vblanks[k]);
	fprintf(out, "]");
	ns_or_null(out, "present_interval_p50_ns", h->count != 0, hist_percentile(h, 0.5));
	ns_or_null(out, "present_interval_p99_ns", h->count != 0, hist_percentile(h, 0.99));
	ns_or_null(out, "present_interval_max_ns", h->count != 0, h->max);
	fprintf(out, ", \"longest_repeat_run\": %" PRIu64, fs->longest_repeat_run);
}

/* The waiter's wakeup (sched events), or null when none after the signal was traced. */
static void waiter_wakeup(FILE *out, const struct ft_model *m, const struct ft_late_frame *l)
{
	const struct ft_wakeup *w = &l->wakeup;

	if (!w->traced) {
		fprintf(out, "null");
		return;
	}
	fprintf(out, "{\"runnable_ns\": %" PRIu64 ", \"cpu\": %d, \"held_by_pid\": ",
		ft_late_runnable_ns(l), w->cpu);
	if (!report_holder_known(l)) {
		fprintf(out, "null, \"held_by\": null, \"held_ns\": null}");
		return;
	}
	fprintf(out, "%d, \"held_by\": ", w->held_by);
	json_str(out, report_holder_name(m, w->held_by));
	fprintf(out, ", \"held_ns\": %u}", w->held_ns);
}

static void late_frame(FILE *out, const struct ft_model *m, const struct ft_late_frame *l)
{
	const char *part;

	fprintf(out, "\n        {\"out_fence_seqno\": %u", l->out_seqno);
	if (l->commit)
		fprintf(out, ", \"commit\": %" PRIu64, l->commit);
	else
		fprintf(out, ", \"commit\": null");
	fprintf(out, ", \"pid\": %d, \"submit_ns\": %" PRIu64 ", \"target_vblank\": %u"
		", \"target_estimated\": %s, \"landed_vblank\": %u, \"late_by_vblanks\": %d",
		l->pid, l->submit_ns, l->target_seq, l->target_estimated ? "true" : "false",
		l->landed_seq, (int)(l->landed_seq - l->target_seq));
	ns_or_null(out, "late_by_ns", l->late_by_known, l->late_by_ns);
	fprintf(out, ", \"class\": \"%s\", \"contributing\": [", report_frame_class_name(l->cls));
	report_frame_classes(out, l->contributing, ", ", "\"");
	fprintf(out, "]");
	ns_or_null(out, "past_deadline_ns", report_frame_past_known(l),
		   l->past_deadline_ns);
	part = report_driver_part_name(l);
	if (part)
		fprintf(out, ", \"driver_part\": \"%s\"", part);
	else
		fprintf(out, ", \"driver_part\": null");
	ns_or_null(out, "commit_tail_ns", l->tail_ns != 0, l->tail_ns);
	ns_or_null(out, "hw_done_ns", l->hw_done_ns != 0, l->hw_done_ns);
	ns_or_null(out, "ready_ns", l->ready_known, l->ready_ns);
	ns_or_null(out, "woken_ns", l->woken_ns != 0, l->woken_ns);
	fprintf(out, ", \"wakeup\": ");
	waiter_wakeup(out, m, l);
	ns_or_null(out, "queued_until_ns", l->queued_until_ns != 0, l->queued_until_ns);
	fprintf(out, ", \"queued_inferred\": %s, \"events_lost\": %s, \"in_fence_error\": ",
		l->queued_inferred ? "true" : "false", l->lost ? "true" : "false");
	if (l->in_error)
		fprintf(out, "%d", l->in_error);
	else
		fprintf(out, "null");
	fprintf(out, ", \"repeats\": %u, \"blocking\": ", l->repeats);
	report_json_blocking(out, m, &l->blocking);
	fprintf(out, "}");
}

static void repeat_run(FILE *out, const struct ft_crtc *c, const struct ft_repeat_run *r)
{
	fprintf(out, "\n        {\"first_vblank\": %u, \"count\": %u, \"blame\": \"%s\""
		", \"next_out_fence_seqno\": %u, \"cadence_vblanks\": %u, \"class\": ",
		r->first_seq, r->count, report_repeat_kind_name(r->kind), r->frame_out_seqno,
		r->cadence);
	if (r->late >= 0 && (unsigned int)r->late < c->n_late)
		fprintf(out, "\"%s\"}", report_frame_class_name(c->late[r->late].cls));
	else
		fprintf(out, "null}");
}

static void failed_frame(FILE *out, const struct ft_failed_frame *f)
{
	fprintf(out, "\n        {\"out_fence_seqno\": %u, \"pid\": %d, \"submit_ns\": %" PRIu64
		", \"ended_ns\": %" PRIu64 ", \"commit\": ", f->out_seqno, f->pid, f->submit_ns, f->ended_ns);
	report_json_u64_or_null(out, f->commit != 0, f->commit);
	fprintf(out, ", \"error\": ");
	if (f->commit)
		fprintf(out, "%d", f->err);
	else
		fprintf(out, "null");
	fprintf(out, ", \"events_lost\": %s}", f->lost ? "true" : "false");
}

/* Frames whose commit was rejected: counts (null when destroys were not recorded), detail. */
static void failed(FILE *out, const struct ft_model *m, const struct ft_crtc *c,
		   const struct report_opts *o)
{
	unsigned int n = 0;

	ns_or_null(out, "failed", report_failed_known(m), c->fs.failed);
	ns_or_null(out, "failed_or_lost", report_failed_known(m), c->fs.failed_or_lost);
	ns_or_null(out, "retried", report_failed_known(m), c->fs.retried);
	fprintf(out, ", \"failed_frames_kept\": %u, \"failed_frames\": [", c->n_failed);
	for (unsigned int i = 0; i < c->n_failed; i++)
		if (report_failed_selected(m, c, &c->failed[i], o)) {
			fprintf(out, "%s", n++ ? "," : "");
			failed_frame(out, &c->failed[i]);
		}
	fprintf(out, "]");
}

static void crtc_frames(FILE *out, const struct ft_model *m, const struct ft_crtc *c,
			const struct report_opts *o)
{
	const struct ft_frame_stats *fs = &c->fs;
	unsigned int n = 0;

	fprintf(out, "\n    {\"crtc\": %u, \"name\": ", c->crtc_id);
	json_str(out, c->name);
	fprintf(out, ", \"judged\": %" PRIu64 ", \"on_time\": %" PRIu64 ", \"late\": %" PRIu64
		", \"not_judged\": %" PRIu64 ", \"new_vblanks\": %" PRIu64, ft_frames_judged(c),
		fs->on_time, c->late_count, fs->unjudged, fs->new_vblanks);
	ns_or_null(out, "in_fence_errors", report_errors_known(m), fs->error_fence);
	failed(out, m, c, o);
	fprintf(out, ", \"latch_margin_ns\": %" PRIu64 ", \"latch_margin\": \"%s\"", fs->margin_ns,
		report_latch_margin_source(m, fs));
	ns_or_null(out, "tail_margin_ns", fs->tail_margin_known, fs->tail_margin_ns);
	ns_or_null(out, "hw_done_margin_ns", fs->hw_margin_known, fs->hw_margin_ns);
	classes(out, fs);
	pacing(out, fs);
	fprintf(out, ", \"late_frames_kept\": %u, \"late_frames\": [", c->n_late);
	for (unsigned int i = 0; i < c->n_late; i++)
		if (report_late_selected(m, c, &c->late[i], o)) {
			fprintf(out, "%s", n++ ? "," : "");
			late_frame(out, m, &c->late[i]);
		}
	fprintf(out, "], \"repeat_runs_total\": %" PRIu64 ", \"repeat_runs_kept\": %u"
		", \"repeat_runs\": [", c->runs_total, c->n_runs);
	n = 0;
	for (unsigned int i = 0; i < c->n_runs; i++)
		if (report_run_selected(m, c, &c->runs[i], o)) {
			fprintf(out, "%s", n++ ? "," : "");
			repeat_run(out, c, &c->runs[i]);
		}
	fprintf(out, "]}");
}

/**
 * report_json_frames() - the "frames" array, one object per CRTC
 * @out: where to write
 * @m: the model
 * @o: --crtc and the late frames' filters
 */
void report_json_frames(FILE *out, const struct ft_model *m, const struct report_opts *o)
{
	int first = 1;

	fprintf(out, "  \"frames\": [");
	for (unsigned int i = 0; i < m->display.crtcs.n; i++) {
		if (!report_crtc_selected(&m->display.crtcs.items[i], o))
			continue;
		fprintf(out, "%s", first ? "" : ",");
		crtc_frames(out, m, &m->display.crtcs.items[i], o);
		first = 0;
	}
	fprintf(out, "\n  ],\n");
}
