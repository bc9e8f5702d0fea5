// SPDX-License-Identifier: GPL-2.0
/*
 * tracedat-format.c - check an event format text before libtraceevent
 * parses it.
 *
 * tep_parse_event() is not written for hostile input: one flipped bit
 * ("char[]" becoming "char[\xdd") makes libtraceevent 1.7 dereference a
 * NULL token.  So a format reaches it only if it has the shape the kernel
 * writes (kernel/trace/trace_events.c, f_show()):
 *
 *   name: NAME
 *   ID: NUMBER
 *   format:
 *   <TAB>field:DECL;<TAB>offset:N;<TAB>size:N;<TAB>signed:N;   (any number, blank lines between)
 *
 *   print fmt: "..." ARGS
 *
 * in printable ASCII, with brackets, quotes and parentheses balanced, and
 * no division in the arguments by anything but a non-zero number (a fuzz
 * test found libtraceevent folding "__get_st/(driver)" into a SIGFPE).
 */
#include <string.h>

#include "tracedat-priv.h"

/**
 * tracedat_format_printable() - is @p printable ASCII, tabs and newlines?
 * @p: the text
 * @n: its length
 */
int tracedat_format_printable(const char *p, unsigned long long n)
{
	unsigned long long i;

	for (i = 0; i < n; i++)
		if (p[i] != '\n' && p[i] != '\t' && (p[i] < 0x20 || p[i] > 0x7e))
			return 0;
	return 1;
}

static int is_word(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
		c == '_';
}

/* @s starts with @prefix followed by at least one character of @set. */
static const char *skip_prefixed(const char *s, const char *end, const char *prefix, int digits)
{
	size_t n = strlen(prefix);

	if ((size_t)(end - s) < n || memcmp(s, prefix, n))
		return NULL;
	s += n;
	if (s == end || !(digits ? (*s >= '0' && *s <= '9') : is_word(*s)))
		return NULL;
	while (s < end && (digits ? (*s >= '0' && *s <= '9') : is_word(*s)))
		s++;
	return s;
}

/* DECL: words, spaces, '*', and [N] or [] array suffixes, no nesting. */
static int decl_ok(const char *s, const char *end)
{
	int in_bracket = 0;

	for (; s < end; s++) {
		if (*s == '[' && !in_bracket)
			in_bracket = 1;
		else if (*s == ']' && in_bracket)
			in_bracket = 0;
		else if (!is_word(*s) && *s != ' ' && (*s != '*' || in_bracket))
			return 0;
	}
	return !in_bracket;
}

static int field_ok(const char *s, const char *end)
{
	const char *semi;

	if ((size_t)(end - s) < 7 || memcmp(s, "\tfield:", 7))
		return 0;
	s += 7;
	semi = memchr(s, ';', end - s);
	if (!semi || semi == s || !decl_ok(s, semi))
		return 0;
	s = skip_prefixed(semi, end, ";\toffset:", 1);
	s = s ? skip_prefixed(s, end, ";\tsize:", 1) : NULL;
	s = s ? skip_prefixed(s, end, ";\tsigned:", 1) : NULL;
	return s && s + 1 == end && *s == ';';
}

/*
 * A '/' or '%' in the arguments must divide by a non-zero number: libtraceevent
 * folds "a / (b)" at parse time and dies of SIGFPE when b comes out as 0.
 */
static int divisor_ok(const char *s, const char *end)
{
	int nonzero = 0;

	for (s++; s < end && *s == ' '; s++)
		;
	if (s == end || *s < '0' || *s > '9')
		return 0;
	for (; s < end && *s >= '0' && *s <= '9'; s++)
		nonzero |= *s != '0';
	return nonzero;
}

/* Quotes closed (with \ escapes), parentheses balanced, divisions by numbers. */
static int print_fmt_ok(const char *s, const char *end)
{
	int depth = 0, quoted = 0;

	if ((size_t)(end - s) < 12 || memcmp(s, "print fmt: \"", 12))
		return 0;
	for (s += 11; s < end; s++) {
		if (quoted && *s == '\\' && s + 1 < end)
			s++;
		else if (*s == '"' || *s == '\'')
			quoted = quoted == *s ? 0 : quoted ? quoted : *s;
		else if (!quoted && *s == '(')
			depth++;
		else if (!quoted && *s == ')' && --depth < 0)
			return 0;
		else if (!quoted && (*s == '/' || *s == '%') && !divisor_ok(s, end))
			return 0;
	}
	return !quoted && !depth;
}

static const char *line_end(const char *s, const char *end)
{
	const char *nl = memchr(s, '\n', end - s);

	return nl ? nl : end;
}

/**
 * tracedat_format_ok() - does @text have the shape of a kernel format file?
 * @text: the format text (not NUL-terminated)
 * @n: its length
 *
 * Return: 1 if it may be given to tep_parse_event(), 0 if not.
 */
int tracedat_format_ok(const char *text, unsigned long long n)
{
	const char *s = text, *end = text + n, *eol, *p;

	if (!tracedat_format_printable(text, n))
		return 0;
	eol = line_end(s, end);
	p = skip_prefixed(s, eol, "name: ", 0);
	if (!p || p != eol || eol == end)
		return 0;
	s = eol + 1;
	eol = line_end(s, end);
	p = skip_prefixed(s, eol, "ID: ", 1);
	if (!p || p != eol || eol == end || (size_t)(end - eol) < 9 || memcmp(eol, "\nformat:\n", 9))
		return 0;
	for (s = eol + 9; s < end; s = eol + 1) {
		eol = line_end(s, end);
		if (eol == s)
			continue;
		if (*s != '\t')
			break;
		if (!field_ok(s, eol))
			return 0;
	}
	if (s >= end || !print_fmt_ok(s, eol))
		return 0;
	for (s = eol; s < end; s++)
		if (*s != '\n' && *s != ' ' && *s != '\t')
			return 0;
	return 1;
}
