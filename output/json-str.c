// SPDX-License-Identifier: GPL-2.0
/*
 * json-str.c - strings from the kernel or user space (timeline, driver and
 * task names: arbitrary bytes) as JSON strings that are also safe inside
 * HTML: quotes, controls and < > & become \u escapes, invalid UTF-8
 * becomes U+FFFD.
 */
#include "json-str.h"

/* Length of the valid UTF-8 sequence at @s, or 0. */
static int utf8_len(const unsigned char *s)
{
	int n = s[0] >= 0xf0 && s[0] < 0xf5 ? 4 : s[0] >= 0xe0 ? 3 : s[0] >= 0xc2 && s[0] < 0xe0 ? 2 : 0;

	for (int i = 1; i < n; i++)
		if ((s[i] & 0xc0) != 0x80)
			return 0;
	return n;
}

void json_str(FILE *out, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	fputc('"', out);
	while (*p) {
		int n = *p >= 0x80 ? utf8_len(p) : 1;

		if (*p == '"' || *p == '\\')
			fprintf(out, "\\%c", *p);
		else if (*p < 0x20 || *p == 0x7f || *p == '<' || *p == '>' || *p == '&')
			fprintf(out, "\\u%04x", *p);
		else if (n == 0)
			fputs("\\ufffd", out);
		else
			fwrite(p, 1, (size_t)n, out);
		p += n ? n : 1;
	}
	fputc('"', out);
}
