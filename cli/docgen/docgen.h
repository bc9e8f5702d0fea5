/* SPDX-License-Identifier: GPL-2.0 */
/*
 * docgen.h - the writers of docgen, the host tool that turns the usage
 * table (cli/usage.c) into man pages and a bash completion.
 */
#ifndef DOCGEN_H
#define DOCGEN_H

#include <stdio.h>

#include "usage.h"
#include "usage-parse.h"

/* groff.c: usage text into man(7) markup */
void groff_text(FILE *fp, struct span line);
void groff_words(FILE *fp, struct span line);

/* man-page.c */
int man_command_page(FILE *fp, const struct usage *u, const char *date);
void man_overview_page(FILE *fp, const struct usage *table, size_t count, const char *date);

/* completion.c */
int bash_completion(FILE *fp, const struct usage *table, size_t count);

#endif
