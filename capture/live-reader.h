/* SPDX-License-Identifier: GPL-2.0 */
/*
 * live-reader.h - the one way fence-trace reads tracefs live.
 *
 * A private instance (own-instance.c) on the mono clock, which BPF's
 * bpf_ktime_get_ns() and CLOCK_MONOTONIC share (record -C may choose
 * another); its per-CPU trace_pipe_raw
 * files opened once, non-blocking and close-on-exec, and read a whole
 * ring-buffer page at a time.  Two ways to take what they hold:
 *
 * - live_reader_page(): the pages as the kernel wrote them, for `record`,
 *   which copies them into the trace.dat;
 * - live_reader_poll(): the events on them, merged across CPUs by time and
 *   decoded by lib/decode.c over tracepoints/catalogue.h, the decoder the
 *   offline report uses, for the tools that act on events
 *   (`record --bpf`'s series stream, `stall`, the fence names).
 *
 * Set up in this order: live_reader_new(), live_reader_setup(),
 * live_reader_decode() (for polling), the events, live_reader_start().
 */
#ifndef FENCE_TRACE_LIVE_READER_H
#define FENCE_TRACE_LIVE_READER_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "decode.h"

#define LIVE_MAX_EVENTS 128
/*
 * The live readers' trace clock: BPF's bpf_ktime_get_ns() and
 * CLOCK_MONOTONIC keep it, so events read from tracefs line up with the BPF
 * records beside them.  record's default; record -C may choose another.
 */
#define LIVE_READER_CLOCK "mono"

struct live_reader;

/* One decoded event; @ev->data and @ev->size are its record as tracefs wrote it. */
typedef void (*live_event_fn)(void *ctx, const struct ft_event *ev);

struct live_reader *live_reader_new(const char *kind);
int live_reader_setup(struct live_reader *r, const char *clock, unsigned int buffer_kb);
int live_reader_decode(struct live_reader *r, char *why, size_t len);
const struct ft_decoder *live_reader_decoder(const struct live_reader *r);
int live_reader_enable(struct live_reader *r, const char *system, const char *event);
int live_reader_enable_id(struct live_reader *r, enum ft_event_id id);
int live_reader_disable_id(struct live_reader *r, enum ft_event_id id);
int live_reader_filter_id(struct live_reader *r, enum ft_event_id id, const char *filter);
unsigned int live_reader_events(const struct live_reader *r, const char **systems,
				const char **events, unsigned int max);
int live_reader_start(struct live_reader *r, char *why, size_t len);
int live_reader_cpus(const struct live_reader *r);
int live_reader_page_size(const struct live_reader *r);
ssize_t live_reader_page(struct live_reader *r, int cpu, void *page);
ssize_t live_reader_splice(struct live_reader *r, int cpu, int fd);
void live_reader_poll(struct live_reader *r, live_event_fn fn, void *ctx);
char *live_reader_file(struct live_reader *r, const char *name);
int live_reader_mark(struct live_reader *r, const char *text);
uint64_t live_reader_stat(struct live_reader *r, int cpu, const char *field);
const char *live_reader_name(const struct live_reader *r);
void live_reader_off(struct live_reader *r);
int live_reader_free(struct live_reader *r);

#endif
