// SPDX-License-Identifier: GPL-2.0
/*
 * tracedat-write.c - write a trace-cmd v6 trace.dat from captured pages.
 *
 * Layout (man 5 trace-cmd.dat.v6), all numbers in host byte order:
 *
 *   magic "\x17\x08\x44" "tracing" "6\0", endian, sizeof(long), page size
 *   "header_page\0" u64 size text, "header_event\0" u64 size text
 *   u32 0 ftrace formats
 *   u32 systems, per system: name\0, u32 count, per event: u64 size text
 *   u32 size kallsyms, u32 size printk_formats, u64 size saved_cmdlines
 *   u32 cpus, "options  \0", options (u16 id, u32 size, data), u16 0
 *   "flyrecord\0", per CPU: u64 offset, u64 size
 *   with a TRACECLOCK option: u64 size, "[clock]" (trace-cmd's save_clock)
 *   CPU data, page aligned
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tracedat.h"
#include "tracedat-priv.h"	/* trace-cmd's option ids, one list for both sides */

#define WBUF_SIZE (64 * 1024)

/* A buffered writer that remembers its first error. */
struct wbuf {
	int fd;
	int err;			/* first error, -errno; 0 while all is well */
	unsigned long long off;		/* file offset of buf[0] + len */
	size_t len;
	unsigned char buf[WBUF_SIZE];
};

static int write_all(int fd, const void *p, size_t n)
{
	const unsigned char *c = p;

	while (n) {
		ssize_t w = write(fd, c, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0)
			return -errno;
		if (w == 0)	/* a regular file takes no more: the disk is full */
			return -ENOSPC;
		c += w;
		n -= (size_t)w;
	}
	return 0;
}

static void wb_flush(struct wbuf *w)
{
	if (!w->err && w->len)
		w->err = write_all(w->fd, w->buf, w->len);
	w->len = 0;
}

static void wb_put(struct wbuf *w, const void *p, size_t n)
{
	if (w->err || !n)	/* an empty section may come as NULL */
		return;
	w->off += n;
	if (n > WBUF_SIZE - w->len) {
		wb_flush(w);
		if (n >= WBUF_SIZE) {
			if (!w->err)
				w->err = write_all(w->fd, p, n);
			return;
		}
	}
	memcpy(w->buf + w->len, p, n);
	w->len += n;
}

static void wb_u16(struct wbuf *w, uint16_t v) { wb_put(w, &v, sizeof(v)); }
static void wb_u32(struct wbuf *w, uint32_t v) { wb_put(w, &v, sizeof(v)); }
static void wb_u64(struct wbuf *w, uint64_t v) { wb_put(w, &v, sizeof(v)); }
static void wb_str(struct wbuf *w, const char *s) { wb_put(w, s, strlen(s) + 1); }

static void wb_zeros(struct wbuf *w, size_t n)
{
	static const unsigned char zero[256];

	while (n) {
		size_t k = n < sizeof(zero) ? n : sizeof(zero);

		wb_put(w, zero, k);
		n -= k;
	}
}

static void write_initial(struct wbuf *w, const struct tracedat_out *out)
{
	static const char magic[] = { 0x17, 0x08, 0x44, 't', 'r', 'a', 'c', 'i', 'n', 'g' };
	unsigned char endian = __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__;
	unsigned char lsize = sizeof(long);

	wb_put(w, magic, sizeof(magic));
	wb_str(w, "6");
	wb_put(w, &endian, 1);
	wb_put(w, &lsize, 1);
	wb_u32(w, out->page_size);
	wb_str(w, "header_page");
	wb_u64(w, strlen(out->header_page));
	wb_put(w, out->header_page, strlen(out->header_page));
	wb_str(w, "header_event");
	wb_u64(w, strlen(out->header_event));
	wb_put(w, out->header_event, strlen(out->header_event));
	wb_u32(w, 0);	/* no ftrace (plugin) event formats */
}

static int first_of_system(const struct tracedat_out *out, unsigned int i)
{
	unsigned int j;

	for (j = 0; j < i; j++)
		if (!strcmp(out->format_systems[j], out->format_systems[i]))
			return 0;
	return 1;
}

/* Event systems in the order they first appear in out->format_systems. */
static void write_event_formats(struct wbuf *w, const struct tracedat_out *out)
{
	unsigned int i, j, nsys = 0, count;

	for (i = 0; i < out->n_formats; i++)
		nsys += first_of_system(out, i);
	wb_u32(w, nsys);
	for (i = 0; i < out->n_formats; i++) {
		const char *sys = out->format_systems[i];

		if (!first_of_system(out, i))
			continue;
		for (count = 0, j = i; j < out->n_formats; j++)
			count += !strcmp(out->format_systems[j], sys);
		wb_str(w, sys);
		wb_u32(w, count);
		for (j = i; j < out->n_formats; j++) {
			if (strcmp(out->format_systems[j], sys))
				continue;
			wb_u64(w, strlen(out->formats[j]));
			wb_put(w, out->formats[j], strlen(out->formats[j]));
		}
	}
}

static void write_text32(struct wbuf *w, const char *s)
{
	size_t n = s ? strlen(s) : 0;

	wb_u32(w, (uint32_t)n);
	wb_put(w, s, n);
}

static void write_option(struct wbuf *w, uint16_t id, const char *text)
{
	wb_u16(w, id);
	wb_u32(w, (uint32_t)(strlen(text) + 1));
	wb_str(w, text);
}

static void write_options(struct wbuf *w, const struct tracedat_out *out)
{
	unsigned int cpu;

	wb_put(w, "options  ", 10);
	if (out->trace_clock)
		write_option(w, OPT_TRACECLOCK, out->trace_clock);
	if (out->uname)
		write_option(w, OPT_UNAME, out->uname);
	if (out->recorder)
		write_option(w, OPT_VERSION, out->recorder);
	for (cpu = 0; out->cpu_stats && cpu < out->cpus; cpu++)
		if (out->cpu_stats[cpu])
			write_option(w, OPT_CPUSTAT, out->cpu_stats[cpu]);
	wb_u16(w, OPT_DONE);
}

/*
 * "[mono]" from "local global [mono] ...", or "[WORD]" from a text without
 * brackets.  A v6 reader takes the clock from this copy after the flyrecord
 * table; the TRACECLOCK option only says that it is there.
 */
static void selected_clock(const char *text, char *clock, size_t len)
{
	const char *open = text ? strchr(text, '[') : NULL;
	size_t n;

	if (!text) {
		clock[0] = '\0';
		return;
	}
	if (open) {
		n = strcspn(open, "]");
		snprintf(clock, len, "%.*s]", (int)n, open);
	} else {
		n = strcspn(text, " \n");
		snprintf(clock, len, "[%.*s]", (int)n, text);
	}
}

/*
 * Give the space of a copied chunk back.  Best effort: a file system that
 * cannot punch holes keeps it until the caller closes the temporary.
 */
static void release_chunk(int fd, unsigned long long off, size_t len)
{
	fallocate(fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, (off_t)off, (off_t)len);
}

/* Copy @size bytes of @fd from offset 0. */
static int copy_cpu_data(struct wbuf *w, int fd, unsigned long long size, int release)
{
	unsigned long long done = 0;

	wb_flush(w);
	while (!w->err && done < size) {
		size_t want = size - done < WBUF_SIZE ? size - done : WBUF_SIZE;
		ssize_t r = pread(fd, w->buf, want, (off_t)done);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return r < 0 ? -errno : -ENODATA;
		w->err = write_all(w->fd, w->buf, (size_t)r);
		if (release && !w->err)
			release_chunk(fd, done, (size_t)r);
		done += (unsigned long long)r;
		w->off += (unsigned long long)r;
	}
	return 0;
}

static int check_description(const struct tracedat_out *out, char *err, size_t errlen)
{
	const char *what = NULL;

	if (out->page_size < 64 || out->page_size & (out->page_size - 1))
		what = "page size is not a power of two of at least 64";
	else if (!out->cpus || !out->cpu_data_fds)
		what = "no CPUs or no CPU data";
	else if (!out->header_page || !out->header_event)
		what = "header_page or header_event text missing";
	else if (out->n_formats && (!out->formats || !out->format_systems))
		what = "formats or their systems missing";
	if (what)
		snprintf(err, errlen, "tracedat_write: %s", what);
	return what ? -EINVAL : 0;
}

static int check_out(const struct tracedat_out *out, unsigned long long *sizes,
		     char *err, size_t errlen)
{
	unsigned int cpu;
	struct stat st;

	if (check_description(out, err, errlen))
		return -EINVAL;
	for (cpu = 0; cpu < out->cpus; cpu++) {
		if (fstat(out->cpu_data_fds[cpu], &st)) {
			snprintf(err, errlen, "cpu%u data: %s", cpu, strerror(errno));
			return -errno;
		}
		if ((unsigned long long)st.st_size % out->page_size) {
			snprintf(err, errlen, "cpu%u data: %lld bytes, not a whole number of %u-byte pages",
				 cpu, (long long)st.st_size, out->page_size);
			return -EINVAL;
		}
		sizes[cpu] = (unsigned long long)st.st_size;
	}
	return 0;
}

static int write_file(struct wbuf *w, const struct tracedat_out *out,
		      const unsigned long long *sizes, char *err, size_t errlen)
{
	unsigned long long data;
	unsigned int cpu;
	char clock[64];
	int ret;

	write_initial(w, out);
	write_event_formats(w, out);
	write_text32(w, out->kallsyms);
	write_text32(w, out->printk_formats);
	wb_u64(w, out->cmdlines ? strlen(out->cmdlines) : 0);
	wb_put(w, out->cmdlines, out->cmdlines ? strlen(out->cmdlines) : 0);
	wb_u32(w, out->cpus);
	write_options(w, out);
	wb_put(w, "flyrecord", 10);
	selected_clock(out->trace_clock, clock, sizeof(clock));
	data = w->off + 16ull * out->cpus + (out->trace_clock ? 8 + strlen(clock) : 0);
	data = (data + out->page_size - 1) / out->page_size * out->page_size;
	for (cpu = 0; cpu < out->cpus; cpu++) {
		wb_u64(w, sizes[cpu] ? data : 0);
		wb_u64(w, sizes[cpu]);
		data += sizes[cpu];
	}
	if (out->trace_clock) {
		wb_u64(w, strlen(clock));
		wb_put(w, clock, strlen(clock));
	}
	wb_zeros(w, (out->page_size - w->off % out->page_size) % out->page_size);
	for (cpu = 0; cpu < out->cpus && !w->err; cpu++) {
		ret = copy_cpu_data(w, out->cpu_data_fds[cpu], sizes[cpu], out->release_cpu_data);
		if (ret) {
			snprintf(err, errlen, "cpu%u data: %s", cpu,
				 ret == -ENODATA ? "shorter than when the write began" : strerror(-ret));
			return ret;
		}
	}
	wb_flush(w);
	return 0;
}

/* Create @path and write it; on failure remove it if it is a regular file. */
static int create_and_write(struct wbuf *w, const char *path, const struct tracedat_out *out,
			    const unsigned long long *sizes, char *err, size_t errlen)
{
	struct stat st;
	int ret, regular;

	w->err = 0;
	w->off = 0;
	w->len = 0;
	w->fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (w->fd < 0) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -errno;
	}
	/* never unlink a device or fifo the caller named */
	regular = !fstat(w->fd, &st) && S_ISREG(st.st_mode);
	ret = write_file(w, out, sizes, err, errlen);
	if (!ret && !w->err && close(w->fd))
		w->err = -errno;
	else if (ret || w->err)
		close(w->fd);
	if (!ret && w->err) {
		ret = w->err;
		snprintf(err, errlen, "%s: write failed: %s%s", path,
			 ret == -ENOSPC ? "no space left on device" : strerror(-ret),
			 regular ? " (partial file removed)" : "");
	}
	if (ret && regular)
		unlink(path);
	return ret;
}

/**
 * tracedat_write() - write a trace-cmd v6 trace.dat file
 * @path: the file to create (replaced if it exists)
 * @out: what the recorder captured; see struct tracedat_out
 * @err: gets a one-line message on failure
 * @errlen: size of @err
 *
 * Event formats are grouped into systems in the order their system first
 * appears in @out->format_systems.  Options written: TRACECLOCK, UNAME, VERSION and
 * one CPUSTAT per CPU, each when given.  Each CPU's data is copied from its
 * fd, from offset 0 to its size at the time of the call, page aligned;
 * with @out->release_cpu_data each copied chunk is punched out of its fd.
 * On any failure after @path was created (including a short write or a
 * full disk) the partially written file is removed, when it is a regular
 * file.
 *
 * Return: 0, or -errno with a message in @err.
 */
int tracedat_write(const char *path, const struct tracedat_out *out, char *err, size_t errlen)
{
	unsigned long long *sizes = calloc(out->cpus ? out->cpus : 1, sizeof(*sizes));
	struct wbuf *w = malloc(sizeof(*w));
	int ret = -ENOMEM;

	if (!sizes || !w)
		snprintf(err, errlen, "%s: out of memory", path);
	else
		ret = check_out(out, sizes, err, errlen);
	if (!ret)
		ret = create_and_write(w, path, out, sizes, err, errlen);
	free(w);
	free(sizes);
	return ret;
}
