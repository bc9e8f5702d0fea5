// SPDX-License-Identifier: GPL-2.0
/*
 * record-finish.c - the end of a recording: last pages, the metadata that
 * names things (event formats, task names, clock, kernel, per-CPU stats),
 * the trace.dat, the lost-event count, and a clean tracefs.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <tracefs.h>

#include "drm-map.h"
#include "record-capture.h"
#include "tracedat.h"

struct metadata {
	char *header_page, *header_event, *cmdlines, *clock;
	char **formats, **stats;
	char uname[512];
};

static int gather(struct capture *c, struct metadata *md)
{
	struct utsname u;

	md->header_page = tracefs_instance_file_read(NULL, "events/header_page", NULL);
	md->header_event = tracefs_instance_file_read(NULL, "events/header_event", NULL);
	md->cmdlines = tracefs_instance_file_read(NULL, "saved_cmdlines", NULL);
	md->clock = tracefs_instance_file_read(c->inst, "trace_clock", NULL);
	md->formats = calloc(c->n_events, sizeof(char *));
	md->stats = calloc(c->cpus, sizeof(char *));
	if (!md->header_page || !md->header_event || !md->formats || !md->stats)
		return -1;
	for (unsigned int i = 0; i < c->n_events; i++) {
		md->formats[i] = tracefs_event_file_read(NULL, c->systems[i], c->events[i], "format", NULL);
		if (!md->formats[i])
			return -1;
	}
	for (int cpu = 0; cpu < c->cpus; cpu++) {
		char name[64];

		snprintf(name, sizeof(name), "per_cpu/cpu%d/stats", cpu);
		md->stats[cpu] = tracefs_instance_file_read(c->inst, name, NULL);
	}
	if (uname(&u) == 0)
		snprintf(md->uname, sizeof(md->uname), "%s %s %s %s", u.sysname, u.release,
			 u.version, u.machine);
	return 0;
}

static void metadata_free(struct capture *c, struct metadata *md)
{
	for (unsigned int i = 0; md->formats && i < c->n_events; i++)
		free(md->formats[i]);
	for (int cpu = 0; md->stats && cpu < c->cpus; cpu++)
		free(md->stats[cpu]);
	free(md->formats);
	free(md->stats);
	free(md->header_page);
	free(md->header_event);
	free(md->cmdlines);
	free(md->clock);
}

static int write_file(struct capture *c, struct metadata *md)
{
	struct tracedat_out out = {
		.page_size = (unsigned int)c->page_size,
		.cpus = (unsigned int)c->cpus,
		.header_page = md->header_page,
		.header_event = md->header_event,
		.n_formats = c->n_events,
		.format_systems = (const char *const *)c->systems,
		.formats = (const char *const *)md->formats,
		.cmdlines = md->cmdlines,
		.trace_clock = md->clock,
		.uname = md->uname,
		.cpu_stats = (const char *const *)md->stats,
		.cpu_data_fds = c->tmp_fds,
	};
	char err[256];

	for (int cpu = 0; cpu < c->cpus; cpu++)
		lseek(c->tmp_fds[cpu], 0, SEEK_SET);
	if (tracedat_write(c->path, &out, err, sizeof(err))) {
		fprintf(stderr, "fence-trace record: %s\n", err);
		return -1;
	}
	return 0;
}

/* FILE.drm: which device each CRTC is on (see drm-map.h); best effort. */
static void write_drm_map(struct capture *c)
{
	char path[4096];
	FILE *out;

	snprintf(path, sizeof(path), "%s.drm", c->path);
	out = fopen(path, "w");
	if (!out || drm_map_write_from_debugfs(out, "/sys/kernel/debug/dri") || fclose(out)) {
		fprintf(stderr, "fence-trace record: no DRM device map (%s): debugfs not mounted?\n", path);
		if (out)
			fclose(out);
		unlink(path);
	}
}

static void summary(struct capture *c)
{
	unsigned long long pages = 0, lost = capture_stat(c, "overrun");

	if (isatty(STDERR_FILENO))
		fputc('\n', stderr);	/* end the progress line */
	for (int cpu = 0; cpu < c->cpus; cpu++)
		pages += c->pages[cpu];
	fprintf(stderr, "fence-trace record: wrote %s: %d CPUs, %llu KB of events, %llu events lost%s\n",
		c->path, c->cpus, pages * c->page_size / 1024, lost,
		lost ? " (ring buffer overrun: use -b to enlarge it)" : "");
}

/**
 * capture_finish() - stop, drain, write the trace.dat, tear down
 */
int capture_finish(struct capture *c)
{
	struct metadata md = { 0 };
	int ret = -1;

	tracefs_trace_off(c->inst);
	if (capture_drain(c))
		goto out;
	if (gather(c, &md)) {
		fprintf(stderr, "fence-trace record: cannot read the event formats from tracefs\n");
		goto out;
	}
	ret = write_file(c, &md);
	if (!ret) {
		write_drm_map(c);
		summary(c);
	}
out:
	metadata_free(c, &md);
	capture_teardown(c);
	return ret;
}

/* Leave tracefs as we found it: fds closed (an open trace_pipe_raw keeps
 * the instance busy, so first), events off, instance gone. */
void capture_teardown(struct capture *c)
{
	for (int cpu = 0; cpu < c->cpus; cpu++) {
		if (c->raw_fds && c->raw_fds[cpu] > 0)
			close(c->raw_fds[cpu]);
		if (c->tmp_fds && c->tmp_fds[cpu] > 0)
			close(c->tmp_fds[cpu]);
	}
	if (c->inst) {
		tracefs_trace_off(c->inst);
		tracefs_event_disable(c->inst, NULL, NULL);
		if (tracefs_instance_destroy(c->inst))
			fprintf(stderr, "fence-trace record: could not remove tracefs instance %s\n",
				tracefs_instance_get_name(c->inst));
		tracefs_instance_free(c->inst);
		c->inst = NULL;
	}
	for (unsigned int i = 0; i < c->n_events; i++) {
		free(c->systems[i]);
		free(c->events[i]);
	}
	c->n_events = 0;
	free(c->raw_fds);
	free(c->tmp_fds);
	free(c->pages);
	free(c->page);
	c->raw_fds = c->tmp_fds = NULL;
	c->pages = NULL;
	c->page = NULL;
}
