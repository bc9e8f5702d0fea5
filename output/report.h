/* SPDX-License-Identifier: GPL-2.0 */
/*
 * report.h - the outputs of `fence-trace report`: aligned text tables and
 * the JSON contract (docs/report-json.md), both drawn from the model only.
 */
#ifndef FENCE_TRACE_REPORT_H
#define FENCE_TRACE_REPORT_H

#include <stdio.h>

#include "drm-map.h"
#include "errname.h"
#include "model.h"

enum report_section {
	SEC_TIMELINES = 1 << 0,
	SEC_WAITS = 1 << 1,
	SEC_DISPLAY = 1 << 2,
	SEC_ANOMALIES = 1 << 3,
	SEC_STALLS = 1 << 4,
	SEC_FRAMES = 1 << 5,
	SEC_ALL = 0x3f,
};

struct report_info {		/* about the file, for the heading */
	const char *path;
	int version, cpus;
	const char *clock;		/* NULL: not recorded (trace-cmd's default, local) */
	const char *uname;
	const struct drm_map *drm;	/* FILE.drm, or NULL */
	unsigned long long from_ns, to_ns;	/* --from / --to; 0: not given */
	const char *recorder;		/* the file's VERSION option, or NULL */
};

struct report_opts {
	unsigned int sections;
	const char *timeline;		/* only timelines whose name contains this (and the */
	long long context;		/* waits on, and late frames blocked by, them); -1 all */
	long long crtc;			/* only this CRTC object id; -1 all */
	long long pid;			/* only waits by, and commits of, this task; -1 all */
	int hist;			/* text: log2 histograms of signal latency */
	int by_context;			/* groups' contexts each on a row (--by context) */
};

/* The anomalies section's totals, over every timeline, CRTC and pipe. */
struct report_anomalies {
	uint64_t never_signaled, errors, destroyed_unsignaled, discarded_out_fences;
	uint64_t seqno_regressions, key_reused, vblank_gaps, signal_unknown;
	uint64_t duplicates;
};

int report_section_parse(const char *name, unsigned int *sections);
int report_text(FILE *out, const struct ft_model *m, const struct report_info *info,
		const struct report_opts *o);
int report_csv(FILE *out, const struct ft_model *m, const struct report_info *info,
	       const struct report_opts *o);
int report_timeline_selected(const struct ft_timeline *t, const struct report_opts *o);
int report_wait_selected(const struct ft_model *m, const struct ft_wait_stat *s, int by_task,
			 const struct report_opts *o);
int report_late_selected(const struct ft_model *m, const struct ft_crtc *c,
			 const struct ft_late_frame *l, const struct report_opts *o);
int report_frame_fence_late(const struct ft_late_frame *l);
void report_frame_cause(FILE *out, const struct ft_model *m, const struct ft_late_frame *l);
int report_run_selected(const struct ft_model *m, const struct ft_crtc *c,
			const struct ft_repeat_run *r, const struct report_opts *o);
uint64_t report_late_selected_count(const struct ft_model *m, const struct ft_crtc *c,
				    const struct report_opts *o);
int report_late_filtered(const struct report_opts *o);
int report_json(FILE *out, const struct ft_model *m, const struct report_info *info,
		const struct report_opts *o);
const char *report_task_name(const struct ft_model *m, int pid);
/* The task that held a woken waiter's CPU: "(idle)" for pid 0, its switch's name. */
const char *report_holder_name(const struct ft_model *m, int pid);
/* Does @l's wakeup (sched events) name what held its waiter's CPU? */
int report_holder_known(const struct ft_late_frame *l);
int report_errors_known(const struct ft_model *m);
int report_failed_known(const struct ft_model *m);
int report_failed_selected(const struct ft_model *m, const struct ft_crtc *c,
			   const struct ft_failed_frame *f, const struct report_opts *o);
int report_crtc_selected(const struct ft_crtc *c, const struct report_opts *o);
void report_anomalies_count(const struct ft_model *m, struct report_anomalies *a);
const char *report_dur(char *buf, size_t len, uint64_t ns);
const char *report_pct(char *buf, size_t len, const struct hist *h, double p);
int report_context_selected(const struct ft_model *m, uint32_t ctx, const struct report_opts *o);
int report_row_shown(const struct ft_timeline *t, const struct report_opts *o);
const struct ft_timeline *report_own_row(const struct ft_model *m, uint32_t ctx);
long report_group_rows(const struct ft_model *m, uint32_t g, const struct report_opts *o,
		       uint32_t *idx, unsigned int max);

/* A row of the waited or polled timelines: a context's own, or a group's. */
struct report_wait_row {
	const struct ft_wait_stat *s;	/* the model's (own rows), or &sum (groups) */
	uint32_t ctx;			/* own rows: index in model.fences.contexts, else FT_NONE */
	uint32_t group;			/* groups: index in model.fences.groups, else FT_NONE */
	uint64_t contexts;		/* groups: the contexts summed into it */
	struct ft_wait_stat sum;
};

struct report_wait_rows {
	struct report_wait_row *rows;
	unsigned int n;
};

int report_wait_rows(const struct ft_model *m, const struct ft_wait_stats *stats,
		     const struct report_opts *o, struct report_wait_rows *r);
void report_wait_rows_free(struct report_wait_rows *r);
int report_text_waits(FILE *out, const struct ft_model *m, const struct report_opts *o);

/* The frames section (report-frames-*.c); names in report-common.c. */
const char *report_frame_class_name(enum ft_frame_class cls);
const char *report_repeat_kind_name(enum ft_repeat_kind kind);
void report_frame_classes(FILE *out, unsigned int mask, const char *sep, const char *quote);
const char *report_latch_margin_source(const struct ft_model *m, const struct ft_frame_stats *fs);
int report_frame_past_known(const struct ft_late_frame *l);
const char *report_driver_part_name(const struct ft_late_frame *l);
void report_text_frames(FILE *out, const struct ft_model *m, const struct report_opts *o);
void report_json_blocking(FILE *out, const struct ft_model *m, const struct ft_blocking *b);
void report_json_u64_or_null(FILE *out, int known, uint64_t v);
void report_json_frames(FILE *out, const struct ft_model *m, const struct report_opts *o);
int report_csv_frames(FILE *out, const struct ft_model *m, const struct report_opts *o);

/* --by context: a group's contexts listed at most, slowest p99 first. */
#define REPORT_GROUP_ROWS 10

#endif
