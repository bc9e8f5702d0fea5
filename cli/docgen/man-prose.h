/* SPDX-License-Identifier: GPL-2.0 */
/*
 * man-prose.h - what only the man pages say; the synopsis, description and
 * options come from the usage table, so that they match --help.
 */
#ifndef MAN_PROSE_H
#define MAN_PROSE_H

#include <stddef.h>

struct man_prose {
	const char *cmd;
	const char *description;	/* groff: DESCRIPTION, after the --help text */
	const char *status_1;		/* groff: "; also when...", more causes of status 1 */
	const char *status_3;		/* groff: what exit status 3 means, if used */
	const char *status_more;	/* groff: after the list (a .PP and more .TP) */
	const char *examples;		/* command lines, one a line, not groff */
	const char *see_also;		/* groff: .BR lines after fence-trace(1) */
};

/* The overview page fence-trace(1); its cmd is NULL. */
extern const char man_overview_summary[];
extern const struct man_prose man_overview;

const struct man_prose *man_prose_table(size_t *count);
const struct man_prose *man_prose_find(const char *cmd);

#endif
