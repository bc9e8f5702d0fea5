/* SPDX-License-Identifier: GPL-2.0 */
/*
 * docgen.h - the writers of docgen, the host tool that turns the option
 * tables (cli/usage.c) into the man pages' OPTIONS sections and the bash
 * completion.
 */
#ifndef DOCGEN_H
#define DOCGEN_H

#include <stdio.h>

#include "usage.h"

/* man.c: docs/man/NAME.1.scd with its generated parts filled in, as scdoc(5) */
int man_page(FILE *out, const char *scd_path);

/* completion.c */
void bash_completion(FILE *fp, const struct usage *table, size_t count);

#endif
