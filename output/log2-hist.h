/* SPDX-License-Identifier: GPL-2.0 */
/* log2-hist.h - print a log2 histogram the way bcc's tools do. */
#ifndef FENCE_TRACE_LOG2_HIST_H
#define FENCE_TRACE_LOG2_HIST_H

#include <stdint.h>
#include <stdio.h>

void print_log2_hist(FILE *out, const uint32_t *slots, int n, const char *unit);

#endif
