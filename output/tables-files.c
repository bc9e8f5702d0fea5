// SPDX-License-Identifier: GPL-2.0
/*
 * tables-files.c - where `export --tables` puts a capture's rows: one
 * file per table under DIR/TABLE/kernel=K/host=H/run=R/, each written to a
 * temporary and renamed over the old one, so that a reader of the folder
 * sees a capture's old rows or its new ones, never half of a file.  A table
 * the capture has no rows for gets no file (and loses an old one); so does
 * the fences table of an export without --fences.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tables.h"

static const struct {
	const char *name;
	int (*rows)(const struct tables_out *t);
} tables[] = {
	{ "timelines", tables_timelines },
	{ "waits", tables_waits },
	{ "crtcs", tables_crtcs },
	{ "frames", tables_frames },
	{ "vblanks", tables_vblanks },
	{ "captures", tables_captures },	/* last: a capture is listed once all its rows are */
};

#define N_TABLES (sizeof(tables) / sizeof(tables[0]))

static int fail(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return -1;
}

/** tables_partition_value() - @in made safe as a folder name and a Hive value */
void tables_partition_value(const char *in, char *out, size_t len)
{
	size_t i = 0;

	for (; in && in[i] && i + 1 < len; i++) {
		char ch = in[i];
		int safe = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
			   (ch >= '0' && ch <= '9') || strchr("._+-", ch);

		out[i] = safe ? ch : '_';
	}
	out[i] = '\0';
	if (!i || !strcmp(out, ".") || !strcmp(out, ".."))
		snprintf(out, len, "unknown");
}

/* mkdir -p of @path (changed in place and restored). */
static int make_dirs(char *path)
{
	for (char *p = path + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(path, 0777) && errno != EEXIST) {
			*p = '/';
			return -1;
		}
		*p = '/';
	}
	return mkdir(path, 0777) && errno != EEXIST ? -1 : 0;
}

/** tables_make_dir() - mkdir -p @dir; 0, or -1 with a one-line message in @err */
int tables_make_dir(const char *dir, char *err, size_t errlen)
{
	char path[4096];

	if (snprintf(path, sizeof(path), "%s", dir) >= (int)sizeof(path))
		return fail(err, errlen, "%s: the path is too long", dir);
	return make_dirs(path) ? fail(err, errlen, "%s: %s", dir, strerror(errno)) : 0;
}

static int partition_dir(char *buf, size_t len, const char *dir, const char *table,
			 const struct tables_meta *meta)
{
	int n = snprintf(buf, len, "%s/%s/kernel=%s/host=%s/run=%s", dir, table, meta->kernel,
			 meta->host, meta->run);

	return n < 0 || (size_t)n >= len ? -1 : 0;
}

/* Replace @final with what @write puts in a new file; no rows: no file. */
static int replace_file(const char *folder, const struct tables_out *t,
			int (*write)(const struct tables_out *t), char *err, size_t errlen)
{
	char final[4096], tmp[4200];
	struct tables_out mine = *t;
	long rows;

	snprintf(final, sizeof(final), "%s/part.ndjson", folder);
	snprintf(tmp, sizeof(tmp), "%s/.part.ndjson.%d", folder, (int)getpid());
	mine.out = fopen(tmp, "w");
	if (!mine.out)
		return fail(err, errlen, "%s: %s", tmp, strerror(errno));
	if (write(&mine) | ferror(mine.out)) {
		fclose(mine.out);
		unlink(tmp);
		return fail(err, errlen, "%s: cannot write the rows", tmp);
	}
	rows = ftell(mine.out);
	if (fclose(mine.out)) {
		unlink(tmp);
		return fail(err, errlen, "%s: %s", tmp, strerror(errno));
	}
	if (rows > 0 && rename(tmp, final) == 0)
		return 0;
	if (rows > 0) {
		fail(err, errlen, "%s: %s", final, strerror(errno));
		unlink(tmp);
		return -1;
	}
	unlink(tmp);
	if (unlink(final) && errno != ENOENT)
		return fail(err, errlen, "%s: %s", final, strerror(errno));
	rmdir(folder);	/* empty now, or another writer's: either is fine */
	return 0;
}

static void forget_failure(const char *dir, const struct tables_meta *meta)
{
	char path[4096];

	snprintf(path, sizeof(path), "%s/failed/host=%s/run=%s/part.ndjson", dir, meta->failed_host,
		 meta->run);
	unlink(path);
	*strrchr(path, '/') = '\0';
	rmdir(path);
	*strrchr(path, '/') = '\0';
	rmdir(path);	/* the host's folder, when that was its last failure */
}

/* The fences table's rows, written while reading, renamed into place; or none. */
static int place_fences(const char *dir, const struct tables_meta *meta, char *err, size_t errlen)
{
	struct tables_fences *f = meta->fences;
	char folder[4096], final[4200];

	if (partition_dir(folder, sizeof(folder), dir, "fences", meta))
		return fail(err, errlen, "%s: the path is too long", dir);
	snprintf(final, sizeof(final), "%s/part.ndjson", folder);
	if (!f || !f->rows) {
		if (unlink(final) && errno != ENOENT)
			return fail(err, errlen, "%s: %s", final, strerror(errno));
		rmdir(folder);
		return 0;
	}
	if (make_dirs(folder))
		return fail(err, errlen, "%s: %s", folder, strerror(errno));
	if (fclose(f->out)) {
		f->out = NULL;
		return fail(err, errlen, "%s: %s", f->path, strerror(errno));
	}
	f->out = NULL;
	if (rename(f->path, final))
		return fail(err, errlen, "%s: %s", final, strerror(errno));
	f->path[0] = '\0';
	return 0;
}

/**
 * tables_write() - every table's rows of one capture under @dir
 *
 * Return: 0, or -1 with a one-line message in @err (tables written
 * before the failure keep their new rows).
 */
int tables_write(const char *dir, const struct ft_model *m, const struct report_info *ri,
		 const struct tables_meta *meta, const struct tables_frames *frames,
		 char *err, size_t errlen)
{
	struct tables_out t = { NULL, m, ri, meta, frames, NULL };
	char folder[4096];

	for (size_t i = 0; i < N_TABLES; i++) {
		if (i == N_TABLES - 1 && place_fences(dir, meta, err, errlen))
			return -1;	/* before captures, which lists the capture */
		if (partition_dir(folder, sizeof(folder), dir, tables[i].name, meta))
			return fail(err, errlen, "%s: the path is too long", dir);
		if (make_dirs(folder))
			return fail(err, errlen, "%s: %s", folder, strerror(errno));
		if (replace_file(folder, &t, tables[i].rows, err, errlen))
			return -1;
	}
	forget_failure(dir, meta);
	return 0;
}

static int failed_row(const struct tables_out *t)
{
	FILE *out = t->out;

	fprintf(out, "{\"schema_version\": %d", TABLES_SCHEMA_VERSION);
	tables_str(out, "file", t->meta->file);
	tables_str(out, "error", t->why);
	tables_str(out, "exported_by", t->meta->exported_by);
	fprintf(out, "}\n");
	return 0;
}

/** tables_write_failed() - @meta's row of DIR/failed/host=H/run=R: its file and @why */
int tables_write_failed(const char *dir, const struct tables_meta *meta, const char *why,
			char *err, size_t errlen)
{
	struct tables_out t = { NULL, NULL, NULL, meta, NULL, why };
	char folder[4096];
	int n = snprintf(folder, sizeof(folder), "%s/failed/host=%s/run=%s", dir, meta->failed_host,
			 meta->run);

	if (n < 0 || (size_t)n >= sizeof(folder))
		return fail(err, errlen, "%s: the path is too long", dir);
	if (make_dirs(folder))
		return fail(err, errlen, "%s: %s", folder, strerror(errno));
	return replace_file(folder, &t, failed_row, err, errlen);
}
