/* SPDX-License-Identifier: GPL-2.0 */
/*
 * time-span.h - an age or a latency from two CLOCK_MONOTONIC times that
 * cannot wrap.  A live tool compares a clock it read with times the kernel
 * recorded; a clock read before the event it is compared with (a stale
 * "now") made a negative span, which as unsigned printed as
 * 18446744073672.7 ms.  Such a span is 0 here, and counted, so that the
 * tool can say how many it met.
 */
#ifndef FENCE_TRACE_TIME_SPAN_H
#define FENCE_TRACE_TIME_SPAN_H

#include <stdint.h>

/**
 * span_ns() - @later - @earlier, in ns
 * @backwards: counted up when @later is before @earlier (may be NULL)
 *
 * Return: the span, or 0 when the two are out of order.
 */
static inline uint64_t span_ns(uint64_t later, uint64_t earlier, unsigned int *backwards)
{
	if (later >= earlier)
		return later - earlier;
	if (backwards)
		(*backwards)++;
	return 0;
}

/* The same in milliseconds, for printing. */
static inline double span_ms(uint64_t later, uint64_t earlier, unsigned int *backwards)
{
	return span_ns(later, earlier, backwards) / 1e6;
}

#endif
