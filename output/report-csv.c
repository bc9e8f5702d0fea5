// SPDX-License-Identifier: GPL-2.0
/*
 * report-csv.c - `fence-trace report --csv`: each selected section as a
 * CSV table (header line first), tables separated by an empty line:
 * timelines, waits by task, waits by timeline, late frames, frames by
 * CRTC and late frames by class, stalls, anomalies.
 * Times and durations in ns.  Fields are quoted when they need it.
 */
#include <inttypes.h>
#include <string.h>

#include "csv-str.h"
#include "report.h"

/* The emit latency percentiles; empty when no fence was emitted. */
static void emit_columns(FILE *out, const struct hist *h)
{
	if (!h->count) {
		fprintf(out, ",,,,");
		return;
	}
	fprintf(out, ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64, hist_percentile(h, 0.5),
		hist_percentile(h, 0.9), hist_percentile(h, 0.99), h->max);
}

static void timeline_line(FILE *out, const struct ft_model *m, const struct ft_timeline *t,
			  int own)
{
	if (own)
		fprintf(out, "%" PRIu64, t->context);
	fputc(',', out);
	csv_str(out, t->driver);
	fputc(',', out);
	csv_str(out, t->name);
	fprintf(out, ",%" PRIu64 ",%" PRIu64 ",", t->fences, t->signaled);
	if (report_errors_known(m))	/* empty: unknown */
		fprintf(out, "%" PRIu64, t->errors);
	fprintf(out, ",%" PRIu64 ",%" PRIu64 ",%" PRIu64, t->unsignaled_at_end,
		t->destroyed_unsignaled, t->out_of_order);
	if (t->latency.count)
		fprintf(out, ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64,
			hist_percentile(&t->latency, 0.5), hist_percentile(&t->latency, 0.9),
			hist_percentile(&t->latency, 0.99), t->latency.max);
	else		/* empty: no signalled fence */
		fprintf(out, ",,,,");
	fprintf(out, ",%" PRIu64, t->emit_latency.count);
	emit_columns(out, &t->emit_latency);
	fprintf(out, ",%" PRIu64 ",%s,%" PRIu64 ",%" PRIu64 "\n", own ? 1 : t->contexts,
		own ? "" : t->merge ? "merge" : "one_fence", t->key_reused, t->duplicates);
}

/* Own rows (context set), then groups (context empty, kind set). */
static void timelines(FILE *out, const struct ft_model *m, const struct report_opts *o)
{
	fprintf(out, "context,driver,timeline,fences,signaled,errors,unsignaled,destroyed_unsignaled,"
		"out_of_order,p50_ns,p90_ns,p99_ns,max_ns,emitted,emit_p50_ns,emit_p90_ns,emit_p99_ns,"
		"emit_max_ns,contexts,group_kind,key_reused,duplicates\n");
	for (unsigned int i = 0; i < m->fences.contexts.n; i++) {
		const struct ft_timeline *t = report_own_row(m, i);

		if (t && (report_row_shown(t, o) || o->by_context) && report_timeline_selected(t, o))
			timeline_line(out, m, t, 1);
	}
	for (unsigned int i = 0; i < m->fences.groups.n && o->context < 0; i++) {
		const struct ft_timeline *g = &m->fences.groups.items[i];

		if (g->contexts && report_timeline_selected(g, o))
			timeline_line(out, m, g, 0);
	}
}

static void waits(FILE *out, const struct ft_model *m, const struct report_opts *o)
{
	fprintf(out, "pid,comm,waits,total_ns,max_ns,p99_ns,interrupted\n");
	for (unsigned int i = 0; i < m->waits.by_task.n; i++) {
		const struct ft_wait_stat *s = &m->waits.by_task.items[i];

		if (o->pid >= 0 && s->id != (uint64_t)o->pid)
			continue;
		fprintf(out, "%" PRIu64 ",", s->id);
		csv_str(out, report_task_name(m, (int)s->id));
		fprintf(out, ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 "\n", s->count,
			s->total_ns, s->max_ns, hist_percentile(&s->h, 0.99), s->interrupted);
	}
}

/*
 * Waits by waited timeline, grouped as the timelines table groups them
 * (report-waits.c): own rows (context set), then groups (context empty,
 * kind set), the columns as in the timelines table.
 */
static int waits_by_timeline(FILE *out, const struct ft_model *m, const struct report_opts *o)
{
	struct report_wait_rows r;

	fprintf(out, "context,driver,timeline,waits,total_ns,max_ns,p99_ns,interrupted,contexts,"
		"group_kind\n");
	if (report_wait_rows(m, &m->waits.by_timeline, o, &r))
		return -1;
	for (unsigned int i = 0; i < r.n; i++) {
		const struct report_wait_row *row = &r.rows[i];
		int own = row->group == FT_NONE;
		const struct ft_timeline *t = own ? model_context_row(m, row->ctx) :
					      &m->fences.groups.items[row->group];
		const struct ft_wait_stat *s = row->s;

		if (own)
			fprintf(out, "%" PRIu64, ft_context_at(&m->fences.contexts, row->ctx)->context);
		fputc(',', out);
		csv_str(out, t->driver);
		fputc(',', out);
		csv_str(out, t->name);
		fprintf(out, ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%s\n",
			s->count, s->total_ns, s->max_ns, hist_percentile(&s->h, 0.99), s->interrupted,
			own ? 1 : row->contexts, own ? "" : t->merge ? "merge" : "one_fence");
	}
	report_wait_rows_free(&r);
	return 0;
}

static void late_frames(FILE *out, const struct ft_model *m, const struct report_opts *o)
{
	fprintf(out, "crtc,out_fence_seqno,pid,submit_ns,signal_ns,target_vblank,landed_vblank,"
		"late_by_ns,blocking_timeline,blocking_context,blocking_seqno,blocking_wait_ns\n");
	for (unsigned int i = 0; i < m->display.crtcs.n; i++) {
		const struct ft_crtc *c = &m->display.crtcs.items[i];

		if (!report_crtc_selected(c, o))
			continue;
		for (unsigned int k = 0; k < c->n_late; k++) {
			const struct ft_late_frame *l = &c->late[k];
			const struct ft_blocking *b = &l->blocking;

			if (!report_late_selected(m, c, l, o))
				continue;
			fprintf(out, "%u,%u,%d,%" PRIu64 ",%" PRIu64 ",%u,%u,%" PRIu64 ",", c->crtc_id,
				l->out_seqno, l->pid, l->submit_ns, l->signal_ns, l->target_seq,
				l->landed_seq, l->late_by_ns);
			csv_str(out, b->known && b->ctx != FT_NONE ?
				model_context_row(m, b->ctx)->name : "");
			if (b->known)
				fprintf(out, ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 "\n", b->context,
					b->seqno, b->wait_ns);
			else
				fprintf(out, ",,,\n");
		}
	}
}

/* One row per line of the text anomalies section; empty count: unknown. */
static void anomalies(FILE *out, const struct ft_model *m)
{
	struct report_anomalies a;

	report_anomalies_count(m, &a);
	fprintf(out, "anomaly,count\n");
	fprintf(out, "never_signaled,%" PRIu64 "\n", a.never_signaled);
	if (report_errors_known(m))
		fprintf(out, "errors,%" PRIu64 "\n", a.errors);
	else
		fprintf(out, "errors,\n");
	fprintf(out, "destroyed_unsignaled,%" PRIu64 "\n", a.destroyed_unsignaled);
	if (m->dec->have_event[FT_EV_OUT_DISCARD])
		fprintf(out, "discarded_out_fences,%" PRIu64 "\n", a.discarded_out_fences);
	else
		fprintf(out, "discarded_out_fences,\n");
	fprintf(out, "seqno_regressions,%" PRIu64 "\nkey_reused,%" PRIu64 "\nduplicates,%" PRIu64
		"\nduplicates_traced,%d\nvblank_gaps,%" PRIu64 "\nsignals_of_unknown_fences,%" PRIu64
		"\nlost_events,%" PRIu64 "\nlost_unknown_pages,%" PRIu64 "\n", a.seqno_regressions,
		a.key_reused, a.duplicates, model_dups_traced(m), a.vblank_gaps, a.signal_unknown,
		m->lost, m->lost_unknown);
}

static const char *const outcomes[] = {
	[FT_OUTCOME_UNKNOWN] = "unknown", [FT_OUTCOME_SHOWN] = "shown",
	[FT_OUTCOME_DISCARDED] = "discarded", [FT_OUTCOME_DROPPED] = "dropped",
};

/* The waits past the stall threshold; error empty when not traced. */
static void stalls(FILE *out, const struct ft_model *m)
{
	fprintf(out, "pid,comm,start_ns,end_ns,context,seqno,signaled,out_fence_seqno,error,outcome\n");
	for (unsigned int i = 0; i < m->waits.n_long_waits; i++) {
		const struct ft_long_wait *l = &m->waits.long_waits[i];

		fprintf(out, "%d,", l->pid);
		csv_str(out, report_task_name(m, l->pid));
		fprintf(out, ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%d,%u,", l->start, l->end,
			l->key >> 32, l->key & (uint64_t)0xffffffff, l->signaled, l->out_seqno);
		if (report_errors_known(m))
			fprintf(out, "%d", l->member_error ? l->member_error : l->error);
		fprintf(out, ",%s\n", outcomes[l->outcome]);
	}
}

int report_csv(FILE *out, const struct ft_model *m, const struct report_info *info,
	       const struct report_opts *o)
{
	int blocks = 0, err = 0;

	(void)info;
	if (o->sections & SEC_TIMELINES) {
		timelines(out, m, o);
		blocks++;
	}
	if (o->sections & SEC_WAITS) {
		if (blocks++)
			fputc('\n', out);
		waits(out, m, o);
		fputc('\n', out);
		err = waits_by_timeline(out, m, o);
	}
	if (o->sections & SEC_DISPLAY) {
		if (blocks++)
			fputc('\n', out);
		late_frames(out, m, o);
	}
	if (o->sections & SEC_FRAMES) {
		if (blocks++)
			fputc('\n', out);
		err = report_csv_frames(out, m, o) || err;
	}
	if (o->sections & SEC_STALLS) {
		if (blocks++)
			fputc('\n', out);
		stalls(out, m);
	}
	if (o->sections & SEC_ANOMALIES) {
		if (blocks++)
			fputc('\n', out);
		anomalies(out, m);
	}
	return err || ferror(out) ? -1 : 0;
}
