// SPDX-License-Identifier: GPL-2.0
/*
 * tables-timelines.c - the timelines table (report --json's "timelines"
 * and "timeline_groups", one row each) and the waits table (its "waits"
 * and "polls": by task, by timeline, by group of contexts, by plane).
 */
#include <inttypes.h>

#include "json-str.h"
#include "tables.h"

/* Every row, as report --json prints them without a filter. */
static const struct report_opts all = {
	.sections = SEC_ALL, .context = -1, .crtc = -1, .pid = -1,
};

static void timeline_row(const struct tables_out *t, const struct ft_timeline *tl,
			 const char *kind, int own, uint32_t group)
{
	const struct ft_model *m = t->m;
	FILE *out = t->out;

	fprintf(out, "{\"kind\": \"%s\"", kind);
	tables_u64_or_null(out, "context", own, tl->context);
	tables_u64_or_null(out, "group", group != FT_NONE, group);
	tables_u64(out, "contexts", own ? 1 : tl->contexts);
	tables_u64_or_null(out, "members", !own && tl->merge && m->dec->have_event[FT_EV_FENCE_MEMBER],
			   tl->members);
	tables_str(out, "driver", tl->driver);
	tables_str(out, "timeline", tl->name);
	tables_u64(out, "fences", tl->fences);
	tables_u64(out, "signaled", tl->signaled);
	tables_u64_or_null(out, "errors", report_errors_known(m), tl->errors);
	tables_u64(out, "unsignaled", tl->unsignaled_at_end);
	tables_u64(out, "destroyed_unsignaled", tl->destroyed_unsignaled);
	tables_u64(out, "out_of_order", tl->out_of_order);
	tables_u64(out, "key_reused", tl->key_reused);
	tables_u64(out, "duplicates", tl->duplicates);
	fprintf(out, ", \"lost_in_span\": %s",
		model_lost_between(m, tl->first_ts, tl->last_ts) ? "true" : "false");
	tables_latency(out, "signal", &tl->latency);
	tables_latency(out, "emit", &tl->emit_latency);
	fprintf(out, "}\n");
}

/** tables_timelines() - own rows (kind "context"), then groups ("one_fence", "merge") */
int tables_timelines(const struct tables_out *t)
{
	const struct ft_model *m = t->m;

	for (uint32_t i = 0; i < m->fences.contexts.n; i++) {
		const struct ft_timeline *tl = report_own_row(m, i);

		if (tl)
			timeline_row(t, tl, "context", 1, tl->group);
	}
	for (uint32_t i = 0; i < m->fences.groups.n; i++) {
		const struct ft_timeline *g = &m->fences.groups.items[i];

		if (g->contexts)
			timeline_row(t, g, g->merge ? "merge" : "one_fence", 0, i);
	}
	return 0;
}

/* The numbers of a waits row; interrupted is null for polls (they are not). */
static void wait_numbers(FILE *out, const struct ft_wait_stat *s, int poll)
{
	tables_u64(out, "count", s->count);
	tables_u64(out, "total_ns", s->total_ns);
	tables_u64(out, "max_ns", s->max_ns);
	tables_u64(out, "p99_ns", hist_percentile(&s->h, 0.99));
	tables_u64_or_null(out, "interrupted", !poll, s->interrupted);
	tables_log2(out, "wait", &s->h);
	fprintf(out, "}\n");
}

static void start_row(FILE *out, const char *kind, const char *by)
{
	fprintf(out, "{\"kind\": \"%s\", \"by\": \"%s\"", kind, by);
}

static void by_task(const struct tables_out *t, const struct ft_wait_stats *st, const char *kind)
{
	for (size_t i = 0; i < st->n; i++) {
		const struct ft_wait_stat *s = &st->items[i];

		start_row(t->out, kind, "task");
		tables_u64(t->out, "pid", s->id);
		tables_str(t->out, "comm", report_task_name(t->m, (int)s->id));
		wait_numbers(t->out, s, kind[0] == 'p');
	}
}

/* Waited contexts with a row of their own, then the rest summed per group. */
static int by_timeline(const struct tables_out *t, const struct ft_wait_stats *st, const char *kind)
{
	const struct ft_model *m = t->m;
	struct report_wait_rows r;
	int err = report_wait_rows(m, st, &all, &r);

	for (unsigned int i = 0; i < r.n; i++) {
		const struct report_wait_row *row = &r.rows[i];
		const struct ft_timeline *tl;

		if (row->group == FT_NONE) {
			tl = model_context_row(m, row->ctx);
			start_row(t->out, kind, "timeline");
			tables_u64(t->out, "context", ft_context_at(&m->fences.contexts, row->ctx)->context);
		} else {
			tl = &m->fences.groups.items[row->group];
			start_row(t->out, kind, "group");
			tables_u64(t->out, "group", row->group);
			tables_str(t->out, "group_kind", tl->merge ? "merge" : "one_fence");
			tables_u64(t->out, "contexts", row->contexts);
		}
		tables_str(t->out, "driver", tl->driver);
		tables_str(t->out, "timeline", tl->name);
		wait_numbers(t->out, row->s, kind[0] == 'p');
	}
	report_wait_rows_free(&r);
	return err;
}

/** tables_waits() - waits and sync_file polls, by task, timeline and group; waits by plane */
int tables_waits(const struct tables_out *t)
{
	const struct ft_waits *w = &t->m->waits;
	int err;

	by_task(t, &w->by_task, "wait");
	err = by_timeline(t, &w->by_timeline, "wait");
	for (size_t i = 0; i < w->by_plane.n; i++) {
		start_row(t->out, "wait", "plane");
		tables_u64(t->out, "plane", w->by_plane.items[i].id);
		wait_numbers(t->out, &w->by_plane.items[i], 0);
	}
	by_task(t, &w->poll_by_task, "poll");
	err |= by_timeline(t, &w->poll_by_timeline, "poll");
	return err;
}
