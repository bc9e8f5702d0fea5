// SPDX-License-Identifier: GPL-2.0
/*
 * export-perfetto.c - tl_data as Chrome trace-event JSON, which
 * ui.perfetto.dev and chrome://tracing open.
 *
 * Tracks: process 1 holds the CRTCs (commit slices and out-fence slices,
 * one thread per sub-row, and a vblank thread per pipe with instant
 * events), process 2 the other fence timelines, process 3 the waiting
 * tasks, process 4 the planes' in-fence waits (series only), named after
 * the timeline waited for so that Perfetto colours them by it.  Sub-rows
 * (tl_finish()) never overlap, so every thread's "X" slices are properly
 * nested and in time order.  A late frame whose in-fence signalled past
 * its deadline (class producer, or producer contributing) is a flow arrow
 * from that fence's slice to the slice of the commit it delayed (to its
 * out-fence when no commit is known); the frame timeline's tracks are
 * export-perfetto-frames.c's.
 */
#include <inttypes.h>

#include "report.h"
#include "json-str.h"
#include "perfetto.h"

#define VBLANK_TID_BASE 1000000
#define COMMIT_TID_BASE 2000000	/* + CRTC index * TL_MAX_ROWS + row */

static int timeline_pid(const struct ft_model *m, uint32_t tl)
{
	return m->fences.timelines.items[tl].crtc >= 0 ? PID_DISPLAY : PID_TIMELINES;
}

static uint64_t span_tid(const struct tl_span *s, int wait)
{
	return (uint64_t)(wait ? s->lane : s->timeline) * TL_MAX_ROWS + s->row + 1;
}

static uint64_t commit_tid(const struct tl_commit *c)
{
	return COMMIT_TID_BASE + (uint64_t)c->crtc * TL_MAX_ROWS + c->row;
}

static void commit_and_plane_names(FILE *out, const struct tl_data *d)
{
	const struct ft_model *m = d->model;
	char name[160];

	for (unsigned int i = 0; i < m->display.crtcs.n; i++)
		for (unsigned int r = 0; r < d->crtc_rows[i]; r++) {
			snprintf(name, sizeof(name), "%s commits%s%s", m->display.crtcs.items[i].name,
				 d->series ? "" : " (inferred from out-fences)", r ? " (overlapping)" : "");
			perfetto_meta(out, "thread_name", PID_DISPLAY, COMMIT_TID_BASE + (uint64_t)i * TL_MAX_ROWS + r,
			     name, -2);
		}
	for (size_t i = 0; i < d->planes.n; i++) {
		const struct tl_plane *p = TL_AT(d->planes, struct tl_plane, i);

		for (unsigned int r = 0; r < p->rows; r++) {
			snprintf(name, sizeof(name), "plane %u (CRTC %u)%s", p->id, p->crtc_id,
				 r ? " (overlapping)" : "");
			perfetto_meta(out, "thread_name", PID_PLANES, i * TL_MAX_ROWS + r + 1, name,
			     (int)(i * TL_MAX_ROWS + r));
		}
	}
}

static void track_names(FILE *out, const struct tl_data *d)
{
	const struct ft_model *m = d->model;
	char name[160];

	fputs("{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":1,\"tid\":0,\"args\":{\"name\":\"Display (CRTCs)\"}}", out);
	perfetto_meta(out, "process_name", PID_TIMELINES, 0, "Fence timelines", PID_TIMELINES);
	perfetto_meta(out, "process_name", PID_WAITS, 0, "Waiting tasks", PID_WAITS);
	perfetto_meta(out, "process_name", PID_PLANES, 0, "Planes (in-fence waits)", PID_PLANES);
	for (unsigned int i = 0; i < m->fences.timelines.n; i++)
		for (unsigned int r = 0; r < d->timeline_rows[i]; r++) {
			int n = snprintf(name, sizeof(name), "%s %s", m->fences.timelines.items[i].driver,
					 m->fences.timelines.items[i].name);

			if (r && n > 0 && (size_t)n < sizeof(name))
				snprintf(name + n, sizeof(name) - (size_t)n, " #%u", r + 1);
			perfetto_meta(out, "thread_name", timeline_pid(m, i), (uint64_t)i * TL_MAX_ROWS + r + 1, name,
			     (int)(i * TL_MAX_ROWS + r));
		}
	for (size_t i = 0; i < d->tasks.n; i++) {
		const struct tl_task *t = TL_AT(d->tasks, struct tl_task, i);

		for (unsigned int r = 0; r < t->rows; r++) {
			snprintf(name, sizeof(name), "%s-%d waits%s", report_task_name(m, t->pid), t->pid,
				 r ? " (nested)" : "");
			perfetto_meta(out, "thread_name", PID_WAITS, i * TL_MAX_ROWS + r + 1, name, (int)(i * TL_MAX_ROWS + r));
		}
	}
	for (unsigned int i = 0; i < m->display.pipes.n; i++) {
		snprintf(name, sizeof(name), "vblanks (pipe %d)", m->display.pipes.items[i].pipe);
		perfetto_meta(out, "thread_name", PID_DISPLAY, VBLANK_TID_BASE + (uint64_t)m->display.pipes.items[i].pipe,
		     name, -1);
	}
	commit_and_plane_names(out, d);
	perfetto_frame_names(out, d);
}

static void span_event(FILE *out, const struct tl_data *d, const struct tl_span *s, int wait)
{
	const struct ft_timeline *t = s->timeline != UINT32_MAX ?
				      &d->model->fences.timelines.items[s->timeline] : NULL;
	int pid = wait ? PID_WAITS : timeline_pid(d->model, s->timeline);

	fprintf(out, ",\n{\"name\":\"%s%s %u\",\"cat\":\"%s\",\"ph\":\"X\",\"pid\":%d,\"tid\":%" PRIu64,
		wait ? "wait " : "", t && t->crtc >= 0 ? "out-fence" : "fence", s->seqno,
		wait ? "wait" : "fence", pid, span_tid(s, wait));
	perfetto_us(out, "ts", s->t0);
	perfetto_us(out, "dur", s->t1 - s->t0);
	fprintf(out, ",\"args\":{\"context\":%" PRIu64 ",\"seqno\":%u,\"%s\":%s,\"timeline\":",
		t ? t->context : 0, s->seqno, wait ? "ended" : "signaled", s->done ? "true" : "false");
	json_str(out, t ? t->name : "?");
	fputs(",\"driver\":", out);
	json_str(out, t ? t->driver : "?");
	fputs("}}", out);
}

static void vblank_events(FILE *out, const struct tl_data *d)
{
	for (size_t i = 0; i < d->vblanks.n; i++) {
		const struct tl_vblank *v = TL_AT(d->vblanks, struct tl_vblank, i);

		fprintf(out, ",\n{\"name\":\"vblank %u\",\"cat\":\"vblank\",\"ph\":\"i\",\"s\":\"t\",\"pid\":%d,\"tid\":%d",
			v->seq, PID_DISPLAY, VBLANK_TID_BASE + v->pipe);
		perfetto_us(out, "ts", v->ts);
		fputs("}", out);
	}
	for (size_t i = 0; i < d->missed.n; i++) {
		const struct tl_missed *mv = TL_AT(d->missed, struct tl_missed, i);

		fprintf(out, ",\n{\"name\":\"missed %u vblank(s) after %u\",\"cat\":\"missed\",\"ph\":\"i\",\"s\":\"t\","
			"\"pid\":%d,\"tid\":%d", mv->to - mv->from - 1, mv->from, PID_DISPLAY, VBLANK_TID_BASE + mv->pipe);
		perfetto_us(out, "ts", mv->ts);
		fputs("}", out);
	}
}

/* A commit slice; its args link its out-fence and vblank. */
static void commit_event(FILE *out, const struct tl_data *d, const struct tl_commit *c)
{
	const struct tl_span *f = c->out != UINT32_MAX ? TL_AT(d->fences, struct tl_span, c->out) : NULL;

	if (c->crtc < 0)
		return;
	if (c->inferred)
		fprintf(out, ",\n{\"name\":\"commit (out-fence %u)\"", f->seqno);
	else
		fprintf(out, ",\n{\"name\":\"commit %" PRIu64 "%s\"", c->id, c->failed ? " failed" : "");
	fprintf(out, ",\"cat\":\"commit\",\"ph\":\"X\",\"pid\":%d,\"tid\":%" PRIu64, PID_DISPLAY,
		commit_tid(c));
	perfetto_us(out, "ts", c->t0);
	perfetto_us(out, "dur", c->t1 - c->t0);
	fprintf(out, ",\"args\":{\"commit\":%" PRIu64 ",\"inferred\":%s,\"pid\":%d,\"flipped\":%s",
		c->id, c->inferred ? "true" : "false", c->pid, c->flipped ? "true" : "false");
	if (f)
		fprintf(out, ",\"out_fence_seqno\":%u", f->seqno);
	if (c->flipped && !c->inferred)
		fprintf(out, ",\"vblank\":%u", c->vblank);
	fputs("}}", out);
}

/* An in-fence wait of a plane, named after its timeline: Perfetto colours by name. */
static void plane_wait_event(FILE *out, const struct tl_data *d, const struct tl_span *s)
{
	const struct ft_timeline *t = s->timeline != UINT32_MAX ?
				      &d->model->fences.timelines.items[s->timeline] : NULL;
	const struct tl_commit *c = TL_AT(d->commits, struct tl_commit, s->link);

	fputs(",\n{\"name\":", out);
	json_str(out, t ? t->name : "?");
	fprintf(out, ",\"cat\":\"in-fence\",\"ph\":\"X\",\"pid\":%d,\"tid\":%" PRIu64, PID_PLANES,
		(uint64_t)s->lane * TL_MAX_ROWS + s->row + 1);
	perfetto_us(out, "ts", s->t0);
	perfetto_us(out, "dur", s->t1 - s->t0);
	fprintf(out, ",\"args\":{\"seqno\":%u,\"commit\":%" PRIu64 ",\"ended\":%s,\"interrupted\":%s}}",
		s->seqno, c->id, s->done ? "true" : "false", s->failed ? "true" : "false");
}

/* One end of a flow arrow, 1 ns inside the end of [t0, t1] so it binds to that slice. */
static void flow_end(FILE *out, int pid, uint64_t tid, uint64_t t0, uint64_t t1, const char *ph,
		     unsigned int id)
{
	uint64_t ts = t1 > t0 ? t1 - 1 : t0;

	fprintf(out, ",\n{\"name\":\"blocked frame\",\"cat\":\"late\",\"ph\":\"%s\",\"id\":%u,\"pid\":%d,\"tid\":%" PRIu64 "%s",
		ph, id, pid, tid, ph[0] == 'f' ? ",\"bp\":\"e\"" : "");
	perfetto_us(out, "ts", ts);
	fputs("}", out);
}

static void fence_flow_end(FILE *out, const struct tl_data *d, long fence, const char *ph, unsigned int id)
{
	const struct tl_span *s = TL_AT(d->fences, struct tl_span, fence);

	flow_end(out, timeline_pid(d->model, s->timeline), span_tid(s, 0), s->t0, s->t1, ph, id);
}

/* The late frame's commit slice, or its out-fence's, ends the flow. */
static void delayed_flow_end(FILE *out, const struct tl_data *d, long fence, unsigned int id)
{
	uint32_t ci;

	if (keymap_get(&d->commit_of_out, (uint64_t)fence, &ci) &&
	    TL_AT(d->commits, struct tl_commit, ci)->crtc >= 0) {
		const struct tl_commit *c = TL_AT(d->commits, struct tl_commit, ci);

		flow_end(out, PID_DISPLAY, commit_tid(c), c->t0, c->t1, "f", id);
		return;
	}
	fence_flow_end(out, d, fence, "f", id);
}

static void late_flows(FILE *out, const struct tl_data *d)
{
	const struct ft_model *m = d->model;
	unsigned int id = 1;

	for (unsigned int ci = 0; ci < m->display.crtcs.n; ci++)
		for (unsigned int i = 0; i < m->display.crtcs.items[ci].n_late; i++) {
			const struct ft_late_frame *l = &m->display.crtcs.items[ci].late[i];
			long to = tl_find_fence(d, m->display.crtcs.items[ci].timeline, l->out_seqno);
			long from;

			/* only a fence that was late is to blame (producer, or contributing) */
			if (!l->blocking.known || l->blocking.ctx == FT_NONE || to < 0 ||
			    !report_frame_fence_late(l))
				continue;
			/* the page's model has every context's own row (each_context) */
			from = tl_find_fence(d, model_context_timeline(m, l->blocking.ctx),
					     (uint32_t)l->blocking.seqno);
			if (from < 0)
				continue;
			fence_flow_end(out, d, from, "s", id);
			delayed_flow_end(out, d, to, id++);
		}
}

int tl_write_perfetto(FILE *out, const struct tl_data *d, const struct tl_source *src)
{
	fputs("{\"displayTimeUnit\":\"ms\",\"otherData\":{\"generator\":\"fence-trace export\",\"file\":", out);
	json_str(out, src->path ? src->path : "");
	fputs("},\"traceEvents\":[\n", out);
	track_names(out, d);
	for (size_t i = 0; i < d->fences.n; i++)
		span_event(out, d, TL_AT(d->fences, struct tl_span, i), 0);
	for (size_t i = 0; i < d->waits.n; i++)
		span_event(out, d, TL_AT(d->waits, struct tl_span, i), 1);
	for (size_t i = 0; i < d->commits.n; i++)
		commit_event(out, d, TL_AT(d->commits, struct tl_commit, i));
	for (size_t i = 0; i < d->plane_waits.n; i++)
		plane_wait_event(out, d, TL_AT(d->plane_waits, struct tl_span, i));
	vblank_events(out, d);
	perfetto_frames(out, d);
	late_flows(out, d);
	fputs("\n]}\n", out);
	return ferror(out) ? -1 : 0;
}
