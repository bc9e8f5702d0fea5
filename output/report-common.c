// SPDX-License-Identifier: GPL-2.0
/* report-common.c - what the text and JSON outputs share. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <event-parse.h>

#include "report.h"

static const struct {
	const char *name;
	unsigned int bit;
} section_names[] = {
	{ "timelines", SEC_TIMELINES },
	{ "waits", SEC_WAITS },
	{ "display", SEC_DISPLAY },
	{ "anomalies", SEC_ANOMALIES },
	{ "stalls", SEC_STALLS },
	{ "frames", SEC_FRAMES },
	{ "all", SEC_ALL },
};

static const char *const class_names[FT_CLASSES] = {
	[FT_CLASS_ON_TIME] = "on-time", [FT_CLASS_PRODUCER] = "producer",
	[FT_CLASS_QUEUED] = "queued", [FT_CLASS_WAKEUP] = "wakeup",
	[FT_CLASS_DRIVER] = "driver", [FT_CLASS_UNKNOWN] = "unknown",
};

static const char *const repeat_names[FT_REPEAT_KINDS] = {
	[FT_REPEAT_WAITING_FENCE] = "waiting-fence", [FT_REPEAT_QUEUED] = "queued",
	[FT_REPEAT_DRIVER] = "driver", [FT_REPEAT_WAITING_POLL] = "waiting-poll",
	[FT_REPEAT_COMPOSITOR_LATE] = "compositor-late", [FT_REPEAT_IDLE] = "idle",
	[FT_REPEAT_UNKNOWN] = "unknown",
};

/* A frame class as the outputs name it (the README's "Frames"). */
const char *report_frame_class_name(enum ft_frame_class cls)
{
	return cls < FT_CLASSES ? class_names[cls] : "?";
}

/* The classes of @mask (1 << class), each in @quote, @sep between them. */
void report_frame_classes(FILE *out, unsigned int mask, const char *sep, const char *quote)
{
	const char *before = "";

	for (int k = FT_CLASS_PRODUCER; k < FT_CLASSES; k++)
		if (mask & (1u << k)) {
			fprintf(out, "%s%s%s%s", before, quote,
				report_frame_class_name((enum ft_frame_class)k), quote);
			before = sep;
		}
}

/* Where a CRTC's latch margin came from: "given", "estimated" or "none". */
const char *report_latch_margin_source(const struct ft_model *m, const struct ft_frame_stats *fs)
{
	if (m->display.latch_margin_ns >= 0)
		return "given";
	return fs->margin_known ? "estimated" : "none";
}

/*
 * Does @l say how far past its deadline it was?  Not when unknown, nor for
 * a driver frame whose part was no stage past it (latch) or is untraced.
 */
int report_frame_past_known(const struct ft_late_frame *l)
{
	if (l->cls == FT_CLASS_DRIVER)
		return l->driver_part != FT_DRIVER_PART_UNTRACED &&
		       l->driver_part != FT_DRIVER_PART_LATCH;
	return l->cls != FT_CLASS_UNKNOWN;
}

/* A driver frame's part as the outputs name it; NULL when it has none. */
const char *report_driver_part_name(const struct ft_late_frame *l)
{
	static const char *const names[FT_DRIVER_PARTS] = {
		[FT_DRIVER_PART_SUBMIT] = "submit", [FT_DRIVER_PART_TAIL_START] = "tail-start",
		[FT_DRIVER_PART_COMMIT_TAIL] = "commit-tail", [FT_DRIVER_PART_LATCH] = "latch",
	};

	if (l->cls != FT_CLASS_DRIVER || l->driver_part >= FT_DRIVER_PARTS)
		return NULL;
	return names[l->driver_part];
}

/* A repeated vblank's blame as the outputs name it. */
const char *report_repeat_kind_name(enum ft_repeat_kind kind)
{
	return kind < FT_REPEAT_KINDS ? repeat_names[kind] : "?";
}

/* Add section @name to *@sections; -1 if there is no such section. */
int report_section_parse(const char *name, unsigned int *sections)
{
	for (size_t i = 0; i < sizeof(section_names) / sizeof(section_names[0]); i++)
		if (strcmp(name, section_names[i].name) == 0) {
			*sections |= section_names[i].bit;
			return 0;
		}
	return -1;
}

/* The task's name as the trace's saved cmdlines know it, or "?". */
const char *report_task_name(const struct ft_model *m, int pid)
{
	const char *comm = tep_data_comm_from_pid(m->dec->tep, pid);

	return comm && strcmp(comm, "<...>") != 0 ? comm : "?";
}

const char *report_holder_name(const struct ft_model *m, int pid)
{
	const char *comm = pid ? model_holder_name(m, pid) : "(idle)";

	return comm ? comm : report_task_name(m, pid);
}

int report_holder_known(const struct ft_late_frame *l)
{
	return l->wakeup.traced && l->wakeup.held_by != FT_HELD_UNKNOWN;
}

/* Does --context / --timeline keep @t? */
int report_timeline_selected(const struct ft_timeline *t, const struct report_opts *o)
{
	if (o->context >= 0 && t->context != (uint64_t)o->context)
		return 0;
	return !o->timeline || strstr(t->name, o->timeline);
}

/* Does --pid keep a by-task row, or --timeline / --context a by-timeline row? */
int report_wait_selected(const struct ft_model *m, const struct ft_wait_stat *s, int by_task,
			 const struct report_opts *o)
{
	if (by_task)
		return o->pid < 0 || s->id == (uint64_t)o->pid;
	if (s->id & FT_WAIT_GROUP)	/* a group's: no --context (it keeps every row) */
		return o->context < 0 && (!o->timeline ||
		       strstr(m->fences.groups.items[s->id & ~FT_WAIT_GROUP].name, o->timeline));
	return report_context_selected(m, (uint32_t)s->id, o);
}

/* Does --context / --timeline keep context @ctx (an index in model.fences.contexts)? */
int report_context_selected(const struct ft_model *m, uint32_t ctx, const struct report_opts *o)
{
	if (o->context >= 0 && ft_context_at(&m->fences.contexts, ctx)->context != (uint64_t)o->context)
		return 0;
	return !o->timeline || strstr(model_context_row(m, ctx)->name, o->timeline);
}

/* Context @ctx's own row, or NULL: in the order the contexts were first seen. */
const struct ft_timeline *report_own_row(const struct ft_model *m, uint32_t ctx)
{
	uint32_t t = model_context_timeline(m, ctx);

	return t == FT_NONE ? NULL : &m->fences.timelines.items[t];
}

/*
 * Is own row @t one of the table's: not counted in a group instead, or
 * named by --context (which keeps every context's row in the model)?
 */
int report_row_shown(const struct ft_timeline *t, const struct report_opts *o)
{
	return t->group == FT_NONE || o->context >= 0;
}

static const struct ft_timeline *sort_rows;

/* Slowest p99 first; among equals, the lower context. */
static int by_p99(const void *a, const void *b)
{
	const struct ft_timeline *x = &sort_rows[*(const uint32_t *)a];
	const struct ft_timeline *y = &sort_rows[*(const uint32_t *)b];
	uint64_t px = hist_percentile(&x->latency, 0.99), py = hist_percentile(&y->latency, 0.99);

	if (px != py)
		return px < py ? 1 : -1;
	return x->context < y->context ? -1 : x->context > y->context;
}

/**
 * report_frame_fence_late() - whether a late frame's in-fence signalled past
 * its deadline: its class is producer, or producer contributes
 * @l: the late frame
 *
 * Return: 1 when the fence is to blame (drawn as an arrow from it).
 */
int report_frame_fence_late(const struct ft_late_frame *l)
{
	return l->cls == FT_CLASS_PRODUCER || (l->contributing & (1u << FT_CLASS_PRODUCER));
}

/**
 * report_run_selected() - whether a run of repeats passes the filters
 * @m: the model
 * @c: its CRTC
 * @r: the run
 * @o: --pid, --timeline, --context: a run passes them only as the wait of
 *     a late frame that does; with none given every run passes
 *
 * Return: 1 to list it.
 */
int report_run_selected(const struct ft_model *m, const struct ft_crtc *c,
			const struct ft_repeat_run *r, const struct report_opts *o)
{
	if (o->pid < 0 && !o->timeline && o->context < 0)
		return 1;
	return r->late >= 0 && (unsigned int)r->late < c->n_late &&
	       report_late_selected(m, c, &c->late[r->late], o);
}

/**
 * report_group_rows() - the own rows (--by context) that group @g counts,
 * kept by the filter, slowest p99 first
 *
 * Return: how many there are (possibly more than the @max put in @idx),
 * or -1 when memory ran out.
 */
long report_group_rows(const struct ft_model *m, uint32_t g, const struct report_opts *o,
		       uint32_t *idx, unsigned int max)
{
	const struct ft_fences *fc = &m->fences;
	uint32_t *all = malloc((fc->timelines.n + 1) * sizeof(*all));
	unsigned int n = 0;

	if (!all)
		return -1;
	for (uint32_t i = 0; i < fc->timelines.n; i++)
		if (fc->timelines.items[i].group == g && report_timeline_selected(&fc->timelines.items[i], o))
			all[n++] = i;
	sort_rows = fc->timelines.items;
	qsort(all, n, sizeof(*all), by_p99);
	memcpy(idx, all, (n < max ? n : max) * sizeof(*idx));
	free(all);
	return n;
}

/*
 * Without --timeline and --context every frame's CRTC passes; with either,
 * a CRTC whose out-fence timeline it selects.
 */
static int crtc_timeline_selected(const struct ft_model *m, const struct ft_crtc *c,
				  const struct report_opts *o)
{
	return (!o->timeline && o->context < 0) ||
	       report_timeline_selected(&m->fences.timelines.items[c->timeline], o);
}

/*
 * Does the filter keep late frame @l of CRTC @c?  --pid: the task that
 * committed it.  --timeline / --context: the fence that blocked it, or the
 * CRTC's own out-fence timeline (so that naming the CRTC's timeline keeps
 * all its late frames); a frame with no blocking fence seen is left out.
 */
int report_late_selected(const struct ft_model *m, const struct ft_crtc *c,
			 const struct ft_late_frame *l, const struct report_opts *o)
{
	const struct ft_blocking *b = &l->blocking;

	if (o->pid >= 0 && l->pid != o->pid)
		return 0;
	if (crtc_timeline_selected(m, c, o))
		return 1;
	return b->known && b->ctx != FT_NONE && report_context_selected(m, b->ctx, o);
}

/*
 * Is failed frame @f of CRTC @c one the filters keep: its task's, on a
 * selected CRTC timeline (it waited on no in-fence a filter could name)?
 */
int report_failed_selected(const struct ft_model *m, const struct ft_crtc *c,
			   const struct ft_failed_frame *f, const struct report_opts *o)
{
	if (o->pid >= 0 && f->pid != o->pid)
		return 0;
	return crtc_timeline_selected(m, c, o);
}

/* Is CRTC @c the one --crtc names (any, without it)? */
int report_crtc_selected(const struct ft_crtc *c, const struct report_opts *o)
{
	return o->crtc < 0 || c->crtc_id == (uint64_t)o->crtc;
}

/* How many of @c's late frames (those kept in detail) the filter keeps. */
uint64_t report_late_selected_count(const struct ft_model *m, const struct ft_crtc *c,
				    const struct report_opts *o)
{
	uint64_t n = 0;

	for (unsigned int i = 0; i < c->n_late; i++)
		n += report_late_selected(m, c, &c->late[i], o);
	return n;
}

/* Is any filter that applies to late frames set? */
int report_late_filtered(const struct report_opts *o)
{
	return o->pid >= 0 || o->timeline || o->context >= 0;
}

/* Does the trace say which fences signalled with an error? */
int report_errors_known(const struct ft_model *m)
{
	return m->dec->have_event[FT_EV_FENCE_ERROR];
}

/* Failed frames are out-fences destroyed unsignalled: were destroys and signals recorded? */
int report_failed_known(const struct ft_model *m)
{
	return m->dec->have_event[FT_EV_FENCE_DESTROY] && m->dec->have_event[FT_EV_FENCE_SIGNALED];
}

/*
 * Percentile @p of @h (1.0: its max) as report_dur(), or "?" when @h is
 * empty (no signalled fence, no frame): unknown, not 0 ns.
 */
const char *report_pct(char *buf, size_t len, const struct hist *h, double p)
{
	if (!h->count) {
		snprintf(buf, len, "?");
		return buf;
	}
	return report_dur(buf, len, hist_percentile(h, p));
}

/* @ns as "850 ns", "12.3 us", "3.20 ms" or "1.50 s", in @buf. */
const char *report_dur(char *buf, size_t len, uint64_t ns)
{
	if (ns < 1000)
		snprintf(buf, len, "%" PRIu64 " ns", ns);
	else if (ns < 1000000)
		snprintf(buf, len, "%.1f us", ns / 1e3);
	else if (ns < 1000000000)
		snprintf(buf, len, "%.2f ms", ns / 1e6);
	else
		snprintf(buf, len, "%.2f s", ns / 1e9);
	return buf;
}

static void anomalies_add(struct report_anomalies *a, const struct ft_timeline *t)
{
	a->errors += t->errors;
	a->never_signaled += t->unsignaled_at_end;
	a->destroyed_unsignaled += t->destroyed_unsignaled;
	a->seqno_regressions += t->out_of_order;
	a->key_reused += t->key_reused;
	a->duplicates += t->duplicates;
}

void report_anomalies_count(const struct ft_model *m, struct report_anomalies *a)
{
	memset(a, 0, sizeof(*a));
	for (unsigned int i = 0; i < m->display.crtcs.n; i++)
		a->discarded_out_fences += m->display.crtcs.items[i].discarded;
	for (unsigned int i = 0; i < m->fences.timelines.n; i++)
		if (m->fences.timelines.items[i].group == FT_NONE)	/* else in its group */
			anomalies_add(a, &m->fences.timelines.items[i]);
	for (unsigned int i = 0; i < m->fences.groups.n; i++)
		anomalies_add(a, &m->fences.groups.items[i]);
	for (unsigned int i = 0; i < m->display.pipes.n; i++)
		a->vblank_gaps += m->display.pipes.items[i].missed;
	a->signal_unknown = m->fences.signal_unknown;
}
