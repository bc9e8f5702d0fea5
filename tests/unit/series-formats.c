// SPDX-License-Identifier: GPL-2.0
/*
 * series-formats.c - the series' event formats for trace-builder (see
 * series-formats.h).  The series' event ids come from another kernel
 * build and collide with the stock fixtures': each system is moved to ids
 * of its own.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "series-formats.h"
#include "tmpdir.h"
#include "trace-builder.h"

#define COMMON_SIZE 8

static const struct {
	const char *from, *prefix;
	int shift;
} systems[] = {
	{ "tracepoints/formats/drm_fence", "drm_fence-", 1000 },
	{ "tracepoints/formats/sync_file", "sync_file-", 1000 },
	{ "tracepoints/formats/dma_fence", "dma_fence-", 2000 },
};

/* Copy @from to @dir/@prefix@name, its "ID: n" moved by @shift. */
static int copy_format(const char *from, const char *dir, const char *prefix, const char *name,
		       int shift)
{
	char path[512], line[512];
	FILE *in = fopen(from, "r"), *out;
	int id;

	snprintf(path, sizeof(path), "%s/%s%s", dir, prefix, name);
	out = fopen(path, "w");
	if (!in || !out) {
		if (in)
			fclose(in);
		if (out)
			fclose(out);
		return -1;
	}
	while (fgets(line, sizeof(line), in)) {
		if (sscanf(line, "ID: %d", &id) == 1)
			fprintf(out, "ID: %d\n", id + shift);
		else
			fputs(line, out);
	}
	fclose(in);
	return fclose(out);
}

static int copy_dir(const char *from, const char *dir, const char *prefix, int shift)
{
	DIR *d = opendir(from);
	struct dirent *e;
	char path[512];
	int err = !d;

	while (d && (e = readdir(d))) {
		if (e->d_name[0] == '.' || !strcmp(e->d_name, "README"))
			continue;
		snprintf(path, sizeof(path), "%s/%s", from, e->d_name);
		err |= copy_format(path, dir, prefix, e->d_name, shift);
	}
	if (d)
		closedir(d);
	return err;
}

int series_formats_make(char *dir, size_t len)
{
	if (tmpdir_make(dir, len, "test-series-fmt") || copy_dir(TB_FIXTURES, dir, "", 0))
		return -1;
	for (size_t i = 0; i < sizeof(systems) / sizeof(systems[0]); i++)
		if (copy_dir(systems[i].from, dir, systems[i].prefix, systems[i].shift))
			return -1;
	return 0;
}

void series_formats_remove(const char *dir)
{
	if (tmpdir_remove(dir))
		fprintf(stderr, "could not remove %s\n", dir);
}

void payload_init(struct payload *p, size_t format_size)
{
	memset(p, 0, sizeof(*p));
	p->fixed = p->len = format_size - COMMON_SIZE;
}

void payload_num(struct payload *p, size_t format_offset, uint64_t v, size_t size)
{
	memcpy(p->b + format_offset - COMMON_SIZE, &v, size);	/* little-endian, as the fixtures */
}

/* The string after the fields; its __data_loc word: length << 16 | record offset. */
void payload_str(struct payload *p, size_t format_offset, const char *s)
{
	size_t n = strlen(s) + 1;

	payload_num(p, format_offset, (uint64_t)n << 16 | (p->len + COMMON_SIZE), 4);
	memcpy(p->b + p->len, s, n);
	p->len += n;
}
