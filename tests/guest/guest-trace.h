/* SPDX-License-Identifier: GPL-2.0 */
/*
 * guest-trace.h - a private tracefs instance for a guest test, so a test
 * can check what the kernel did (fences created, signalled, destroyed)
 * without touching the top-level trace.
 */
#ifndef FENCE_TRACE_GUEST_TRACE_H
#define FENCE_TRACE_GUEST_TRACE_H

#include <stddef.h>

struct tracefs_instance;

struct guest_trace {
	struct tracefs_instance *inst;
	char *text;		/* the instance's "trace" file after stop */
	unsigned long long overrun;
};

int guest_trace_start(struct guest_trace *t, const char *name, const char *system,
		      const char *const *events);
int guest_trace_stop(struct guest_trace *t);
void guest_trace_free(struct guest_trace *t);
unsigned int trace_count(const char *text, const char *event, const char *needle);

#endif
