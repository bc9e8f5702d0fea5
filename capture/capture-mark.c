// SPDX-License-Identifier: GPL-2.0
/*
 * capture-mark.c - the "fence-trace-capture:" line at the start of every
 * recording (lib/capture-marker.c): the wall clock and --label's pairs.
 * record writes it into its instance's trace_marker, so its timestamp is
 * the trace clock's; the ftrace print format goes into the file with it.
 */
#include <errno.h>
#include <string.h>
#include <time.h>

#include <tracefs.h>

#include "live-reader.h"
#include "record-capture.h"
#include "say.h"

/** capture_marker_text() - the line, with CLOCK_REALTIME now; 0 or -1 (said) */
int capture_marker_text(const struct capture *c, char *buf, size_t len)
{
	struct timespec now;

	clock_gettime(CLOCK_REALTIME, &now);
	if (capture_marker_format(buf, len, (unsigned long long)now.tv_sec * 1000000000ull +
				  (unsigned long long)now.tv_nsec, c->labels, c->n_labels)) {
		say("--label: the labels take more than %zu bytes", len);
		return -1;
	}
	return 0;
}

/**
 * capture_mark() - the line into the instance (tracing is on), and the print
 * format among the file's; 0, or -1 (said)
 */
int capture_mark(struct capture *c)
{
	char text[CAPTURE_MARKER_MAX];

	if (c->n_events >= CAPTURE_MAX_EVENTS) {
		say("too many events (max %d)", CAPTURE_MAX_EVENTS);
		return -1;
	}
	if (capture_marker_text(c, text, sizeof(text)))
		return -1;
	if (live_reader_mark(c->live, text)) {
		say("cannot write the capture's marker line to trace_marker: %s", strerror(errno));
		return -1;
	}
	/* print events need no enabling: the format, for the readers */
	c->systems[c->n_events] = strdup("ftrace");
	c->events[c->n_events] = strdup("print");
	if (!c->systems[c->n_events++] || !c->events[c->n_events - 1]) {
		say("out of memory");
		return -1;
	}
	return 0;
}
