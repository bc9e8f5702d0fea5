// SPDX-License-Identifier: GPL-2.0
/* csv-str.c - one CSV field writer for the CSV tables of fence-trace. */
#include <stdio.h>
#include <string.h>

#include "csv-str.h"

/* @s as one CSV field: quoted, with quotes doubled, when it needs it. */
void csv_str(FILE *out, const char *s)
{
	if (!strpbrk(s, ",\"\n\r")) {
		fputs(s, out);
		return;
	}
	fputc('"', out);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', out);
		fputc(*s, out);
	}
	fputc('"', out);
}
