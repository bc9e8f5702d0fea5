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
	uint32_t lane;		/* waits: index in tl_data.tasks; plane waits: in .planes */
	uint32_t link;		/* waits: fences index of the out-fence of the commit the
				 * model says it held up; plane waits: commits index;
				 * UINT32_MAX none */
	int32_t pid;		/* fences: the creating task; waits: the waiting one */
	uint16_t row;		/* sub-row within its lane: rows never overlap */
	uint8_t done;		/* signalled / wait ended */
	uint8_t failed;		/* plane waits: ended with an error (interrupted) */
	uint8_t duplicate;	/* fences: sw_sync's duplicate, dropped by tl_finish() */
};

/*
 * The bits of the page's commits.flags column.  The page reads them from
 * the data (commits.flag_bits), not from a copy of these numbers.
 */
enum tl_commit_flag {
	TL_COMMIT_FLIPPED = 1,		/* series: drm_fence_flip_done; stock: out-fence signalled */
	TL_COMMIT_FAILED = 2,
	TL_COMMIT_INFERRED = 4,		/* stock kernel: the out-fence's span stands for it */
};

/*
 * An atomic commit, ioctl -> flip done.  With the kernel series: from
 * drm_fence_commit (or its out-fence's creation, which comes first) to
 * drm_fence_flip_done.  On a stock kernel the model has no commits:
 * each out-fence is one (the ioctl creates it, the flip signals it), so
 * the span is the out-fence's and inferred is set.
 */
struct tl_commit {
	uint64_t t0, t1;
	uint64_t id;		/* series commit id; 0 when inferred */
	uint32_t crtc_id;	/* DRM object id (series), 0 unknown */
	int32_t crtc;		/* model CRTC index, -1 none (set by tl_finish()) */
	uint32_t out;		/* fences index of its out-fence, UINT32_MAX none */
	uint32_t out_timeline, out_seqno;	/* ... and its key, resolved at the end */
	uint32_t vblank;	/* series: the vblank sequence it flipped on */
	int32_t pid;
	uint16_t row;
	uint8_t done;		/* flipped, failed or cleaned up */
	uint8_t flipped, failed, inferred, has_out;	/* the first three: enum tl_commit_flag */
};

struct tl_plane {		/* a plane that waited for an in-fence (series) */
	uint32_t id, crtc_id;
	unsigned int rows;
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

/*
 * A frame that landed on a CRTC, as the model's frame timeline judged it:
 * the page's expected and actual rows and Perfetto's tracks of those names
 * (expected: commit -> target vblank; actual: commit -> the vblank it
 * landed on).
 */
struct tl_frame {
	uint64_t submit, target_ns, landed_ns;	/* target_ns 0: not judged */
	uint32_t crtc;		/* model CRTC index */
	uint32_t out_seqno, target_seq, landed_seq;
	int32_t late;		/* its index in the CRTC's late frames, -1 none */
	uint8_t outcome;	/* enum ft_landed_outcome */
	uint8_t cls;		/* enum ft_frame_class when it landed (late < 0) */
	uint8_t target_estimated;
	uint16_t row;		/* sub-row: queued commits overlap the frame before */
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
	struct tl_array commits, plane_waits, planes;
	struct tl_array frames;		/* of struct tl_frame, in landing order */
	uint64_t frames_seen;		/* of the model's landed frames */
	unsigned int *frame_rows;	/* per model CRTC: frame rows used */
	struct keymap vblank_of;	/* pipe << 32 | seq -> vblanks index, by tl_finish() */
	struct keymap open_fence;	/* the model's fence slot -> fence index */
	struct keymap fence_index;	/* (timeline, seqno) -> fence index, by tl_finish() */
	struct keymap open_commit;	/* series commit id -> commits index */
	struct keymap commit_of_out;	/* out-fence index -> commits index, by tl_finish() */
	struct { int pid; uint32_t span; } open_wait[TL_MAX_OPEN_WAITS];
	unsigned int n_open_wait;
	struct { uint64_t commit; uint32_t plane, span; } open_plane_wait[TL_MAX_OPEN_WAITS];
	unsigned int n_open_plane_wait;
	int series;			/* the trace has the series' commit events */
	unsigned int *timeline_rows;	/* per model timeline: rows used */
	unsigned int *crtc_rows;	/* per model CRTC: commit rows used */
	const struct ft_model *model;	/* set by tl_finish() */
	uint64_t first_ts, last_ts;
	int error;
};

#define TL_AT(arr, type, i) (&((type *)(arr).v)[i])

void *tl_push(struct tl_data *d, struct tl_array *a);
uint32_t tl_timeline_of(const struct ft_model *m, uint64_t context);
/* Where an item of some tl_array lies: its times, its lane, its row field. */
struct tl_extent {
	uint64_t t0, t1;
	unsigned int lane;
	uint16_t *row;
};
typedef struct tl_extent (*tl_extent_of)(void *item);
int tl_assign_rows(struct tl_array *a, tl_extent_of extent, unsigned int lanes,
		   unsigned int *rows_used);
/* timeline-commit.c: commits and plane waits */
void tl_commit_event(struct tl_data *d, const struct ft_event *ev, const struct ft_model *m);
int tl_commits_finish(struct tl_data *d, const struct ft_model *m);
void tl_commits_free(struct tl_data *d);

/* timeline-frames.c: the frames the model judged, the repeats' times */
void tl_frames_pull(struct tl_data *d, const struct ft_model *m);
int tl_frames_finish(struct tl_data *d, const struct ft_model *m);
enum ft_frame_class tl_frame_class(const struct tl_data *d, const struct tl_frame *f);
uint64_t tl_vblank_time(const struct tl_data *d, int pipe, uint32_t seq);

int tl_collect(struct tl_data *d, struct analysis *a, const char *path, char *err, size_t errlen);
void tl_init(struct tl_data *d);
void tl_on_event(const struct ft_event *ev, const struct ft_model *m, void *ctx);
int tl_finish(struct tl_data *d, const struct ft_model *m);
void tl_free(struct tl_data *d);
/* The fence index of (timeline, seqno), or -1: for late frames' links. */
long tl_find_fence(const struct tl_data *d, uint32_t timeline, uint32_t seqno);

/* timeline-json.c's columns, and timeline-json-frames.c's part of the page's data */
typedef int64_t (*tl_column_get)(const void *item);
void tl_json_column(FILE *out, const char *name, const struct tl_array *a, tl_column_get get,
		    int first, int delta, int64_t base);
int64_t tl_since_start(const struct tl_data *d, uint64_t ts);
void tl_write_frames_data(FILE *out, const struct tl_data *d);
void tl_json_cause(FILE *out, const struct ft_model *m, const struct ft_late_frame *l);

/* Outputs: 0, or -1 when writing failed. */
struct tl_source {
	const char *path, *clock;
};
int tl_write_data(FILE *out, const struct tl_data *d, const struct tl_source *src);
int tl_write_html(FILE *out, const struct tl_data *d, const struct tl_source *src);
int tl_write_perfetto(FILE *out, const struct tl_data *d, const struct tl_source *src);

typedef int (*tl_writer)(FILE *out, const struct tl_data *d, const struct tl_source *src);

#endif
