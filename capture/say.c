// SPDX-License-Identifier: GPL-2.0
/* say.c - one line to the user on stderr (see say.h). */
#include <stdarg.h>
#include <stdio.h>

#include "say.h"

static const char *speaker = "fence-trace";

/* @who: a string that outlives every say(): the command sets it once. */
void say_as(const char *who)
{
	speaker = who;
}

const char *say_who(void)
{
	return speaker;
}

void vsay(const char *fmt, va_list ap)
{
	fprintf(stderr, "%s: ", speaker);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

void say(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsay(fmt, ap);
	va_end(ap);
}
