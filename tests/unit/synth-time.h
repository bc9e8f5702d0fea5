/* SPDX-License-Identifier: GPL-2.0 */
/*
 * synth-time.h - the time units of the traces the tests construct
 * (unit-test fixture, golden traces, benchmark traces), defined once.
 */
#ifndef FENCE_TRACE_SYNTH_TIME_H
#define FENCE_TRACE_SYNTH_TIME_H

#define MS 1000000ull		/* nanoseconds */
#define FRAME_NS 16666667ull	/* a frame at 60 Hz */

#endif
