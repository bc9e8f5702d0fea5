// SPDX-License-Identifier: GPL-2.0
/*
 * docgen - write the man pages and the bash completion of fence-trace from
 * its usage table (cli/usage.c), so that --help, the manual and the
 * completion cannot drift.  A host tool, run by the Makefile:
 *
 *   docgen man OUTDIR DATE     fence-trace.1 and fence-trace-CMD.1 per command
 *   docgen bash-completion     the completion script, on stdout
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "docgen.h"
#include "man-prose.h"

static int find_cmd(const struct usage *table, size_t count, const char *cmd)
{
	for (size_t i = 0; i < count; i++)
		if (strcmp(table[i].cmd, cmd) == 0)
			return 1;
	return 0;
}

/* Prose for a command that no longer exists would silently never be shown. */
static int check_prose(const struct usage *table, size_t count)
{
	size_t nprose;
	const struct man_prose *prose = man_prose_table(&nprose);
	int err = 0;

	for (size_t i = 0; i < nprose; i++)
		if (!find_cmd(table, count, prose[i].cmd)) {
			fprintf(stderr, "docgen: man-prose.c has prose for '%s', not in cli/usage.c\n",
				prose[i].cmd);
			err = -1;
		}
	return err;
}

static FILE *open_page(const char *dir, const char *name)
{
	char path[4096];
	FILE *fp;

	snprintf(path, sizeof(path), "%s/%s.1", dir, name);
	fp = fopen(path, "w");
	if (!fp)
		fprintf(stderr, "docgen: %s: %s\n", path, strerror(errno));
	return fp;
}

static int close_page(FILE *fp, const char *name)
{
	if (fclose(fp) == 0)
		return 0;
	fprintf(stderr, "docgen: %s.1: %s\n", name, strerror(errno));
	return -1;
}

static int write_pages(const char *dir, const char *date, const struct usage *table, size_t count)
{
	char name[64];
	FILE *fp;

	for (size_t i = 0; i < count; i++) {
		snprintf(name, sizeof(name), "fence-trace-%s", table[i].cmd);
		fp = open_page(dir, name);
		if (!fp)
			return -1;
		if (man_command_page(fp, &table[i], date)) {
			fprintf(stderr, "docgen: the usage text of '%s' has a shape docgen cannot read\n",
				table[i].cmd);
			fclose(fp);
			return -1;
		}
		if (close_page(fp, name))
			return -1;
	}
	fp = open_page(dir, "fence-trace");
	if (!fp)
		return -1;
	man_overview_page(fp, table, count, date);
	return close_page(fp, "fence-trace");
}

int main(int argc, char **argv)
{
	size_t count;
	const struct usage *table = usage_table(&count);

	if (argc == 4 && strcmp(argv[1], "man") == 0)
		return check_prose(table, count) || write_pages(argv[2], argv[3], table, count);
	if (argc == 2 && strcmp(argv[1], "bash-completion") == 0) {
		if (bash_completion(stdout, table, count)) {
			fprintf(stderr, "docgen: a usage text has a shape docgen cannot read\n");
			return 1;
		}
		return fflush(stdout) != 0;
	}
	fprintf(stderr, "usage: docgen man OUTDIR DATE | docgen bash-completion\n");
	return 2;
}
