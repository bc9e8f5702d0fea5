// SPDX-License-Identifier: GPL-2.0
/*
 * export-capture.c - one capture of `export --tables`, in its own process:
 * read and modelled in one pass that also keeps each frame that landed and
 * record's "fence-trace-capture:" marker line (its labels and wall clock,
 * lib/capture-marker.c), then written as rows (output/tables-*.c), or a
 * row of the failed table saying why not.
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <event-parse.h>

#include "analyze.h"
#include "export-tables.h"
#include "uname-fields.h"
#include "version.h"

struct reading {
	struct tables_frames frames;
	struct tables_fences fences;	/* --fences only */
	int want_fences;
	struct capture_marker marker;
	int have_marker;
	int print_looked;		/* ftrace:print looked up in this file: */
	int print_id;			/* its id, -1 none */
	struct tep_format_field *print_buf;	/* its "char buf[]" */
};

const char *export_label(const struct capture_label *labels, unsigned int n, const char *key)
{
	for (unsigned int i = 0; i < n; i++)
		if (!strcmp(labels[i].key, key))
			return labels[i].value;
	return NULL;
}

/** export_failed_host() - the failed table's host: --label host=, else "unknown" */
const char *export_failed_host(const struct export_tables *x, char *buf, size_t len)
{
	tables_partition_value(export_label(x->labels, x->n_labels, "host"), buf, len);
	return buf;
}

static void on_event(const struct ft_event *ev, const struct ft_model *m, void *ctx)
{
	struct reading *r = ctx;

	tables_frames_pull(&r->frames, m);
	if (r->want_fences)
		tables_fences_event(&r->fences, ev, m);
}

/* The first print event that is record's marker line: its labels and wall clock. */
static void on_other(struct tep_record *rec, struct tep_handle *tep, void *ctx)
{
	struct reading *r = ctx;
	struct tep_format_field *buf;

	if (!r->print_looked) {
		struct tep_event *print = tep_find_event_by_name(tep, "ftrace", "print");

		r->print_looked = 1;
		r->print_buf = print ? tep_find_field(print, "buf") : NULL;
		r->print_id = r->print_buf ? print->id : -1;
	}
	if (r->have_marker || r->print_id < 0 || tep_data_type(tep, rec) != r->print_id)
		return;
	/* buf is "char buf[]": the rest of the record, not a field size */
	buf = r->print_buf;
	if (buf->offset >= 0 && buf->offset < rec->size &&
	    capture_marker_parse((const char *)rec->data + buf->offset, (size_t)(rec->size - buf->offset),
				 &r->marker) == 1) {
		r->marker.ts = rec->ts;
		r->have_marker = 1;
	}
}

/* The file's labels, then export's (which win where both name a key). */
static unsigned int merge_labels(const struct export_tables *x, const struct reading *r,
				 struct capture_label *out)
{
	unsigned int n = 0;

	for (unsigned int i = 0; r->have_marker && i < r->marker.n; i++)
		if (!export_label(x->labels, x->n_labels, r->marker.labels[i].key))
			out[n++] = r->marker.labels[i];
	for (unsigned int i = 0; i < x->n_labels && n < 2 * CAPTURE_MAX_LABELS; i++)
		out[n++] = x->labels[i];
	return n;
}

/*
 * The partitions: the labels' kernel= and host=, else the uname's.  The
 * run is the parent's (export's --label run=, else the path: unique in the
 * call); a run= the file itself carries stays a label, for two files that
 * carry the same one must not land on each other's rows.
 */
static void partitions(const char *uname, struct tables_meta *meta, char *host, char *kernel,
		       size_t len)
{
	const char *given_host = export_label(meta->labels, meta->n_labels, "host");
	const char *given_kernel = export_label(meta->labels, meta->n_labels, "kernel");
	char h[256], k[256];

	uname_fields(uname, h, sizeof(h), k, sizeof(k));
	tables_partition_value(given_host ? given_host : h, host, len);
	tables_partition_value(given_kernel ? given_kernel : k, kernel, len);
	meta->host = host;
	meta->kernel = kernel;
}

static int write_rows(const struct export_tables *x, const char *path, struct analysis *a,
		      struct reading *r, struct tables_meta *meta, char *err, size_t errlen)
{
	struct capture_label labels[2 * CAPTURE_MAX_LABELS];
	char host[256], kernel[256];
	struct report_info ri = { .path = path, .version = a->info.version, .cpus = a->info.cpus,
				  .clock = a->info.clock, .uname = a->info.uname,
				  .recorder = a->info.recorder };

	meta->labels = labels;
	meta->n_labels = merge_labels(x, r, labels);
	meta->marker = r->have_marker ? &r->marker : NULL;
	meta->fences = r->want_fences ? &r->fences : NULL;
	if (r->want_fences && tables_fences_finish(&r->fences, &a->model, err, errlen))
		return -1;
	partitions(a->info.uname, meta, host, kernel, sizeof(host));
	tables_frames_pull(&r->frames, &a->model);
	return tables_write(x->dir, &a->model, &ri, meta, &r->frames, err, errlen);
}

/**
 * export_capture() - read @path and write its rows (or its failed row)
 *
 * Return: the child's exit status: 0, EXPORT_FAILED_ROW (said, with its
 * row), or 1 (said; no row could be written).
 */
int export_capture(const struct export_tables *x, const char *path, const char *run)
{
	static struct reading r;
	struct analysis_window w = { .on_event = on_event, .on_other = on_other, .ctx = &r };
	struct tables_meta meta = { .run = run, .file = path, .labels = x->labels,
				    .n_labels = x->n_labels, .exported_by = fence_trace_version() };
	struct analysis a = { 0 };
	char err[512], failed_host[256];
	int ret = 0;

	meta.failed_host = export_failed_host(x, failed_host, sizeof(failed_host));

	r.want_fences = x->fences;
	if ((!x->fences || tables_fences_start(&r.fences, x->dir, err, sizeof(err)) == 0) &&
	    analysis_run(&a, path, &w, err, sizeof(err)) == 0 &&
	    write_rows(x, path, &a, &r, &meta, err, sizeof(err)) == 0)
		ret = 0;
	else if (tables_write_failed(x->dir, &meta, err, err, sizeof(err)) == 0)
		ret = EXPORT_FAILED_ROW;
	else
		ret = 1;
	if (ret)
		fprintf(stderr, "%sfence-trace export: %s\n", isatty(STDERR_FILENO) ? "\r\033[K" : "", err);
	analysis_free(&a);
	tables_frames_free(&r.frames);
	if (x->fences)
		tables_fences_free(&r.fences);
	return ret;
}
