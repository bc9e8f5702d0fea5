// SPDX-License-Identifier: GPL-2.0
/*
 * man.c - a man page's scdoc source (docs/man/NAME.1.scd) with its
 * generated parts filled in.  The source holds the prose; a comment line
 * marks where a part from the tables goes, so that the source stays
 * valid scdoc(5):
 *
 *   ; docgen: options    the command's options, from its option table
 *   ; docgen: commands   (fence-trace.1) each command and its summary
 *
 * The NAME line of a command's page must be its summary in the usage
 * table, which 'fence-trace help' prints, and its SYNOPSIS must name each
 * option of the command's table (by either spelling) and no other.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "docgen.h"

#define OPTIONS_MARK "; docgen: options"
#define COMMANDS_MARK "; docgen: commands"

/* The page being written: its source, its command (NULL for fence-trace.1). */
struct page {
	const char *path;
	char *dir;
	const struct usage *u;
	int options_marks, commands_marks, in_name, name_seen, in_synopsis;
	char synopsis[2048];	/* the SYNOPSIS lines, joined by spaces */
};

static int page_error(const struct page *p, const char *what)
{
	fprintf(stderr, "docgen: %s: %s\n", p->path, what);
	return -1;
}

/* Text as scdoc shows it: '*' and '_' are markup, '\' escapes. */
static void put_text(FILE *out, const char *s, size_t len)
{
	for (size_t i = 0; i < len && s[i]; i++) {
		if (s[i] == '*' || s[i] == '_' || s[i] == '\\')
			fputc('\\', out);
		fputc(s[i], out);
	}
}

static void put_str(FILE *out, const char *s)
{
	put_text(out, s, strlen(s));
}

/* "*-o*, *--output* _FILE_" for @o and the options that share its line. */
static const struct cmd_option *put_spec(FILE *out, const struct cmd_option *o)
{
	do {
		if (o->short_name)
			fprintf(out, "*-%c*, ", o->short_name);
		fputs("*--", out);
		put_str(out, o->name);
		fputc('*', out);
		if (o->arg) {
			fputs(" _", out);
			put_str(out, o->arg);
			fputc('_', out);
		}
		o++;
		if (o->name && cmd_option_shares_line(o))
			fputs(", ", out);
	} while (o->name && cmd_option_shares_line(o));
	return o;
}

/* Each option: its spec, then its --help text as one indented paragraph. */
static void put_options(FILE *out, const struct usage *u)
{
	const struct cmd_option *o = u->options, *next;
	const char *line, *end;

	while (o->name) {
		next = put_spec(out, o);
		fputs("\n\t", out);
		for (line = o->help; (end = strchr(line, '\n')); line = end + 1) {
			put_text(out, line, end - line);
			fputc(' ', out);
		}
		put_str(out, line);
		fputs("\n\n", out);
		o = next;
	}
}

/* fence-trace.1's COMMANDS: each command's page, which must have a source. */
static int put_commands(FILE *out, const struct page *p)
{
	size_t count;
	const struct usage *table = usage_table(&count);
	char source[4096];
	int err = 0;

	for (size_t i = 0; i < count; i++) {
		snprintf(source, sizeof(source), "%s/fence-trace-%s.1.scd", p->dir, table[i].cmd);
		if (access(source, R_OK)) {
			fprintf(stderr, "docgen: %s: %s\n", source, strerror(errno));
			err = -1;
		}
		fprintf(out, "*fence-trace-%s*(1)\n\t", table[i].cmd);
		put_str(out, table[i].summary);
		fputs("\n\n", out);
	}
	return err;
}

/* A command's page names it as its summary: the NAME line must say just that. */
static int check_name(const struct page *p, const char *line)
{
	char *want = NULL;
	size_t len;
	FILE *fp = open_memstream(&want, &len);
	int ok;

	if (!fp)
		return page_error(p, strerror(errno));
	fprintf(fp, "fence-trace-%s - ", p->u->cmd);
	put_str(fp, p->u->summary);
	ok = fclose(fp) == 0 && strcmp(line, want) == 0;
	if (!ok)
		fprintf(stderr, "docgen: %s: the NAME line must be '%s' (its summary in cli/usage.c)\n",
			p->path, want ? want : "?");
	free(want);
	return ok ? 0 : -1;
}

/* One line of the source: copied, or a mark replaced by what it stands for. */
static int put_line(FILE *out, struct page *p, char *line)
{
	line[strcspn(line, "\n")] = '\0';
	if (strcmp(line, OPTIONS_MARK) == 0) {
		p->options_marks++;
		if (!p->u || !p->u->options->name)
			return page_error(p, "'" OPTIONS_MARK "', but its command has no options");
		put_options(out, p->u);
		return 0;
	}
	if (strcmp(line, COMMANDS_MARK) == 0) {
		p->commands_marks++;
		if (p->u)
			return page_error(p, "'" COMMANDS_MARK "' belongs in fence-trace.1.scd only");
		return put_commands(out, p);
	}
	if (line[0] == '#') {
		p->in_name = strcmp(line, "# NAME") == 0;
		p->in_synopsis = strcmp(line, "# SYNOPSIS") == 0;
	} else if (p->in_synopsis) {
		if (strlen(p->synopsis) + strlen(line) + 2 > sizeof(p->synopsis))
			return page_error(p, "SYNOPSIS longer than docgen reads");
		strcat(strcat(p->synopsis, line), " ");
	} else if (p->in_name && line[0] && !p->name_seen) {
		p->name_seen = 1;
		if (p->u && check_name(p, line))
			return -1;
	}
	fprintf(out, "%s\n", line);
	return 0;
}

/* fence-trace.1.scd is the overview; fence-trace-CMD.1.scd a command's page. */
static int page_of(struct page *p)
{
	static const char prefix[] = "fence-trace-", suffix[] = ".1.scd";
	const size_t plen = strlen(prefix), slen = strlen(suffix);
	const char *slash = strrchr(p->path, '/');
	const char *base = slash ? slash + 1 : p->path;
	size_t len = strlen(base);
	char cmd[64];

	p->dir = slash ? strndup(p->path, slash - p->path) : strdup(".");
	if (!p->dir)
		return page_error(p, strerror(errno));
	if (strcmp(base, "fence-trace.1.scd") == 0)
		return 0;
	if (strncmp(base, prefix, plen) != 0 || len <= plen + slen || len - plen - slen >= sizeof(cmd) ||
	    strcmp(base + len - slen, suffix) != 0)
		return page_error(p, "not fence-trace.1.scd or fence-trace-COMMAND.1.scd");
	memcpy(cmd, base + plen, len - plen - slen);
	cmd[len - plen - slen] = '\0';
	p->u = usage_find(cmd);
	return p->u ? 0 : page_error(p, "a page for a command cli/usage.c does not have");
}

/* Whether @o is in the table of @u, by its long name or its short one. */
static int has_option(const struct usage *u, const char *name, size_t len)
{
	for (const struct cmd_option *o = u->options; o->name; o++) {
		if (len > 1 && name[0] == '-' && strlen(o->name) == len - 1 &&
		    !strncmp(o->name, name + 1, len - 1))
			return 1;
		if (len == 1 && o->short_name == name[0])
			return 1;
	}
	return 0;
}

/* Every "*-x*" or "*--name*" the SYNOPSIS shows is an option of the table. */
static int check_synopsis_names(const struct page *p)
{
	const char *s = p->synopsis, *end;
	int err = 0;

	while ((s = strstr(s, "*-")) && (end = strchr(s + 2, '*'))) {
		size_t len = end - (s + 2);

		if (len && strncmp(s + 2, "-", len) && !has_option(p->u, s + 2, len)) {
			fprintf(stderr, "docgen: %s: SYNOPSIS shows -%.*s, which the option table of '%s' in cli/usage.c does not have\n",
				p->path, (int)len, s + 2, p->u->cmd);
			err = -1;
		}
		s = end + 1;
	}
	return err;
}

/* Every option of the table is shown in the SYNOPSIS, by one spelling. */
static int check_synopsis_options(const struct page *p)
{
	char lng[80], shrt[8];
	int err = 0;

	for (const struct cmd_option *o = p->u->options; o->name; o++) {
		snprintf(lng, sizeof(lng), "*--%s*", o->name);
		snprintf(shrt, sizeof(shrt), "*-%c*", o->short_name);
		if (strstr(p->synopsis, lng) || (o->short_name && strstr(p->synopsis, shrt)))
			continue;
		fprintf(stderr, "docgen: %s: SYNOPSIS lacks --%s, an option of '%s' in cli/usage.c\n",
			p->path, o->name, p->u->cmd);
		err = -1;
	}
	return err;
}

/* Each generated part went where it belongs, once. */
static int check_marks(const struct page *p)
{
	if (!p->name_seen)
		return page_error(p, "no NAME line");
	if (p->u && (check_synopsis_names(p) | check_synopsis_options(p)))
		return -1;
	if (!p->u)
		return p->commands_marks == 1 ? 0 : page_error(p, "want one '" COMMANDS_MARK "'");
	if (p->options_marks != (p->u->options->name ? 1 : 0))
		return page_error(p, p->u->options->name ? "want one '" OPTIONS_MARK "'" :
				     "its command has no options: no '" OPTIONS_MARK "'");
	return 0;
}

/**
 * man_page() - write @scd_path with its generated parts to @out
 *
 * Return: 0, or -1 when the source cannot be read or does not fit its
 * command's table (said on stderr).
 */
int man_page(FILE *out, const char *scd_path)
{
	struct page p = { .path = scd_path };
	char *line = NULL;
	size_t cap = 0;
	FILE *in;
	int err = page_of(&p);

	in = err ? NULL : fopen(scd_path, "r");
	if (!err && !in)
		err = page_error(&p, strerror(errno));
	while (!err && getline(&line, &cap, in) > 0)
		err = put_line(out, &p, line);
	if (!err && ferror(in))
		err = page_error(&p, strerror(errno));
	if (!err)
		err = check_marks(&p);
	if (in)
		fclose(in);
	free(line);
	free(p.dir);
	return err;
}
