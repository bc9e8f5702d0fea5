/* SPDX-License-Identifier: GPL-2.0 */
/*
 * capture-marker.h - the "fence-trace-capture:" line record writes into
 * its trace (capture-marker.c): the run's labels and the wall clock.
 */
#ifndef FENCE_TRACE_CAPTURE_MARKER_H
#define FENCE_TRACE_CAPTURE_MARKER_H

#include <stddef.h>

#define CAPTURE_MAX_LABELS 32
/* A line, with its newline: trace_marker keeps 1024 bytes of a write before Linux 6.8. */
#define CAPTURE_MARKER_MAX 1024

struct capture_label {
	const char *key, *value;
};

struct capture_marker {
	unsigned long long realtime_ns;	/* CLOCK_REALTIME when it was written */
	unsigned long long ts;		/* its event's trace time (set by the reader) */
	int have_realtime;
	struct capture_label labels[CAPTURE_MAX_LABELS];
	unsigned int n;
	char text[CAPTURE_MARKER_MAX];	/* what the labels point into */
};

int capture_label_key_ok(const char *key, size_t len);
int capture_marker_format(char *out, size_t len, unsigned long long realtime_ns,
			  const struct capture_label *labels, unsigned int n);
int capture_marker_parse(const char *text, size_t len, struct capture_marker *m);

#endif
