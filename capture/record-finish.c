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
#include <sys/statvfs.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <tracefs.h>

#include "drm-map.h"
#include "live-reader.h"
#include "record-capture.h"
#include "say.h"
#include "tracedat.h"
#include "version.h"

/**
 * capture_gather() - the metadata tracefs has for the trace: headers,
 * formats of c->events, task names, kernel; with an instance (not --bpf)
 * also its clock and per-CPU stats
 */
int capture_gather(struct capture *c, struct capture_meta *md)
{
	struct utsname u;

	md->header_page = tracefs_instance_file_read(NULL, "events/header_page", NULL);
	md->header_event = tracefs_instance_file_read(NULL, "events/header_event", NULL);
	md->cmdlines = tracefs_instance_file_read(NULL, "saved_cmdlines", NULL);
	if (c->live)
		md->clock = live_reader_file(c->live, "trace_clock");
	md->formats = calloc(c->n_events, sizeof(char *));
	md->stats = calloc(c->cpus, sizeof(char *));
	if (!md->header_page || !md->header_event || !md->formats || !md->stats)
		return -1;
	for (unsigned int i = 0; i < c->n_events; i++) {
		md->formats[i] = tracefs_event_file_read(NULL, c->systems[i], c->events[i], "format", NULL);
		if (!md->formats[i])
			return -1;
	}
	for (int cpu = 0; cpu < c->cpus && c->live; cpu++) {
		char name[64];

		snprintf(name, sizeof(name), "per_cpu/cpu%d/stats", cpu);
		md->stats[cpu] = live_reader_file(c->live, name);
	}
	if (uname(&u) == 0)
		snprintf(md->uname, sizeof(md->uname), "%s %s %s %s", u.sysname, u.nodename,
			 u.release, u.machine);	/* trace-cmd's layout: uname-fields.c reads it */
	return 0;
}

void capture_meta_free(struct capture *c, struct capture_meta *md)
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

static unsigned long long text_bytes(const char *s)
{
	return s ? strlen(s) : 0;
}

/* What tracedat_write() puts around the CPU data, with room to spare. */
static unsigned long long metadata_bytes(struct capture *c, struct capture_meta *md)
{
	unsigned long long n = 4096 + (unsigned long long)c->page_size;	/* fixed fields, padding */

	n += text_bytes(md->header_page) + text_bytes(md->header_event) + text_bytes(md->cmdlines) +
	     text_bytes(md->clock) + text_bytes(md->uname);
	for (unsigned int i = 0; i < c->n_events; i++)
		n += text_bytes(md->formats[i]) + 64;
	for (int cpu = 0; cpu < c->cpus; cpu++)
		n += text_bytes(md->stats[cpu]) + 64;
	return n;
}

/* Drop @n pages from the ends of the fullest CPUs' files: the latest events. */
static int drop_pages(struct capture *c, unsigned long long n)
{
	for (; n; n--) {
		int big = 0;

		for (int cpu = 1; cpu < c->cpus; cpu++)
			if (c->pages[cpu] > c->pages[big])
				big = cpu;
		if (!c->pages[big])
			break;
		c->pages[big]--;
		c->dropped_pages++;
	}
	for (int cpu = 0; cpu < c->cpus; cpu++)
		if (ftruncate(c->tmp_fds[cpu], (off_t)(c->pages[cpu] * c->page_size)))
			return -1;
	return 0;
}

/*
 * The trace is written next to its temporary files, which it frees as it
 * copies them (release_cpu_data): it needs its metadata, one copy chunk
 * (64 KB), FILE.drm and a partial block per file on top of what is free.
 * When the disk is fuller than that, the latest pages go.
 */
static int make_room(struct capture *c, struct capture_meta *md)
{
	unsigned long long free_b, need, short_b;
	struct statvfs v;

	if (fstatvfs(c->tmp_fds[0], &v))
		return 0;	/* no figures: try anyway */
	free_b = (unsigned long long)v.f_bavail * v.f_frsize;
	need = metadata_bytes(c, md) + 64 * 1024 + 2ull * c->page_size +
	       (unsigned long long)(c->cpus + 2) * v.f_frsize;
	if (free_b >= need)
		return 0;
	short_b = need - free_b;
	return drop_pages(c, (short_b + c->page_size - 1) / c->page_size);
}

static int write_file(struct capture *c, struct capture_meta *md)
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
		.recorder = fence_trace_version(),
		.cpu_stats = (const char *const *)md->stats,
		.cpu_data_fds = c->tmp_fds,
		.release_cpu_data = 1,
	};
	char err[256];

	for (int cpu = 0; cpu < c->cpus; cpu++)
		lseek(c->tmp_fds[cpu], 0, SEEK_SET);
	if (tracedat_write(c->path, &out, err, sizeof(err))) {
		say("%s", err);
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
	if (!out) {
		say("no DRM device map: %s: %s", path, strerror(errno));
		return;
	}
	if (drm_map_write_from_debugfs(out, "/sys/kernel/debug/dri")) {
		say("no DRM device map (%s): debugfs not mounted?", path);
		fclose(out);
		unlink(path);
	} else if (fclose(out)) {
		say("no DRM device map: %s: %s", path, strerror(errno));
		unlink(path);
	}
}

static void summary(struct capture *c)
{
	unsigned long long lost = capture_stat(c, "overrun");
	char dropped[96] = "";

	if (isatty(STDERR_FILENO))
		fputc('\n', stderr);	/* end the progress line */
	if (c->dropped_pages)
		snprintf(dropped, sizeof(dropped), " (the last %llu KB dropped to make room)",
			 c->dropped_pages * c->page_size / 1024);
	say("wrote %s: %d CPUs, %llu KB of events%s, %llu events lost%s",
		c->path, c->cpus, capture_kb(c), dropped, lost,
		lost ? " (ring buffer overrun: use -b to enlarge it)" : "");
}

/**
 * capture_write_trace() - the trace.dat from the temporary page files and
 * @md, made to fit the disk, and FILE.drm next to it
 */
int capture_write_trace(struct capture *c, struct capture_meta *md)
{
	if (make_room(c, md)) {
		say("cannot trim a temporary file: %s", strerror(errno));
		return -1;
	}
	if (write_file(c, md))
		return -1;
	write_drm_map(c);
	return 0;
}

/**
 * capture_finish() - stop, drain, write the trace.dat, tear down
 *
 * After a failed write next to the trace (capture_drain() said so) the
 * trace is still written from the pages kept, and the result is -1.
 */
int capture_finish(struct capture *c)
{
	struct capture_meta md = { 0 };
	int ret = -1;

	live_reader_off(c->live);
	capture_drain_rest(c);	/* tracing is off: this ends; a failure was said, what was kept is written */
	if (capture_gather(c, &md)) {
		say("cannot read the event formats from tracefs");
		goto out;
	}
	ret = capture_write_trace(c, &md);
	if (!ret)
		summary(c);
out:
	capture_meta_free(c, &md);
	capture_teardown(c);
	return ret || c->write_errno ? -1 : 0;
}
