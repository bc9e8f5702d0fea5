/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tracedat.h - write and read trace-cmd trace.dat files.
 *
 * The writer makes version 6 files that trace-cmd report and KernelShark
 * open.  The reader is our own: it validates every size and offset before
 * use (damaged files give a one-line error, never a crash) and walks the
 * per-CPU ring-buffer pages with libtraceevent's kbuffer, merging CPUs by
 * timestamp, much faster than the record-at-a-time library path.
 */
#ifndef FENCE_TRACE_TRACEDAT_H
#define FENCE_TRACE_TRACEDAT_H

#include <stddef.h>

struct tep_handle;
struct tep_record;

struct tracedat_out {            /* what a recorder captured */
	unsigned int page_size;          /* e.g. 4096 */
	unsigned int cpus;
	const char *header_page, *header_event;   /* text of events/header_page, header_event */
	unsigned int n_formats;
	const char *const *format_systems;   /* per format: its system, e.g. "dma_fence" */
	const char *const *formats;          /* per format: text of events/SYS/EVENT/format */
	const char *kallsyms, *printk_formats, *cmdlines;  /* may be NULL: written as empty */
	const char *trace_clock;         /* contents of the trace_clock file; NULL to omit */
	const char *uname;               /* e.g. "Linux 6.1.192+ ..." ; NULL to omit */
	const char *const *cpu_stats;    /* per CPU: text of per_cpu/cpuN/stats, or NULL array */
	const int *cpu_data_fds;         /* per CPU: fd of that CPU's raw ring-buffer pages */
};
/* Write a trace-cmd v6 trace.dat; returns 0 or -errno with a one-line message in err. */
int tracedat_write(const char *path, const struct tracedat_out *out, char *err, size_t errlen);

struct tracedat;   /* an opened, validated trace.dat */
struct tracedat *tracedat_open(const char *path, char *err, size_t errlen);
void tracedat_close(struct tracedat *td);
struct tep_handle *tracedat_tep(struct tracedat *td);
int tracedat_version(struct tracedat *td);         /* 6 or 7 */
int tracedat_cpus(struct tracedat *td);
const char *tracedat_clock(struct tracedat *td);   /* "mono", "local", ... or NULL */
const char *tracedat_uname(struct tracedat *td);   /* or NULL */
unsigned long long tracedat_cpu_events(struct tracedat *td, int cpu); /* filled after iterate */
typedef int (*tracedat_cb)(struct tep_record *rec, void *ctx);
int tracedat_iterate(struct tracedat *td, tracedat_cb cb, void *ctx);
const char *tracedat_error(struct tracedat *td);

#endif
