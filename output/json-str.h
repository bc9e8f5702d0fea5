/* SPDX-License-Identifier: GPL-2.0 */
/* json-str.h - one JSON string writer for every JSON output of fence-trace. */
#ifndef FENCE_TRACE_JSON_STR_H
#define FENCE_TRACE_JSON_STR_H

#include <stdio.h>

void json_str(FILE *out, const char *s);

#endif
