/* SPDX-License-Identifier: GPL-2.0 */
/*
 * record-bpf-spill.h - what `fence-trace record --bpf` takes during the
 * capture, kept as it came: appended to a temporary file next to the trace
 * and read back once the capture is over, to be ordered and encoded then
 * (record-bpf-pages.c).
 *
 * Why: encoding a record into a trace.dat page costs several times what
 * taking it off the BPF ring does, and during a fence storm every
 * instruction the recorder spends is one the traced work waits for.  A
 * spilled record costs a copy.  The file is ready no later than before
 * (the trace.dat was always assembled at the end), the capture's memory
 * stays one buffer, and the spill's disk is given back as it is read.
 *
 * The file holds, in the order they happened: BPF records, the series'
 * tracefs events, drop counts, and the marks each drain set (its settle
 * watermark), so that reading it back repeats what encoding during the
 * capture would have done, step by step.
 */
#ifndef FENCE_TRACE_RECORD_BPF_SPILL_H
#define FENCE_TRACE_RECORD_BPF_SPILL_H

#include <stddef.h>
#include <stdint.h>
#include <linux/types.h>

#include "fence-record.h"
#include "record-capture.h"

struct spill;

/* What reading the spill back calls, in the spill's order: 0 or -1 (stop). */
struct spill_reader {
	int (*event)(void *ctx, const struct fr_event *e);
	int (*raw)(void *ctx, int cpu, uint64_t ts, const void *data, size_t size);
	void (*lost)(void *ctx, int cpu, uint64_t count);
	int (*mark)(void *ctx, uint64_t watermark);
};

/* NULL when no temporary file could be made (said). */
struct spill *spill_new(struct capture *c);
void spill_free(struct spill *s);
/*
 * Append: 0, or -1 when a write failed (said once, with
 * capture_say_write_failed(); what was written before stays readable).
 */
int spill_event(struct spill *s, const struct fr_event *e);
int spill_raw(struct spill *s, int cpu, uint64_t ts, const void *data, size_t size);
int spill_lost(struct spill *s, int cpu, uint64_t count);
int spill_mark(struct spill *s, uint64_t watermark);
/* Records appended (events and raw events), whether written yet or not. */
uint64_t spill_records(const struct spill *s);
/* Did a write fail (recording should stop)? */
int spill_failed(const struct spill *s);
/*
 * Everything appended that reached the file, through @r, oldest first;
 * the file's blocks are freed as they are read.  Return: 0, or -1 when a
 * callback stopped it or the file could not be read (said).
 */
int spill_read_back(struct spill *s, const struct spill_reader *r, void *ctx);

#endif
