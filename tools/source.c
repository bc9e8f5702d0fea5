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

struct ft_source {
	struct tracedat *td;		/* our reader, or */
	struct tracecmd_input *tc;	/* libtracecmd's */
	ft_record_cb cb;
	void *ctx;
	char *path;			/* for errors (the fast reader's carry it) */
};

/**
 * source_open() - open @path with the fast reader, or libtracecmd for the
 * valid files the fast reader does not handle (it says so with ENOTSUP).
 * Damaged files are refused by the fast reader and never reach libtracecmd,
 * which is not hardened against them.
 */
struct ft_source *source_open(const char *path, char *err, size_t errlen)
{
	struct ft_source *src = calloc(1, sizeof(*src));

	if (!src) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	src->path = strdup(path);
	if (!src->path) {
		snprintf(err, errlen, "out of memory");
		free(src);
		return NULL;
	}
	errno = 0;
	src->td = tracedat_open(path, err, errlen);
	if (src->td)
		return src;
	if (errno != ENOTSUP) {
		free(src->path);
		free(src);
		return NULL;
	}
	src->tc = tracecmd_open(path, TRACECMD_FL_LOAD_NO_PLUGINS);
	if (!src->tc) {
		free(src->path);
		snprintf(err, errlen, "%s: libtracecmd cannot read it either", path);
		free(src);
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
		info->overrun = tracedat_overrun(src->td);
		info->reader = "fast";
		return;
	}
	info->version = (int)tracecmd_get_in_file_version(src->tc);
	info->cpus = tracecmd_cpus(src->tc);
	info->clock = tracecmd_get_trace_clock(src->tc);
	info->uname = tracecmd_get_uname(src->tc);
	info->overrun = -1;
	info->reader = "libtracecmd";
}

static int tracecmd_cb(struct tracecmd_input *handle, struct tep_record *rec, int cpu, void *data)
{
	struct ft_source *src = data;

	(void)handle;
	(void)cpu;
	return src->cb(rec, src->ctx);
}

/* Unknown (0) for files libtracecmd reads: its API does not give the stats. */
unsigned long long source_missing(struct ft_source *src)
{
	return src->td ? tracedat_missing(src->td) : 0;
}

/* Return: 0 at the end, the callback's non-zero value, or < 0 with "PATH: what" in @err. */
int source_iterate(struct ft_source *src, ft_record_cb cb, void *ctx, char *err, size_t errlen)
{
	int ret;

	if (src->td) {
		ret = tracedat_iterate(src->td, cb, ctx);
		if (ret == -ENOMEM)
			snprintf(err, errlen, "%s: out of memory", src->path);
		else if (ret < 0 && tracedat_error(src->td))
			snprintf(err, errlen, "%s", tracedat_error(src->td));
		return ret;
	}
	src->cb = cb;
	src->ctx = ctx;
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
	free(src->path);
	free(src);
}
