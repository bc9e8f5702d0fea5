// SPDX-License-Identifier: GPL-2.0
/*
 * diff.c - BASE vs NEW, from the two models only (see diff.h).
 *
 * Fence contexts are allocated at run time, so timelines are matched by
 * (driver, timeline name) and CRTCs by their object id and name.  A row
 * only in NEW is marked "new", one only in BASE "gone": a timeline that
 * disappeared is news too, even though nothing can be compared.
 *
 * Late frames are compared as a rate (late frames per frame), not as a
 * count: a longer NEW run with the same share of late frames has more of
 * them and has not regressed.
 */
#include <inttypes.h>
#include <string.h>

#include "diff.h"
#include "report.h"

#define NAME_W 34

/* One side of a row: NULL when the row is missing on that side. */
struct diff_side {
	const struct hist *h;
	uint64_t frames, late;
};

static double change_pct(double before, double after)
{
	return before ? 100.0 * (after - before) / before : 0.0;
}

/* Did @after grow past the threshold from @before?  From 0, any growth. */
static int regressed(const struct diff_opts *o, double before, double after)
{
	if (!o->threshold_pct)
		return 0;
	if (!before)
		return after > 0;
	return change_pct(before, after) > o->threshold_pct;
}

static void latency_header(FILE *out, const char *what, const struct diff_opts *o)
{
	char change[24];

	snprintf(change, sizeof(change), "%s change", o->percentile_name);
	fprintf(out, "  %-*s %7s %7s %10s %10s %10s %10s %10s %10s %11s\n", NAME_W, what,
		"base n", "new n", "p50 base", "p50 new", "p99 base", "p99 new", "max base",
		"max new", change);
}

/* "1.25 ms", "-" for a side the row lacks, "?" for one with no sample (unknown, not 0 ns). */
static const char *side_value(char *buf, size_t len, const struct hist *h, double p)
{
	if (!h)
		return "-";
	return report_pct(buf, len, h, p);
}

static const char *side_count(char *buf, size_t len, const struct hist *h)
{
	if (!h)
		return "-";
	snprintf(buf, len, "%" PRIu64, h->count);
	return buf;
}

/* One latency row; returns 1 when the gated percentile regressed. */
static int latency_row(FILE *out, const char *what, const struct hist *b, const struct hist *n,
		       const struct diff_opts *o)
{
	char v[8][24], change[24] = "-";
	int bad = 0;

	if (b && n && b->count && n->count) {
		double pb = (double)(o->percentile >= 1.0 ? b->max : hist_percentile(b, o->percentile));
		double pn = (double)(o->percentile >= 1.0 ? n->max : hist_percentile(n, o->percentile));

		snprintf(change, sizeof(change), "%+.1f %%", change_pct(pb, pn));
		bad = regressed(o, pb, pn);
	}
	fprintf(out, "  %-*.*s %7s %7s %10s %10s %10s %10s %10s %10s %11s%s%s\n", NAME_W, NAME_W, what,
		side_count(v[0], 24, b), side_count(v[1], 24, n),
		side_value(v[2], 24, b, 0.5), side_value(v[3], 24, n, 0.5),
		side_value(v[4], 24, b, 0.99), side_value(v[5], 24, n, 0.99),
		side_value(v[6], 24, b, 1.0), side_value(v[7], 24, n, 1.0), change,
		!b ? "  new" : !n ? "  gone" : "", bad ? "  REGRESSED" : "");
	return bad;
}

static const struct ft_timeline *find_timeline(const struct ft_model *m, const struct ft_timeline *t)
{
	for (unsigned int k = 0; k < m->fences.timelines.n; k++)
		if (!strcmp(m->fences.timelines.items[k].driver, t->driver) &&
		    !strcmp(m->fences.timelines.items[k].name, t->name))
			return &m->fences.timelines.items[k];
	return NULL;
}

static const struct ft_crtc *find_crtc(const struct ft_model *m, const struct ft_crtc *c)
{
	for (unsigned int k = 0; k < m->display.crtcs.n; k++)
		if (m->display.crtcs.items[k].crtc_id == c->crtc_id &&
		    !strcmp(m->display.crtcs.items[k].name, c->name))
			return &m->display.crtcs.items[k];
	return NULL;
}

static int timeline_rows(FILE *out, const struct ft_model *b, const struct ft_model *n,
			 const struct diff_opts *o)
{
	int bad = 0;
	char what[128];

	fprintf(out, "\nTimelines (signal latency = dma_fence_init -> dma_fence_signaled)\n");
	latency_header(out, "timeline (driver/name)", o);
	for (unsigned int i = 0; i < n->fences.timelines.n; i++) {
		const struct ft_timeline *tn = &n->fences.timelines.items[i];
		const struct ft_timeline *tb = find_timeline(b, tn);

		snprintf(what, sizeof(what), "%s/%s", tn->driver, tn->name);
		bad += latency_row(out, what, tb ? &tb->latency : NULL, &tn->latency, o);
	}
	for (unsigned int i = 0; i < b->fences.timelines.n; i++) {
		const struct ft_timeline *tb = &b->fences.timelines.items[i];

		if (find_timeline(n, tb))
			continue;
		snprintf(what, sizeof(what), "%s/%s", tb->driver, tb->name);
		latency_row(out, what, &tb->latency, NULL, o);
	}
	return bad;
}

static void crtc_name(char *buf, size_t len, const struct ft_crtc *c)
{
	snprintf(buf, len, "CRTC %u (%s on %s)", c->crtc_id, c->name, c->driver);
}

static int crtc_latency_rows(FILE *out, const struct ft_model *b, const struct ft_model *n,
			     const struct diff_opts *o)
{
	int bad = 0;
	char what[128];

	fprintf(out, "\nCRTCs (out-fence latency = out-fence created -> signalled)\n");
	latency_header(out, "CRTC", o);
	for (unsigned int i = 0; i < n->display.crtcs.n; i++) {
		const struct ft_crtc *cn = &n->display.crtcs.items[i], *cb = find_crtc(b, cn);

		crtc_name(what, sizeof(what), cn);
		bad += latency_row(out, what, cb ? &cb->out_latency : NULL, &cn->out_latency, o);
	}
	for (unsigned int i = 0; i < b->display.crtcs.n; i++) {
		const struct ft_crtc *cb = &b->display.crtcs.items[i];

		if (find_crtc(n, cb))
			continue;
		crtc_name(what, sizeof(what), cb);
		latency_row(out, what, &cb->out_latency, NULL, o);
	}
	return bad;
}

/* Late frames per frame, in percent; 0 without frames. */
static double late_rate(const struct ft_crtc *c)
{
	return c->frames ? 100.0 * (double)c->late_count / (double)c->frames : 0.0;
}

/* "2 of 100", "2.00 %", or "-" on a missing side. */
static void late_side(char *count, char *rate, size_t len, const struct ft_crtc *c)
{
	if (!c) {
		snprintf(count, len, "-");
		snprintf(rate, len, "-");
		return;
	}
	snprintf(count, len, "%" PRIu64 " of %" PRIu64, c->late_count, c->frames);
	snprintf(rate, len, "%.2f %%", late_rate(c));
}

static int late_row(FILE *out, const struct ft_crtc *cb, const struct ft_crtc *cn,
		    const struct diff_opts *o)
{
	char what[128], v[4][48], change[24] = "-";
	int bad = 0;

	crtc_name(what, sizeof(what), cn ? cn : cb);
	late_side(v[0], v[1], sizeof(v[0]), cb);
	late_side(v[2], v[3], sizeof(v[0]), cn);
	if (cb && cn && cb->frames && cn->frames) {
		if (late_rate(cb))
			snprintf(change, sizeof(change), "%+.1f %%", change_pct(late_rate(cb), late_rate(cn)));
		bad = regressed(o, late_rate(cb), late_rate(cn));
	}
	fprintf(out, "  %-*.*s %15s %15s %10s %10s %10s%s%s\n", NAME_W, NAME_W, what, v[0], v[2],
		v[1], v[3], change, !cb ? "  new" : !cn ? "  gone" : "", bad ? "  REGRESSED" : "");
	return bad;
}

static int late_rows(FILE *out, const struct ft_model *b, const struct ft_model *n,
		     const struct diff_opts *o)
{
	int bad = 0;

	fprintf(out, "\nLate frames per CRTC (rate = late frames per frame; the gate compares rates)\n");
	fprintf(out, "  %-*s %15s %15s %10s %10s %10s\n", NAME_W, "CRTC", "late base", "late new",
		"rate base", "rate new", "change");
	for (unsigned int i = 0; i < n->display.crtcs.n; i++)
		bad += late_row(out, find_crtc(b, &n->display.crtcs.items[i]), &n->display.crtcs.items[i],
				o);
	for (unsigned int i = 0; i < b->display.crtcs.n; i++)
		if (!find_crtc(n, &b->display.crtcs.items[i]))
			late_row(out, &b->display.crtcs.items[i], NULL, o);
	return bad;
}

/*
 * A class's gate needs this many late frames of it in NEW: one frame from
 * none is a rise of any size, and no regression worth failing a run for.
 */
#define DIFF_CLASS_MIN 3

/* Late frames of class @k per frame judged, in percent. */
static double class_rate(const struct ft_crtc *c, int k)
{
	uint64_t judged = ft_frames_judged(c);

	return judged ? 100.0 * (double)c->fs.by_class[k] / (double)judged : 0.0;
}

static int class_row(FILE *out, const struct ft_crtc *cb, const struct ft_crtc *cn, int k,
		     const struct diff_opts *o)
{
	char what[160], name[128], change[24] = "-", nb[24] = "-", rb[24] = "-", rn[24];
	int bad = 0;

	crtc_name(name, sizeof(name), cn);
	snprintf(what, sizeof(what), "%s %s", name, report_frame_class_name((enum ft_frame_class)k));
	if (cb && ft_frames_judged(cb) && ft_frames_judged(cn)) {
		if (class_rate(cb, k))
			snprintf(change, sizeof(change), "%+.1f %%",
				 change_pct(class_rate(cb, k), class_rate(cn, k)));
		bad = cn->fs.by_class[k] >= DIFF_CLASS_MIN &&
			regressed(o, class_rate(cb, k), class_rate(cn, k));
	}
	if (cb) {
		snprintf(nb, sizeof(nb), "%" PRIu64, cb->fs.by_class[k]);
		snprintf(rb, sizeof(rb), "%.2f %%", class_rate(cb, k));
	}
	snprintf(rn, sizeof(rn), "%.2f %%", class_rate(cn, k));
	fprintf(out, "  %-*.*s %15s %15" PRIu64 " %10s %10s %10s%s\n", NAME_W, NAME_W, what,
		nb, cn->fs.by_class[k], rb, rn, change, bad ? "  REGRESSED" : "");
	return bad;
}

/* Per CRTC of NEW and class: late frames of that class, as counts and rates. */
static int class_rows(FILE *out, const struct ft_model *b, const struct ft_model *n,
		      const struct diff_opts *o)
{
	int bad = 0;

	fprintf(out, "\nLate frames per CRTC and class (rate = per frame judged; the gate needs %d in NEW)\n",
		DIFF_CLASS_MIN);
	fprintf(out, "  %-*s %15s %15s %10s %10s %10s\n", NAME_W, "CRTC class", "late base", "late new",
		"rate base", "rate new", "change");
	for (unsigned int i = 0; i < n->display.crtcs.n; i++) {
		const struct ft_crtc *cn = &n->display.crtcs.items[i], *cb = find_crtc(b, cn);

		for (int k = FT_CLASS_PRODUCER; k < FT_CLASSES; k++)
			if (cn->fs.by_class[k] || (cb && cb->fs.by_class[k]))
				bad += class_row(out, cb, cn, k, o);
	}
	return bad;
}

/* Frames whose out-fence was made: those shown (signalled, on any vblank) and those failed. */
static uint64_t committed(const struct ft_crtc *c)
{
	return c->frames + c->fs.failed;
}

/* Failed frames per frame committed, in percent. */
static double failed_rate(const struct ft_crtc *c)
{
	return committed(c) ? 100.0 * (double)c->fs.failed / (double)committed(c) : 0.0;
}

/* A side's count and rate, "?" where its capture cannot tell, "-" where it lacks the CRTC. */
static void failed_cells(const struct ft_model *m, const struct ft_crtc *c, char *count, char *rate,
			 size_t len)
{
	if (!c) {
		snprintf(count, len, "-");
		snprintf(rate, len, "-");
	} else if (!report_failed_known(m)) {
		snprintf(count, len, "?");
		snprintf(rate, len, "?");
	} else {
		snprintf(count, len, "%" PRIu64, c->fs.failed);
		snprintf(rate, len, "%.2f %%", failed_rate(c));
	}
}

/* @cb or @cn NULL: the CRTC only in the other capture (gone, new). */
static int failed_row(FILE *out, const struct ft_model *b, const struct ft_crtc *cb,
		      const struct ft_model *n, const struct ft_crtc *cn, const struct diff_opts *o)
{
	char name[128], change[24] = "-", nb[24], rb[24], nn[24], rn[24];
	int bad = 0, known = report_failed_known(b) && report_failed_known(n);

	crtc_name(name, sizeof(name), cn ? cn : cb);
	failed_cells(b, cb, nb, rb, sizeof(nb));
	failed_cells(n, cn, nn, rn, sizeof(nn));
	if (known && cb && cn && committed(cb) && committed(cn)) {
		double rb_pct = failed_rate(cb), rn_pct = failed_rate(cn);

		if (rb_pct)
			snprintf(change, sizeof(change), "%+.1f %%", change_pct(rb_pct, rn_pct));
		bad = cn->fs.failed >= DIFF_CLASS_MIN && regressed(o, rb_pct, rn_pct);
	}
	fprintf(out, "  %-*.*s %15s %15s %10s %10s %10s%s\n", NAME_W, NAME_W, name, nb, nn, rb, rn,
		change, bad ? "  REGRESSED" : !cn ? "  gone" : !cb ? "  new" : "");
	return bad;
}

/* Per CRTC: frames never shown, their commit rejected; only CRTCs with any in either. */
static int failed_rows(FILE *out, const struct ft_model *b, const struct ft_model *n,
		       const struct diff_opts *o)
{
	unsigned int rows = 0;
	int bad = 0;

	fprintf(out, "\nFailed frames per CRTC (commit rejected, never shown; rate = per frame committed;"
		" the gate needs %d in NEW)\n", DIFF_CLASS_MIN);
	fprintf(out, "  %-*s %15s %15s %10s %10s %10s\n", NAME_W, "CRTC", "failed base", "failed new",
		"rate base", "rate new", "change");
	for (unsigned int i = 0; i < n->display.crtcs.n; i++) {
		const struct ft_crtc *cn = &n->display.crtcs.items[i], *cb = find_crtc(b, cn);

		if (cn->fs.failed || (cb && cb->fs.failed)) {
			bad += failed_row(out, b, cb, n, cn, o);
			rows++;
		}
	}
	for (unsigned int i = 0; i < b->display.crtcs.n; i++) {
		const struct ft_crtc *cb = &b->display.crtcs.items[i];

		if (cb->fs.failed && !find_crtc(n, cb)) {
			failed_row(out, b, cb, n, NULL, o);
			rows++;
		}
	}
	if (!rows)
		fprintf(out, "  none in either capture%s\n", report_failed_known(b) && report_failed_known(n) ?
			"" : " (one cannot tell: dma_fence_destroy or _signaled not recorded)");
	return bad;
}

/**
 * diff_models() - print how @new differs from @base
 *
 * Return: the number of rows that regressed past o->threshold_pct (the
 * gated latency percentile, a CRTC's late-frame rate, the rate of one
 * class of its late frames, or its failed-frame rate); 0 without one.
 */
int diff_models(FILE *out, const struct ft_model *base, const struct ft_model *new,
		const struct diff_opts *o)
{
	int bad = 0;

	bad += timeline_rows(out, base, new, o);
	bad += crtc_latency_rows(out, base, new, o);
	bad += late_rows(out, base, new, o);
	bad += class_rows(out, base, new, o);
	bad += failed_rows(out, base, new, o);
	if (o->threshold_pct)
		fprintf(out, "\n%d regression%s past +%u %% (%s latency, late-frame rate, a class's rate,"
			" or the failed-frame rate)\n", bad,
			bad == 1 ? "" : "s", o->threshold_pct, o->percentile_name);
	return bad;
}
