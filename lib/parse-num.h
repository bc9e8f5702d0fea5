/* SPDX-License-Identifier: GPL-2.0 */
/* parse-num.h - strict number parsing for command lines. */
#ifndef FENCE_TRACE_PARSE_NUM_H
#define FENCE_TRACE_PARSE_NUM_H

int parse_uint(const char *s, unsigned int max, unsigned int *out);
int parse_seconds(const char *s, unsigned long long *ns);
int parse_ms(const char *s, unsigned long long max_ms, unsigned long long *ns);

#endif
