/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perfetto.h - what the Perfetto export's writers share: its processes,
 * the track metadata and time fields (export-perfetto.c), and the frame
 * timeline's tracks (export-perfetto-frames.c).
 */
#ifndef FENCE_TRACE_PERFETTO_H
#define FENCE_TRACE_PERFETTO_H

#include <stdint.h>
#include <stdio.h>

#include "timeline.h"

enum { PID_DISPLAY = 1, PID_TIMELINES, PID_WAITS, PID_PLANES };

void perfetto_us(FILE *out, const char *key, uint64_t ns);
void perfetto_meta(FILE *out, const char *what, int pid, uint64_t tid, const char *name, int sort);
void perfetto_frame_names(FILE *out, const struct tl_data *d);
void perfetto_frames(FILE *out, const struct tl_data *d);

#endif
