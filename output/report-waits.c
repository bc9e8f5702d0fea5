// SPDX-License-Identifier: GPL-2.0
/*
 * report-waits.c - the waited and polled timelines' rows, grouped as the
 * timelines table groups them.
 *
 * The model counts waits and polls per fence context.  A context with its
 * own row in the timelines table keeps its own row here; the contexts the
 * table shows in a group (one-fence contexts by driver and name, merges by
 * kind) are summed into one row per group, or a trace with a fresh context
 * per fence (vgem, merges) would list thousands of one-wait rows.  --by
 * context and --context list every context on its own row, as before.
 */
#include <stdlib.h>
#include <string.h>

#include "report.h"

/*
 * The group that the waits of @s are summed into, or FT_NONE: its own row.
 * The model already sums merge contexts per group (FT_WAIT_GROUP) unless
 * it keeps every context's row (--by context, --context).
 */
static uint32_t fold_group(const struct ft_model *m, const struct ft_wait_stat *s,
			   const struct report_opts *o)
{
	uint32_t ctx = (uint32_t)s->id;
	const struct ft_timeline *t;

	if (s->id & FT_WAIT_GROUP)
		return (uint32_t)(s->id & ~FT_WAIT_GROUP);
	if (o->by_context || o->context >= 0)
		return FT_NONE;
	t = report_own_row(m, ctx);
	if (t)
		return report_row_shown(t, o) ? FT_NONE : t->group;
	return model_context_group(m, ctx);
}

static int fold_into(struct ft_wait_stat *sum, const struct ft_wait_stat *s)
{
	sum->count += s->count;
	sum->total_ns += s->total_ns;
	sum->interrupted += s->interrupted;
	sum->max_ns = s->max_ns > sum->max_ns ? s->max_ns : sum->max_ns;
	return hist_merge(&sum->h, &s->h);
}

/* Groups get their rows after the own rows, in the timelines table's order. */
static unsigned int place_groups(const struct ft_model *m, uint32_t *row_of, unsigned int n,
				 struct report_wait_row *rows)
{
	for (uint32_t g = 0; g < m->fences.groups.n; g++) {
		if (row_of[g] == FT_NONE)
			continue;
		row_of[g] = n;
		rows[n].ctx = FT_NONE;
		rows[n].group = g;
		rows[n].s = &rows[n].sum;
		n++;
	}
	return n;
}

/**
 * report_wait_rows() - the rows of waits or polls table @stats (keyed by
 * context index) that the filter keeps: own rows in the order first waited
 * on, then one row per group
 *
 * Return: 0, or -1 when memory ran out (@r is then empty).
 */
int report_wait_rows(const struct ft_model *m, const struct ft_wait_stats *stats,
		     const struct report_opts *o, struct report_wait_rows *r)
{
	uint32_t *row_of = malloc((m->fences.groups.n + 1) * sizeof(*row_of));
	unsigned int n = 0;
	int err = 0;

	memset(r, 0, sizeof(*r));
	r->rows = calloc(stats->n + 1, sizeof(*r->rows));
	if (!row_of || !r->rows) {
		free(row_of);
		free(r->rows);
		r->rows = NULL;
		return -1;
	}
	memset(row_of, 0xff, (m->fences.groups.n + 1) * sizeof(*row_of));	/* FT_NONE */
	for (unsigned int i = 0; i < stats->n; i++) {
		const struct ft_wait_stat *s = &stats->items[i];
		uint32_t g = fold_group(m, s, o);

		if (!report_wait_selected(m, s, 0, o))
			continue;
		if (g != FT_NONE) {
			row_of[g] = 0;		/* has a row; placed below */
			continue;
		}
		r->rows[n].ctx = (uint32_t)s->id;
		r->rows[n].group = FT_NONE;
		r->rows[n++].s = s;
	}
	r->n = place_groups(m, row_of, n, r->rows);
	for (unsigned int i = 0; i < stats->n; i++) {
		const struct ft_wait_stat *s = &stats->items[i];
		uint32_t g = fold_group(m, s, o);
		struct report_wait_row *row;

		if (g == FT_NONE || !report_wait_selected(m, s, 0, o))
			continue;
		row = &r->rows[row_of[g]];
		row->contexts += s->id & FT_WAIT_GROUP ? s->contexts : 1;
		err |= fold_into(&row->sum, s);
	}
	free(row_of);
	if (err)
		report_wait_rows_free(r);
	return err ? -1 : 0;
}

void report_wait_rows_free(struct report_wait_rows *r)
{
	for (unsigned int i = 0; i < r->n; i++)
		hist_free(&r->rows[i].sum.h);
	free(r->rows);
	memset(r, 0, sizeof(*r));
}
