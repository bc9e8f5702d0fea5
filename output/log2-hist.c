// SPDX-License-Identifier: GPL-2.0
/*
 * log2-hist.c - bcc-style log2 histograms: one row per power of two from
 * the first to the last non-empty bucket, with a bar scaled to the largest.
 */
#include "log2-hist.h"

#define BAR_WIDTH 40

static void bar(FILE *out, uint32_t v, uint32_t max)
{
	int n = max ? (int)((uint64_t)v * BAR_WIDTH / max) : 0;

	fputc('|', out);
	for (int i = 0; i < BAR_WIDTH; i++)
		fputc(i < n ? '*' : ' ', out);
	fputc('|', out);
}

/* Bucket i holds [2^i, 2^(i+1)); bucket 0 holds 0 and 1 (as the BPF side fills them). */
void print_log2_hist(FILE *out, const uint32_t *slots, int n, const char *unit)
{
	int first = -1, last = -1;
	uint32_t max = 0;

	for (int i = 0; i < n; i++) {
		if (!slots[i])
			continue;
		first = first < 0 ? i : first;
		last = i;
		max = slots[i] > max ? slots[i] : max;
	}
	if (last < 0)
		return;
	/* as wide as the rows' "%12llu -> %-10llu", so that the colons line up */
	fprintf(out, "%*s%-12s : count    distribution\n", 14, "", unit);
	for (int i = first; i <= last; i++) {
		unsigned long long lo = i ? 1ull << i : 0, hi = (1ull << (i + 1)) - 1;
		fprintf(out, "%12llu -> %-10llu : %-8u ", lo, hi, slots[i]);
		bar(out, slots[i], max);
		fputc('\n', out);
	}
}
