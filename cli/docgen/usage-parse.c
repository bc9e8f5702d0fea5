// SPDX-License-Identifier: GPL-2.0
/*
 * usage-parse.c - cut a usage text into synopsis, description and options.
 *
 * The shape is the one every entry of cli/usage.c has; anything else is
 * an error, so that a usage text docgen cannot read fails the build rather
 * than leaving a hole in a man page.
 */
#include <stdio.h>
#include <string.h>

#include "usage-parse.h"

enum part { SYNOPSIS, DESCRIPTION, OPTIONS };

static int indent_of(const char *line, int len)
{
	int i = 0;

	while (i < len && line[i] == ' ')
		i++;
	return i;
}

static struct span span_of(const char *s, int len)
{
	return (struct span){ s, len };
}

/* "  -x ARG    text": the spec ends at the first run of two spaces. */
static int add_option(struct usage_doc *doc, const char *line, int len)
{
	struct usage_option *o;
	const char *gap;
	int spec_len, text_at;

	if (doc->noptions == MAX_OPTIONS)
		return -1;
	o = &doc->options[doc->noptions++];
	gap = memmem(line + 2, len - 2, "  ", 2);
	spec_len = gap ? gap - line - 2 : len - 2;
	o->spec = span_of(line + 2, spec_len);
	o->ntext = 0;
	if (!gap)
		return 0;
	text_at = 2 + spec_len + indent_of(gap, line + len - gap);
	o->text[o->ntext++] = span_of(line + text_at, len - text_at);
	return 0;
}

static int add_option_line(struct usage_doc *doc, const char *line, int len)
{
	struct usage_option *o = &doc->options[doc->noptions - 1];
	int indent = indent_of(line, len);

	if (o->ntext == MAX_OPTION_LINES)
		return -1;
	o->text[o->ntext++] = span_of(line + indent, len - indent);
	return 0;
}

static int add_line(struct usage_doc *doc, enum part *part, const char *line, int len)
{
	int indent = indent_of(line, len);

	if (indent == 2 && len > 2 && line[2] == '-') {
		*part = OPTIONS;
		return add_option(doc, line, len);
	}
	/* Only an option line sets OPTIONS, so there is one to continue. */
	if (*part == OPTIONS)
		return indent > 2 ? add_option_line(doc, line, len) : -1;
	if (*part == SYNOPSIS && indent > 2) {
		if (doc->nsynopsis == MAX_SYNOPSIS)
			return -1;
		doc->synopsis[doc->nsynopsis++] = span_of(line + indent, len - indent);
		return 0;
	}
	if (indent > 0 || doc->ndescription == MAX_DESCRIPTION)
		return -1;
	*part = DESCRIPTION;
	doc->description[doc->ndescription++] = span_of(line, len);
	return 0;
}

/**
 * usage_parse() - cut @text into @doc, whose spans point into @text.
 *
 * Return: 0, or -1 when @text does not have the shape of a usage text or
 * has more lines of a kind than @doc holds.
 */
int usage_parse(const char *text, struct usage_doc *doc)
{
	static const char prefix[] = "usage: ";
	enum part part = SYNOPSIS;
	const char *line, *end;

	memset(doc, 0, sizeof(*doc));
	if (strncmp(text, prefix, strlen(prefix)) != 0)
		return -1;
	end = strchr(text, '\n');
	if (!end)
		return -1;
	doc->synopsis[doc->nsynopsis++] = span_of(text + strlen(prefix), end - text - strlen(prefix));
	for (line = end + 1; *line; line = end + 1) {
		end = strchr(line, '\n');
		if (!end || add_line(doc, &part, line, end - line))
			return -1;
	}
	return 0;
}

static int separates_words(char c)
{
	return c == ' ' || c == '[' || c == ']' || c == '|' || c == ',';
}

/**
 * span_next_word() - the next word of @rest, which moves past it.
 *
 * Return: the word, or an empty span (s at the end of @rest) when none is
 * left.
 */
struct span span_next_word(struct span *rest)
{
	struct span word;

	while (rest->len > 0 && separates_words(*rest->s)) {
		rest->s++;
		rest->len--;
	}
	word = span_of(rest->s, 0);
	while (word.len < rest->len && !separates_words(word.s[word.len]))
		word.len++;
	rest->s += word.len;
	rest->len -= word.len;
	return word;
}
