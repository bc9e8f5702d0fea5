// SPDX-License-Identifier: GPL-2.0
/*
 * timeline-json.c - the page's data: tl_data + the model's key numbers as
 * one compact JSON object, read by viz/timeline.js:
 *
 *   { file, clock, events, lost, start_ns, duration,
 *     timelines: [{ctx, driver, name, crtc, rows, fences, signaled, p50, p99}],
 *     crtcs: [{id, name, driver, tl, pipe, frames, late, p50, p99}],
 *     pipes: [{pipe, vblanks, missed}], tasks: [{pid, rows, comm}], comms: {pid: name},
 *     fences: {tl[], seq[], t0[], dur[], row[]}, waits: {..., task[], out[]},
 *     (waits' out: + 1 and as deltas, so 0 is none)
 *     series, crtc_rows[], planes: [{id, crtc, rows}],
 *     plane_waits: {..., plane[], commit[], failed[]},
 *     commits: {pid[], and with the series: out[], crtc[], id[], t0[], dur[],
 *               row[], vblank[], flags[]},
 *     vblanks: {pipe[], seq[], t[]}, missed: [{pipe, t, from, to}],
 *     late: [{crtc, fence, seq, pid, late_by, target, landed, signal, cls,
 *             fence_late, cause, block: {fence, tl, seq, wait, signal} | null}],
 *     frame_classes: [...], repeat_kinds: [...],
 *     frames: {crtc[], seq[], t0[], exp[], dur[], row[], cls[], target[],
 *              landed[], est[], late[]}, frame_rows[],
 *     repeats: [{crtc, first, count, kind, next, cadence, t0, t1}],
 *     failed_frames: [{crtc, seq, pid, t0, t1, lost, commit, err}] }
 *
 * frames (timeline-json-frames.c): each frame that landed, its expected
 * span (t0 -> t0 + exp: its target vblank; exp -1 not judged) and actual
 * one (t0 -> t0 + dur: the vblank it landed on); cls indexes
 * frame_classes (its final class), late the late array (-1 none);
 * repeats' kind indexes repeat_kinds, their times -1 when not traced;
 * failed_frames are the report's kept ones, out-fence made (t0) to dropped
 * unsignalled (t1), commit and err (a name) null without the series.
 *
 * "fence" and "out" fields index the fences arrays, "commit" the commits
 * (-1: not in the trace); times are ns from start_ns (a late frame's
 * signal: its out-fence's; its block's: the blocking fence's, else the
 * end of the wait; -1 unknown); dur -1 means it never ended.  A wait's
 * "out" is the out-fence of the commit the model says it held up.
 * "series" says whether the trace has the kernel
 * series' commit events: without them there are no plane waits and the
 * commits are inferred, one per out-fence.
 *
 * Columnar arrays with start times as deltas keep it near 9 bytes per
 * trace event.  Every string goes through json_str(), which also
 * escapes < > & so the object can sit inside a <script> element.
 */
#include <inttypes.h>
#include <string.h>

#include "json-str.h"
#include "report.h"
#include "timeline.h"

static void timelines(FILE *out, const struct tl_data *d)
{
	const struct ft_model *m = d->model;

	fputs(",\"timelines\":[", out);
	for (unsigned int i = 0; i < m->fences.timelines.n; i++) {
		const struct ft_timeline *t = &m->fences.timelines.items[i];

		fprintf(out, "%s{\"ctx\":%" PRIu64 ",\"driver\":", i ? "," : "", t->context);
		json_str(out, t->driver);
		fputs(",\"name\":", out);
		json_str(out, t->name);
		fprintf(out, ",\"crtc\":%d,\"rows\":%u,\"fences\":%" PRIu64 ",\"signaled\":%" PRIu64
			",\"p50\":%" PRIu64 ",\"p99\":%" PRIu64 "}", t->crtc, d->timeline_rows[i],
			t->fences, t->signaled, hist_percentile(&t->latency, 0.5),
			hist_percentile(&t->latency, 0.99));
	}
	fputc(']', out);
}

static void crtcs_and_pipes(FILE *out, const struct ft_model *m)
{
	fputs(",\"crtcs\":[", out);
	for (unsigned int i = 0; i < m->display.crtcs.n; i++) {
		const struct ft_crtc *c = &m->display.crtcs.items[i];

		fprintf(out, "%s{\"id\":%u,\"name\":", i ? "," : "", c->crtc_id);
		json_str(out, c->name);
		fputs(",\"driver\":", out);
		json_str(out, c->driver);
		fprintf(out, ",\"tl\":%u,\"pipe\":%d,\"frames\":%" PRIu64 ",\"late\":%" PRIu64
			",\"p50\":%" PRIu64 ",\"p99\":%" PRIu64 ",\"judged\":%" PRIu64 ",\"fake\":%" PRIu64
			",\"failed\":", c->timeline, c->pipe, c->frames,
			c->late_count, hist_percentile(&c->out_latency, 0.5),
			hist_percentile(&c->out_latency, 0.99), ft_frames_judged(c), c->fake_vblank);
		report_json_u64_or_null(out, report_failed_known(m), c->fs.failed);
		fputs(",\"failed_or_lost\":", out);
		report_json_u64_or_null(out, report_failed_known(m), c->fs.failed_or_lost);
		fputc('}', out);
	}
	fputs("],\"pipes\":[", out);
	for (unsigned int i = 0; i < m->display.pipes.n; i++)
		fprintf(out, "%s{\"pipe\":%d,\"vblanks\":%" PRIu64 ",\"missed\":%" PRIu64 "}",
			i ? "," : "", m->display.pipes.items[i].pipe, m->display.pipes.items[i].vblanks,
			m->display.pipes.items[i].missed);
	fputc(']', out);
}

static void tasks(FILE *out, const struct tl_data *d)
{
	fputs(",\"tasks\":[", out);
	for (size_t i = 0; i < d->tasks.n; i++) {
		const struct tl_task *t = TL_AT(d->tasks, struct tl_task, i);

		fprintf(out, "%s{\"pid\":%d,\"rows\":%u,\"comm\":", i ? "," : "", t->pid, t->rows);
		json_str(out, report_task_name(d->model, t->pid));
		fputc('}', out);
	}
	fputc(']', out);
}

static void comm_once(FILE *out, const struct tl_data *d, struct keymap *seen, int pid, int *first)
{
	uint32_t v;

	if (keymap_get(seen, (uint32_t)pid, &v))
		return;
	if (keymap_put(seen, (uint32_t)pid, 1))
		return;			/* no memory: the name is left out, not the page */
	fprintf(out, "%s\"%d\":", *first ? "" : ",", pid);
	json_str(out, report_task_name(d->model, pid));
	*first = 0;
}

/* pid -> task name, for every task that waited or committed: search by name. */
static void comms(FILE *out, const struct tl_data *d)
{
	struct keymap seen = { 0 };
	int first = 1;

	fputs(",\"comms\":{", out);
	for (size_t i = 0; i < d->tasks.n; i++)
		comm_once(out, d, &seen, TL_AT(d->tasks, struct tl_task, i)->pid, &first);
	for (size_t i = 0; i < d->commits.n; i++)
		comm_once(out, d, &seen, TL_AT(d->commits, struct tl_commit, i)->pid, &first);
	fputc('}', out);
	keymap_free(&seen);
}


static int64_t none_as_minus1(uint32_t v) { return v == UINT32_MAX ? -1 : (int64_t)v; }
static int64_t span_tl(const void *p) { return none_as_minus1(((const struct tl_span *)p)->timeline); }
static int64_t span_lane(const void *p) { return ((const struct tl_span *)p)->lane; }
static int64_t span_seq(const void *p) { return ((const struct tl_span *)p)->seqno; }
static int64_t span_t0(const void *p) { return (int64_t)((const struct tl_span *)p)->t0; }
static int64_t span_row(const void *p) { return ((const struct tl_span *)p)->row; }
static int64_t span_link(const void *p) { return none_as_minus1(((const struct tl_span *)p)->link); }
/* + 1, so that "none" is 0: runs of waits on one commit then cost one digit as deltas */
static int64_t span_link1(const void *p) { return span_link(p) + 1; }
static int64_t span_failed(const void *p) { return ((const struct tl_span *)p)->failed; }
/* -1: never ended (drawn to the end of the trace) */
static int64_t span_dur(const void *p)
{
	const struct tl_span *s = p;

	return s->done ? (int64_t)(s->t1 - s->t0) : -1;
}

static int64_t commit_crtc(const void *p) { return ((const struct tl_commit *)p)->crtc; }
static int64_t commit_id(const void *p) { return (int64_t)((const struct tl_commit *)p)->id; }
static int64_t commit_t0(const void *p) { return (int64_t)((const struct tl_commit *)p)->t0; }
static int64_t commit_row(const void *p) { return ((const struct tl_commit *)p)->row; }
static int64_t commit_out(const void *p) { return none_as_minus1(((const struct tl_commit *)p)->out); }
static int64_t commit_vblank(const void *p) { return ((const struct tl_commit *)p)->vblank; }
static int64_t commit_pid(const void *p) { return ((const struct tl_commit *)p)->pid; }
static int64_t commit_dur(const void *p)
{
	const struct tl_commit *c = p;

	return c->done ? (int64_t)(c->t1 - c->t0) : -1;
}
/* enum tl_commit_flag */
static int64_t commit_flags(const void *p)
{
	const struct tl_commit *c = p;

	return (c->flipped ? TL_COMMIT_FLIPPED : 0) | (c->failed ? TL_COMMIT_FAILED : 0) |
	       (c->inferred ? TL_COMMIT_INFERRED : 0);
}

/* fences (waits: + task, out; plane waits: + plane, commit, failed) */
static void spans(FILE *out, const char *name, const struct tl_array *a, const char *lane,
		  const char *link, int with_failed, uint64_t base)
{
	fprintf(out, ",\"%s\":{", name);
	tl_json_column(out, "tl", a, span_tl, 1, 0, 0);
	tl_json_column(out, "seq", a, span_seq, 0, 0, 0);
	tl_json_column(out, "t0", a, span_t0, 0, 1, (int64_t)base);
	tl_json_column(out, "dur", a, span_dur, 0, 0, 0);
	tl_json_column(out, "row", a, span_row, 0, 0, 0);
	if (lane)
		tl_json_column(out, lane, a, span_lane, 0, 0, 0);
	if (link)
		tl_json_column(out, link, a, span_link1, 0, 1, 0);
	if (with_failed)
		tl_json_column(out, "failed", a, span_failed, 0, 0, 0);
	fputc('}', out);
}

static void series_commit_columns(FILE *out, const struct tl_data *d)
{
	tl_json_column(out, "out", &d->commits, commit_out, 0, 0, 0);
	tl_json_column(out, "crtc", &d->commits, commit_crtc, 0, 0, 0);
	tl_json_column(out, "id", &d->commits, commit_id, 0, 0, 0);
	tl_json_column(out, "t0", &d->commits, commit_t0, 0, 1, (int64_t)d->first_ts);
	tl_json_column(out, "dur", &d->commits, commit_dur, 0, 0, 0);
	tl_json_column(out, "row", &d->commits, commit_row, 0, 0, 0);
	tl_json_column(out, "vblank", &d->commits, commit_vblank, 0, 0, 0);
	tl_json_column(out, "flags", &d->commits, commit_flags, 0, 0, 0);
}

/*
 * Inferred commits (stock kernel) are their out-fences' spans, one per
 * fence of a CRTC timeline in fence order: only their task is written,
 * the page takes the rest from the fences.
 */
static void commits(FILE *out, const struct tl_data *d)
{
	fprintf(out, ",\"commits\":{\"flag_bits\":{\"flipped\":%d,\"failed\":%d,\"inferred\":%d}",
		TL_COMMIT_FLIPPED, TL_COMMIT_FAILED, TL_COMMIT_INFERRED);
	tl_json_column(out, "pid", &d->commits, commit_pid, 0, 0, 0);
	if (d->series)
		series_commit_columns(out, d);
	fputc('}', out);
}

static void planes(FILE *out, const struct tl_data *d)
{
	fprintf(out, ",\"series\":%s,\"crtc_rows\":[", d->series ? "true" : "false");
	for (unsigned int i = 0; i < d->model->display.crtcs.n; i++)
		fprintf(out, "%s%u", i ? "," : "", d->crtc_rows[i]);
	fputs("],\"planes\":[", out);
	for (size_t i = 0; i < d->planes.n; i++) {
		const struct tl_plane *p = TL_AT(d->planes, struct tl_plane, i);

		fprintf(out, "%s{\"id\":%u,\"crtc\":%u,\"rows\":%u}", i ? "," : "", p->id, p->crtc_id,
			p->rows);
	}
	fputc(']', out);
}

static void vblanks(FILE *out, const struct tl_data *d)
{
	uint64_t prev = d->first_ts;

	fputs(",\"vblanks\":{\"pipe\":[", out);
	for (size_t i = 0; i < d->vblanks.n; i++)
		fprintf(out, "%s%d", i ? "," : "", TL_AT(d->vblanks, struct tl_vblank, i)->pipe);
	fputs("],\"seq\":[", out);
	for (size_t i = 0; i < d->vblanks.n; i++)
		fprintf(out, "%s%u", i ? "," : "", TL_AT(d->vblanks, struct tl_vblank, i)->seq);
	fputs("],\"t\":[", out);
	for (size_t i = 0; i < d->vblanks.n; i++) {
		const struct tl_vblank *v = TL_AT(d->vblanks, struct tl_vblank, i);

		fprintf(out, "%s%" PRIu64, i ? "," : "", v->ts - prev);
		prev = v->ts;
	}
	fputs("]},\"missed\":[", out);
	for (size_t i = 0; i < d->missed.n; i++) {
		const struct tl_missed *mv = TL_AT(d->missed, struct tl_missed, i);

		fprintf(out, "%s{\"pipe\":%d,\"t\":%" PRIu64 ",\"from\":%u,\"to\":%u}", i ? "," : "",
			mv->pipe, mv->ts - d->first_ts, mv->from, mv->to);
	}
	fputc(']', out);
}

/*
 * The model's own times of a late frame travel with it: where its
 * out-fence signalled (the report's "landed") and where its blocking
 * fence did (or its wait ended), so that the page's arrow agrees with
 * `report` without looking the fences up by key.
 */
static void late_frames(FILE *out, const struct tl_data *d)
{
	const struct ft_model *m = d->model;
	int first = 1;
	uint32_t tl;

	fputs(",\"late\":[", out);
	for (unsigned int ci = 0; ci < m->display.crtcs.n; ci++) {
		const struct ft_crtc *c = &m->display.crtcs.items[ci];

		for (unsigned int i = 0; i < c->n_late; i++) {
			const struct ft_late_frame *l = &c->late[i];
			const struct ft_blocking *b = &l->blocking;

			fprintf(out, "%s{\"crtc\":%u,\"fence\":%ld,\"seq\":%u,\"pid\":%d,\"late_by\":%" PRId64
				",\"target\":%u,\"landed\":%u,\"signal\":%" PRId64 ",\"cls\":\"%s\""
				",\"fence_late\":%s,\"cause\":", first ? "" : ",", ci,
				tl_find_fence(d, c->timeline, l->out_seqno), l->out_seqno, l->pid,
				l->late_by_known ? (int64_t)l->late_by_ns : -1, l->target_seq, l->landed_seq,
				tl_since_start(d, l->signal_ns), report_frame_class_name(l->cls),
				report_frame_fence_late(l) ? "true" : "false");
			tl_json_cause(out, m, l);
			fputs(",\"block\":", out);
			first = 0;
			if (!b->known || b->ctx == FT_NONE) {
				fputs("null}", out);
				continue;
			}
			tl = model_context_timeline(m, b->ctx);	/* each_context: set */
			fprintf(out, "{\"fence\":%ld,\"tl\":%u,\"seq\":%" PRIu64 ",\"wait\":%" PRIu64
				",\"signal\":%" PRId64 "}}", tl_find_fence(d, tl, (uint32_t)b->seqno),
				tl, b->seqno, b->wait_ns, tl_since_start(d, b->signal_ts));
		}
	}
	fputc(']', out);
}

/**
 * tl_write_data() - the page's data object (see viz/timeline.js)
 *
 * Times are nanoseconds from the first event; span starts are deltas from
 * the previous span's start.
 */
int tl_write_data(FILE *out, const struct tl_data *d, const struct tl_source *src)
{
	const struct ft_model *m = d->model;

	fputs("{\"version\":1,\"file\":", out);
	json_str(out, src->path ? src->path : "");
	fputs(",\"clock\":", out);
	json_str(out, src->clock ? src->clock : "local");
	fprintf(out, ",\"events\":%" PRIu64 ",\"lost\":%" PRIu64 ",\"start_ns\":%" PRIu64
		",\"duration\":%" PRIu64, m->events, m->lost, d->first_ts, d->last_ts - d->first_ts);
	timelines(out, d);
	crtcs_and_pipes(out, m);
	tasks(out, d);
	comms(out, d);
	spans(out, "fences", &d->fences, NULL, NULL, 0, d->first_ts);
	spans(out, "waits", &d->waits, "task", "out", 0, d->first_ts);
	planes(out, d);
	spans(out, "plane_waits", &d->plane_waits, "plane", "commit", 1, d->first_ts);
	commits(out, d);
	vblanks(out, d);
	late_frames(out, d);
	tl_write_frames_data(out, d);
	fputs("}", out);
	return ferror(out) ? -1 : 0;
}
