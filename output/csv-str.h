/* SPDX-License-Identifier: GPL-2.0 */
/* csv-str.h - one CSV field writer for the CSV tables of fence-trace. */
#ifndef FENCE_TRACE_CSV_STR_H
#define FENCE_TRACE_CSV_STR_H

#include <stdio.h>

void csv_str(FILE *out, const char *s);

#endif
