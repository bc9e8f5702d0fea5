/* SPDX-License-Identifier: GPL-2.0 */
/*
 * event-formats.h - a libtraceevent handle holding the running kernel's
 * formats of some event systems, and nothing else (event-formats.c).
 */
#ifndef FENCE_TRACE_EVENT_FORMATS_H
#define FENCE_TRACE_EVENT_FORMATS_H

#include <stddef.h>

struct tep_handle;

struct tep_handle *event_formats_load(const char *tracing_dir, const char *const *systems,
				      char *why, size_t len);

#endif
