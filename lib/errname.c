// SPDX-License-Identifier: GPL-2.0
/* errname.c - a kernel error code (-2) as its name (-ENOENT). */
#include <stdio.h>
#include <string.h>

#include "errname.h"

/* "-ENOENT" for -2; the number itself when glibc has no name for it. */
const char *errname(int err, char *buf, size_t len)
{
	const char *name = err < 0 ? strerrorname_np(-err) : NULL;

	if (name)
		snprintf(buf, len, "-%s", name);
	else
		snprintf(buf, len, "%d", err);
	return buf;
}
