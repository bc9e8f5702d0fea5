/* SPDX-License-Identifier: GPL-2.0 */
/*
 * say.h - how capture/ and live/ tell the user something: one line on
 * stderr, after the name the command line gave (say_as()), so that the
 * layers below cli/ know no command's name.
 */
#ifndef FENCE_TRACE_SAY_H
#define FENCE_TRACE_SAY_H

void say_as(const char *who);		/* e.g. "fence-trace record" */
const char *say_who(void);		/* for a line say() cannot make (\r) */
#include <stdarg.h>

void say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void vsay(const char *fmt, va_list ap) __attribute__((format(printf, 1, 0)));

#endif
