// SPDX-License-Identifier: GPL-2.0
/*
 * timeline-json.c - the page's data: tl_data + the model's key numbers as
 * one compact JSON object, read by viz/timeline.js:
 *
 *   { file, clock, events, lost, start_ns, duration,
 *     timelines: [{ctx, driver, name, crtc, rows, fences, signaled, p50, p99}],
 *     crtcs: [{id, name, driver, tl, pipe, frames, late, p50, p99}],
 *     pipes: [{pipe, vblanks, missed}], tasks: [{pid, rows, comm}],
 *     fences: {tl[], seq[], t0[], dur[], row[]}, waits: {task[], tl[], ...},
 *     vblanks: {pipe[], seq[], t[]}, missed: [{pipe, t, from, to}],
 *     late: [{crtc, fence, seq, pid, late_by, target, landed,
 *             block: {fence, tl, seq, wait} | null}] }
 *
 * "fence" fields index the fences arrays (-1: not in the trace); times are
 * ns from start_ns; dur -1 means it never ended.
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
	for (unsigned int i = 0; i < m->n_timelines; i++) {
		const struct ft_timeline *t = &m->timelines[i];

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
	for (unsigned int i = 0; i < m->n_crtcs; i++) {
		const struct ft_crtc *c = &m->crtcs[i];

		fprintf(out, "%s{\"id\":%u,\"name\":", i ? "," : "", c->crtc_id);
		json_str(out, c->name);
		fputs(",\"driver\":", out);
		json_str(out, c->driver);
		fprintf(out, ",\"tl\":%u,\"pipe\":%d,\"frames\":%" PRIu64 ",\"late\":%" PRIu64
			",\"p50\":%" PRIu64 ",\"p99\":%" PRIu64 "}", c->timeline, c->pipe, c->frames,
			c->late_count, hist_percentile(&c->out_latency, 0.5),
			hist_percentile(&c->out_latency, 0.99));
	}
	fputs("],\"pipes\":[", out);
	for (unsigned int i = 0; i < m->n_pipes; i++)
		fprintf(out, "%s{\"pipe\":%d,\"vblanks\":%" PRIu64 ",\"missed\":%" PRIu64 "}",
			i ? "," : "", m->pipes[i].pipe, m->pipes[i].vblanks, m->pipes[i].missed);
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

/* One column of a span array: what picks the field, and how. */
enum column { COL_TL, COL_TASK, COL_SEQ, COL_T0, COL_DUR, COL_ROW };

static void span_column(FILE *out, const char *name, const struct tl_array *a, enum column c,
			uint64_t base)
{
	uint64_t prev = base;

	fprintf(out, "%s\"%s\":[", c == COL_TL || c == COL_TASK ? "" : ",", name);
	for (size_t i = 0; i < a->n; i++) {
		const struct tl_span *s = TL_AT(*a, struct tl_span, i);
		const char *sep = i ? "," : "";

		switch (c) {
		case COL_TL: fprintf(out, "%s%d", sep, s->timeline == UINT32_MAX ? -1 : (int)s->timeline); break;
		case COL_TASK: fprintf(out, "%s%u", sep, s->task); break;
		case COL_SEQ: fprintf(out, "%s%u", sep, s->seqno); break;
		case COL_T0: fprintf(out, "%s%" PRIu64, sep, s->t0 - prev); prev = s->t0; break;
		/* -1: never ended (drawn to the end of the trace) */
		case COL_DUR: fprintf(out, s->done ? "%s%" PRIu64 : "%s-1", sep, s->t1 - s->t0); break;
		case COL_ROW: fprintf(out, "%s%u", sep, s->row); break;
		}
	}
	fputc(']', out);
}

static void spans(FILE *out, const char *name, const struct tl_array *a, int waits, uint64_t base)
{
	fprintf(out, ",\"%s\":{", name);
	if (waits) {
		span_column(out, "task", a, COL_TASK, base);
		fputc(',', out);
	}
	span_column(out, "tl", a, COL_TL, base);
	span_column(out, "seq", a, COL_SEQ, base);
	span_column(out, "t0", a, COL_T0, base);
	span_column(out, "dur", a, COL_DUR, base);
	span_column(out, "row", a, COL_ROW, base);
	fputc('}', out);
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

static void late_frames(FILE *out, const struct tl_data *d)
{
	const struct ft_model *m = d->model;
	int first = 1;

	fputs(",\"late\":[", out);
	for (unsigned int ci = 0; ci < m->n_crtcs; ci++) {
		const struct ft_crtc *c = &m->crtcs[ci];

		for (unsigned int i = 0; i < c->n_late; i++) {
			const struct ft_late_frame *l = &c->late[i];
			const struct ft_blocking *b = &l->blocking;

			fprintf(out, "%s{\"crtc\":%u,\"fence\":%ld,\"seq\":%u,\"pid\":%d,\"late_by\":%" PRIu64
				",\"target\":%u,\"landed\":%u,\"block\":", first ? "" : ",", ci,
				tl_find_fence(d, c->timeline, l->out_seqno), l->out_seqno, l->pid,
				l->late_by_ns, l->target_seq, l->landed_seq);
			first = 0;
			if (!b->known || b->timeline == UINT32_MAX) {
				fputs("null}", out);
				continue;
			}
			fprintf(out, "{\"fence\":%ld,\"tl\":%u,\"seq\":%" PRIu64 ",\"wait\":%" PRIu64 "}}",
				tl_find_fence(d, b->timeline, (uint32_t)b->seqno), b->timeline, b->seqno,
				b->wait_ns);
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
	spans(out, "fences", &d->fences, 0, d->first_ts);
	spans(out, "waits", &d->waits, 1, d->first_ts);
	vblanks(out, d);
	late_frames(out, d);
	fputs("}", out);
	return ferror(out) ? -1 : 0;
}
