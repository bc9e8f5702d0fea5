// SPDX-License-Identifier: GPL-2.0
/*
 * capture-marker.c - the line `record` writes into its trace when it
 * starts (an ftrace print event, through the instance's trace_marker):
 *
 *   fence-trace-capture: realtime_ns=1764950400123456789 run=4711 host=ci-7
 *
 * It names the run with the user's --label KEY=VALUE pairs and pairs the
 * wall clock with the trace clock: the event's own timestamp is the trace
 * time of realtime_ns.  Anything that reads print events shows it
 * (trace-cmd report, Perfetto, KernelShark), and a user of plain trace-cmd
 * can write the same line to trace_marker.  Values are written with '%',
 * spaces and control characters as %XX, so a line is one word per pair.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capture-marker.h"

#define PREFIX "fence-trace-capture:"

/* @s into @out with '%', ' ' and control characters as %XX; -1 when it does not fit. */
static int encode(const char *s, char *out, size_t len, size_t *at)
{
	for (; *s; s++) {
		unsigned char ch = (unsigned char)*s;
		int n = ch == '%' || ch <= ' ' || ch == 0x7f ?
			snprintf(out + *at, len - *at, "%%%02X", ch) :
			snprintf(out + *at, len - *at, "%c", ch);

		if (n < 0 || (size_t)n >= len - *at)
			return -1;
		*at += (size_t)n;
	}
	return 0;
}

/**
 * capture_marker_format() - the marker line for @labels at @realtime_ns
 *
 * Return: 0, or -ENOSPC when it does not fit in @len (with its newline).
 */
int capture_marker_format(char *out, size_t len, unsigned long long realtime_ns,
			  const struct capture_label *labels, unsigned int n)
{
	int w = snprintf(out, len, PREFIX " realtime_ns=%llu", realtime_ns);
	size_t at = w < 0 ? len : (size_t)w;

	for (unsigned int i = 0; i < n && at < len; i++) {
		int k = snprintf(out + at, len - at, " %s=", labels[i].key);

		if (k < 0 || (size_t)k >= len - at)
			return -ENOSPC;
		at += (size_t)k;
		if (encode(labels[i].value, out, len, &at))
			return -ENOSPC;
	}
	if (at + 1 >= len)
		return -ENOSPC;
	out[at++] = '\n';
	out[at] = '\0';
	return 0;
}

/**
 * capture_label_key_ok() - @key[0..@len) is a label's key: a-z, 0-9 and _
 * (a column name in any engine), not starting with a digit
 */
int capture_label_key_ok(const char *key, size_t len)
{
	return len && strspn(key, "abcdefghijklmnopqrstuvwxyz0123456789_") >= len &&
	       !(key[0] >= '0' && key[0] <= '9');
}

static int hex(char c)
{
	return c >= '0' && c <= '9' ? c - '0' : c >= 'A' && c <= 'F' ? c - 'A' + 10 :
	       c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

/* %XX back to the byte, in place. */
static void decode(char *s)
{
	char *w = s;

	for (; *s; s++) {
		if (*s == '%' && hex(s[1]) >= 0 && hex(s[2]) >= 0) {
			*w++ = (char)(hex(s[1]) * 16 + hex(s[2]));
			s += 2;
		} else {
			*w++ = *s;
		}
	}
	*w = '\0';
}

static int take_pair(struct capture_marker *m, char *word)
{
	char *eq = strchr(word, '=');

	if (!eq || !capture_label_key_ok(word, (size_t)(eq - word)))
		return -1;
	*eq = '\0';
	decode(eq + 1);
	if (!strcmp(word, "realtime_ns")) {
		if (m->have_realtime)
			return 0;	/* the first counts */
		char *end;

		m->realtime_ns = strtoull(eq + 1, &end, 10);
		m->have_realtime = *end == '\0' && end != eq + 1;
		return m->have_realtime ? 0 : -1;
	}
	for (unsigned int i = 0; i < m->n; i++)
		if (!strcmp(m->labels[i].key, word))
			return 0;	/* a key written twice (by hand): the first counts */
	if (m->n == CAPTURE_MAX_LABELS)
		return 0;	/* the first ones are kept */
	m->labels[m->n++] = (struct capture_label){ word, eq + 1 };
	return 0;
}

/**
 * capture_marker_parse() - a print event's text, if it is the marker
 * @text: the event's buf (not NUL-terminated: @len bytes)
 *
 * Return: 1 and @m filled (its strings point into m->text), 0 when @text
 * is another line, -1 when it is a marker that does not parse.
 */
int capture_marker_parse(const char *text, size_t len, struct capture_marker *m)
{
	char *save = NULL, *word;

	len = strnlen(text, len);
	if (len < sizeof(PREFIX) - 1 || memcmp(text, PREFIX, sizeof(PREFIX) - 1))
		return 0;
	memset(m, 0, sizeof(*m));
	if (len - (sizeof(PREFIX) - 1) >= sizeof(m->text))
		return -1;
	memcpy(m->text, text + sizeof(PREFIX) - 1, len - (sizeof(PREFIX) - 1));
	for (word = strtok_r(m->text, " \n", &save); word; word = strtok_r(NULL, " \n", &save))
		if (take_pair(m, word))
			return -1;
	return m->have_realtime ? 1 : -1;
}
