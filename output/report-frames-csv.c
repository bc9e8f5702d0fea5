// SPDX-License-Identifier: GPL-2.0
/*
 * report-frames-csv.c - the frames section of `report --csv`: a table of
 * CRTCs (outcomes, classes, repeats), an empty line, a table of the late
 * frames kept, each with its class, an empty line, a table of the runs of
 * repeats kept (idle ones aside), an empty line, a table of the failed
 * frames kept.  Empty fields: unknown.
 */
#include <inttypes.h>
#include <stdio.h>

#include "csv-str.h"
#include "report.h"

static void crtcs_header(FILE *out)
{
	fprintf(out, "crtc,name,judged,on_time,late,not_judged,in_fence_errors,latch_margin_ns,latch_margin");
	for (int k = FT_CLASS_PRODUCER; k < FT_CLASSES; k++)
		fprintf(out, ",late_%s", report_frame_class_name((enum ft_frame_class)k));
	fprintf(out, ",new_vblanks");
	for (int k = 0; k < FT_REPEAT_KINDS; k++)
		fprintf(out, ",repeat_%s", report_repeat_kind_name((enum ft_repeat_kind)k));
	fprintf(out, ",longest_repeat_run,present_interval_p50_ns,failed,failed_or_lost,retried\n");
}

static void crtc_row(FILE *out, const struct ft_model *m, const struct ft_crtc *c)
{
	const struct ft_frame_stats *fs = &c->fs;

	fprintf(out, "%u,", c->crtc_id);
	csv_str(out, c->name);
	fprintf(out, ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",", ft_frames_judged(c),
		fs->on_time, c->late_count, fs->unjudged);
	if (report_errors_known(m))
		fprintf(out, "%" PRIu64, fs->error_fence);
	fprintf(out, ",%" PRIu64 ",%s", fs->margin_ns, report_latch_margin_source(m, fs));
	for (int k = FT_CLASS_PRODUCER; k < FT_CLASSES; k++)
		fprintf(out, ",%" PRIu64, fs->by_class[k]);
	fprintf(out, ",%" PRIu64, fs->new_vblanks);
	for (int k = 0; k < FT_REPEAT_KINDS; k++)
		fprintf(out, ",%" PRIu64, fs->repeats[k]);
	fprintf(out, ",%" PRIu64 ",", fs->longest_repeat_run);
	if (fs->present_ns.count)
		fprintf(out, "%" PRIu64, hist_percentile(&fs->present_ns, 0.5));
	if (report_failed_known(m))
		fprintf(out, ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 "\n", fs->failed, fs->failed_or_lost,
			fs->retried);
	else
		fprintf(out, ",,,\n");
}

static void failed_row(FILE *out, const struct ft_crtc *c, const struct ft_failed_frame *f)
{
	fprintf(out, "%u,%u,%d,%" PRIu64 ",%" PRIu64 ",", c->crtc_id, f->out_seqno, f->pid,
		f->submit_ns, f->ended_ns);
	if (f->commit)
		fprintf(out, "%" PRIu64 ",%d", f->commit, f->err);
	else
		fprintf(out, ",");
	fprintf(out, ",%d\n", f->lost);
}

static void late_row(FILE *out, const struct ft_crtc *c, const struct ft_late_frame *l)
{
	const char *part;

	fprintf(out, "%u,%u,", c->crtc_id, l->out_seqno);
	if (l->commit)
		fprintf(out, "%" PRIu64, l->commit);
	fprintf(out, ",%u,%d,%u,%d,", l->target_seq, l->target_estimated, l->landed_seq,
		(int)(l->landed_seq - l->target_seq));
	if (l->late_by_known)
		fprintf(out, "%" PRIu64, l->late_by_ns);
	fprintf(out, ",%s,", report_frame_class_name(l->cls));
	report_frame_classes(out, l->contributing, ";", "");
	fprintf(out, ",");
	if (report_frame_past_known(l))
		fprintf(out, "%" PRIu64, l->past_deadline_ns);
	part = report_driver_part_name(l);
	fprintf(out, ",%s,", part ? part : "");
	if (l->in_error)
		fprintf(out, "%d", l->in_error);
	fprintf(out, ",%u,", l->repeats);
	if (report_holder_known(l))
		fprintf(out, "%d", l->wakeup.held_by);
	fprintf(out, "\n");
}

static void run_row(FILE *out, const struct ft_crtc *c, const struct ft_repeat_run *r)
{
	fprintf(out, "%u,%u,%u,%s,%u,%u,", c->crtc_id, r->first_seq, r->count,
		report_repeat_kind_name(r->kind), r->frame_out_seqno, r->cadence);
	if (r->late >= 0 && (unsigned int)r->late < c->n_late)
		fprintf(out, "%s", report_frame_class_name(c->late[r->late].cls));
	fprintf(out, "\n");
}

/**
 * report_csv_frames() - the frames section's four tables
 * @out: where to write
 * @m: the model
 * @o: --crtc and the late frames' filters
 *
 * Return: 0, or -1 when @out failed.
 */
int report_csv_frames(FILE *out, const struct ft_model *m, const struct report_opts *o)
{
	crtcs_header(out);
	for (unsigned int i = 0; i < m->display.crtcs.n; i++)
		if (report_crtc_selected(&m->display.crtcs.items[i], o))
			crtc_row(out, m, &m->display.crtcs.items[i]);
	fprintf(out, "\ncrtc,out_fence_seqno,commit,target_vblank,target_estimated,landed_vblank,"
		"late_by_vblanks,late_by_ns,class,contributing,past_deadline_ns,driver_part,in_fence_error,repeats,held_by_pid\n");
	for (unsigned int i = 0; i < m->display.crtcs.n; i++) {
		const struct ft_crtc *c = &m->display.crtcs.items[i];

		if (!report_crtc_selected(c, o))
			continue;
		for (unsigned int k = 0; k < c->n_late; k++)
			if (report_late_selected(m, c, &c->late[k], o))
				late_row(out, c, &c->late[k]);
	}
	fprintf(out, "\ncrtc,first_vblank,count,blame,next_out_fence_seqno,cadence_vblanks,class\n");
	for (unsigned int i = 0; i < m->display.crtcs.n; i++) {
		const struct ft_crtc *c = &m->display.crtcs.items[i];

		if (!report_crtc_selected(c, o))
			continue;
		for (unsigned int k = 0; k < c->n_runs; k++)
			if (report_run_selected(m, c, &c->runs[k], o))
				run_row(out, c, &c->runs[k]);
	}
	fprintf(out, "\ncrtc,out_fence_seqno,pid,submit_ns,ended_ns,commit,error,events_lost\n");
	for (unsigned int i = 0; i < m->display.crtcs.n; i++) {
		const struct ft_crtc *c = &m->display.crtcs.items[i];

		if (!report_crtc_selected(c, o))
			continue;
		for (unsigned int k = 0; k < c->n_failed; k++)
			if (report_failed_selected(m, c, &c->failed[k], o))
				failed_row(out, c, &c->failed[k]);
	}
	return ferror(out) ? -1 : 0;
}
