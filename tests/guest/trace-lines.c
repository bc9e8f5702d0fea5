// SPDX-License-Identifier: GPL-2.0
/* trace-lines.c - events in a tracefs "trace" text (see trace-lines.h). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trace-lines.h"

/* @needle in @line as a whole word ("seqno=3" is not "seqno=31"). */
static int has_word(const char *line, const char *needle)
{
	size_t n = strlen(needle);

	for (const char *p = strstr(line, needle); p; p = strstr(p + 1, needle))
		if ((p == line || p[-1] == ' ') && (p[n] == '\0' || p[n] == ' '))
			return 1;
	return 0;
}

/* "  comm-pid [cpu] flags  SSSSS.UUUUUU: event: ..." -> ns of the timestamp. */
static uint64_t line_ts(const char *line, const char *tag)
{
	const char *p = strstr(line, tag);
	unsigned long long s, us;

	while (p > line && p[-1] != ' ')
		p--;
	if (sscanf(p, "%llu.%llu", &s, &us) != 2)
		return 0;
	return s * 1000000000ull + us * 1000ull;
}

/*
 * Lines of @event containing every word of @needles (NULL-ended);
 * the first is copied to @first.  Return: how many.
 */
unsigned int find_ev(const char *text, const char *event, const char *const *needles,
		     struct ev *first)
{
	unsigned int n = 0;
	char tag[96];

	snprintf(tag, sizeof(tag), " %s: ", event);
	for (const char *line = text; line && *line;) {
		const char *end = strchr(line, '\n');
		size_t len = end ? (size_t)(end - line) : strlen(line);
		const char *fields;
		char buf[512];
		int ok = 1;

		if (len < sizeof(buf)) {
			memcpy(buf, line, len);
			buf[len] = '\0';
		} else {
			buf[0] = '#';
		}
		line = end ? end + 1 : NULL;
		fields = buf[0] == '#' ? NULL : strstr(buf, tag);
		if (!fields)
			continue;
		/* Words are matched after "event:", from the space before them. */
		fields += strlen(tag) - 1;
		for (const char *const *w = needles; w && *w && ok; w++)
			ok = has_word(fields, *w);
		if (!ok)
			continue;
		if (n++ == 0 && first) {
			strcpy(first->line, buf);
			first->ts_ns = line_ts(buf, tag);
		}
	}
	return n;
}

/* The text after " @key=" in @line, or NULL when it has no such field. */
static const char *value_of(const char *line, const char *key)
{
	char pat[48];
	const char *p;

	snprintf(pat, sizeof(pat), " %s=", key);
	p = strstr(line, pat);
	return p ? p + strlen(pat) : NULL;
}

/* The value of "@key=" in @line (decimal, or hex with 0x); 0 if absent. */
int64_t field(const char *line, const char *key)
{
	const char *v = value_of(line, key);

	return v ? strtoll(v, NULL, 0) : 0;
}

uint64_t ufield(const char *line, const char *key)
{
	const char *v = value_of(line, key);

	return v ? strtoull(v, NULL, 0) : 0;
}

/*
 * The identity field @key of @line (fence, sync_file, a, b, container): the
 * kernel's dma_fence_trace_id(), printed as 16 hex digits without 0x.
 */
uint64_t idfield(const char *line, const char *key)
{
	const char *v = value_of(line, key);

	return v ? strtoull(v, NULL, 16) : 0;
}

/*
 * "@key=N" with @line's value of the (decimal) field @key, in @word: the
 * word that finds the same object in other events.  Returns @word.
 */
const char *field_word(char *word, size_t len, const char *line, const char *key)
{
	snprintf(word, len, "%s=%" PRIu64, key, ufield(line, key));
	return word;
}

/*
 * The drm_fence_out_create line with every word of @needles (NULL: any)
 * into @ev, and its "commit=N" into @commit, by which the commit's other
 * events are found.  Return: how many lines matched; @commit is filled
 * only when exactly one did.
 */
unsigned int find_out_create(const char *text, const char *const *needles, struct ev *ev,
			     char *commit, size_t len)
{
	unsigned int n = find_ev(text, "drm_fence_out_create", needles, ev);

	if (n == 1)
		field_word(commit, len, ev->line, "commit");
	return n;
}
