// SPDX-License-Identifier: GPL-2.0
/*
 * report-csv.c - `fence-trace report --csv`: each selected section as a
 * CSV table (header line first), tables separated by an empty line.
 * Times and durations in ns.  Fields are quoted when they need it.
 */
#include <inttypes.h>
#include <string.h>

#include "report.h"

static void csv_str(FILE *out, const char *s)
{
	if (!strpbrk(s, ",\"\n\r")) {
		fputs(s, out);
		return;
	}
	fputc('"', out);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', out);
		fputc(*s, out);
	}
	fputc('"', out);
}

/* The emit latency percentiles; empty when no fence was emitted. */
static void emit_columns(FILE *out, const struct hist *h)
{
	if (!h->count) {
		fprintf(out, ",,,,\n");
		return;
	}
	fprintf(out, ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 "\n", hist_percentile(h, 0.5),
		hist_percentile(h, 0.9), hist_percentile(h, 0.99), h->max);
}

static void timelines(FILE *out, const struct ft_model *m, const struct report_opts *o)
{
	fprintf(out, "context,driver,timeline,fences,signaled,errors,unsignaled,destroyed_unsignaled,"
		"out_of_order,p50_ns,p90_ns,p99_ns,max_ns,emitted,emit_p50_ns,emit_p90_ns,emit_p99_ns,"
		"emit_max_ns\n");
	for (unsigned int i = 0; i < m->n_timelines; i++) {
		const struct ft_timeline *t = &m->timelines[i];

		if (!report_timeline_selected(t, o))
			continue;
		fprintf(out, "%" PRIu64 ",", t->context);
		csv_str(out, t->driver);
		fputc(',', out);
		csv_str(out, t->name);
		fprintf(out, ",%" PRIu64 ",%" PRIu64 ",", t->fences, t->signaled);
		if (report_errors_known(m))	/* empty: unknown */
			fprintf(out, "%" PRIu64, t->errors);
		fprintf(out, ",%" PRIu64 ",%" PRIu64 ",%" PRIu64
			",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64,
			t->unsignaled_at_end, t->destroyed_unsignaled, t->out_of_order,
			hist_percentile(&t->latency, 0.5), hist_percentile(&t->latency, 0.9),
			hist_percentile(&t->latency, 0.99), t->latency.max, t->emit_latency.count);
		emit_columns(out, &t->emit_latency);
	}
}

static void waits(FILE *out, const struct ft_model *m, const struct report_opts *o)
{
	fprintf(out, "pid,comm,waits,total_ns,max_ns,p99_ns,interrupted\n");
	for (unsigned int i = 0; i < m->n_by_task; i++) {
		const struct ft_wait_stat *s = &m->by_task[i];

		if (o->pid >= 0 && s->id != (uint64_t)o->pid)
			continue;
		fprintf(out, "%" PRIu64 ",", s->id);
		csv_str(out, report_task_name(m, (int)s->id));
		fprintf(out, ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 "\n", s->count,
			s->total_ns, s->max_ns, hist_percentile(&s->h, 0.99), s->interrupted);
	}
}

static void late_frames(FILE *out, const struct ft_model *m, const struct report_opts *o)
{
	fprintf(out, "crtc,out_fence_seqno,pid,submit_ns,signal_ns,target_vblank,landed_vblank,"
		"late_by_ns,blocking_timeline,blocking_context,blocking_seqno,blocking_wait_ns\n");
	for (unsigned int i = 0; i < m->n_crtcs; i++) {
		const struct ft_crtc *c = &m->crtcs[i];

		if (o->crtc >= 0 && c->crtc_id != (uint64_t)o->crtc)
			continue;
		for (unsigned int k = 0; k < c->n_late; k++) {
			const struct ft_late_frame *l = &c->late[k];
			const struct ft_blocking *b = &l->blocking;

			if (o->pid >= 0 && l->pid != o->pid)
				continue;
			fprintf(out, "%u,%u,%d,%" PRIu64 ",%" PRIu64 ",%u,%u,%" PRIu64 ",", c->crtc_id,
				l->out_seqno, l->pid, l->submit_ns, l->signal_ns, l->target_seq,
				l->landed_seq, l->late_by_ns);
			csv_str(out, b->known && b->timeline != UINT32_MAX ?
				m->timelines[b->timeline].name : "");
			if (b->known)
				fprintf(out, ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 "\n", b->context,
					b->seqno, b->wait_ns);
			else
				fprintf(out, ",,,\n");
		}
	}
}

int report_csv(FILE *out, const struct ft_model *m, const struct report_info *info,
	       const struct report_opts *o)
{
	int blocks = 0;

	(void)info;
	if (o->sections & SEC_TIMELINES) {
		timelines(out, m, o);
		blocks++;
	}
	if (o->sections & SEC_WAITS) {
		if (blocks++)
			fputc('\n', out);
		waits(out, m, o);
	}
	if (o->sections & SEC_DISPLAY) {
		if (blocks++)
			fputc('\n', out);
		late_frames(out, m, o);
	}
	return ferror(out) ? -1 : 0;
}
