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

/**
 * parse_seconds() - "12", "12.5" or "0.000250" seconds, as nanoseconds
 *
 * Return: 0 on success, -1 for anything else (signs, exponents, junk,
 * more than nine decimals, overflow).
 */
int parse_seconds(const char *s, unsigned long long *ns)
{
	unsigned long long whole = 0, frac = 0, scale = 1000000000ull;
	const char *p = s;

	if (!s || !isdigit((unsigned char)*p))
		return -1;
	for (; isdigit((unsigned char)*p); p++) {
		if (whole > 18000000000ull)
			return -1;
		whole = whole * 10 + (unsigned long long)(*p - '0');
	}
	if (*p == '.') {
		p++;
		if (!isdigit((unsigned char)*p))
			return -1;
		for (; isdigit((unsigned char)*p); p++) {
			if (scale == 1)
				return -1;
			scale /= 10;
			frac += (unsigned long long)(*p - '0') * scale;
		}
	}
	if (*p != '\0')
		return -1;
	*ns = whole * 1000000000ull + frac;
	return 0;
}

/**
 * parse_ms() - "2", "2.5" or "0.250" milliseconds, at most @max_ms, as ns
 *
 * Return: 0 on success, -1 for anything parse_seconds() refuses or more
 * than @max_ms.
 */
int parse_ms(const char *s, unsigned long long max_ms, unsigned long long *ns)
{
	unsigned long long v;

	/* the same digits read as seconds are a thousand times the ns */
	if (parse_seconds(s, &v) || v > max_ms * 1000000000ull)
		return -1;
	*ns = v / 1000;
	return 0;
}
