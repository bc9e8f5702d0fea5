/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hist.h - latency histograms: log-linear buckets (128 per power of two),
 * so percentiles are within 1/256 of the true value whatever the number of
 * samples, in fixed memory.  Count, sum, min, max and the standard
 * deviation are exact (the last up to double rounding).
 */
#ifndef FENCE_TRACE_HIST_H
#define FENCE_TRACE_HIST_H

#include <stdint.h>

#define HIST_SUB_BITS 7
#define HIST_BUCKETS ((64 - HIST_SUB_BITS + 1) << HIST_SUB_BITS)

struct hist {
	uint64_t count, sum, min, max;
	double mean, m2;	/* running mean and sum of squared deviations (Welford) */
	uint32_t *buckets;	/* HIST_BUCKETS, allocated on the second add */
};

int hist_add(struct hist *h, uint64_t v);
int hist_merge(struct hist *dst, const struct hist *src);
uint64_t hist_percentile(const struct hist *h, double p);
double hist_stddev(const struct hist *h);
uint64_t hist_log2_count(const struct hist *h, unsigned int power, uint64_t unit);
void hist_free(struct hist *h);

#endif
