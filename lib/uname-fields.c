// SPDX-License-Identifier: GPL-2.0
/*
 * uname-fields.c - the host and kernel release in a trace.dat's UNAME
 * option.  trace-cmd writes "sysname nodename release machine"
 * ("Linux ci-7 6.1.0-57-amd64 x86_64"), and so does `record` since 0.2.0;
 * older fence-trace files have "sysname release version machine", told
 * apart by the version's leading '#' ("Linux 6.1.192+ #1 SMP ..."), and
 * name no host.
 */
#include <stdio.h>
#include <string.h>

#include "uname-fields.h"

/* Word @n (0-based) of @s into @buf; 0, or -1 when there is no such word. */
static int word(const char *s, int n, char *buf, size_t len)
{
	for (; *s == ' '; s++)
		;
	for (; n > 0 && *s; n--) {
		s += strcspn(s, " ");
		for (; *s == ' '; s++)
			;
	}
	if (!*s)
		return -1;
	snprintf(buf, len, "%.*s", (int)strcspn(s, " "), s);
	return 0;
}

/**
 * uname_fields() - @uname's host and release ("" each when it does not say)
 */
void uname_fields(const char *uname, char *host, size_t host_len, char *release, size_t rel_len)
{
	char third[64];

	host[0] = release[0] = '\0';
	if (!uname || word(uname, 1, release, rel_len))
		return;
	if (word(uname, 2, third, sizeof(third)) || third[0] == '#')
		return;		/* fence-trace before 0.2.0: the release was word 1 */
	snprintf(host, host_len, "%s", release);
	snprintf(release, rel_len, "%s", third);
}
