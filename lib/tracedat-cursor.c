// SPDX-License-Identifier: GPL-2.0
/*
 * tracedat-cursor.c - the bounded cursor every part of the trace.dat
 * reader parses with (see tracedat-read.c's DOC), and the one-line error
 * it leaves in struct tracedat.  A leaf: it calls no other reader file.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "tracedat-priv.h"

/* A valid file this reader does not handle: tracedat_open() says ENOTSUP. */
int tracedat_unsupported(struct tracedat *td, const char *fmt, ...)
{
	char what[200];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	td->unsupported = 1;
	return tracedat_fail(td, "%s", what);
}

/**
 * tracedat_fail() - set @td's one-line error: "PATH: " and the message
 * @td: the file
 * @fmt: printf format of the message
 *
 * Return: -EINVAL, for "return tracedat_fail(...)".
 */
int tracedat_fail(struct tracedat *td, const char *fmt, ...)
{
	va_list ap;
	int n;

	n = snprintf(td->err, sizeof(td->err), "%s: ", td->path);
	if (n < 0 || (size_t)n >= sizeof(td->err))
		n = 0;
	va_start(ap, fmt);
	vsnprintf(td->err + n, sizeof(td->err) - n, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

/**
 * tracedat_cur_take() - the next @n bytes of the view, or NULL (and
 * "truncated in WHAT") when fewer are left
 */
const unsigned char *tracedat_cur_take(struct tracedat_cur *c, unsigned long long n)
{
	const unsigned char *p = (c->base ? c->base : c->td->map) + c->pos;

	if (n > c->end - c->pos) {
		tracedat_fail(c->td, "truncated in %s", c->what);
		return NULL;
	}
	c->pos += n;
	return p;
}

/** tracedat_cur_u16() - read a u16 in file byte order; 0 or -EINVAL */
int tracedat_cur_u16(struct tracedat_cur *c, uint16_t *v)
{
	const unsigned char *p = tracedat_cur_take(c, 2);

	if (p)
		*v = tracedat_u16(c->td, p);
	return p ? 0 : -EINVAL;
}

/** tracedat_cur_u32() - read a u32 in file byte order; 0 or -EINVAL */
int tracedat_cur_u32(struct tracedat_cur *c, uint32_t *v)
{
	const unsigned char *p = tracedat_cur_take(c, 4);

	if (p)
		*v = tracedat_u32(c->td, p);
	return p ? 0 : -EINVAL;
}

/** tracedat_cur_u64() - read a u64 in file byte order; 0 or -EINVAL */
int tracedat_cur_u64(struct tracedat_cur *c, unsigned long long *v)
{
	const unsigned char *p = tracedat_cur_take(c, 8);

	if (p)
		*v = tracedat_u64(c->td, p);
	return p ? 0 : -EINVAL;
}

/** tracedat_cur_str() - a NUL-terminated string lying wholly inside the view */
const char *tracedat_cur_str(struct tracedat_cur *c)
{
	const unsigned char *p = (c->base ? c->base : c->td->map) + c->pos;
	const unsigned char *nul = memchr(p, 0, c->end - c->pos);

	if (!nul) {
		tracedat_fail(c->td, "truncated in %s", c->what);
		return NULL;
	}
	c->pos += nul - p + 1;
	return (const char *)p;
}

/** tracedat_cur_blob() - a block preceded by its 4- or 8-byte size */
const char *tracedat_cur_blob(struct tracedat_cur *c, int size64, unsigned long long *n)
{
	uint32_t n32;

	if (size64 ? tracedat_cur_u64(c, n) : tracedat_cur_u32(c, &n32))
		return NULL;
	if (!size64)
		*n = n32;
	return (const char *)tracedat_cur_take(c, *n);
}
