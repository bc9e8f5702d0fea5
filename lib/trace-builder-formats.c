// SPDX-License-Identifier: GPL-2.0
/*
 * trace-builder-formats.c - the event formats a built trace carries, read
 * from a folder of tracefs format files (see trace-builder-formats.h).
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "read-file.h"
#include "trace-builder-formats.h"

static char *read_text(const char *dir, const char *name)
{
	char path[512];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return read_file(path, NULL);
}

/**
 * tb_formats_add() - one event's format text, as tracefs has it
 * @f: the formats
 * @sys: its system
 * @text: the text, malloc()ed: @f owns it from now on, whatever the result
 *
 * Return: 0, or -EINVAL when @text has no name: or ID: line or @f is full.
 */
int tb_formats_add(struct tb_formats *f, const char *sys, char *text)
{
	struct tb_format *fmt = &f->fmt[f->n];
	const char *id, *name, *fence;

	if (!text)
		return -ENOMEM;
	id = strstr(text, "\nID: ");
	name = strstr(text, "name: ");
	if (f->n == TB_MAX_FORMATS || strlen(sys) >= sizeof(fmt->sys) || !id || !name ||
	    sscanf(name, "name: %63s", fmt->name) != 1) {
		free(text);
		return -EINVAL;
	}
	fmt->text = text;
	fmt->id = atoi(id + 5);
	fence = strstr(text, "\tfield:u64 fence;\toffset:");
	fmt->fence_offset = fence ? atoi(fence + strlen("\tfield:u64 fence;\toffset:")) : 0;
	snprintf(fmt->sys, sizeof(fmt->sys), "%s", sys);
	f->n++;
	return 0;
}

/* "SYS-EVENT.format": the text, its system from the file's name. */
static int load_format(struct tb_formats *f, const char *dir, const char *file)
{
	const char *dash = strchr(file, '-');
	char sys[64];
	char *text;

	if (!dash || (size_t)(dash - file) >= sizeof(sys))
		return -EINVAL;
	text = read_text(dir, file);
	if (!text)
		return -errno;
	snprintf(sys, sizeof(sys), "%.*s", (int)(dash - file), file);
	return tb_formats_add(f, sys, text);
}

static int by_name(const struct dirent **a, const struct dirent **b)
{
	return strcmp((*a)->d_name, (*b)->d_name);
}

static int format_file(const struct dirent *d)
{
	size_t n = strlen(d->d_name);

	return n > 7 && !strcmp(d->d_name + n - 7, ".format");
}

/**
 * tb_formats_load() - header_page, header_event and every SYS-EVENT.format
 * of folder @dir, in name order
 *
 * Return: 0, or -errno (what is loaded so far is freed by tb_formats_free()).
 */
int tb_formats_load(struct tb_formats *tb, const char *dir)
{
	tb->header_page = read_text(dir, "header_page");
	tb->header_event = read_text(dir, "header_event");
	if (!tb->header_page || !tb->header_event)
		return -ENOENT;
	return tb_formats_add_dir(tb, dir);
}

/**
 * tb_formats_add_dir() - every SYS-EVENT.format of folder @dir, in name
 * order, added to @tb (another folder's events beside those loaded)
 *
 * Return: 0, or -errno.
 */
int tb_formats_add_dir(struct tb_formats *tb, const char *dir)
{
	struct dirent **list;
	int i, n, ret = 0;

	n = scandir(dir, &list, format_file, by_name);
	if (n <= 0)
		return -ENOENT;
	for (i = 0; i < n; i++) {
		if (!ret)
			ret = load_format(tb, dir, list[i]->d_name);
		free(list[i]);
	}
	free(list);
	return ret;
}

/** tb_formats_fence_offset() - event @id's "fence" field offset, 0 when it has none */
unsigned int tb_formats_fence_offset(const struct tb_formats *f, int id)
{
	for (unsigned int i = 0; i < f->n; i++)
		if (f->fmt[i].id == id)
			return (unsigned int)f->fmt[i].fence_offset;
	return 0;
}

void tb_formats_free(struct tb_formats *f)
{
	for (unsigned int i = 0; i < f->n; i++)
		free(f->fmt[i].text);
	free(f->header_page);
	free(f->header_event);
	memset(f, 0, sizeof(*f));
}
