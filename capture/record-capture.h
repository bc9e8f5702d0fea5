/* SPDX-License-Identifier: GPL-2.0 */
/*
 * record-capture.h - the tracefs side of `fence-trace record`: a private
 * instance with the catalogue's events, per-CPU raw pages drained into
 * temporary files, and the trace.dat written from them at the end.
 */
#ifndef FENCE_TRACE_RECORD_CAPTURE_H
#define FENCE_TRACE_RECORD_CAPTURE_H

#include "capture-marker.h"

#define CAPTURE_MAX_EXTRA 32
#define CAPTURE_MAX_EVENTS 128

struct live_reader;
struct bpfrec;

struct capture {
	/* options */
	const char *path;
	const char *extra[CAPTURE_MAX_EXTRA];
	unsigned int n_extra;
	int sched;			/* --sched: sched_wakeup and sched_switch among extra */
	unsigned int buffer_kb, duration_s;
	int buffer_given;		/* -b: with --bpf, the ring's size */
	char **command;
	int use_bpf;			/* --bpf: the BPF recorder (record-bpf.c) */
	int raw_tp;			/* --raw-tp: its raw_tp programs, not tp_btf */
	const char *clock;		/* -C: the trace clock (default mono) */
	struct capture_label labels[CAPTURE_MAX_LABELS];	/* --label KEY=VALUE */
	unsigned int n_labels;
	struct bpfrec *bpf;
	/* state */
	struct live_reader *live;	/* the instance, read by live-reader.c; NULL with --bpf */
	char *systems[CAPTURE_MAX_EVENTS], *events[CAPTURE_MAX_EVENTS];
	unsigned int n_events;
	int cpus, page_size;
	int *tmp_fds;
	unsigned long long *pages;	/* per CPU: whole pages in its temporary file */
	char *page;
	int write_errno;		/* a page write next to the trace failed: stopped */
	int write_failure_said;		/* capture_say_write_failed(): once */
	unsigned long long spilled_bytes;	/* record --bpf's spill file (record-bpf-spill.c) */
	unsigned long long dropped_pages;	/* given up to make room for the trace */
};

/* What the trace.dat holds besides the pages (record-finish.c). */
struct capture_meta {
	char *header_page, *header_event, *cmdlines, *clock;
	char **formats, **stats;	/* per c->events[i]; per CPU */
	char uname[512];
};

int capture_tracefs_usable(void);
int capture_setup(struct capture *c);
/* record's "fence-trace-capture:" line (capture-mark.c): text, and into the instance. */
int capture_marker_text(const struct capture *c, char *buf, size_t len);
int capture_mark(struct capture *c);
int capture_open_tmp(struct capture *c, const char *what);
int capture_open_tmp_files(struct capture *c);
int capture_write_all(int fd, const void *data, size_t len);
int capture_say_write_failed(struct capture *c, int err);
int capture_put_page(struct capture *c, int cpu, const void *page);
int capture_gather(struct capture *c, struct capture_meta *md);
int capture_write_trace(struct capture *c, struct capture_meta *md);
void capture_meta_free(struct capture *c, struct capture_meta *md);
int capture_drain(struct capture *c);
int capture_drain_rest(struct capture *c);
int capture_finish(struct capture *c);
void capture_teardown(struct capture *c);
unsigned long long capture_stat(struct capture *c, const char *field);
unsigned long long capture_kb(const struct capture *c);
void capture_progress(struct capture *c, double seconds);

#endif
