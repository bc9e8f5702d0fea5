// SPDX-License-Identifier: GPL-2.0
/* parse-num.c - strict number parsing for command lines. */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>

#include "parse-num.h"

/**
 * parse_uint() - a whole decimal number in [0, @max], nothing else
 *
 * Rejects empty strings, signs, spaces, trailing junk and overflow, which
 * strtoul() alone would accept or wrap.
 *
 * Return: 0 on success, -1 otherwise (*@out untouched).
 */
int parse_uint(const char *s, unsigned int max, unsigned int *out)
{
	unsigned long v;
	char *end;

	if (!s || !isdigit((unsigned char)s[0]))
		return -1;
	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno || *end != '\0' || v > max)
		return -1;
	*out = (unsigned int)v;
	return 0;
}
