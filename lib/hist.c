// SPDX-License-Identifier: GPL-2.0
/*
 * hist.c - log-linear latency histograms (see hist.h).
 *
 * A value v below 2^(SUB_BITS+1) has a bucket of its own.  Above, with e the
 * position of v's top bit, bucket (e - SUB_BITS) << SUB_BITS | the SUB_BITS
 * bits under the top one: each power of two split into 128 slices.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "hist.h"

static unsigned int bucket_of(uint64_t v)
{
	unsigned int e;

	if (v < (2u << HIST_SUB_BITS))
		return (unsigned int)v;
	e = 63 - __builtin_clzll(v);
	return ((e - HIST_SUB_BITS) << HIST_SUB_BITS) + (unsigned int)(v >> (e - HIST_SUB_BITS));
}

/* The smallest value of bucket @b and how many values it holds. */
static void bucket_range(unsigned int b, uint64_t *lo, uint64_t *width)
{
	unsigned int e;
	uint64_t mant;

	if (b < (2u << HIST_SUB_BITS)) {
		*lo = b;
		*width = 1;
		return;
	}
	e = (b >> HIST_SUB_BITS) + HIST_SUB_BITS - 1;
	mant = (b & ((1u << HIST_SUB_BITS) - 1)) | (1u << HIST_SUB_BITS);
	*lo = mant << (e - HIST_SUB_BITS);
	*width = 1ull << (e - HIST_SUB_BITS);
}

/*
 * Welford's update: exact where a sum of squares would overflow 64 bits
 * (a million 16 ms vblank periods squared) or lose the small deviations
 * that jitter is made of.
 */
static void moments_add(struct hist *h, uint64_t v)
{
	double delta = (double)v - h->mean;

	h->mean += delta / (double)h->count;
	h->m2 += delta * ((double)v - h->mean);
}

/*
 * One sample needs no buckets: count, min and max say all there is to
 * know.  Most fence contexts (every merge, every per-job context) hold a
 * single fence, so the 29 KB of buckets wait for the second sample.
 */
int hist_add(struct hist *h, uint64_t v)
{
	if (!h->count) {
		h->count = 1;
		h->sum = h->min = h->max = v;
		h->mean = (double)v;
		h->m2 = 0.0;
		return 0;
	}
	if (!h->buckets) {
		h->buckets = calloc(HIST_BUCKETS, sizeof(*h->buckets));
		if (!h->buckets)
			return -1;
		h->buckets[bucket_of(h->min)]++;	/* the first sample */
	}
	h->buckets[bucket_of(v)]++;
	h->count++;
	h->sum += v;
	h->min = v < h->min ? v : h->min;
	h->max = v > h->max ? v : h->max;
	moments_add(h, v);
	return 0;
}

/* The population standard deviation of the samples; 0 for fewer than two. */
double hist_stddev(const struct hist *h)
{
	return h->count > 1 ? sqrt(h->m2 / (double)h->count) : 0.0;
}

/**
 * hist_percentile() - the value below which a fraction @p of samples fall
 *
 * Nearest-rank: the bucket holding sample ceil(p * count), reported as the
 * middle of the bucket, clamped to the exact min and max.  0 when empty.
 */
uint64_t hist_percentile(const struct hist *h, double p)
{
	uint64_t rank, seen = 0, lo, width, mid;

	if (!h->count)
		return 0;
	if (p >= 1.0 || !h->buckets)
		return h->max;	/* no buckets: one sample */
	rank = (uint64_t)(p * h->count + 0.999999);
	rank = rank ? rank : 1;
	for (unsigned int b = 0; b < HIST_BUCKETS; b++) {
		seen += h->buckets[b];
		if (seen < rank)
			continue;
		bucket_range(b, &lo, &width);
		mid = lo + (width - 1) / 2;
		return mid < h->min ? h->min : mid > h->max ? h->max : mid;
	}
	return h->max;
}

/*
 * Samples whose value / @unit (integer division) is in [2^power,
 * 2^(power+1)), or below 2 for power 0: the log2 slot a BPF histogram in
 * that unit would count them in.  Exact to the bucket width (1/128).
 */
uint64_t hist_log2_count(const struct hist *h, unsigned int power, uint64_t unit)
{
	uint64_t lo = power ? unit << power : 0, hi = power >= 62 ? UINT64_MAX : unit << (power + 1);
	uint64_t n = 0, blo, bwidth;

	if (!h->count)
		return 0;
	if (!h->buckets)	/* one sample */
		return h->min >= lo && h->min < hi;
	for (unsigned int b = bucket_of(lo); b < HIST_BUCKETS; b++) {
		bucket_range(b, &blo, &bwidth);
		if (blo >= hi)
			break;
		n += h->buckets[b];
	}
	return n;
}

/* Welford's moments of two sets of samples as one (Chan et al.'s update). */
static void moments_merge(struct hist *dst, const struct hist *src, uint64_t n_dst)
{
	double n = (double)(n_dst + src->count), delta = src->mean - dst->mean;

	dst->m2 += src->m2 + delta * delta * (double)n_dst * (double)src->count / n;
	dst->mean += delta * (double)src->count / n;
}

/**
 * hist_merge() - add every sample of @src to @dst
 *
 * What adding them one by one would give (the moments up to rounding):
 * groups of fence contexts are summed this way.
 *
 * Return: 0, or -1 when memory ran out (@dst unchanged).
 */
int hist_merge(struct hist *dst, const struct hist *src)
{
	uint64_t n_dst = dst->count;

	if (!src->count)
		return 0;
	if (!src->buckets)
		return hist_add(dst, src->min);
	if (!n_dst) {
		*dst = *src;
		dst->buckets = malloc(HIST_BUCKETS * sizeof(*dst->buckets));
		if (!dst->buckets) {
			memset(dst, 0, sizeof(*dst));
			return -1;
		}
		memcpy(dst->buckets, src->buckets, HIST_BUCKETS * sizeof(*dst->buckets));
		return 0;
	}
	if (!dst->buckets) {
		dst->buckets = calloc(HIST_BUCKETS, sizeof(*dst->buckets));
		if (!dst->buckets)
			return -1;
		dst->buckets[bucket_of(dst->min)]++;
	}
	for (unsigned int b = 0; b < HIST_BUCKETS; b++)
		dst->buckets[b] += src->buckets[b];
	dst->count += src->count;
	dst->sum += src->sum;
	dst->min = src->min < dst->min ? src->min : dst->min;
	dst->max = src->max > dst->max ? src->max : dst->max;
	moments_merge(dst, src, n_dst);
	return 0;
}

void hist_free(struct hist *h)
{
	free(h->buckets);
	h->buckets = NULL;
}
