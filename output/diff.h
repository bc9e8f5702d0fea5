/* SPDX-License-Identifier: GPL-2.0 */
/*
 * diff.h - how two captures' models differ: latency percentiles per
 * timeline and per CRTC, and the late-frame rate per CRTC, as aligned
 * tables, with a count of what regressed past a threshold.
 */
#ifndef FENCE_TRACE_DIFF_H
#define FENCE_TRACE_DIFF_H

#include <stdio.h>

#include "model.h"

struct diff_opts {
	unsigned int threshold_pct;	/* 0: report only, nothing regresses */
	double percentile;		/* the gated one: 0.5, 0.9, 0.99, or 1.0 for max */
	const char *percentile_name;
};

int diff_models(FILE *out, const struct ft_model *base, const struct ft_model *new,
		const struct diff_opts *o);

#endif
