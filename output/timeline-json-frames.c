// SPDX-License-Identifier: GPL-2.0
/*
 * timeline-json-frames.c - the frame timeline's part of the page's data
 * (format: timeline-json.c): each frame that landed, as columns, with its
 * final class; the runs of repeated vblanks with their times; the frames
 * that failed (the commit rejected after its out-fence was made); a late
 * frame's cause in the report's words.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "errname.h"
#include "json-str.h"
#include "report.h"
#include "timeline.h"

#define NOT_JUDGED FT_CLASSES	/* frame_classes' last entry */

static int64_t frame_crtc(const void *p) { return ((const struct tl_frame *)p)->crtc; }
static int64_t frame_seq(const void *p) { return ((const struct tl_frame *)p)->out_seqno; }
static int64_t frame_t0(const void *p) { return (int64_t)((const struct tl_frame *)p)->submit; }
static int64_t frame_row(const void *p) { return ((const struct tl_frame *)p)->row; }
static int64_t frame_target(const void *p) { return ((const struct tl_frame *)p)->target_seq; }
static int64_t frame_landed(const void *p) { return ((const struct tl_frame *)p)->landed_seq; }
static int64_t frame_est(const void *p) { return ((const struct tl_frame *)p)->target_estimated; }
static int64_t frame_dur(const void *p)
{
	const struct tl_frame *f = p;

	return f->landed_ns > f->submit ? (int64_t)(f->landed_ns - f->submit) : 0;
}
static int64_t frame_exp(const void *p)
{
	const struct tl_frame *f = p;

	if (!f->target_ns)
		return -1;
	return f->target_ns > f->submit ? (int64_t)(f->target_ns - f->submit) : 0;
}

/* The final class and the index in the page's late array need the model. */
static void class_and_late(FILE *out, const struct tl_data *d)
{
	const struct ft_model *m = d->model;
	unsigned int *late_base = calloc(m->display.crtcs.n + 1, sizeof(*late_base));

	for (unsigned int i = 0; late_base && i < m->display.crtcs.n; i++)
		late_base[i + 1] = late_base[i] + m->display.crtcs.items[i].n_late;
	fputs(",\"cls\":[", out);
	for (size_t i = 0; i < d->frames.n; i++) {
		const struct tl_frame *f = TL_AT(d->frames, struct tl_frame, i);

		fprintf(out, "%s%d", i ? "," : "",
			f->outcome == FT_LANDED_NOT_JUDGED ? NOT_JUDGED : (int)tl_frame_class(d, f));
	}
	fputs("],\"late\":[", out);
	for (size_t i = 0; i < d->frames.n; i++) {
		const struct tl_frame *f = TL_AT(d->frames, struct tl_frame, i);
		int kept = late_base && f->late >= 0 &&
			   (unsigned int)f->late < m->display.crtcs.items[f->crtc].n_late;

		fprintf(out, "%s%ld", i ? "," : "", kept ? (long)(late_base[f->crtc] + (unsigned int)f->late) : -1L);
	}
	fputc(']', out);
	free(late_base);
}

static void names(FILE *out)
{
	fputs(",\"frame_classes\":[", out);
	for (int k = 0; k < FT_CLASSES; k++)
		fprintf(out, "\"%s\",", report_frame_class_name((enum ft_frame_class)k));
	fputs("\"not-judged\"],\"repeat_kinds\":[", out);
	for (int k = 0; k < FT_REPEAT_KINDS; k++)
		fprintf(out, "%s\"%s\"", k ? "," : "", report_repeat_kind_name((enum ft_repeat_kind)k));
	fputc(']', out);
}

static void repeats(FILE *out, const struct tl_data *d)
{
	const struct ft_model *m = d->model;
	int first = 1;

	fputs(",\"repeats\":[", out);
	for (unsigned int ci = 0; ci < m->display.crtcs.n; ci++) {
		const struct ft_crtc *c = &m->display.crtcs.items[ci];

		for (unsigned int k = 0; k < c->n_runs; k++) {
			const struct ft_repeat_run *r = &c->runs[k];

			fprintf(out, "%s{\"crtc\":%u,\"first\":%u,\"count\":%u,\"kind\":%d,\"next\":%u,"
				"\"cadence\":%u,\"t0\":%" PRId64 ",\"t1\":%" PRId64 "}", first ? "" : ",", ci,
				r->first_seq, r->count, (int)r->kind, r->frame_out_seqno, r->cadence,
				tl_since_start(d, tl_vblank_time(d, c->pipe, r->first_seq)),
				tl_since_start(d, tl_vblank_time(d, c->pipe, r->first_seq + r->count)));
			first = 0;
		}
	}
	fputc(']', out);
}

/*
 * The failed frames kept (the report's): when the out-fence was made and
 * dropped unsignalled, the committer, and the series' commit and error
 * (null without: the page says which event would tell).
 */
static void failed_frames(FILE *out, const struct tl_data *d)
{
	const struct ft_model *m = d->model;
	const char *sep = "";
	char e[24];

	fputs(",\"failed_frames\":[", out);
	for (unsigned int ci = 0; ci < m->display.crtcs.n; ci++) {
		const struct ft_crtc *c = &m->display.crtcs.items[ci];

		for (unsigned int k = 0; k < c->n_failed; k++, sep = ",") {
			const struct ft_failed_frame *f = &c->failed[k];

			fprintf(out, "%s{\"crtc\":%u,\"seq\":%u,\"pid\":%d,\"t0\":%" PRId64 ",\"t1\":%" PRId64
				",\"lost\":%d,\"commit\":", sep, ci, f->out_seqno, f->pid,
				tl_since_start(d, f->submit_ns), tl_since_start(d, f->ended_ns), f->lost);
			if (f->commit)
				fprintf(out, "%" PRIu64, f->commit);
			else
				fputs("null", out);
			fputs(",\"err\":", out);
			if (f->err)
				json_str(out, errname(f->err, e, sizeof(e)));
			else
				fputs("null", out);
			fputc('}', out);
		}
	}
	fputc(']', out);
}

void tl_write_frames_data(FILE *out, const struct tl_data *d)
{
	names(out);
	fputs(",\"frames\":{", out);
	tl_json_column(out, "crtc", &d->frames, frame_crtc, 1, 0, 0);
	tl_json_column(out, "seq", &d->frames, frame_seq, 0, 0, 0);
	tl_json_column(out, "t0", &d->frames, frame_t0, 0, 1, (int64_t)d->first_ts);
	tl_json_column(out, "exp", &d->frames, frame_exp, 0, 0, 0);
	tl_json_column(out, "dur", &d->frames, frame_dur, 0, 0, 0);
	tl_json_column(out, "row", &d->frames, frame_row, 0, 0, 0);
	tl_json_column(out, "target", &d->frames, frame_target, 0, 0, 0);
	tl_json_column(out, "landed", &d->frames, frame_landed, 0, 0, 0);
	tl_json_column(out, "est", &d->frames, frame_est, 0, 0, 0);
	class_and_late(out, d);
	fputs("},\"frame_rows\":[", out);
	for (unsigned int i = 0; i < d->model->display.crtcs.n; i++)
		fprintf(out, "%s%u", i ? "," : "", d->frame_rows[i]);
	fputc(']', out);
	repeats(out, d);
	failed_frames(out, d);
}

/* The late frame's cause, as a JSON string (the report's words). */
void tl_json_cause(FILE *out, const struct ft_model *m, const struct ft_late_frame *l)
{
	char *text = NULL;
	size_t len = 0;
	FILE *s = open_memstream(&text, &len);

	if (s) {
		report_frame_cause(s, m, l);
		if (fclose(s))
			len = 0;
	}
	json_str(out, text && len ? text : "?");
	free(text);
}
