// SPDX-License-Identifier: GPL-2.0
/*
 * record-capture.c - tracefs instance, raw per-CPU pages, trace.dat
 * (see record-capture.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <tracefs.h>

#include "live-reader.h"
#include "lockdown.h"
#include "record-capture.h"
#include "say.h"

static int fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int fail(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsay(fmt, ap);
	va_end(ap);
	return -1;
}

static int event_exists(const char *sys, const char *ev)
{
	char path[256];

	snprintf(path, sizeof(path), "events/%s/%s/format", sys, ev);
	return tracefs_file_exists(NULL, path);
}

static int add_event(struct capture *c, const char *sys, const char *ev)
{
	for (unsigned int i = 0; i < c->n_events; i++)
		if (!strcmp(c->systems[i], sys) && !strcmp(c->events[i], ev))
			return 0;
	if (c->n_events >= CAPTURE_MAX_EVENTS)
		return fail("too many events (max %d)", CAPTURE_MAX_EVENTS);
	if (live_reader_enable(c->live, sys, ev))
		return fail("cannot enable %s:%s", sys, ev);
	c->systems[c->n_events] = strdup(sys);
	c->events[c->n_events] = strdup(ev);
	c->n_events++;
	return 0;
}

/* Every event of @sys; 0 events is not an error (the caller says it). */
static int add_system(struct capture *c, const char *sys, int *found)
{
	char **list = tracefs_system_events(NULL, sys);
	int ret = 0;

	*found = 0;
	for (int i = 0; list && list[i] && !ret; i++) {
		ret = add_event(c, sys, list[i]);
		(*found)++;
	}
	tracefs_list_free(list);
	return ret;
}

static int add_extra(struct capture *c, const char *spec)
{
	char sys[128], *ev;
	int found;

	snprintf(sys, sizeof(sys), "%s", spec);
	ev = strchr(sys, ':');
	*ev++ = '\0';
	if (!strcmp(ev, "*")) {
		if (add_system(c, sys, &found))
			return -1;
		return found ? 0 : fail("-e %s: no such event system in this kernel", spec);
	}
	if (!event_exists(sys, ev))
		return fail("-e %s: no such event in this kernel", spec);
	return add_event(c, sys, ev);
}

/*
 * The catalogue's events of @set that this kernel has (tracepoints/
 * catalogue.h): what report reads, nothing more.  Whole systems would take
 * the series' sync_file create, install and release too, three events a
 * fence that no tool reads (-e sync_file:* adds them).
 */
static int add_set(struct capture *c, enum ft_set set, int *found)
{
	*found = 0;
	for (int id = 0; id < FT_EV_COUNT; id++) {
		if (ft_event_set(id) != set || !event_exists(ft_event_system(id), ft_event_name(id)))
			continue;
		if (add_event(c, ft_event_system(id), ft_event_name(id)))
			return -1;
		(*found)++;
	}
	return 0;
}

/*
 * The series' two dma_fence events, said, as a stock kernel lacks them
 * (errors and merge members are then unknown to report).
 */
static const char *dma_series_note(void)
{
	int error = event_exists("dma_fence", "dma_fence_error");
	int member = event_exists("dma_fence", "dma_fence_member");

	if (error && member)
		return " (with the series' dma_fence_error and dma_fence_member)";
	if (error)
		return " (with the series' dma_fence_error; dma_fence_member missing)";
	if (member)
		return " (with the series' dma_fence_member; dma_fence_error missing)";
	return " (the series' dma_fence_error and dma_fence_member missing)";
}

/* The catalogue's sets, each said to be found or missing. */
static int add_catalogue(struct capture *c)
{
	int series, fences, dma_series, vblank;

	if (add_set(c, FT_SET_SERIES, &series) || add_set(c, FT_SET_DMA_FENCE, &fences) ||
	    add_set(c, FT_SET_DMA_SERIES, &dma_series) || add_set(c, FT_SET_VBLANK, &vblank))
		return -1;
	say("events: the series' drm_fence and sync_file poll events %s, dma_fence:* %s%s, drm:drm_vblank_event* %s",
		series ? "found" : "missing (not a fence-trace kernel)",
		fences ? "found" : "missing", fences ? dma_series_note() : "",
		vblank ? "found" : "missing");
	if (!fences && !vblank && !series && !c->n_extra)
		return fail("this kernel has none of the fence or vblank events");
	return 0;
}

/**
 * capture_open_tmp() - a temporary file next to the trace, named
 * PATH.@what.XXXXXX and unlinked at once: nothing is left behind, whatever
 * happens.  Return: its fd, or -1 (said).
 */
int capture_open_tmp(struct capture *c, const char *what)
{
	char tmpl[4096];
	int fd;

	snprintf(tmpl, sizeof(tmpl), "%s.%s.XXXXXX", c->path, what);
	fd = mkostemp(tmpl, O_CLOEXEC);
	if (fd < 0)
		return fail("cannot open a temporary file next to %s: %s", c->path, strerror(errno));
	unlink(tmpl);
	return fd;
}

/** capture_open_tmp_files() - one temporary page file per CPU */
int capture_open_tmp_files(struct capture *c)
{
	char what[32];

	c->tmp_fds = calloc(c->cpus, sizeof(int));
	c->pages = calloc(c->cpus, sizeof(*c->pages));
	c->page = malloc(c->page_size);
	if (!c->tmp_fds || !c->pages || !c->page)
		return fail("out of memory");
	for (int cpu = 0; cpu < c->cpus; cpu++) {
		snprintf(what, sizeof(what), "cpu%d", cpu);
		c->tmp_fds[cpu] = capture_open_tmp(c, what);
		if (c->tmp_fds[cpu] < 0)
			return -1;
	}
	return 0;
}

/* The temporary files, then every CPU's ring read by the live reader: tracing starts. */
static int open_cpu_files(struct capture *c)
{
	char why[128];

	if (capture_open_tmp_files(c))
		return -1;
	if (live_reader_start(c->live, why, sizeof(why)))
		return fail("%s", why);
	return 0;
}

/* Is a tracefs mounted anywhere (/proc/mounts' third column)? */
static int tracefs_mounted(void)
{
	FILE *f = fopen("/proc/mounts", "r");
	char type[64];
	int found = 0;

	if (!f)
		return 1;	/* cannot tell: say nothing */
	while (!found && fscanf(f, "%*s %*s %63s %*[^\n]", type) == 1)
		found = !strcmp(type, "tracefs");
	fclose(f);
	return found;
}

/*
 * Find tracefs.  Not mounted, libtracefs mounts it on /sys/kernel/tracing
 * (as trace-cmd does) when it may, which is said since the mount stays;
 * when it may not (not root), that is the one-line error.
 */
static int find_tracefs(const char **tracing_dir)
{
	int mounted = tracefs_mounted();
	const char *dir = tracefs_tracing_dir();
	char path[4096];

	/* a debugfs/tracing dir mounts tracefs when first looked into */
	if (dir && !mounted) {
		snprintf(path, sizeof(path), "%s/trace", dir);
		access(path, F_OK);
	}
	if (!dir || (!mounted && !tracefs_mounted()))
		return fail("tracefs is not mounted (mount -t tracefs nodev /sys/kernel/tracing)%s",
			    geteuid() ? "; and record needs root" : "");
	if (!mounted)
		say("tracefs was not mounted: it is now, on %s", dir);
	*tracing_dir = dir;
	return 0;
}

/*
 * May we make an instance?  Asked before libtracefs is, with the same one
 * line: its failure path leaks (libtracefs 1.6.4; so does each further
 * tracefs_tracing_dir() of a user who may not look in it), which the CLI
 * tests see when they run record as nobody under ASan.
 */
static int may_make_instance(const char *dir)
{
	char path[4096];

	snprintf(path, sizeof(path), "%s/instances", dir);
	if (access(path, W_OK) == 0 || (errno != EACCES && errno != EPERM && errno != EROFS))
		return 0;	/* or let libtracefs find out */
	return fail("cannot create a tracefs instance: %s%s", strerror(errno), refusal_hint(errno, ""));
}

/*
 * Why live_reader_setup() failed: the clock (trace_clock then does not
 * show it selected, "[mono]"), with the clocks this kernel has, or the
 * ring buffer's size.
 */
static void setup_failed(struct capture *c)
{
	int err = errno;
	char *offered = live_reader_file(c->live, "trace_clock");
	char *nl = offered ? strchr(offered, '\n') : NULL;
	char selected[32];

	if (nl)
		*nl = '\0';
	snprintf(selected, sizeof(selected), "[%s]", c->clock);
	if (!offered || !strstr(offered, selected))
		fail("-C %s: the kernel refused this trace clock (trace_clock offers: %s): %s", c->clock,
		     offered ? offered : "?", strerror(err));
	else
		fail("cannot make a %u KB ring buffer per CPU: %s", c->buffer_kb, strerror(err));
	free(offered);
}

/**
 * capture_tracefs_usable() - tracefs mounted (record mounts it, as
 * trace-cmd does), and may this user make an instance?  0, or -1 (said)
 */
int capture_tracefs_usable(void)
{
	const char *dir;

	return find_tracefs(&dir) || may_make_instance(dir) ? -1 : 0;
}

/**
 * capture_setup() - private instance, trace clock, buffers, events, files
 */
int capture_setup(struct capture *c)
{
	if (capture_tracefs_usable())
		return -1;
	c->live = live_reader_new(NULL);
	if (!c->live)
		return fail("cannot create a tracefs instance: %s%s", strerror(errno),
			    refusal_hint(errno, ""));
	c->cpus = live_reader_cpus(c->live);
	c->page_size = live_reader_page_size(c->live);
	if (live_reader_setup(c->live, c->clock, c->buffer_kb)) {
		setup_failed(c);
		goto err;
	}
	if (add_catalogue(c))
		goto err;
	for (unsigned int i = 0; i < c->n_extra; i++)
		if (add_extra(c, c->extra[i]))
			goto err;
	if (open_cpu_files(c))
		goto err;
	return 0;
err:
	capture_teardown(c);
	return -1;
}

int capture_write_all(int fd, const void *data, size_t len)
{
	const char *buf = data;

	while (len) {
		ssize_t n = write(fd, buf, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		if (n == 0) {	/* a regular file that takes nothing is full */
			errno = ENOSPC;
			return -1;
		}
		buf += n;
		len -= n;
	}
	return 0;
}

/**
 * capture_say_write_failed() - the one line for a write next to the trace
 * that failed with @err (a full disk, most often), said once, whichever of
 * the recorder's files it was: what follows from it is no news.
 */
int capture_say_write_failed(struct capture *c, int err)
{
	if (c->write_failure_said)
		return -1;
	c->write_failure_said = 1;
	return fail("%s: %s (%s): recording stopped after %llu KB; writing what was captured",
		    c->path, strerror(err), strerrorname_np(err), capture_kb(c));
}

/*
 * A page write failed: stop taking pages, but keep the whole pages already
 * written, so that the trace can still be written from them
 * (capture_write_trace() makes room for it).
 */
static int write_failed(struct capture *c, int cpu, int err)
{
	c->write_errno = err;
	if (ftruncate(c->tmp_fds[cpu], (off_t)(c->pages[cpu] * c->page_size)))
		return fail("%s: %s (%s); cannot trim a temporary file: %s", c->path,
			    strerror(err), strerrorname_np(err), strerror(errno));
	return capture_say_write_failed(c, err);
}

/**
 * capture_put_page() - append one ring-buffer page to @cpu's temporary file
 *
 * Return: 0, or -1 when the write failed (said; recording stops there).
 */
int capture_put_page(struct capture *c, int cpu, const void *page)
{
	if (capture_write_all(c->tmp_fds[cpu], page, c->page_size))
		return write_failed(c, cpu, errno);
	c->pages[cpu]++;
	return 0;
}

/*
 * @cpu's full pages into its temporary file, at most @cap of them; the
 * kernel moves them (splice), copying each once, as trace-cmd's recorder
 * does, instead of a read into our buffer and a write out of it (the copy
 * saved is about a tenth of what tracing the fence events costs).
 * Return: the pages moved, or -1 when a write failed (said).
 */
static long long splice_pages(struct capture *c, int cpu, unsigned long long cap)
{
	unsigned long long taken = 0;

	while (taken < cap) {
		ssize_t n = live_reader_splice(c->live, cpu, c->tmp_fds[cpu]);

		if (n < 0)
			return write_failed(c, cpu, errno ? errno : EIO);
		if (n == 0)
			break;
		c->pages[cpu] += (unsigned long long)n / c->page_size;
		taken += (unsigned long long)n / c->page_size;
	}
	return (long long)taken;
}

/* All of @cpu's pages, the one being written too, read and written: tracing is off. */
static int read_rest(struct capture *c, int cpu)
{
	while (live_reader_page(c->live, cpu, c->page) > 0)
		if (capture_put_page(c, cpu, c->page))
			return -1;
	return 0;
}

/*
 * Move the full pages the kernel has for us into the temporary files, at
 * most one ring buffer's worth per CPU: a storm that fills pages as fast as
 * they are written would otherwise keep us here, deaf to signals,
 * COMMAND's exit and -d.  Return: 0 when all was taken, 1 when more is
 * waiting, -1 when a write failed (said).
 */
int capture_drain(struct capture *c)
{
	unsigned long long cap = (unsigned long long)c->buffer_kb * 1024 / c->page_size;
	int more = 0;

	if (c->write_errno)
		return -1;
	for (int cpu = 0; cpu < c->cpus; cpu++) {
		long long taken = splice_pages(c, cpu, cap);

		if (taken < 0)
			return -1;
		more |= (unsigned long long)taken >= cap;
	}
	return more;
}

/**
 * capture_drain_rest() - once tracing is off: every page left, the ones
 * not yet full too
 *
 * Return: 0, or -1 when a write failed (said).
 */
int capture_drain_rest(struct capture *c)
{
	while (capture_drain(c) > 0)
		;
	for (int cpu = 0; cpu < c->cpus && !c->write_errno; cpu++)
		if (read_rest(c, cpu))
			return -1;
	return c->write_errno ? -1 : 0;
}

/* The sum of one field ("overrun", "read events", ...) of every CPU's stats. */
unsigned long long capture_stat(struct capture *c, const char *field)
{
	unsigned long long total = 0;

	for (int cpu = 0; cpu < c->cpus; cpu++)
		total += live_reader_stat(c->live, cpu, field);
	return total;
}

/* KB of events in the temporary files. */
unsigned long long capture_kb(const struct capture *c)
{
	unsigned long long pages = 0;

	for (int cpu = 0; cpu < c->cpus; cpu++)
		pages += c->pages[cpu];
	return (pages * c->page_size + c->spilled_bytes) / 1024;
}

/* One status line on a terminal, rewritten in place: never into a pipe. */
void capture_progress(struct capture *c, double seconds)
{
	if (!isatty(STDERR_FILENO))
		return;
	fprintf(stderr, "\r%s: %.0f s, %llu KB, %llu events, %llu lost   ", say_who(), seconds,
		capture_kb(c), capture_stat(c, "read events"), capture_stat(c, "overrun"));
}

/* Leave tracefs as we found it (live_reader_free()), and no file open. */
void capture_teardown(struct capture *c)
{
	for (int cpu = 0; cpu < c->cpus; cpu++)
		if (c->tmp_fds && c->tmp_fds[cpu] > 0)
			close(c->tmp_fds[cpu]);
	if (c->live) {
		char name[128];

		snprintf(name, sizeof(name), "%s", live_reader_name(c->live));
		if (live_reader_free(c->live))
			say("could not remove tracefs instance %s", name);
		c->live = NULL;
	}
	for (unsigned int i = 0; i < c->n_events; i++) {
		free(c->systems[i]);
		free(c->events[i]);
	}
	c->n_events = 0;
	free(c->tmp_fds);
	free(c->pages);
	free(c->page);
	c->tmp_fds = NULL;
	c->pages = NULL;
	c->page = NULL;
}
