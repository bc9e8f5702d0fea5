// SPDX-License-Identifier: GPL-2.0
/*
 * export-perfetto-frames.c - the frame timeline in the Perfetto export, as
 * Android's FrameTimeline draws it: per CRTC an "expected" track (commit
 * -> its target vblank) and an "actual" one (commit -> the vblank it
 * landed on), the actual slice named by its outcome and class so that
 * Perfetto, which colours slices by name, gives each class one colour;
 * a track of the runs of repeated vblanks, named by their blame; and a
 * track of the frames that failed (the commit rejected: from the
 * out-fence's making to its destroy, unsignalled).
 */
#include <inttypes.h>

#include "json-str.h"
#include "perfetto.h"
#include "report.h"

#define FRAME_TID_BASE 3000000	/* + (CRTC index * TL_MAX_ROWS + row) * 2 + actual */
#define REPEAT_TID_BASE 4000000	/* + CRTC index */
#define FAILED_TID_BASE 5000000	/* + CRTC index */

static uint64_t frame_tid(uint32_t crtc, unsigned int row, int actual)
{
	return FRAME_TID_BASE + ((uint64_t)crtc * TL_MAX_ROWS + row) * 2 + (actual ? 1 : 0);
}

void perfetto_frame_names(FILE *out, const struct tl_data *d)
{
	const struct ft_model *m = d->model;
	char name[160];

	for (unsigned int i = 0; i < m->display.crtcs.n; i++) {
		const struct ft_crtc *c = &m->display.crtcs.items[i];

		for (unsigned int r = 0; r < d->frame_rows[i]; r++)
			for (int actual = 0; actual < 2; actual++) {
				snprintf(name, sizeof(name), "%s frames: %s%s", c->name,
					 actual ? "actual" : "expected", r ? " (overlapping)" : "");
				perfetto_meta(out, "thread_name", PID_DISPLAY, frame_tid(i, r, actual), name,
					      -6 + actual);
			}
		if (c->n_runs) {
			snprintf(name, sizeof(name), "%s repeated vblanks", c->name);
			perfetto_meta(out, "thread_name", PID_DISPLAY, REPEAT_TID_BASE + i, name, -4);
		}
		if (c->n_failed) {
			snprintf(name, sizeof(name), "%s frames: failed", c->name);
			perfetto_meta(out, "thread_name", PID_DISPLAY, FAILED_TID_BASE + i, name, -3);
		}
	}
}

/* The actual slice's name: Perfetto's colour.  "late: producer", "on time"... */
static void outcome_name(FILE *out, const struct tl_data *d, const struct tl_frame *f)
{
	if (f->outcome == FT_LANDED_LATE)
		fprintf(out, "\"late: %s\"", report_frame_class_name(tl_frame_class(d, f)));
	else
		fprintf(out, "\"%s\"", f->outcome == FT_LANDED_ON_TIME ? "on time" : "not judged");
}

static void slice_head(FILE *out, uint64_t tid, uint64_t t0, uint64_t t1)
{
	fprintf(out, ",\"cat\":\"frame\",\"ph\":\"X\",\"pid\":%d,\"tid\":%" PRIu64, PID_DISPLAY, tid);
	perfetto_us(out, "ts", t0);
	perfetto_us(out, "dur", t1 > t0 ? t1 - t0 : 0);
}

/* A late frame's facts the report gives: how late, what was past the deadline. */
static void late_args(FILE *out, const struct tl_data *d, const struct tl_frame *f)
{
	const struct ft_crtc *c = &d->model->display.crtcs.items[f->crtc];
	const struct ft_late_frame *l;
	const char *part;

	if (f->late < 0 || (unsigned int)f->late >= c->n_late)
		return;
	l = &c->late[f->late];
	if (l->late_by_known)
		fprintf(out, ",\"late_by_ns\":%" PRIu64, l->late_by_ns);
	if (report_frame_past_known(l))
		fprintf(out, ",\"past_deadline_ns\":%" PRIu64, l->past_deadline_ns);
	part = report_driver_part_name(l);
	if (part)
		fprintf(out, ",\"driver_part\":\"%s\"", part);
	if (report_holder_known(l)) {	/* sched events: whose the waiter's CPU was */
		fputs(",\"cpu_held_by\":", out);
		json_str(out, report_holder_name(d->model, l->wakeup.held_by));
		fprintf(out, ",\"cpu_held_by_pid\":%d", l->wakeup.held_by);
	}
	if (l->blocking.known && l->blocking.ctx != FT_NONE) {
		fputs(",\"in_fence\":", out);
		json_str(out, model_context_row(d->model, l->blocking.ctx)->name);
		fprintf(out, ",\"in_fence_context\":%" PRIu64 ",\"in_fence_seqno\":%" PRIu64,
			l->blocking.context, l->blocking.seqno);
	}
}

static void frame_events(FILE *out, const struct tl_data *d, const struct tl_frame *f)
{
	if (f->target_ns) {
		fprintf(out, ",\n{\"name\":\"expected\"");
		slice_head(out, frame_tid(f->crtc, f->row, 0), f->submit, f->target_ns);
		fprintf(out, ",\"args\":{\"out_fence_seqno\":%u,\"target_vblank\":%u,\"target_estimated\":%s}}",
			f->out_seqno, f->target_seq, f->target_estimated ? "true" : "false");
	}
	fputs(",\n{\"name\":", out);
	outcome_name(out, d, f);
	slice_head(out, frame_tid(f->crtc, f->row, 1), f->submit, f->landed_ns);
	fprintf(out, ",\"args\":{\"out_fence_seqno\":%u,\"landed_vblank\":%u,\"class\":", f->out_seqno,
		f->landed_seq);
	if (f->outcome == FT_LANDED_NOT_JUDGED)
		fputs("null", out);
	else
		fprintf(out, "\"%s\"", report_frame_class_name(tl_frame_class(d, f)));
	if (f->target_ns)
		fprintf(out, ",\"late_by_vblanks\":%d", (int)(f->landed_seq - f->target_seq));
	late_args(out, d, f);
	fputs("}}", out);
}

/* A run of repeats, from its first vblank to the one after its last; untimed ones left out. */
static void run_event(FILE *out, const struct tl_data *d, uint32_t ci, const struct ft_repeat_run *r)
{
	const struct ft_crtc *c = &d->model->display.crtcs.items[ci];
	uint64_t t0 = tl_vblank_time(d, c->pipe, r->first_seq);
	uint64_t t1 = tl_vblank_time(d, c->pipe, r->first_seq + r->count);

	if (!t0 || !t1)
		return;
	fprintf(out, ",\n{\"name\":\"%s\"", report_repeat_kind_name(r->kind));
	slice_head(out, REPEAT_TID_BASE + ci, t0, t1);
	fprintf(out, ",\"args\":{\"first_vblank\":%u,\"count\":%u,\"next_out_fence_seqno\":%u,"
		"\"cadence_vblanks\":%u}}", r->first_seq, r->count, r->frame_out_seqno, r->cadence);
}

/* A failed frame: its own track (a rejection may fall inside another frame's actual slice). */
static void failed_event(FILE *out, uint32_t ci, const struct ft_failed_frame *f)
{
	fprintf(out, ",\n{\"name\":\"%s\"", f->lost ? "failed or lost" : "failed");
	slice_head(out, FAILED_TID_BASE + ci, f->submit_ns, f->ended_ns);
	fprintf(out, ",\"args\":{\"out_fence_seqno\":%u,\"pid\":%d", f->out_seqno, f->pid);
	if (f->commit)
		fprintf(out, ",\"commit\":%" PRIu64 ",\"error\":%d", f->commit, f->err);
	fputs("}}", out);
}

void perfetto_frames(FILE *out, const struct tl_data *d)
{
	const struct ft_model *m = d->model;

	for (size_t i = 0; i < d->frames.n; i++)
		frame_events(out, d, TL_AT(d->frames, struct tl_frame, i));
	for (uint32_t ci = 0; ci < m->display.crtcs.n; ci++)
		for (unsigned int k = 0; k < m->display.crtcs.items[ci].n_runs; k++)
			run_event(out, d, ci, &m->display.crtcs.items[ci].runs[k]);
	for (uint32_t ci = 0; ci < m->display.crtcs.n; ci++)
		for (unsigned int k = 0; k < m->display.crtcs.items[ci].n_failed; k++)
			failed_event(out, ci, &m->display.crtcs.items[ci].failed[k]);
}
