// SPDX-License-Identifier: GPL-2.0
/*
 * report-text.c - the human report: perf-like aligned tables, every number
 * with its unit.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "log2-hist.h"
#include "report.h"

/*
 * On a terminal: timeline names as wide as the window allows, and colour
 * for what needs attention (unless NO_COLOR is set).  Into a file or pipe:
 * fixed widths, no escape codes, so the output can be diffed.
 */
static struct {
	int colour, name_width;
} style = { 0, 20 };

static void style_for(FILE *out)
{
	struct winsize ws;
	int tty = isatty(fileno(out));

	style.colour = tty && !getenv("NO_COLOR");
	style.name_width = 20;
	if (tty && ioctl(fileno(out), TIOCGWINSZ, &ws) == 0 && ws.ws_col > 125)
		style.name_width = ws.ws_col - 105 < 47 ? ws.ws_col - 105 : 47;
}

static const char *attn(void) { return style.colour ? "\033[1;31m" : ""; }
static const char *plain(void) { return style.colour ? "\033[0m" : ""; }

/* --from / --to: the figures below cover this window only. */
static void window(FILE *out, const struct report_info *info)
{
	fprintf(out, "window: %.6f s to ", info->from_ns / 1e9);
	if (info->to_ns)
		fprintf(out, "%.6f s", info->to_ns / 1e9);
	else
		fprintf(out, "the end");
	fprintf(out, " of the trace (--from/--to): events outside it were not read\n");
}

static void heading(FILE *out, const struct ft_model *m, const struct report_info *info)
{
	fprintf(out, "fence-trace report: %s (trace.dat v%d, %d CPUs, clock %s%s)\n", info->path,
		info->version, info->cpus, info->clock ? info->clock : "local",
		info->clock ? "" : " [not recorded: trace-cmd's default]");
	if (info->uname)
		fprintf(out, "kernel: %s\n", info->uname);
	if (info->from_ns || info->to_ns)
		window(out, info);
	fprintf(out, "events: %" PRIu64 " read, %" PRIu64 " lost%s, span %.3f s\n", m->events,
		m->lost, m->lost_unknown ? " (+ pages with an unknown number lost)" : "",
		m->events ? (m->last_ts - m->first_ts) / 1e9 : 0.0);
	fprintf(out, "event sets:");
	for (int s = 0; s < FT_SET_COUNT; s++)
		fprintf(out, "%s %s %s", s ? "," : "", ft_set_name(s),
			m->dec->have_set[s] ? "found" : "missing");
	fprintf(out, "\n");
	if (m->dec->problems[0])
		fprintf(out, "note: %s\n", m->dec->problems);
	if (m->lost || m->lost_unknown)
		fprintf(out, "%sWARNING: events were lost; counts and latencies below may be short.%s\n",
			attn(), plain());
	if (m->missing)
		fprintf(out, "%sWARNING: %" PRIu64 " of them were taken from the kernel by the recorder (its own per-CPU stats say so) but are not in the file: it did not save them.%s\n",
			attn(), m->missing, plain());
}

/* One row of the timelines table, @first in its first column. */
static void timeline_row(FILE *out, const struct ft_model *m, const struct ft_timeline *t,
			 const char *first, const char *suffix)
{
	char a[24], b[24], c[24], d[24], e[24];

	if (report_errors_known(m))
		snprintf(e, sizeof(e), "%" PRIu64, t->errors);
	else
		snprintf(e, sizeof(e), "?");
	fprintf(out, "%8s  %-12.12s %-*.*s %7" PRIu64 " %8" PRIu64 " %6s %9" PRIu64
		" %9" PRIu64 " %12" PRIu64 " %10s %10s %10s %10s%s%s\n", first, t->driver,
		style.name_width, style.name_width, t->name, t->fences, t->signaled, e,
		t->unsignaled_at_end, t->destroyed_unsignaled, t->out_of_order,
		report_pct(a, sizeof(a), &t->latency, 0.5), report_pct(b, sizeof(b), &t->latency, 0.9),
		report_pct(c, sizeof(c), &t->latency, 0.99), report_pct(d, sizeof(d), &t->latency, 1.0),
		model_lost_between(m, t->first_ts, t->last_ts) ? "  (events lost: short)" : "", suffix);
}

/* A context's own row; its duplicates (in fences, in no other column) after it. */
static void own_row(FILE *out, const struct ft_model *m, const struct ft_timeline *t)
{
	char ctx[24], dups[48] = "";

	snprintf(ctx, sizeof(ctx), "%" PRIu64, t->context);
	if (t->duplicates)
		snprintf(dups, sizeof(dups), "  %" PRIu64 " duplicates", t->duplicates);
	timeline_row(out, m, t, ctx, dups);
}

static void timelines_heading(FILE *out, const char *first)
{
	fprintf(out, "%8s  %-12s %-*s %7s %8s %6s %9s %9s %12s %10s %10s %10s %10s\n", first,
		"driver", style.name_width, "timeline", "fences", "signaled", "errors", "unsig@end",
		"destroyed", "out-of-order", "p50", "p90", "p99", "max");
}

/* --by context: group @g's contexts, slowest p99 first, REPORT_GROUP_ROWS at most. */
static void group_contexts(FILE *out, const struct ft_model *m, uint32_t g, const struct report_opts *o)
{
	uint32_t idx[REPORT_GROUP_ROWS];
	long n = report_group_rows(m, g, o, idx, REPORT_GROUP_ROWS);

	for (long i = 0; i < n && i < REPORT_GROUP_ROWS; i++)
		own_row(out, m, &m->fences.timelines.items[idx[i]]);
	if (n > REPORT_GROUP_ROWS)
		fprintf(out, "%8s  ... %ld more contexts of this group (faster p99)\n", "", n - REPORT_GROUP_ROWS);
}

/*
 * Contexts that held one fence, by driver and timeline name, and merged
 * fences by kind: a row each, however many contexts they took.
 */
static void groups(FILE *out, const struct ft_model *m, const struct report_opts *o)
{
	const struct ft_fences *fc = &m->fences;
	char n[24], members[64];
	unsigned int shown = 0;

	for (uint32_t i = 0; i < fc->groups.n && o->context < 0; i++)
		shown += fc->groups.items[i].contexts && report_timeline_selected(&fc->groups.items[i], o);
	if (!shown)
		return;
	fprintf(out, "Grouped contexts (contexts that held one fence, by driver and timeline; merged fences, by kind)\n");
	if (o->by_context)
		fprintf(out, "  --by context: under each group, its contexts with the slowest p99 (%d at most)\n",
			REPORT_GROUP_ROWS);
	timelines_heading(out, "contexts");
	for (uint32_t i = 0; i < fc->groups.n; i++) {
		const struct ft_timeline *g = &fc->groups.items[i];

		if (!g->contexts || !report_timeline_selected(g, o))
			continue;
		snprintf(n, sizeof(n), "%" PRIu64, g->contexts);
		if (!g->merge)
			members[0] = 0;
		else if (m->dec->have_event[FT_EV_FENCE_MEMBER])
			snprintf(members, sizeof(members), "  %" PRIu64 " merges, %" PRIu64 " members",
				 g->fences, g->members);
		else
			snprintf(members, sizeof(members), "  %" PRIu64 " merges, members ?", g->fences);
		timeline_row(out, m, g, n, members);
		if (o->by_context)
			group_contexts(out, m, i, o);
	}
}

static void timelines(FILE *out, const struct ft_model *m, const struct report_opts *o)
{
	fprintf(out, "\nTimelines (signal latency = dma_fence_init -> dma_fence_signaled)\n");
	if (!report_errors_known(m))
		fprintf(out, "  errors: unknown (\"?\"): this kernel does not trace them (the series' dma_fence_error)\n");
	timelines_heading(out, "context");
	for (unsigned int i = 0; i < m->fences.contexts.n; i++) {
		const struct ft_timeline *t = report_own_row(m, i);

		if (t && report_row_shown(t, o) && report_timeline_selected(t, o))
			own_row(out, m, t);
	}
	groups(out, m, o);
}

static void emit_row(FILE *out, const struct ft_timeline *t, const char *first)
{
	char a[24], b[24], c[24], d[24];

	fprintf(out, "%8s  %-12.12s %-*.*s %7" PRIu64 " %10s %10s %10s %10s\n", first, t->driver,
		style.name_width, style.name_width, t->name, t->emit_latency.count,
		report_pct(a, sizeof(a), &t->emit_latency, 0.5),
		report_pct(b, sizeof(b), &t->emit_latency, 0.9),
		report_pct(c, sizeof(c), &t->emit_latency, 0.99),
		report_pct(d, sizeof(d), &t->emit_latency, 1.0));
}

/* Emit -> signalled: how long the hardware took once the job was queued. */
static void emit_latency(FILE *out, const struct ft_model *m, const struct report_opts *o)
{
	const struct ft_fences *fc = &m->fences;
	char ctx[24];
	int any = 0;

	fprintf(out, "Emit latency (dma_fence_emit -> dma_fence_signaled, fences that were emitted)\n");
	for (unsigned int i = 0; i < fc->contexts.n + fc->groups.n; i++) {
		int own = i < fc->contexts.n;
		const struct ft_timeline *t = own ? report_own_row(m, i) :
					      &fc->groups.items[i - fc->contexts.n];

		if (!t || (own && !report_row_shown(t, o)) || !report_timeline_selected(t, o) ||
		    !t->emit_latency.count)
			continue;
		if (!any++)
			fprintf(out, "%8s  %-12s %-*s %7s %10s %10s %10s %10s\n", "context", "driver",
				style.name_width, "timeline", "emitted", "p50", "p90", "p99", "max");
		snprintf(ctx, sizeof(ctx), "%" PRIu64, t->context);
		emit_row(out, t, own ? ctx : "group");
	}
	if (!any)
		fprintf(out, "  no signalled fence was emitted (its driver does not trace dma_fence_emit)\n");
}

static void latency_hist(FILE *out, const struct ft_timeline *t, int own)
{
	uint32_t slots[64];

	for (unsigned int p = 0; p < 64; p++) {
		uint64_t n = hist_log2_count(&t->latency, p, 1);

		slots[p] = n > UINT32_MAX ? UINT32_MAX : (uint32_t)n;
	}
	if (own)
		fprintf(out, "\nSignal latency of context %" PRIu64 " (%s %s):\n", t->context,
			t->driver, t->name);
	else
		fprintf(out, "\nSignal latency of the group %s %s (%" PRIu64 " contexts):\n",
			t->driver, t->name, t->contexts);
	print_log2_hist(out, slots, 64, "nsecs");
}

/* --hist: each row's signal latency as a bcc-style log2 histogram. */
static void latency_hists(FILE *out, const struct ft_model *m, const struct report_opts *o)
{
	const struct ft_fences *fc = &m->fences;

	for (unsigned int i = 0; i < fc->contexts.n; i++) {
		const struct ft_timeline *t = report_own_row(m, i);

		if (t && report_row_shown(t, o) && report_timeline_selected(t, o) && t->latency.count)
			latency_hist(out, t, 1);
	}
	for (unsigned int i = 0; i < fc->groups.n && o->context < 0; i++) {
		const struct ft_timeline *g = &fc->groups.items[i];

		if (report_timeline_selected(g, o) && g->latency.count)
			latency_hist(out, g, 0);
	}
}

static void late_frames(FILE *out, const struct ft_model *m, const struct ft_crtc *c,
			const struct report_opts *o)
{
	char a[24], b[24];

	if (!c->late_count)
		return;
	if (report_late_filtered(o))
		fprintf(out, "  %slate frames: %" PRIu64 " of %" PRIu64 " kept by --pid/--timeline/--context%s%s\n",
			attn(), report_late_selected_count(m, c, o), c->late_count,
			c->late_count > c->n_late ? " (among the first ones, kept in detail)" : "", plain());
	else
		fprintf(out, "  %slate frames: %" PRIu64 "%s%s\n", attn(), c->late_count,
			c->late_count > c->n_late ? " (detail for the first ones only)" : "", plain());
	fprintf(out, "  %8s %14s %8s %8s %10s  %s\n", "out-seq", "submit (s)", "target", "landed",
		"late by", "blocked by (last in-fence to signal)");
	for (unsigned int i = 0; i < c->n_late; i++) {
		const struct ft_late_frame *l = &c->late[i];
		const struct ft_blocking *bl = &l->blocking;

		if (!report_late_selected(m, c, l, o))
			continue;
		fprintf(out, "  %8u %14.6f %8u %8u %10s  ", l->out_seqno, l->submit_ns / 1e9,
			l->target_seq, l->landed_seq, report_dur(a, sizeof(a), l->late_by_ns));
		if (bl->known && bl->plane >= 0)
			fprintf(out, "plane %d: ", bl->plane);
		if (bl->known && bl->ctx != FT_NONE)
			fprintf(out, "%s %s context %" PRIu64 " seqno %" PRIu64 ", waited %s",
				model_context_row(m, bl->ctx)->driver, model_context_row(m, bl->ctx)->name,
				bl->context, bl->seqno, report_dur(b, sizeof(b), bl->wait_ns));
		else if (bl->known)
			fprintf(out, "context %" PRIu64 " seqno %" PRIu64 ", waited %s", bl->context,
				bl->seqno, report_dur(b, sizeof(b), bl->wait_ns));
		else
			fprintf(out, "no in-fence wait seen (late for another reason)");
		if (bl->known && bl->merged)
			fprintf(out, " (the late member of merged fence context %" PRIu64 " seqno %" PRIu64 ")",
				bl->merged_context, bl->merged_seqno);
		fprintf(out, "\n");
	}
}

/*
 * The period and its jitter as exact figures: the standard deviation
 * (typical frame pacing) and max - min (the worst outlier, like a vkms
 * timer overrun under TCG).  Not a percentile difference: percentiles are
 * within 1/256, some 65 us at 16.7 ms, coarser than real vblank jitter.
 */
static void vblank_line(FILE *out, const struct ft_pipe *p)
{
	char a[24], b[24] = "?", c[24], d[24] = "?", e[24] = "?";

	if (p->period.count) {	/* else one vblank: no period known */
		report_dur(b, sizeof(b), p->period.min);
		report_dur(d, sizeof(d), (uint64_t)(hist_stddev(&p->period) + 0.5));
		report_dur(e, sizeof(e), p->period.max - p->period.min);
	}
	fprintf(out, "  vblanks: %" PRIu64 ", period p50 %s (min %s, max %s), jitter: std dev %s, max - min %s, missed %" PRIu64 "\n",
		p->vblanks, report_pct(a, sizeof(a), &p->period, 0.5), b,
		report_pct(c, sizeof(c), &p->period, 1.0), d, e, p->missed);
}

static void display(FILE *out, const struct ft_model *m, const struct report_info *info,
		    const struct report_opts *o)
{
	const struct drm_map_crtc *dev;
	char a[24], b[24], c[24];

	fprintf(out, "\nDisplay (out-fence latency = out-fence created -> signalled)\n");
	for (unsigned int i = 0; i < m->display.crtcs.n; i++) {
		const struct ft_crtc *cr = &m->display.crtcs.items[i];
		const struct ft_pipe *p = NULL;

		if (!report_crtc_selected(cr, o))
			continue;
		for (unsigned int k = 0; k < m->display.pipes.n; k++)
			if (cr->pipe >= 0 && m->display.pipes.items[k].pipe == cr->pipe)
				p = &m->display.pipes.items[k];
		fprintf(out, "CRTC %u (%s on %s), vblank pipe %d%s: %" PRIu64 " frames, out-fence latency p50 %s, p99 %s, max %s\n",
			cr->crtc_id, cr->name, cr->driver, cr->pipe, cr->pipe < 0 ? " (unknown)" : "", cr->frames,
			report_pct(a, sizeof(a), &cr->out_latency, 0.5),
			report_pct(b, sizeof(b), &cr->out_latency, 0.99),
			report_pct(c, sizeof(c), &cr->out_latency, 1.0));
		if (model_lost_between(m, m->fences.timelines.items[cr->timeline].first_ts,
				       m->fences.timelines.items[cr->timeline].last_ts))
			fprintf(out, "  events were lost while this CRTC was active: frames and late frames may be short\n");
		if (info->drm && (dev = drm_map_find(info->drm, cr->driver, cr->crtc_id, cr->name)))
			fprintf(out, "  device: dri/%u (%s), CRTC index %u\n", dev->minor, dev->driver, dev->index);
		if (p)
			vblank_line(out, p);
		if (cr->fake_vblank)
			fprintf(out, "  %" PRIu64 " out-fences signalled by a fake vblank (no vblank interrupt: at commit completion)\n",
				cr->fake_vblank);
		if (cr->discarded)
			fprintf(out, "  %" PRIu64 " out-fences discarded unsignalled: their commits failed (drm_fence_out_discard)\n",
				cr->discarded);
		if (cr->unpaired)
			fprintf(out, "  %" PRIu64 " out-fences signalled with no vblank event before them (events lost, or not recorded)\n",
				cr->unpaired);
		late_frames(out, m, cr, o);
	}
	if (!m->display.crtcs.n)
		fprintf(out, "  no CRTC out-fence timeline in this trace\n");
}

static void failed_commit(FILE *out, const struct ft_failed_commit *f)
{
	char e[24];

	fprintf(out, "    commit %" PRIu64 " at %.6f s: error %d (%s)", f->commit, f->ts / 1e9, f->err,
		errname(f->err, e, sizeof(e)));
	if (f->discarded)
		fprintf(out, "; out-fence discarded: commit failed with %s (CRTC %u, out-fence context %" PRIu64
			" seqno %" PRIu64 ", never signalled)\n", e, f->crtc, f->discarded_context,
			f->discarded_seqno);
	else
		fprintf(out, "%s\n", f->had_out_fence ? " (its out-fence was destroyed unsignalled)" : "");
}
/* The series only: commits that failed, and commits held up by earlier ones. */
static void commits(FILE *out, const struct ft_model *m)
{
	char a[24], e[24];

	if (!m->dec->have_set[FT_SET_SERIES])
		return;
	fprintf(out, "\nCommits (fence-trace series)\n");
	fprintf(out, "  failed: %" PRIu64 "\n", m->commits.failed_total);
	for (unsigned int i = 0; i < m->commits.n_failed; i++)
		failed_commit(out, &m->commits.failed[i]);
	fprintf(out, "  behind an earlier commit: %" PRIu64 "\n", m->commits.stalls_total);
	for (unsigned int i = 0; i < m->commits.n_stalls; i++) {
		const struct ft_commit_stall *s = &m->commits.stalls[i];

		if (s->waits_on == (int64_t)s->commit) {	/* wait_for_flip_done's timeout */
			fprintf(out, "    commit %" PRIu64 " on CRTC %u: its own %s timed out after %s (ret %s): the flip never completed\n",
				s->commit, s->crtc, ft_stall_stage_name(s->stage),
				report_dur(a, sizeof(a), s->duration_ns), errname(s->ret, e, sizeof(e)));
			continue;
		}
		fprintf(out, "    commit %" PRIu64 " on CRTC %u waited %s for commit %" PRId64 "'s %s (ret %d)\n",
			s->commit, s->crtc, report_dur(a, sizeof(a), s->duration_ns), s->waits_on,
			ft_stall_stage_name(s->stage), s->ret);
	}
}

/* "sw_sync producer-B context 7 seqno 3", or "? ? context ..." when never named. */
static void fence_name(FILE *out, const struct ft_model *m, uint64_t key)
{
	uint64_t ctx = key >> 32, seq = key & 0xffffffffull;
	uint32_t ci = model_context_index(m, ctx);

	fprintf(out, "%s %s context %" PRIu64 " seqno %" PRIu64,
		ci != FT_NONE ? model_context_row(m, ci)->driver : "?",
		ci != FT_NONE ? model_context_row(m, ci)->name : "?", ctx, seq);
}

/*
 * What the commit a failed fence held up did with it.  The atomic helpers
 * ignore a fence's error (dma_fence_wait() returns 0 once it signals), so
 * the commit goes on and scans out the buffer the failed job was writing.
 */
static void error_outcome(FILE *out, const struct ft_long_wait *l, int error)
{
	char a[24], e[24];

	fprintf(out, "    signalled with an error: %s", errname(error, e, sizeof(e)));
	if (l->ret_known)
		fprintf(out, "; commit %" PRIu64 "'s wait on plane %u returned %d", l->commit, l->plane, l->ret);
	switch (l->outcome) {
	case FT_OUTCOME_SHOWN:
		fprintf(out, "; the commit went on regardless (the atomic helpers ignore fence errors): its out-fence signalled %s later, the frame was shown with that buffer\n",
			report_dur(a, sizeof(a), l->outcome_ts - l->end));
		break;
	case FT_OUTCOME_DISCARDED:
		fprintf(out, "; the commit failed with %s and discarded its out-fence\n",
			errname(l->outcome_err, e, sizeof(e)));
		break;
	case FT_OUTCOME_DROPPED:
		fprintf(out, "; the commit's out-fence was destroyed unsignalled: the frame was not shown\n");
		break;
	default:
		fprintf(out, "; what the commit did next is not in the trace\n");
	}
}

static void long_wait(FILE *out, const struct ft_model *m, const struct ft_long_wait *l)
{
	char a[24];

	fprintf(out, "  %.6f s: %s-%d waited %s on ", l->start / 1e9, report_task_name(m, l->pid), l->pid,
		report_dur(a, sizeof(a), l->end - l->start));
	fence_name(out, m, l->key);
	fprintf(out, "%s", l->signaled ? "" : " (ended unsignalled: interrupted or timed out)");
	if (l->out_seqno)
		fprintf(out, ", holding up the commit of out-fence %" PRIu64 ":%u", l->out_context,
			l->out_seqno);
	fprintf(out, "\n");
	if (l->member_key) {
		fprintf(out, "    merged fence: the member that held it is ");
		fence_name(out, m, l->member_key);
		fprintf(out, "\n");
	}
	if (l->error || l->member_error)
		error_outcome(out, l, l->member_error ? l->member_error : l->error);
}

/* Every wait past the stall threshold, with what it held up. */
static void stalls(FILE *out, const struct ft_model *m)
{
	char a[24];

	fprintf(out, "\nStalls (dma_fence waits of %s or more): %" PRIu64 "\n",
		report_dur(a, sizeof(a), m->waits.stall_ns), m->waits.long_waits_total);
	for (unsigned int i = 0; i < m->waits.n_long_waits; i++)
		long_wait(out, m, &m->waits.long_waits[i]);
	if (!report_errors_known(m))
		fprintf(out, "  (fence errors are not traced by this kernel: a stall ended by a failed fence looks like any other)\n");
}

static void anomalies(FILE *out, const struct ft_model *m)
{
	struct report_anomalies a;

	report_anomalies_count(m, &a);
	fprintf(out, "\nAnomalies\n");
	fprintf(out, "  never signalled (live at the end): %" PRIu64 "\n", a.never_signaled);
	if (report_errors_known(m))
		fprintf(out, "  signalled with an error: %" PRIu64 "\n", a.errors);
	else
		fprintf(out, "  signalled with an error: unknown (needs the series' dma_fence_error)\n");
	fprintf(out, "  destroyed unsignalled: %" PRIu64 "\n", a.destroyed_unsignaled);
	if (m->dec->have_event[FT_EV_OUT_DISCARD])
		fprintf(out, "    of them out-fences of failed commits: %" PRIu64 "\n", a.discarded_out_fences);
	fprintf(out, "  seqno regressions at creation: %" PRIu64 "\n", a.seqno_regressions);
	fprintf(out, "  (context, seqno) reused while live: %" PRIu64 "\n", a.key_reused);
	fprintf(out, "  duplicates (a fence made for a live fence's (context, seqno), dropped at once): %"
		PRIu64 "%s\n", a.duplicates, !a.duplicates || model_dups_traced(m) ? "" :
		" (sw_sync's; this kernel frees them untraced)");
	fprintf(out, "  vblank sequence gaps (missed vblanks): %" PRIu64 "\n", a.vblank_gaps);
	fprintf(out, "  signals of fences created before the trace: %" PRIu64 "\n", a.signal_unknown);
	fprintf(out, "  lost events: %" PRIu64 "%s\n", m->lost, m->lost_unknown ? " + unknown" : "");
}

int report_text(FILE *out, const struct ft_model *m, const struct report_info *info,
		const struct report_opts *o)
{
	int err = 0;

	style_for(out);
	heading(out, m, info);
	if (o->sections & SEC_TIMELINES) {
		timelines(out, m, o);
		emit_latency(out, m, o);
		if (o->hist)
			latency_hists(out, m, o);
	}
	if (o->sections & SEC_WAITS)
		err = report_text_waits(out, m, o);
	if (o->sections & SEC_DISPLAY) {
		display(out, m, info, o);
		commits(out, m);
	}
	if (o->sections & SEC_FRAMES)
		report_text_frames(out, m, o);
	if (o->sections & SEC_STALLS)
		stalls(out, m);
	if (o->sections & SEC_ANOMALIES)
		anomalies(out, m);
	return ferror(out) || err ? -1 : 0;
}
