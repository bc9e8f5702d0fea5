/* SPDX-License-Identifier: GPL-2.0 */
/*
 * trace-builder.h - build real trace.dat files from events given one by one:
 * the tests' constructed traces, and `fence-trace record --bpf`, whose
 * events come from a BPF ring buffer rather than tracefs pages.
 *
 * Events are encoded into ring-buffer pages in memory exactly as Linux 6.1
 * writes them (kernel/trace/ring_buffer.c), with the event formats of
 * trace-builder-formats.h: read from a folder of SYSTEM-EVENT.format files
 * plus header_page and header_event (the tests' fixtures), or handed over
 * as texts (record --bpf: the running kernel's, from tracefs); then
 * written out through tracedat_write().
 * Timestamps must not go back on a CPU.
 */
#ifndef FENCE_TRACE_TRACE_BUILDER_H
#define FENCE_TRACE_TRACE_BUILDER_H

#include <stddef.h>
#include <stdint.h>

struct trace_builder;
struct tb_formats;

/* @formats_dir: header_page, header_event and SYSTEM-EVENT.format files. */
struct trace_builder *tb_new(unsigned int cpus, const char *formats_dir);
/* @formats: taken over, emptied (and freed on failure). */
struct trace_builder *tb_new_formats(unsigned int cpus, struct tb_formats *formats);
void tb_free(struct trace_builder *tb);
const char *tb_error(struct trace_builder *tb);

/* Options written by tb_write(); the strings are not copied. NULL omits. */
void tb_set_options(struct trace_builder *tb, const char *trace_clock, const char *uname,
		    const char *cmdlines);
/* The VERSION option: the recording tool, e.g. "fence-trace 0.2.0"; not copied. */
void tb_set_recorder(struct trace_builder *tb, const char *recorder);
void tb_set_symbols(struct trace_builder *tb, const char *kallsyms, const char *printk_formats);
void tb_set_cpu_stats(struct trace_builder *tb, const char *const *stats);	/* per CPU */
void tb_set_pid(struct trace_builder *tb, int pid);	/* common_pid of later events */

int tb_event_id(struct trace_builder *tb, const char *name);	/* -1 if unknown */

/* Append an event; @payload is what follows the 8-byte common fields. */
int tb_add(struct trace_builder *tb, unsigned int cpu, uint64_t ts, int id,
	   const void *payload, size_t len);
/* The next event on @cpu starts a page flagged with @count lost events (-1: count not stored). */
int tb_missed(struct trace_builder *tb, unsigned int cpu, long long count);

/* The next event on @cpu carries a time extend even if its delta fits (RB_ADD_STAMP_FORCE). */
int tb_force_extend(struct trace_builder *tb, unsigned int cpu);

/* dma_fence_{init,signaled,destroy,wait_start,wait_end,emit,enable_signal} */
int tb_fence(struct trace_builder *tb, unsigned int cpu, uint64_t ts, const char *event,
	     const char *driver, const char *timeline, uint32_t context, uint32_t seqno);
int tb_fence_id(struct trace_builder *tb, unsigned int cpu, uint64_t ts, int id,
		const char *driver, const char *timeline, uint32_t context, uint32_t seqno);
/* ... with the fence's identity, where the event's format has a "fence" field (the series) */
int tb_fence_with_id(struct trace_builder *tb, unsigned int cpu, uint64_t ts, const char *event,
		     const char *driver, const char *timeline, uint32_t context, uint32_t seqno,
		     uint64_t fence);
int tb_vblank(struct trace_builder *tb, unsigned int cpu, uint64_t ts, int crtc,
	      uint32_t seq, int64_t time, int high_prec);
int tb_vblank_delivered(struct trace_builder *tb, unsigned int cpu, uint64_t ts,
			uint64_t file, int crtc, uint32_t seq);

/* The raw pages so far, for tests that damage them. */
size_t tb_pages(struct trace_builder *tb, unsigned int cpu);
unsigned char *tb_page(struct trace_builder *tb, unsigned int cpu, size_t page);

/*
 * Streaming (record --bpf): each page, once the next one starts on its CPU,
 * goes to @sink (0 or -errno) and leaves memory; tb_flush_pages() sends the
 * open ones at the end.  The caller then writes the trace.dat from what its
 * sink kept; tb_write() only has the pages not yet sent.
 */
typedef int (*tb_page_sink)(void *ctx, unsigned int cpu, const unsigned char *page, size_t size);
void tb_set_page_sink(struct trace_builder *tb, tb_page_sink sink, void *ctx);
int tb_flush_pages(struct trace_builder *tb);

/* Write the trace.dat; 0 or -errno with a message in tb_error(). */
int tb_write(struct trace_builder *tb, const char *path);

#endif
