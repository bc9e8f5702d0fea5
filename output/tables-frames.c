// SPDX-License-Identifier: GPL-2.0
/*
 * tables-frames.c - the display's tables: crtcs (one row per CRTC: its
 * counts of frames by outcome and class, and of repeated vblanks by blame,
 * exact however many the model keeps in detail), frames (one row per frame
 * that landed, a late one with its class and what blocked it) and vblanks
 * (one row per run of vblanks that showed the previous frame again, as
 * report --json's "repeat_runs" keeps them).
 */
#include <string.h>

#include "tables.h"

/** tables_frames_pull() - the frames that landed since the last call (after each event) */
void tables_frames_pull(struct tables_frames *f, const struct ft_model *m)
{
	for (; f->seen < m->display.landed_total; f->seen++) {
		const struct ft_landed *n = model_landed(m, f->seen);

		struct tables_frame *row;

		if (!n || f->error)
			continue;
		row = vec_push(f);
		if (!row) {
			f->error = 1;
			continue;
		}
		*row = (struct tables_frame){
			.submit_ns = n->frame.submit_ns, .target_ns = n->frame.target_ns,
			.landed_ns = n->landed_ns, .crtc = n->crtc, .out_seqno = n->frame.out_seqno,
			.target_seq = n->frame.target_seq, .landed_seq = n->frame.landed_seq,
			.late = n->late, .outcome = (uint8_t)n->outcome, .cls = (uint8_t)n->frame.cls,
			.target_estimated = (uint8_t)n->frame.target_estimated,
		};
	}
}

void tables_frames_free(struct tables_frames *f)
{
	vec_free(f);
	*f = (struct tables_frames){ 0 };
}

static const struct ft_pipe *pipe_of(const struct ft_model *m, const struct ft_crtc *c)
{
	for (size_t k = 0; k < m->display.pipes.n; k++)
		if (c->pipe >= 0 && m->display.pipes.items[k].pipe == c->pipe)
			return &m->display.pipes.items[k];
	return NULL;
}

static void crtc_counts(FILE *out, const struct ft_model *m, const struct ft_crtc *c)
{
	const struct ft_frame_stats *fs = &c->fs;
	const struct ft_pipe *p = pipe_of(m, c);
	char key[64];

	tables_u64(out, "frames", c->frames);
	tables_u64(out, "judged", ft_frames_judged(c));
	tables_u64(out, "on_time", fs->on_time);
	tables_u64(out, "late", c->late_count);
	tables_u64(out, "not_judged", fs->unjudged);
	tables_u64_or_null(out, "failed", report_failed_known(m), fs->failed);
	for (int k = FT_CLASS_PRODUCER; k < FT_CLASSES; k++) {
		snprintf(key, sizeof(key), "late_%s", report_frame_class_name((enum ft_frame_class)k));
		tables_u64(out, key, fs->by_class[k]);
	}
	tables_u64(out, "vblanks", p ? p->vblanks : 0);
	tables_u64(out, "missed_vblanks", p ? p->missed : 0);
	tables_u64(out, "new_vblanks", fs->new_vblanks);
	for (int k = 0; k < FT_REPEAT_KINDS; k++) {
		snprintf(key, sizeof(key), "repeated_%s",
			 report_repeat_kind_name((enum ft_repeat_kind)k));
		for (char *h = strchr(key, '-'); h; h = strchr(h, '-'))
			*h = '_';	/* a column name SQL takes unquoted */
		tables_u64(out, key, fs->repeats[k]);
	}
	tables_u64_or_null(out, "vblank_period_ns", p != NULL, p ? hist_percentile(&p->period, 0.5) : 0);
}

/** tables_crtcs() - one row per CRTC */
int tables_crtcs(const struct tables_out *t)
{
	for (size_t i = 0; i < t->m->display.crtcs.n; i++) {
		const struct ft_crtc *c = &t->m->display.crtcs.items[i];

		fprintf(t->out, "{\"crtc\": %u", c->crtc_id);
		tables_str(t->out, "name", c->name);
		tables_str(t->out, "driver", c->driver);
		crtc_counts(t->out, t->m, c);
		tables_latency(t->out, "out_fence", &c->out_latency);
		fprintf(t->out, "}\n");
	}
	return 0;
}

static const char *outcome_name(uint8_t outcome)
{
	return outcome == FT_LANDED_LATE ? "late" : outcome == FT_LANDED_ON_TIME ? "on_time" : "not_judged";
}

/* What blocked a late frame kept in detail; null columns otherwise. */
static void blocking(const struct tables_out *t, const struct ft_late_frame *l)
{
	const struct ft_blocking *b = l ? &l->blocking : NULL;
	const struct ft_timeline *tl = b && b->known && b->ctx != FT_NONE ?
		model_context_row(t->m, b->ctx) : NULL;

	tables_u64_or_null(t->out, "late_by_ns", l && l->late_by_known, l ? l->late_by_ns : 0);
	tables_str(t->out, "blocking_driver", tl ? tl->driver : NULL);
	tables_str(t->out, "blocking_timeline", tl ? tl->name : NULL);
	tables_u64_or_null(t->out, "blocking_context", b && b->known, b ? b->context : 0);
	tables_u64_or_null(t->out, "blocking_seqno", b && b->known, b ? b->seqno : 0);
	tables_u64_or_null(t->out, "blocking_wait_ns", b && b->known, b ? b->wait_ns : 0);
}

static void frame_row(const struct tables_out *t, const struct tables_frame *f)
{
	const struct ft_crtc *c = &t->m->display.crtcs.items[f->crtc];
	const struct ft_late_frame *l = f->outcome == FT_LANDED_LATE && f->late >= 0 &&
		(unsigned int)f->late < c->n_late ? &c->late[f->late] : NULL;
	enum ft_frame_class cls = l ? l->cls : (enum ft_frame_class)f->cls;

	fprintf(t->out, "{\"crtc\": %u", c->crtc_id);
	tables_u64(t->out, "out_fence_seqno", f->out_seqno);
	tables_u64(t->out, "submit_ns", f->submit_ns);
	tables_u64(t->out, "landed_ns", f->landed_ns);
	tables_u64(t->out, "target_vblank", f->target_seq);
	tables_u64(t->out, "landed_vblank", f->landed_seq);
	fprintf(t->out, ", \"target_estimated\": %s", f->target_estimated ? "true" : "false");
	tables_str(t->out, "outcome", outcome_name(f->outcome));
	tables_str(t->out, "class", f->outcome == FT_LANDED_LATE ? report_frame_class_name(cls) : NULL);
	fprintf(t->out, ", \"detail_kept\": %s", l || f->outcome != FT_LANDED_LATE ? "true" : "false");
	blocking(t, l);
	fprintf(t->out, "}\n");
}

/** tables_frames() - one row per frame that landed, in the order they did */
int tables_frames(const struct tables_out *t)
{
	for (size_t i = 0; i < t->frames->n; i++)
		frame_row(t, &t->frames->items[i]);
	return t->frames->error ? -1 : 0;
}

/** tables_vblanks() - the runs of repeated vblanks kept (idle runs are only counted: crtcs) */
int tables_vblanks(const struct tables_out *t)
{
	for (size_t i = 0; i < t->m->display.crtcs.n; i++) {
		const struct ft_crtc *c = &t->m->display.crtcs.items[i];

		for (unsigned int k = 0; k < c->n_runs; k++) {
			const struct ft_repeat_run *r = &c->runs[k];
			int late = r->late >= 0 && (unsigned int)r->late < c->n_late;

			fprintf(t->out, "{\"crtc\": %u", c->crtc_id);
			tables_u64(t->out, "first_vblank", r->first_seq);
			tables_u64(t->out, "count", r->count);
			tables_str(t->out, "blame", report_repeat_kind_name(r->kind));
			tables_u64(t->out, "next_out_fence_seqno", r->frame_out_seqno);
			tables_u64(t->out, "cadence_vblanks", r->cadence);
			tables_str(t->out, "class", late ? report_frame_class_name(c->late[r->late].cls) : NULL);
			fprintf(t->out, "}\n");
		}
	}
	return 0;
}
