/* SPDX-License-Identifier: GPL-2.0 */
/*
 * usage-parse.h - a usage text (cli/usage.h) cut into its parts:
 * synopsis, description and options.
 */
#ifndef USAGE_PARSE_H
#define USAGE_PARSE_H

#define MAX_SYNOPSIS 4
#define MAX_DESCRIPTION 16
#define MAX_OPTIONS 16
#define MAX_OPTION_LINES 6

/* A piece of the usage text, without its indentation or newline. */
struct span {
	const char *s;
	int len;
};

/* "  --from T, --to T  only events..." has the spec "--from T, --to T". */
struct usage_option {
	struct span spec;
	struct span text[MAX_OPTION_LINES];
	int ntext;
};

struct usage_doc {
	struct span synopsis[MAX_SYNOPSIS];	/* without "usage: " */
	struct span description[MAX_DESCRIPTION];
	struct usage_option options[MAX_OPTIONS];
	int nsynopsis, ndescription, noptions;
};

int usage_parse(const char *text, struct usage_doc *doc);

/* The next word of a synopsis or spec: no spaces, brackets, '|' or ','. */
struct span span_next_word(struct span *rest);

#endif
