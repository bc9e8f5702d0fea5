/* SPDX-License-Identifier: GPL-2.0 */
/*
 * analyze.h - one pass over a trace file: source -> decode -> model.
 * What `report` (and later `timeline`, `stall`) build their outputs from.
 */
#ifndef FENCE_TRACE_ANALYZE_H
#define FENCE_TRACE_ANALYZE_H

#include <stddef.h>

#include "decode.h"
#include "model.h"
#include "source.h"
#include "tie-order.h"

/*
 * Only events with from_ns <= ts <= to_ns reach the model (to_ns 0: no
 * end).  on_event, when set, sees every decoded event after the model has
 * taken it: outputs that need each event (the timeline) hang here.
 * each_context asks for every fence context's own row besides the groups.
 */
struct analysis_window {
	unsigned long long from_ns, to_ns;
	void (*on_event)(const struct ft_event *ev, const struct ft_model *m, void *ctx);
	/* and every record the catalogue does not name (a print event, say) */
	void (*on_other)(struct tep_record *rec, struct tep_handle *tep, void *ctx);
	void *ctx;
	int each_context;	/* a row of its own for every fence context (model.h) */
	enum source_reader reader;	/* SOURCE_READER_FAST unless cross-checking */
	int latch_margin_given;		/* the frame timeline's latch margin: this, */
	unsigned long long latch_margin_ns;	/* not estimated (model-frames.c) */
};

struct analysis {
	struct ft_source *src;
	struct ft_source_info info;
	struct ft_decoder dec;
	struct ft_model model;
	struct ft_event ev;		/* the one being decoded: reused (ft_decode()) */
	struct analysis_window window;
	struct tie_order ties;		/* wait ends held behind a shared stamp */
	int have_dec, have_model;
};

int analysis_run(struct analysis *a, const char *path, const struct analysis_window *w,
		 char *err, size_t errlen);
void analysis_free(struct analysis *a);

#endif
