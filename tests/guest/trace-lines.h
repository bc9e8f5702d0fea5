/* SPDX-License-Identifier: GPL-2.0 */
/*
 * trace-lines.h - finding events in the text of a tracefs "trace" file by
 * the words of their fields ("commit=3 seqno=2"), and reading fields back.
 */
#ifndef FENCE_TRACE_GUEST_TRACE_LINES_H
#define FENCE_TRACE_GUEST_TRACE_LINES_H

#include <stddef.h>
#include <stdint.h>

/* One trace line: its timestamp (ns, trace_clock mono) and its text. */
struct ev {
	uint64_t ts_ns;
	char line[512];
};

unsigned int find_ev(const char *text, const char *event, const char *const *needles,
		     struct ev *first);
int64_t field(const char *line, const char *key);
uint64_t ufield(const char *line, const char *key);
uint64_t idfield(const char *line, const char *key);
const char *field_word(char *word, size_t len, const char *line, const char *key);
unsigned int find_out_create(const char *text, const char *const *needles, struct ev *ev,
			     char *commit, size_t len);

/* A NULL-ended list of words for find_ev(). */
#define W(...) ((const char *const[]){ __VA_ARGS__, NULL })

#endif
