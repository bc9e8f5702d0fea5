// SPDX-License-Identifier: GPL-2.0
/*
 * analyze.c - source -> decode -> model, in one pass (see analyze.h).
 */
#include <stdio.h>
#include <string.h>

#include <event-parse.h>

#include "analyze.h"

static int deliver(struct analysis *a, const struct ft_event *ev)
{
	model_add(&a->model, ev);
	if (a->window.on_event)
		a->window.on_event(ev, &a->model, a->window.ctx);
	return a->model.error ? -1 : 0;
}

/* The wait ends held at a stamp the clock shared across CPUs (tie-order.h). */
static int deliver_held(struct analysis *a)
{
	const struct ft_event *ev;
	int ret = 0;

	while ((ev = tie_order_next(&a->ties)))
		if (!ret)
			ret = deliver(a, ev);
	return ret;
}

static int feed(struct tep_record *rec, void *data)
{
	struct analysis *a = data;
	int held;

	if (rec->ts < a->window.from_ns || (a->window.to_ns && rec->ts > a->window.to_ns))
		return 0;
	if (ft_decode(&a->dec, rec, &a->ev) != 1) {
		if (a->window.on_other)
			a->window.on_other(rec, source_tep(a->src), a->window.ctx);
		return 0;
	}
	if (tie_order_due(&a->ties, &a->ev) && deliver_held(a))
		return -1;
	held = tie_order_hold(&a->ties, &a->ev);
	if (held < 0) {
		a->model.error = 1;	/* out of memory */
		return -1;
	}
	return held ? 0 : deliver(a, &a->ev);
}

/*
 * Events the recorder took from the kernel (its own per-CPU stats say so)
 * but never saved (a trace-cmd per-CPU recorder that died, say): lost, and
 * where in the trace is unknown, so every statistic says it may be short.
 */
static void note_missing(struct analysis *a)
{
	uint64_t missing = source_missing(a->src);

	if (!missing)
		return;
	a->model.missing = missing;
	a->model.lost += missing;
	model_lost_everywhere(&a->model);
}

/**
 * analysis_run() - read @path into @a's model
 *
 * Return: 0, or -1 with a one-line message in @err (@a must still be
 * freed with analysis_free()).
 */
int analysis_run(struct analysis *a, const char *path, const struct analysis_window *w,
		 char *err, size_t errlen)
{
	char why[256];

	memset(a, 0, sizeof(*a));
	if (w)
		a->window = *w;
	a->src = source_open(path, a->window.reader, err, errlen);
	if (!a->src)
		return -1;
	source_info(a->src, &a->info);
	if (ft_decoder_init(&a->dec, source_tep(a->src), why, sizeof(why))) {
		snprintf(err, errlen, "%s: %s", path, why);
		return -1;
	}
	a->have_dec = 1;
	if (model_init(&a->model, &a->dec, a->info.cpus)) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	a->have_model = 1;
	a->model.fences.each_context = a->window.each_context;
	if (a->window.latch_margin_given)
		a->model.display.latch_margin_ns = (int64_t)a->window.latch_margin_ns;
	if (source_iterate(a->src, feed, a, why, sizeof(why)) < 0 || deliver_held(a)) {
		if (a->model.error)
			snprintf(err, errlen, "%s: out of memory", path);
		else
			snprintf(err, errlen, "%s", why);	/* it names the file */
		return -1;
	}
	model_finish(&a->model);
	/* The recorder's ring-buffer stats count exactly what pages flag vaguely. */
	if (a->info.overrun > 0 && (uint64_t)a->info.overrun > a->model.lost) {
		a->model.lost = (uint64_t)a->info.overrun;
		a->model.lost_exact = 1;
	}
	note_missing(a);
	return 0;
}

void analysis_free(struct analysis *a)
{
	if (a->have_model)
		model_free(&a->model);
	if (a->have_dec)
		ft_decoder_free(&a->dec);
	tie_order_free(&a->ties);
	source_close(a->src);
	memset(a, 0, sizeof(*a));
}
