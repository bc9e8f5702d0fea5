// SPDX-License-Identifier: GPL-2.0
/*
 * report-json.c - `fence-trace report --json`, the documented contract
 * (docs/report-json.md).  Names from the kernel or user space (timeline,
 * driver, task) are escaped; times are CLOCK_MONOTONIC ns when the trace
 * clock is "mono", else the trace clock's ns.
 */
#include <inttypes.h>
#include <string.h>

#include "json-str.h"
#include "report.h"

#define LOG2_US_SLOTS 32

/* Percentiles, and log2 slots of microseconds as `fence-trace latency` counts them. */
static void latency(FILE *out, const char *name, const struct hist *h)
{
	if (!h->count)		/* no sample: the figures are unknown, not 0 */
		fprintf(out, "\"%s\": {\"count\": 0, \"p50\": null, \"p90\": null, \"p99\": null"
			", \"max\": null, \"log2_us\": [", name);
	else
		fprintf(out, "\"%s\": {\"count\": %" PRIu64 ", \"p50\": %" PRIu64 ", \"p90\": %" PRIu64
			", \"p99\": %" PRIu64 ", \"max\": %" PRIu64 ", \"log2_us\": [", name, h->count,
			hist_percentile(h, 0.5), hist_percentile(h, 0.9), hist_percentile(h, 0.99), h->max);
	for (unsigned int i = 0; i < LOG2_US_SLOTS; i++)
		fprintf(out, "%s%" PRIu64, i ? ", " : "", hist_log2_count(h, i, 1000));
	fprintf(out, "]}");
}

/* Non-empty @h as [2^i, 2^(i+1)) ns buckets, from the first to the last with samples. */
static void log2_buckets(FILE *out, const char *name, const struct hist *h)
{
	int first = -1, last = -1;

	for (int p = 0; p < 64; p++)
		if (hist_log2_count(h, (unsigned int)p, 1)) {
			first = first < 0 ? p : first;
			last = p;
		}
	fprintf(out, "\"%s\": [", name);
	for (int p = first; first >= 0 && p <= last; p++)
		fprintf(out, "%s{\"from_ns\": %llu, \"to_ns\": %llu, \"count\": %" PRIu64 "}",
			p > first ? ", " : "", p ? 1ull << p : 0ull,
			p < 63 ? (1ull << (p + 1)) - 1 : ~0ull, hist_log2_count(h, (unsigned int)p, 1));
	fprintf(out, "]");
}

/* What own rows and groups share, from "driver" to "emit_latency_ns". */
static void timeline_fields(FILE *out, const struct ft_model *m, const struct ft_timeline *t)
{
	fprintf(out, "\"driver\": ");
	json_str(out, t->driver);
	fprintf(out, ", \"timeline\": ");
	json_str(out, t->name);
	fprintf(out, ", \"fences\": %" PRIu64 ", \"signaled\": %" PRIu64 ", \"errors\": ",
		t->fences, t->signaled);
	if (report_errors_known(m))
		fprintf(out, "%" PRIu64, t->errors);
	else
		fprintf(out, "null");
	fprintf(out, ", \"unsignaled\": %" PRIu64 ", \"destroyed_unsignaled\": %" PRIu64
		", \"out_of_order\": %" PRIu64 ", \"key_reused\": %" PRIu64 ", \"duplicates\": %"
		PRIu64 ", \"lost_in_span\": %s, ", t->unsignaled_at_end, t->destroyed_unsignaled,
		t->out_of_order, t->key_reused, t->duplicates,
		model_lost_between(m, t->first_ts, t->last_ts) ? "true" : "false");
	latency(out, "signal_latency_ns", &t->latency);
	fprintf(out, ", ");
	log2_buckets(out, "signal_latency_log2", &t->latency);
	fprintf(out, ", ");
	if (t->emit_latency.count)
		latency(out, "emit_latency_ns", &t->emit_latency);
	else
		fprintf(out, "\"emit_latency_ns\": null");
}

/*
 * Own rows: contexts that held two fences or more (and CRTCs'); with
 * --by context every context, "group" naming the group that counts it.
 */
static void timelines(FILE *out, const struct ft_model *m, const struct report_opts *o)
{
	int first = 1;

	fprintf(out, "  \"timelines\": [");
	for (unsigned int i = 0; i < m->fences.contexts.n; i++) {
		const struct ft_timeline *t = report_own_row(m, i);

		if (!t || !report_timeline_selected(t, o))
			continue;
		fprintf(out, "%s\n    {\"context\": %" PRIu64 ", ", first ? "" : ",", t->context);
		if (t->group != FT_NONE)
			fprintf(out, "\"group\": %u, ", t->group);
		else
			fprintf(out, "\"group\": null, ");
		timeline_fields(out, m, t);
		fprintf(out, "}");
		first = 0;
	}
	fprintf(out, "\n  ],\n");
}

/* Groups of contexts: one-fence contexts by driver and name, merges by kind. */
static void timeline_groups(FILE *out, const struct ft_model *m, const struct report_opts *o)
{
	int first = 1;

	fprintf(out, "  \"timeline_groups\": [");
	for (unsigned int i = 0; i < m->fences.groups.n && o->context < 0; i++) {
		const struct ft_timeline *g = &m->fences.groups.items[i];

		if (!g->contexts || !report_timeline_selected(g, o))
			continue;
		fprintf(out, "%s\n    {\"group\": %u, \"kind\": \"%s\", \"contexts\": %" PRIu64
			", \"members\": ", first ? "" : ",", i, g->merge ? "merge" : "one_fence",
			g->contexts);
		if (g->merge && m->dec->have_event[FT_EV_FENCE_MEMBER])
			fprintf(out, "%" PRIu64 ", ", g->members);
		else
			fprintf(out, "null, ");
		timeline_fields(out, m, g);
		fprintf(out, "}");
		first = 0;
	}
	fprintf(out, "\n  ],\n");
}

/* The numbers every waits entry has, after the fields that say whose they are. */
static void wait_stat(FILE *out, const struct ft_wait_stat *s)
{
	fprintf(out, ", \"waits\": %" PRIu64 ", \"total_ns\": %" PRIu64 ", \"max_ns\": %" PRIu64
		", \"p99_ns\": %" PRIu64 ", \"interrupted\": %" PRIu64, s->count, s->total_ns, s->max_ns,
		hist_percentile(&s->h, 0.99), s->interrupted);
}

static void poll_stat(FILE *out, const struct ft_wait_stat *s)
{
	fprintf(out, ", \"polls\": %" PRIu64 ", \"total_ns\": %" PRIu64 ", \"max_ns\": %" PRIu64
		", \"p99_ns\": %" PRIu64, s->count, s->total_ns, s->max_ns, hist_percentile(&s->h, 0.99));
}

/*
 * "by_timeline": the waited (polled) contexts with their own row in the
 * timelines table (every context with --by context or --context), then
 * "by_group": the other contexts, summed per group of timeline_groups.
 */
static int timeline_entries(FILE *out, const struct ft_model *m, const struct ft_wait_stats *st,
			    const struct report_opts *o,
			    void (*numbers)(FILE *, const struct ft_wait_stat *))
{
	struct report_wait_rows r;
	int err = report_wait_rows(m, st, o, &r);
	unsigned int n_out = 0;

	fprintf(out, "\"by_timeline\": [");
	for (unsigned int i = 0; i < r.n && r.rows[i].group == FT_NONE; i++) {
		fprintf(out, "%s\n    {\"context\": %" PRIu64 ", \"timeline\": ", i ? "," : "",
			ft_context_at(&m->fences.contexts, r.rows[i].ctx)->context);
		json_str(out, model_context_row(m, r.rows[i].ctx)->name);
		numbers(out, r.rows[i].s);
		fprintf(out, "}");
	}
	fprintf(out, "\n  ], \"by_group\": [");
	for (unsigned int i = 0; i < r.n; i++) {
		const struct report_wait_row *row = &r.rows[i];
		const struct ft_timeline *g;

		if (row->group == FT_NONE)
			continue;
		g = &m->fences.groups.items[row->group];
		fprintf(out, "%s\n    {\"group\": %u, \"kind\": \"%s\", \"driver\": ",
			n_out++ ? "," : "", row->group, g->merge ? "merge" : "one_fence");
		json_str(out, g->driver);
		fprintf(out, ", \"timeline\": ");
		json_str(out, g->name);
		fprintf(out, ", \"contexts\": %" PRIu64, row->contexts);
		numbers(out, row->s);
		fprintf(out, "}");
	}
	fprintf(out, "\n  ]");
	report_wait_rows_free(&r);
	return err;
}

/* sync_file polls (the series' sync_file_poll_*): how compositors wait. */
static int polls(FILE *out, const struct ft_model *m, const struct report_opts *o)
{
	unsigned int n_out = 0;
	int err;

	fprintf(out, "\"polls\": {\"by_task\": [");
	for (unsigned int i = 0; i < m->waits.poll_by_task.n; i++) {
		const struct ft_wait_stat *s = &m->waits.poll_by_task.items[i];

		if (o->pid >= 0 && s->id != (uint64_t)o->pid)
			continue;
		fprintf(out, "%s\n    {\"pid\": %" PRIu64 ", \"comm\": ", n_out++ ? "," : "", s->id);
		json_str(out, report_task_name(m, (int)s->id));
		poll_stat(out, s);
		fprintf(out, "}");
	}
	fprintf(out, "\n  ], ");
	err = timeline_entries(out, m, &m->waits.poll_by_timeline, o, poll_stat);
	fprintf(out, "}");
	return err;
}

static int waits(FILE *out, const struct ft_model *m, const struct report_opts *o)
{
	unsigned int n_out = 0;
	int err;

	fprintf(out, "  \"waits\": {\"by_task\": [");
	for (unsigned int i = 0; i < m->waits.by_task.n; i++) {
		const struct ft_wait_stat *s = &m->waits.by_task.items[i];

		if (o->pid >= 0 && s->id != (uint64_t)o->pid)
			continue;
		fprintf(out, "%s\n    {\"pid\": %" PRIu64 ", \"comm\": ", n_out++ ? "," : "", s->id);
		json_str(out, report_task_name(m, (int)s->id));
		wait_stat(out, s);
		fprintf(out, "}");
	}
	fprintf(out, "\n  ], ");
	err = timeline_entries(out, m, &m->waits.by_timeline, o, wait_stat);
	fprintf(out, ", \"by_plane\": [");
	for (unsigned int i = 0; i < m->waits.by_plane.n; i++) {
		const struct ft_wait_stat *s = &m->waits.by_plane.items[i];

		fprintf(out, "%s\n    {\"plane\": %" PRIu64, i ? "," : "", s->id);
		wait_stat(out, s);
		fprintf(out, "}");
	}
	fprintf(out, "\n  ], ");
	err |= polls(out, m, o);
	fprintf(out, "},\n");
	return err;
}

/* The period's spread, exact (see report-text.c); null under two periods. */
static void vblank_jitter(FILE *out, const struct ft_pipe *p)
{
	if (!p || p->period.count < 2) {
		fprintf(out, "\"vblank_period_min_ns\": null, \"vblank_period_max_ns\": null, "
			"\"vblank_period_stddev_ns\": null, \"vblank_period_range_ns\": null, ");
		return;
	}
	fprintf(out, "\"vblank_period_min_ns\": %" PRIu64 ", \"vblank_period_max_ns\": %" PRIu64
		", \"vblank_period_stddev_ns\": %" PRIu64 ", \"vblank_period_range_ns\": %" PRIu64 ", ",
		p->period.min, p->period.max, (uint64_t)(hist_stddev(&p->period) + 0.5),
		p->period.max - p->period.min);
}

static void crtc(FILE *out, const struct ft_model *m, const struct ft_crtc *c,
		 const struct report_info *info, const struct report_opts *o)
{
	const struct drm_map_crtc *dev = info->drm ?
		drm_map_find(info->drm, c->driver, c->crtc_id, c->name) : NULL;
	const struct ft_pipe *p = NULL;
	unsigned int n_out = 0;

	for (unsigned int k = 0; k < m->display.pipes.n; k++)
		if (c->pipe >= 0 && m->display.pipes.items[k].pipe == c->pipe)
			p = &m->display.pipes.items[k];
	fprintf(out, "\n    {\"crtc\": %u, \"name\": ", c->crtc_id);
	json_str(out, c->name);
	fprintf(out, ", \"driver\": ");
	json_str(out, c->driver);
	if (dev)
		fprintf(out, ", \"device\": %u, \"index\": %u", dev->minor, dev->index);
	else
		fprintf(out, ", \"device\": null, \"index\": null");
	fprintf(out, ", \"pipe\": %d, \"frames\": %" PRIu64 ", \"vblanks\": %" PRIu64
		", \"missed_vblanks\": %" PRIu64 ", \"vblank_period_ns\": %" PRIu64
		", \"unpaired_signals\": %" PRIu64 ", \"fake_vblank_signals\": %" PRIu64
		", \"discarded_out_fences\": %" PRIu64 ", ",
		c->pipe, c->frames, p ? p->vblanks : 0, p ? p->missed : 0,
		p ? hist_percentile(&p->period, 0.5) : 0, c->unpaired, c->fake_vblank, c->discarded);
	vblank_jitter(out, p);
	latency(out, "out_fence_latency_ns", &c->out_latency);
	fprintf(out, ", \"lost_in_span\": %s",
		model_lost_between(m, m->fences.timelines.items[c->timeline].first_ts,
				   m->fences.timelines.items[c->timeline].last_ts) ? "true" : "false");
	fprintf(out, ", \"late_frame_count\": %" PRIu64 ", \"late_frame_selected_count\": %" PRIu64
		", \"late_frames\": [", c->late_count, report_late_selected_count(m, c, o));
	for (unsigned int i = 0; i < c->n_late; i++) {
		const struct ft_late_frame *l = &c->late[i];

		if (!report_late_selected(m, c, l, o))
			continue;
		fprintf(out, "%s\n      {\"out_fence_seqno\": %u, \"commit\": ", n_out++ ? "," : "",
			l->out_seqno);
		report_json_u64_or_null(out, l->commit != 0, l->commit);
		fprintf(out, ", \"pid\": %d, \"submit_ns\": %" PRIu64
			", \"signal_ns\": %" PRIu64 ", \"target_vblank\": %u, \"landed_vblank\": %u"
			", \"late_by_vblanks\": %d, \"late_by_ns\": ", l->pid, l->submit_ns, l->signal_ns,
			l->target_seq, l->landed_seq, (int)(l->landed_seq - l->target_seq));
		report_json_u64_or_null(out, l->late_by_known, l->late_by_ns);
		fprintf(out, ", \"blocking\": ");
		report_json_blocking(out, m, &l->blocking);
		fprintf(out, "}");
	}
	fprintf(out, "]}");
}

static const char *const outcomes[] = {
	[FT_OUTCOME_UNKNOWN] = "unknown", [FT_OUTCOME_SHOWN] = "shown",
	[FT_OUTCOME_DISCARDED] = "discarded", [FT_OUTCOME_DROPPED] = "dropped",
};

/* A stall's error, late member and the fate of its commit: null where unknown. */
static void long_wait_series(FILE *out, const struct ft_model *m, const struct ft_long_wait *l)
{
	fprintf(out, ", \"error\": ");
	if (report_errors_known(m))
		fprintf(out, "%d", l->member_error ? l->member_error : l->error);
	else
		fprintf(out, "null");
	if (l->member_key)
		fprintf(out, ", \"late_member\": {\"context\": %" PRIu64 ", \"seqno\": %" PRIu64 "}",
			l->member_key >> 32, l->member_key & (uint64_t)0xffffffff);
	else
		fprintf(out, ", \"late_member\": null");
	if (l->ret_known)
		fprintf(out, ", \"commit\": %" PRIu64 ", \"plane\": %u, \"wait_ret\": %d", l->commit,
			l->plane, l->ret);
	else
		fprintf(out, ", \"commit\": null, \"plane\": null, \"wait_ret\": null");
	fprintf(out, ", \"outcome\": \"%s\", \"outcome_ns\": %" PRIu64 ", \"outcome_error\": %d",
		outcomes[l->outcome], l->outcome_ts, l->outcome_err);
}

static void stalls_json(FILE *out, const struct ft_model *m)
{
	fprintf(out, "  \"stall_threshold_ns\": %" PRIu64 ", \"stall_count\": %" PRIu64 ", \"stalls\": [",
		m->waits.stall_ns, m->waits.long_waits_total);
	for (unsigned int i = 0; i < m->waits.n_long_waits; i++) {
		const struct ft_long_wait *l = &m->waits.long_waits[i];

		fprintf(out, "%s\n    {\"pid\": %d, \"comm\": ", i ? "," : "", l->pid);
		json_str(out, report_task_name(m, l->pid));
		fprintf(out, ", \"start_ns\": %" PRIu64 ", \"end_ns\": %" PRIu64 ", \"context\": %" PRIu64
			", \"seqno\": %" PRIu64 ", \"signaled\": %s, \"out_fence_seqno\": %u", l->start,
			l->end, (uint64_t)(l->key >> 32), (uint64_t)(l->key & 0xffffffffull), l->signaled ? "true" : "false",
			l->out_seqno);
		long_wait_series(out, m, l);
		fprintf(out, "}");
	}
	fprintf(out, "\n  ],\n");
}

/* What the text anomalies section says; null where the kernel does not say. */
static void anomalies(FILE *out, const struct ft_model *m)
{
	struct report_anomalies a;

	report_anomalies_count(m, &a);
	fprintf(out, "  \"anomalies\": {\"never_signaled\": %" PRIu64 ", \"errors\": ", a.never_signaled);
	if (report_errors_known(m))
		fprintf(out, "%" PRIu64, a.errors);
	else
		fprintf(out, "null");
	fprintf(out, ", \"destroyed_unsignaled\": %" PRIu64 ", \"discarded_out_fences\": ",
		a.destroyed_unsignaled);
	if (m->dec->have_event[FT_EV_OUT_DISCARD])
		fprintf(out, "%" PRIu64, a.discarded_out_fences);
	else
		fprintf(out, "null");
	fprintf(out, ", \"seqno_regressions\": %" PRIu64 ", \"key_reused\": %" PRIu64
		", \"duplicates\": %" PRIu64 ", \"duplicates_traced\": %s, \"vblank_gaps\": %" PRIu64
		", \"signals_of_unknown_fences\": %" PRIu64 ", \"lost_events\": %" PRIu64
		", \"lost_unknown_pages\": %" PRIu64 "},\n", a.seqno_regressions, a.key_reused,
		a.duplicates, model_dups_traced(m) ? "true" : "false", a.vblank_gaps, a.signal_unknown,
		m->lost, m->lost_unknown);
}

/* The series only; empty lists and "series": false in event_sets otherwise. */
static void commits_json(FILE *out, const struct ft_model *m)
{
	fprintf(out, "  \"failed_commit_count\": %" PRIu64 ", \"failed_commits\": [",
		m->commits.failed_total);
	for (unsigned int i = 0; i < m->commits.n_failed; i++) {
		const struct ft_failed_commit *f = &m->commits.failed[i];

		fprintf(out, "%s{\"commit\": %" PRIu64 ", \"ts\": %" PRIu64 ", \"error\": %d, "
			"\"out_fence_destroyed\": %s, \"out_fence_discarded\": ", i ? ", " : "", f->commit,
			f->ts, f->err, f->had_out_fence ? "true" : "false");
		if (f->discarded)
			fprintf(out, "{\"crtc\": %u, \"context\": %" PRIu64 ", \"seqno\": %" PRIu64 "}}",
				f->crtc, f->discarded_context, f->discarded_seqno);
		else
			fprintf(out, "null}");
	}
	fprintf(out, "],\n  \"commit_stall_count\": %" PRIu64 ", \"commit_stalls\": [",
		m->commits.stalls_total);
	for (unsigned int i = 0; i < m->commits.n_stalls; i++) {
		const struct ft_commit_stall *s = &m->commits.stalls[i];

		fprintf(out, "%s{\"commit\": %" PRIu64 ", \"crtc\": %u, \"waits_on\": %" PRId64
			", \"stage\": \"%s\", \"ret\": %d, \"duration_ns\": %" PRIu64 "}", i ? ", " : "",
			s->commit, s->crtc, s->waits_on, ft_stall_stage_name(s->stage),
			s->ret, s->duration_ns);
	}
	fprintf(out, "]\n");
}

static const char *const json_set_names[FT_SET_COUNT] = {
	[FT_SET_DMA_FENCE] = "dma_fence", [FT_SET_VBLANK] = "vblank",
	[FT_SET_SERIES] = "series", [FT_SET_DMA_SERIES] = "dma_fence_series",
	[FT_SET_SCHED] = "sched",
};

int report_json(FILE *out, const struct ft_model *m, const struct report_info *info,
		const struct report_opts *o)
{
	int first = 1, err = 0;

	fprintf(out, "{\n  \"file\": ");
	json_str(out, info->path);
	fprintf(out, ",\n  \"window\": {\"from_ns\": %llu, \"to_ns\": ", info->from_ns);
	if (info->to_ns)
		fprintf(out, "%llu}", info->to_ns);
	else
		fprintf(out, "null}");
	fprintf(out, ",\n  \"version\": %d, \"cpus\": %d, \"clock\": ", info->version, info->cpus);
	json_str(out, info->clock ? info->clock : "local");
	fprintf(out, ",\n  \"events\": %" PRIu64 ", \"lost_events\": %" PRIu64
		", \"lost_unknown_pages\": %" PRIu64 ", \"missing_events\": %" PRIu64
		",\n  \"event_sets\": {", m->events, m->lost, m->lost_unknown, m->missing);
	for (int s = 0; s < FT_SET_COUNT; s++)
		fprintf(out, "%s\"%s\": %s", s ? ", " : "", json_set_names[s],
			m->dec->have_set[s] ? "true" : "false");
	fprintf(out, "},\n  \"problems\": ");
	json_str(out, m->dec->problems);
	fprintf(out, ",\n");
	if (o->sections & SEC_TIMELINES) {
		timelines(out, m, o);
		timeline_groups(out, m, o);
	}
	if (o->sections & SEC_WAITS)
		err = waits(out, m, o);
	fprintf(out, "  \"crtcs\": [");
	for (unsigned int i = 0; (o->sections & SEC_DISPLAY) && i < m->display.crtcs.n; i++) {
		if (!report_crtc_selected(&m->display.crtcs.items[i], o))
			continue;
		fprintf(out, "%s", first ? "" : ",");
		crtc(out, m, &m->display.crtcs.items[i], info, o);
		first = 0;
	}
	fprintf(out, "\n  ],\n");
	if (o->sections & SEC_FRAMES)
		report_json_frames(out, m, o);
	if (o->sections & SEC_STALLS)
		stalls_json(out, m);
	if (o->sections & SEC_ANOMALIES)
		anomalies(out, m);
	commits_json(out, m);
	fprintf(out, "}\n");
	return ferror(out) || err ? -1 : 0;
}
