/* SPDX-License-Identifier: GPL-2.0 */
/*
 * source.h - where events come from: a trace.dat file, read by our own
 * validating reader (tracedat.h) when it can, else by libtracecmd (the
 * valid files it refuses by design, see source_open()).  Records reach the callback in
 * timestamp order across CPUs.
 */
#ifndef FENCE_TRACE_SOURCE_H
#define FENCE_TRACE_SOURCE_H

#include <stddef.h>

struct tep_handle;
struct tep_record;

struct ft_source;

struct ft_source_info {
	int version, cpus;
	const char *clock, *uname;
	const char *recorder;		/* the VERSION option ("3.1.6 ..." from trace-cmd), or NULL */
	const char *reader;		/* "fast" or "libtracecmd" */
	long long overrun;		/* ring-buffer overrun from the file's stats; -1 unknown */
};

typedef int (*ft_record_cb)(struct tep_record *rec, void *ctx);

/* Which reader source_open() uses for a file both can read. */
enum source_reader {
	SOURCE_READER_FAST,		/* ours; libtracecmd only for what it refuses */
	SOURCE_READER_LIBTRACECMD,	/* libtracecmd, to cross-check ours */
};

struct ft_source *source_open(const char *path, enum source_reader reader, char *err,
			      size_t errlen);
struct tep_handle *source_tep(struct ft_source *src);
void source_info(struct ft_source *src, struct ft_source_info *info);
int source_iterate(struct ft_source *src, ft_record_cb cb, void *ctx, char *err, size_t errlen);
/* After source_iterate(): events the recorder's stats say it took but the file lacks. */
unsigned long long source_missing(struct ft_source *src);
void source_close(struct ft_source *src);

#endif
