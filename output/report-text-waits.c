// SPDX-License-Identifier: GPL-2.0
/*
 * report-text-waits.c - the text report's Waits section: dma_fence waits
 * by task and by waited timeline, commits' in-fence waits by plane, and
 * sync_file polls by task and by polled timeline.  The timeline rows are
 * grouped as the timelines table groups them (report-waits.c).
 */
#include <inttypes.h>
#include <string.h>

#include "report.h"

/* One row: @who, then the counts (and, unless @polls, the interrupted ones). */
static void wait_line(FILE *out, const char *who, const struct ft_wait_stat *s, int polls)
{
	char a[24], b[24], c[24];

	fprintf(out, "  %-30.30s %7" PRIu64 " %10s %10s %10s", who, s->count,
		report_dur(a, sizeof(a), s->total_ns), report_dur(b, sizeof(b), s->max_ns),
		report_pct(c, sizeof(c), &s->h, 0.99));
	if (!polls)
		fprintf(out, " %11" PRIu64, s->interrupted);
	fputc('\n', out);
}

static void task_rows(FILE *out, const struct ft_model *m, const struct ft_wait_stats *st,
		      const struct report_opts *o, int polls)
{
	for (unsigned int i = 0; i < st->n; i++) {
		const struct ft_wait_stat *s = &st->items[i];
		char who[64];

		if (!report_wait_selected(m, s, 1, o))
			continue;
		snprintf(who, sizeof(who), "%s-%" PRIu64, report_task_name(m, (int)s->id), s->id);
		wait_line(out, who, s, polls);
	}
}

/* A group's name cut to fit @width with " (N contexts)" after it. */
static void group_label(char *buf, size_t len, int width, const char *name, uint64_t n)
{
	char suffix[40];
	int keep;

	snprintf(suffix, sizeof(suffix), " (%" PRIu64 " context%s)", n, n == 1 ? "" : "s");
	keep = width - (int)strlen(suffix);
	snprintf(buf, len, "%.*s%s", keep > 0 ? keep : 0, name, suffix);
}

/*
 * The waited (polled) timelines: own rows by name and context (sw_sync
 * names every timeline after the task that opened it, so two rows may
 * share a name), then groups, "group" in the context column as in the
 * emit latency table.
 */
static int timeline_rows(FILE *out, const struct ft_model *m, const struct ft_wait_stats *st,
			 const struct report_opts *o, int polls)
{
	struct report_wait_rows r;
	char name[64], ctx[24], who[96];

	if (report_wait_rows(m, st, o, &r)) {
		fprintf(out, "  (rows left out: out of memory)\n");
		return -1;
	}
	for (unsigned int i = 0; i < r.n; i++) {
		const struct report_wait_row *row = &r.rows[i];
		int own = row->group == FT_NONE;
		const char *tl = own ? model_context_row(m, row->ctx)->name :
				 m->fences.groups.items[row->group].name;

		if (own)
			snprintf(name, sizeof(name), "%s", tl);
		else
			group_label(name, sizeof(name), 21, tl, row->contexts);
		if (own)
			snprintf(ctx, sizeof(ctx), "%" PRIu64, ft_context_at(&m->fences.contexts, row->ctx)->context);
		else
			snprintf(ctx, sizeof(ctx), "group");
		snprintf(who, sizeof(who), "%-21.21s %8s", name, ctx);
		wait_line(out, who, row->s, polls);
	}
	report_wait_rows_free(&r);
	return 0;
}

static void plane_rows(FILE *out, const struct ft_model *m)
{
	fprintf(out, "In-fence waits of commits, per plane (drm_fence_wait_end, fence-trace series)\n");
	fprintf(out, "  %-30s %7s %10s %10s %10s %11s\n", "plane", "waits", "total", "max", "p99",
		"interrupted");
	for (unsigned int i = 0; i < m->waits.by_plane.n; i++) {
		const struct ft_wait_stat *p = &m->waits.by_plane.items[i];
		char who[32];

		snprintf(who, sizeof(who), "plane %" PRIu64, p->id);
		wait_line(out, who, p, 0);
	}
}

/**
 * report_text_waits() - the text report's Waits section
 *
 * Return: 0, or -1 when memory ran out (rows were left out).
 */
int report_text_waits(FILE *out, const struct ft_model *m, const struct report_opts *o)
{
	int err = 0;

	fprintf(out, "\nWaits (dma_fence_wait_start -> dma_fence_wait_end)\n");
	fprintf(out, "  %-30s %7s %10s %10s %10s %11s\n", "waiting task", "waits", "total", "max", "p99",
		"interrupted");
	task_rows(out, m, &m->waits.by_task, o, 0);
	fprintf(out, "  %-21s %8s %7s %10s %10s %10s %11s\n", "waited timeline", "context", "waits",
		"total", "max", "p99", "interrupted");
	err |= timeline_rows(out, m, &m->waits.by_timeline, o, 0);
	if (!m->dec->have_set[FT_SET_SERIES])
		return err;
	plane_rows(out, m);
	fprintf(out, "Polls on sync_files (sync_file_poll_begin -> _ready, fence-trace series)\n");
	fprintf(out, "  %-30s %7s %10s %10s %10s\n", "polling task", "polls", "total", "max", "p99");
	task_rows(out, m, &m->waits.poll_by_task, o, 1);
	fprintf(out, "  %-21s %8s %7s %10s %10s %10s\n", "polled timeline", "context", "polls", "total",
		"max", "p99");
	err |= timeline_rows(out, m, &m->waits.poll_by_timeline, o, 1);
	return err;
}
