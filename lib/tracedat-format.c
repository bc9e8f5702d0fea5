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
 * a print format whose arguments pass print_fmt_ok() and name only
 * declared fields (rec_names_ok()).  Each rule answers a
 * crash the fuzz tests found in libtraceevent.  A format with sound fields
 * but a doubtful print format keeps its fields: the caller swaps in a
 * harmless print format.
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

/* Can an expression stop after @c: a name, a number, a literal, a bracket? */
static int operand_end(char c)
{
	return is_word(c) || c == ')' || c == ']' || c == '}' || c == '"' || c == '\'';
}

/* May @c, an operator or closing bracket, come after @prev? */
static int follows(char c, char prev)
{
	if (operand_end(prev))
		return 1;
	if (c == ')')	/* "(void *)" and "f()" */
		return prev == '*' || prev == '(';
	if (c == '|' || c == '&')
		return prev == c;
	if (c == '=' || c == '<' || c == '>')	/* << >> <= >= == != -> */
		return strchr("<>=!", prev) || (c == '>' && prev == '-');
	return 0;
}

static int nest(char c, int *depth)
{
	const char *open = "([{", *close = ")]}";

	if (strchr(open, c))
		depth[strchr(open, c) - open]++;
	else if (strchr(close, c) && --depth[strchr(close, c) - close] < 0)
		return 0;
	return 1;
}

static const char *line_end(const char *s, const char *end)
{
	const char *nl = memchr(s, '\n', end - s);

	return nl ? nl : end;
}

/* Is @name (@len bytes) the name a "\tfield:DECL;" line between @s and @end declares? */
static int field_declared(const char *s, const char *end, const char *name, size_t len)
{
	const char *eol, *semi, *w;

	for (; s < end; s = eol + 1) {
		eol = line_end(s, end);
		semi = memchr(s, ';', eol - s);
		if (!semi)
			continue;
		w = semi;
		if (w > s && w[-1] == ']')	/* NAME[N]: the name is before the bracket */
			while (w > s && *w != '[')
				w--;
		if ((size_t)(w - s) > len && !memcmp(w - len, name, len) && !is_word(w[-(long)len - 1]))
			return 1;
	}
	return 0;
}

/*
 * libtraceevent follows REC->NAME to the field without checking that it
 * found one: a name no field declares (one flipped letter, found by the
 * fuzz tests) is a NULL dereference inside __print_symbolic().
 */
static int rec_names_ok(const char *s, const char *end, const char *fields, const char *fields_end)
{
	const char *n;

	while ((s = memmem(s, end - s, "REC->", 5))) {
		s += 5;
		for (n = s; n < end && is_word(*n); n++)
			;
		if (n == s || !field_declared(fields, fields_end, s, (size_t)(n - s)))
			return 0;
	}
	return 1;
}

/*
 * After an array subscript libtraceevent 1.7 follows no member, arrow or
 * second subscript: "REC->caller[1]. (void *)" (a comma turned into a
 * dot, found by the fuzz tests), "[1]->x" and "[1][2]" dereference NULL.
 */
static int after_subscript_crashes(const char *s, const char *end)
{
	return *s == '.' || *s == '[' || (*s == '-' && s + 1 < end && s[1] == '>');
}

/*
 * The print format: a quoted format, then C-like arguments.  libtraceevent
 * dereferences NULL where an expression stops after an operator ("x" . at
 * the end, found by the fuzz tests) and folds divisions at parse time, so
 * operators must be followed by operands, brackets must match and '/' or
 * '%' must divide by a non-zero number.  Only these characters may appear
 * outside string literals.
 */
static int print_fmt_ok(const char *s, const char *end)
{
	int depth[3] = { 0, 0, 0 }, quoted = 0;
	char prev = '(';

	if ((size_t)(end - s) < 12 || memcmp(s, "print fmt: \"", 12))
		return 0;
	for (s += 11; s < end; s++) {
		if (quoted) {
			if (*s == '\\' && s + 1 < end)
				s++;
			else if (*s == quoted)
				quoted = 0, prev = *s;
		} else if (*s == '"' || *s == '\'') {
			quoted = *s;
		} else if (*s == ' ' || *s == '\t') {
			continue;
		} else if (prev == ']' && after_subscript_crashes(s, end)) {
			return 0;
		} else if (is_word(*s) || strchr("([{+-*&!~", *s)) {
			if (!nest(*s, depth))
				return 0;
			prev = *s;
		} else if (strchr(")]},^|?:=<>./%", *s)) {
			if (!follows(*s, prev) || !nest(*s, depth) ||
			    ((*s == '/' || *s == '%') && !divisor_ok(s, end)))
				return 0;
			prev = *s;
		} else {
			return 0;
		}
	}
	return !quoted && !depth[0] && !depth[1] && !depth[2] && operand_end(prev);
}


/* The fields part: "\tfield:...;" lines and blank lines; where it stops. */
static const char *fields_end(const char *s, const char *end)
{
	const char *eol;

	for (; s < end; s = eol + 1) {
		eol = line_end(s, end);
		if (eol == s)
			continue;
		if (*s != '\t')
			return s;
		if (!field_ok(s, eol))
			return NULL;
	}
	return end;
}

/**
 * tracedat_format_check() - may @text be given to tep_parse_event()?
 * @text: the format text (not NUL-terminated)
 * @n: its length
 * @print_at: gets the offset where the print format begins (or should)
 *
 * Return: TRACEDAT_FMT_OK; TRACEDAT_FMT_NO_PRINT when the name, id and
 * fields are sound but the print format is not (pass the text up to
 * @print_at with a harmless print format, and the fields still work); or
 * TRACEDAT_FMT_BAD.
 */
int tracedat_format_check(const char *text, unsigned long long n, unsigned long long *print_at)
{
	const char *s = text, *end = text + n, *eol, *p, *fields;

	if (!tracedat_format_printable(text, n))
		return TRACEDAT_FMT_BAD;
	eol = line_end(s, end);
	p = skip_prefixed(s, eol, "name: ", 0);
	if (!p || p != eol || eol == end)
		return TRACEDAT_FMT_BAD;
	s = eol + 1;
	eol = line_end(s, end);
	p = skip_prefixed(s, eol, "ID: ", 1);
	if (!p || p != eol || eol == end || (size_t)(end - eol) < 9 || memcmp(eol, "\nformat:\n", 9))
		return TRACEDAT_FMT_BAD;
	fields = eol + 9;
	s = fields_end(fields, end);
	if (!s)
		return TRACEDAT_FMT_BAD;
	*print_at = (unsigned long long)(s - text);
	eol = line_end(s, end);
	if (s == end || !print_fmt_ok(s, eol) || !rec_names_ok(s, eol, fields, s))
		return TRACEDAT_FMT_NO_PRINT;
	for (s = eol; s < end; s++)
		if (*s != '\n' && *s != ' ' && *s != '\t')
			return TRACEDAT_FMT_NO_PRINT;
	return TRACEDAT_FMT_OK;
}
