/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tables.h - `fence-trace export --tables DIR`: a capture as rows of the
 * fleet tables (docs/tables.md), newline-delimited JSON laid out the Hive
 * way, DIR/TABLE/kernel=K/host=H/run=R/part.ndjson, so that DuckDB, Spark
 * or ClickHouse read a folder of many captures as one table per name.
 *
 * Every figure is the model's, through the same functions `report --json`
 * uses; the rows are one capture's, and a capture exported again replaces
 * its own rows only.
 */
#ifndef FENCE_TRACE_TABLES_H
#define FENCE_TRACE_TABLES_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "capture-marker.h"
#include "keymap.h"
#include "vec.h"
#include "model.h"
#include "report.h"

#define TABLES_SCHEMA_VERSION 1

/* One frame that landed, as the model said when it did (model_landed()). */
struct tables_frame {
	uint64_t submit_ns, target_ns, landed_ns;
	uint32_t crtc, out_seqno, target_seq, landed_seq;
	int32_t late;			/* index in its CRTC's late frames, -1 none */
	uint8_t outcome, cls, target_estimated;
};

/* The frames of one capture, collected while it is read (tables_frames_pull()). */
struct tables_frames {
	VEC_FIELDS(struct tables_frame);
	uint64_t seen;			/* model.display.landed_total already pulled */
	int error;			/* out of memory: the frames table is incomplete */
};

/* What the file alone does not say: where its rows go and what to stamp on them. */
struct tables_meta {
	const char *run, *host, *kernel;	/* partition values, already made safe */
	const char *failed_host;		/* the failed table's host: export's --label host=,
						 * else "unknown" (a file not read names none) */
	const char *file;			/* the capture's path, as given */
	const struct capture_label *labels;	/* the file's (record --label), then export's */
	unsigned int n_labels;
	const char *exported_by;		/* "fence-trace X.Y.Z" */
	const struct capture_marker *marker;	/* record's marker line, or NULL */
	struct tables_fences *fences;		/* --fences: its rows, moved into place; NULL: none */
};

/* The fences table (--fences), written while the capture is read (tables-fences.c). */
struct tables_open_fence;
struct tables_fences {
	FILE *out;
	char path[4096];		/* the temporary file; "" once moved or none */
	struct keymap open;		/* the model's fence slot -> index in items */
	VEC(struct tables_open_fence) items;
	struct vec_free closed;		/* items no longer open, to be used again */
	uint64_t rows;
	int error;
};

int tables_fences_start(struct tables_fences *f, const char *dir, char *err, size_t errlen);
void tables_fences_event(struct tables_fences *f, const struct ft_event *ev, const struct ft_model *m);
int tables_fences_finish(struct tables_fences *f, const struct ft_model *m, char *err, size_t errlen);
void tables_fences_free(struct tables_fences *f);

void tables_frames_pull(struct tables_frames *f, const struct ft_model *m);
void tables_frames_free(struct tables_frames *f);

/*
 * The capture's rows, replacing the ones an earlier export of the same
 * kernel, host and run left (and its row in the failed table).
 * Return: 0, or -1 with a one-line message in @err.
 */
int tables_write(const char *dir, const struct ft_model *m, const struct report_info *ri,
		 const struct tables_meta *meta, const struct tables_frames *frames,
		 char *err, size_t errlen);
/* A capture that could not be read: its row of DIR/failed/run=R, and why. */
int tables_write_failed(const char *dir, const struct tables_meta *meta, const char *why,
			char *err, size_t errlen);

int tables_make_dir(const char *dir, char *err, size_t errlen);
/* @in as a partition value: [A-Za-z0-9._+-] kept, anything else '_'; "" is "unknown". */
void tables_partition_value(const char *in, char *out, size_t len);

/* The table writers (tables-*.c), each one table's rows into @out. */
struct tables_out {
	FILE *out;
	const struct ft_model *m;
	const struct report_info *ri;
	const struct tables_meta *meta;
	const struct tables_frames *frames;
	const char *why;		/* the failed table: why the capture was not read */
};
int tables_captures(const struct tables_out *t);
int tables_timelines(const struct tables_out *t);
int tables_waits(const struct tables_out *t);
int tables_crtcs(const struct tables_out *t);
int tables_frames(const struct tables_out *t);
int tables_vblanks(const struct tables_out *t);

/* Shared by the writers: "key": value pairs of a row. */
void tables_u64(FILE *out, const char *key, uint64_t v);
void tables_u64_or_null(FILE *out, const char *key, int known, uint64_t v);
void tables_str(FILE *out, const char *key, const char *s);
void tables_latency(FILE *out, const char *prefix, const struct hist *h);
void tables_log2(FILE *out, const char *prefix, const struct hist *h);

#endif
