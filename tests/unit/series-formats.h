/* SPDX-License-Identifier: GPL-2.0 */
/*
 * series-formats.h - a formats folder for trace-builder with the kernel
 * series' events (tracepoints/formats/) next to the stock 6.1 fixtures,
 * and payloads for them built field by field.
 */
#ifndef FENCE_TRACE_SERIES_FORMATS_H
#define FENCE_TRACE_SERIES_FORMATS_H

#include <stddef.h>
#include <stdint.h>

/* Make @dir (a mkdtemp template of @len bytes, filled in); 0 or -1. */
int series_formats_make(char *dir, size_t len);
void series_formats_remove(const char *dir);

/*
 * An event payload: what follows the 8 bytes of common fields.  Offsets
 * are the tracefs format's; strings (__data_loc) go after @fixed bytes of
 * fields, in the order they are put.
 */
struct payload {
	unsigned char b[256];
	size_t fixed, len;
};

void payload_init(struct payload *p, size_t format_size);
void payload_num(struct payload *p, size_t format_offset, uint64_t v, size_t size);
void payload_str(struct payload *p, size_t format_offset, const char *s);

#endif
