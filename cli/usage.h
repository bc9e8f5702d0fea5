/* SPDX-License-Identifier: GPL-2.0 */
/*
 * usage.h - the usage table, for the front end's --help and for docgen,
 * which writes the man pages and the bash completion from it.
 */
#ifndef USAGE_H
#define USAGE_H

#include <stddef.h>

/*
 * @text is what 'fence-trace CMD --help' prints, in a fixed shape that
 * docgen parses (cli/docgen/usage-parse.c): "usage: " lines, then the
 * description (unindented lines), then the options ("  -x ARG   what it
 * does", continued on lines indented further).
 */
struct usage {
	const char *cmd, *summary, *text;
};

const struct usage *usage_table(size_t *count);

#endif
