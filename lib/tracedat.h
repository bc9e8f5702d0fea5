/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tracedat.h - write and read trace-cmd trace.dat files.
 *
 * The writer (tracedat-write.c) turns what a recorder captured - event
 * formats and raw per-CPU ring-buffer pages - into a trace-cmd v6 file that
 * `trace-cmd report` reads.  The reader (tracedat-read.c) is a small, fast
 * parser of v6 and v7 files (plain, zstd or zlib) that hands every event, merged in
 * timestamp order, to a callback as a libtraceevent record.  Every size and
 * offset it reads is checked against the file, so a damaged file gives a
 * one-line error, never a crash.
 */
#ifndef FENCE_TRACE_TRACEDAT_H
#define FENCE_TRACE_TRACEDAT_H

#include <stddef.h>

struct tep_handle; struct tep_record;
struct tracedat_out {            /* what a recorder captured */
	unsigned int page_size;          /* e.g. 4096 */
	unsigned int cpus;
	const char *header_page, *header_event;   /* text of events/header_page, header_event */
	unsigned int n_formats;
	const char *const *format_systems;   /* per format: its system, e.g. "dma_fence" */
	const char *const *formats;          /* per format: text of events/SYS/EVENT/format */
	const char *kallsyms, *printk_formats, *cmdlines;  /* may be NULL: written as empty */
	const char *trace_clock;         /* contents of the trace_clock file, e.g. "local global [mono] ..." ; NULL to omit */
	const char *uname;               /* e.g. "Linux 6.1.192+ ..." ; NULL to omit */
	const char *recorder;            /* the VERSION option, e.g. "fence-trace 0.2.0"; NULL to omit */
	const char *const *cpu_stats;    /* per CPU: text of per_cpu/cpuN/stats, or NULL array */
	const int *cpu_data_fds;         /* per CPU: fd of a file holding that CPU's raw ring-buffer pages, read from offset 0 to EOF (a whole number of pages) */
	int release_cpu_data;            /* the fds are temporaries: free each chunk once copied (hole punched), so the copy needs little more room than the trace */
};
/* Write a trace-cmd v6 trace.dat; returns 0 or -errno with a one-line message in err. */
int tracedat_write(const char *path, const struct tracedat_out *out, char *err, size_t errlen);

struct tracedat;   /* an opened, validated trace.dat */
/* NULL with errno ENOTSUP: a valid file this reader does not handle (another
 * compression than zstd and zlib, a flyrecord chunk above 1 MiB). */
struct tracedat *tracedat_open(const char *path, char *err, size_t errlen);
void tracedat_close(struct tracedat *td);
struct tep_handle *tracedat_tep(struct tracedat *td);
int tracedat_version(struct tracedat *td);         /* 6 or 7 */
int tracedat_cpus(struct tracedat *td);
const char *tracedat_clock(struct tracedat *td);   /* selected clock from the TRACECLOCK option ("mono", "local", ...) or NULL if absent */
const char *tracedat_uname(struct tracedat *td);   /* or NULL */
const char *tracedat_recorder(struct tracedat *td);  /* the VERSION option ("3.1.6 ..." from trace-cmd) or NULL */
long long tracedat_overrun(struct tracedat *td);   /* lost per CPUSTAT, -1 if none */
unsigned long long tracedat_missing(struct tracedat *td); /* taken per CPUSTAT, not in the file */
/* Only the recorder's stats (CPUSTAT, CPUCOUNT) of a file tracedat_open() refused with ENOTSUP:
 * trace-cmd compresses a v7 file's sections and data, not its options.  Not for iterate. */
struct tracedat *tracedat_open_stats(const char *path, char *err, size_t errlen);
/* tracedat_missing() for events another reader delivered: @events[cpu] for cpu < @cpus. */
unsigned long long tracedat_missing_of(struct tracedat *td, const unsigned long long *events, int cpus);
unsigned long long tracedat_cpu_events(struct tracedat *td, int cpu); /* filled after iterate */
/* Call cb for every event of every CPU, merged in timestamp order (ties: lower CPU first).
 * rec->ts, rec->cpu, rec->data, rec->size are valid during the call only; rec->missed_events
 * is set (as kbuffer reports, -1 when unknown count) on the first record after a gap.
 * Return 0 at the end, the first non-zero value cb returned, or -EINVAL with a one-line message
 * in td's error (tracedat_error(td)) when a page is damaged — events before it were delivered. */
typedef int (*tracedat_cb)(struct tep_record *rec, void *ctx);
int tracedat_iterate(struct tracedat *td, tracedat_cb cb, void *ctx);
int tracedat_walk(struct tracedat *td);
const char *tracedat_error(struct tracedat *td);

/*
 * Additions to the shared API.
 *
 * Records are checked to be at least as long as the fixed fields of their
 * event's format, so tep_read_number_field() on a fixed field stays inside
 * the record.  __data_loc fields point anywhere: check them with
 * tracedat_data_loc() before use.
 */
struct tep_format_field;
const char *tracedat_data_loc(struct tep_handle *tep, struct tep_record *rec,
			      struct tep_format_field *field, unsigned int *len);

#endif
