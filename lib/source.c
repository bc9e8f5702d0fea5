// SPDX-License-Identifier: GPL-2.0
/*
 * source.c - trace.dat sources (see source.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <trace-cmd.h>

#include "source.h"
#include "tracedat.h"

/* Exported by libtracecmd but missing from its public header. */
int tracecmd_cpus(struct tracecmd_input *handle);
unsigned long tracecmd_get_in_file_version(struct tracecmd_input *handle);
const char *tracecmd_get_trace_clock(struct tracecmd_input *handle);
const char *tracecmd_get_uname(struct tracecmd_input *handle);
const char *tracecmd_get_version(struct tracecmd_input *handle);

struct ft_source {
	struct tracedat *td;		/* our reader, or */
	struct tracecmd_input *tc;	/* libtracecmd's */
	ft_record_cb cb;
	void *ctx;
	char *path;			/* for errors (the fast reader's carry it) */
	/* libtracecmd's files: the stats, read by the fast reader, and events per CPU */
	struct tracedat *stats;		/* NULL: none readable */
	unsigned long long *events;
	int n_events;
};

/*
 * libtracecmd's API does not give a file's per-CPU stats, but the fast
 * reader reads them from the options even of a file it refused.  Without
 * them the loss counts are unknown, as before: not an error.
 */
static int open_stats(struct ft_source *src)
{
	char why[256];
	int cpus = tracecmd_cpus(src->tc);

	src->stats = tracedat_open_stats(src->path, why, sizeof(why));
	if (src->stats && tracedat_cpus(src->stats) > cpus)
		cpus = tracedat_cpus(src->stats);
	src->n_events = cpus > 0 ? cpus : 1;
	src->events = calloc(src->n_events, sizeof(*src->events));
	return src->events ? 0 : -ENOMEM;
}

/* libtracecmd's handle on @src's file; 0, or -1 with @err set. */
static int open_libtracecmd(struct ft_source *src, char *err, size_t errlen)
{
	char why[256];

	/* its own messages ("Unsupported file compression ...") would make the
	 * one-line error two: ours says what matters */
	tracecmd_set_loglevel(TEP_LOG_NONE);
	src->tc = tracecmd_open(src->path, TRACECMD_FL_LOAD_NO_PLUGINS);
	if (!src->tc) {
		/* the fast reader's reason ("PATH: what") if it had one */
		snprintf(why, sizeof(why), "%s", err);
		if (why[0])
			snprintf(err, errlen, "%s; libtracecmd cannot read it either", why);
		else
			snprintf(err, errlen, "%s: libtracecmd cannot read it", src->path);
		return -1;
	}
	if (open_stats(src)) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	return 0;
}

/* The fast reader's walk of @src ended in @ret < 0: say why in @err. */
static void walk_error(struct ft_source *src, int ret, char *err, size_t errlen)
{
	if (ret == -ENOMEM)
		snprintf(err, errlen, "%s: out of memory", src->path);
	else if (tracedat_error(src->td))
		snprintf(err, errlen, "%s", tracedat_error(src->td));
}

/*
 * libtracecmd crashes on a damaged flyrecord chunk, so before it may read
 * a file the fast reader could, the fast reader walks every page of it,
 * with every check it makes when reporting.  0, or -1 with @err set.
 */
static int validate_pages(struct ft_source *src, char *err, size_t errlen)
{
	int ret = tracedat_walk(src->td);

	if (ret == 0)
		return 0;
	walk_error(src, ret, err, errlen);
	return -1;
}

/**
 * source_open() - open @path with the fast reader, or libtracecmd for the
 * valid files the fast reader does not handle (it says so with ENOTSUP:
 * a compression other than zstd and zlib, a chunk above its 1 MiB).
 * Files the fast reader finds damaged never reach libtracecmd, which is
 * not hardened against them; that holds for SOURCE_READER_LIBTRACECMD too,
 * which hands libtracecmd only a file whose every page the fast reader read.
 */
struct ft_source *source_open(const char *path, enum source_reader reader, char *err,
			      size_t errlen)
{
	struct ft_source *src = calloc(1, sizeof(*src));

	if (!src || !(src->path = strdup(path))) {
		snprintf(err, errlen, "out of memory");
		free(src);
		return NULL;
	}
	errno = 0;
	src->td = tracedat_open(path, err, errlen);
	if (src->td && reader == SOURCE_READER_FAST)
		return src;
	if (!src->td && errno != ENOTSUP) {
		source_close(src);
		return NULL;
	}
	if (src->td && validate_pages(src, err, errlen)) {
		source_close(src);
		return NULL;
	}
	if (src->td)
		err[0] = '\0';	/* a file both read: no reason to pass on */
	tracedat_close(src->td);
	src->td = NULL;
	if (open_libtracecmd(src, err, errlen)) {
		source_close(src);
		return NULL;
	}
	return src;
}

struct tep_handle *source_tep(struct ft_source *src)
{
	return src->td ? tracedat_tep(src->td) : tracecmd_get_tep(src->tc);
}

void source_info(struct ft_source *src, struct ft_source_info *info)
{
	memset(info, 0, sizeof(*info));
	if (src->td) {
		info->version = tracedat_version(src->td);
		info->cpus = tracedat_cpus(src->td);
		info->clock = tracedat_clock(src->td);
		info->uname = tracedat_uname(src->td);
		info->recorder = tracedat_recorder(src->td);
		info->overrun = tracedat_overrun(src->td);
		info->reader = "fast";
		return;
	}
	info->version = (int)tracecmd_get_in_file_version(src->tc);
	info->cpus = tracecmd_cpus(src->tc);
	info->clock = tracecmd_get_trace_clock(src->tc);
	info->uname = tracecmd_get_uname(src->tc);
	info->recorder = tracecmd_get_version(src->tc);
	info->overrun = src->stats ? tracedat_overrun(src->stats) : -1;
	info->reader = "libtracecmd";
}

static int tracecmd_cb(struct tracecmd_input *handle, struct tep_record *rec, int cpu, void *data)
{
	struct ft_source *src = data;

	(void)handle;
	if (cpu >= 0 && cpu < src->n_events)
		src->events[cpu]++;
	return src->cb(rec, src->ctx);
}

/* For files libtracecmd reads, from the stats the fast reader found; 0 without. */
unsigned long long source_missing(struct ft_source *src)
{
	if (src->td)
		return tracedat_missing(src->td);
	return src->stats ? tracedat_missing_of(src->stats, src->events, src->n_events) : 0;
}

/* Return: 0 at the end, the callback's non-zero value, or < 0 with "PATH: what" in @err. */
int source_iterate(struct ft_source *src, ft_record_cb cb, void *ctx, char *err, size_t errlen)
{
	int ret;

	if (src->td) {
		ret = tracedat_iterate(src->td, cb, ctx);
		if (ret < 0)
			walk_error(src, ret, err, errlen);
		return ret;
	}
	src->cb = cb;
	src->ctx = ctx;
	memset(src->events, 0, src->n_events * sizeof(*src->events));
	ret = tracecmd_iterate_events(src->tc, NULL, 0, tracecmd_cb, src);
	if (ret < 0)
		snprintf(err, errlen, "%s: libtracecmd failed while reading events", src->path);
	return ret;
}

void source_close(struct ft_source *src)
{
	if (!src)
		return;
	if (src->td)
		tracedat_close(src->td);
	if (src->tc)
		tracecmd_close(src->tc);
	tracedat_close(src->stats);
	free(src->events);
	free(src->path);
	free(src);
}
