/* SPDX-License-Identifier: GPL-2.0 */
/*
 * timeline.h - what the timeline page and the Perfetto export draw: flat
 * arrays of spans and ticks, collected from the decoded events in the same
 * pass that builds the model (hooked on analysis_window.on_event), plus
 * the late frames the model found, attached at the end.  Outputs read
 * these arrays and the model only; they never see a trace record.
 *
 * Times are trace nanoseconds.  A span that never ended has done == 0 and
 * t1 == the trace's last timestamp, so it can still be drawn.
 */
#ifndef FENCE_TRACE_TIMELINE_H
#define FENCE_TRACE_TIMELINE_H

#include <stdint.h>
#include <stdio.h>

#include "analyze.h"
#include "keymap.h"

#define TL_MAX_ROWS 8		/* sub-rows per lane for overlapping spans */
#define TL_MAX_OPEN_WAITS 256

struct tl_span {		/* a fence (init -> signal) or a wait (start -> end) */
	uint64_t t0, t1;
	uint32_t timeline;	/* model timeline index of the fence */
	uint32_t seqno;
	uint32_t task;		/* waits: index in tl_data.tasks */
	uint16_t row;		/* sub-row within its lane: rows never overlap */
	uint8_t done;		/* signalled / wait ended */
};

struct tl_vblank {
	uint64_t ts;
	uint32_t seq;
	int pipe;
};

struct tl_missed {		/* a jump in a pipe's vblank sequence */
	uint64_t ts;
	int pipe;
	uint32_t from, to;
};

struct tl_task {
	int pid;
	unsigned int rows;
};

struct tl_array {
	void *v;
	size_t n, cap, size;
};

struct tl_data {
	struct tl_array fences, waits, vblanks, missed, tasks;	/* of the structs above */
	struct keymap open_fence;	/* (context, seqno) -> fence index */
	struct keymap fence_index;	/* (timeline, seqno) -> fence index, by tl_finish() */
	struct { int pid; uint32_t span; } open_wait[TL_MAX_OPEN_WAITS];
	unsigned int n_open_wait;
	unsigned int *timeline_rows;	/* per model timeline: rows used */
	const struct ft_model *model;	/* set by tl_finish() */
	uint64_t first_ts, last_ts;
	int error;
};

#define TL_AT(arr, type, i) (&((type *)(arr).v)[i])

int tl_collect(struct tl_data *d, struct analysis *a, const char *path, char *err, size_t errlen);
void tl_init(struct tl_data *d);
void tl_on_event(const struct ft_event *ev, const struct ft_model *m, void *ctx);
int tl_finish(struct tl_data *d, const struct ft_model *m);
void tl_free(struct tl_data *d);
/* The fence index of (timeline, seqno), or -1: for late frames' links. */
long tl_find_fence(const struct tl_data *d, uint32_t timeline, uint32_t seqno);

/* Outputs: 0, or -1 when writing failed. */
struct tl_source {
	const char *path, *clock;
};
int tl_write_data(FILE *out, const struct tl_data *d, const struct tl_source *src);
int tl_write_html(FILE *out, const struct tl_data *d, const struct tl_source *src);
int tl_write_perfetto(FILE *out, const struct tl_data *d, const struct tl_source *src);

typedef int (*tl_writer)(FILE *out, const struct tl_data *d, const struct tl_source *src);
int tl_render(const char *cmd, const char *path, const char *out_path, tl_writer write,
	      struct tl_data *d);

#endif
