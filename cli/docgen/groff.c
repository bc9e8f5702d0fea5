// SPDX-License-Identifier: GPL-2.0
/*
 * groff.c - usage text into man(7) markup: prose lines escaped, synopsis
 * and option specs set in bold (what is typed) and italics (what is
 * replaced).
 */
#include <ctype.h>

#include "docgen.h"

/*
 * An option's hyphens are minus signs (\-), so that a command copied from
 * the rendered page runs; a hyphen inside a word ("comma-separated") and
 * an arrow ("->") stay hyphens.
 */
static int starts_option(struct span s, int i)
{
	int at_word_start = i == 0 || s.s[i - 1] == ' ' || s.s[i - 1] == '(';

	return at_word_start && s.s[i] == '-' && i + 1 < s.len &&
	       (s.s[i + 1] == '-' || isalnum((unsigned char)s.s[i + 1]));
}

static void put_escaped(FILE *fp, struct span s)
{
	int in_option = 0;

	for (int i = 0; i < s.len; i++) {
		if (s.s[i] == ' ')
			in_option = 0;
		else if (starts_option(s, i))
			in_option = 1;
		if (s.s[i] == '\\')
			fputs("\\e", fp);
		else if (s.s[i] == '-' && in_option)
			fputs("\\-", fp);
		else
			fputc(s.s[i], fp);
	}
}

/* A line of prose, as one input line; a leading '.' or '\'' is not a request. */
void groff_text(FILE *fp, struct span line)
{
	if (line.len > 0 && (line.s[0] == '.' || line.s[0] == '\''))
		fputs("\\&", fp);
	put_escaped(fp, line);
	fputc('\n', fp);
}

/* Options and command names are typed as they are; FILE, N, OUT.html are replaced. */
static const char *font_of(struct span word)
{
	if (word.len == 3 && word.s[0] == '.')
		return "\\fR";
	return isupper((unsigned char)word.s[0]) ? "\\fI" : "\\fB";
}

/* A synopsis line or an option spec: "[-o FILE] [--bpf] [-- COMMAND [ARG]...]". */
void groff_words(FILE *fp, struct span line)
{
	struct span rest = line, word;
	const char *from = line.s;

	while ((word = span_next_word(&rest)).len > 0) {
		put_escaped(fp, (struct span){ from, word.s - from });
		fputs(font_of(word), fp);
		put_escaped(fp, word);
		fputs("\\fR", fp);
		from = word.s + word.len;
	}
	put_escaped(fp, (struct span){ from, line.s + line.len - from });
	fputc('\n', fp);
}
