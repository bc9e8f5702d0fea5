// SPDX-License-Identifier: GPL-2.0
/*
 * tables-fences.c - the optional fences table (`export --tables --fences`):
 * one row per fence, written when it is destroyed (or at the end, still
 * alive), so memory follows the live fences, not the trace.  A fence is the
 * live fence the model says an event meant (model_fence_step()), not its
 * (context, seqno) key, which several live fences may share.  The rows go
 * to a temporary file beside the tables while the capture is read;
 * tables_write() renames it into its partition.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "tables.h"

struct tables_open_fence {
	uint32_t ctx, seqno;		/* ctx: index in model.fences.contexts */
	int pid;
	uint64_t init_ns, signal_ns;	/* signal_ns 0: not signalled */
	int error;
};

/** tables_fences_start() - rows to a temporary file in @dir; 0 or -1 (@err) */
int tables_fences_start(struct tables_fences *f, const char *dir, char *err, size_t errlen)
{
	memset(f, 0, sizeof(*f));
	snprintf(f->path, sizeof(f->path), "%s/.fences.%d.tmp", dir, (int)getpid());
	f->out = fopen(f->path, "w");
	if (!f->out) {
		snprintf(err, errlen, "%s: %s", f->path, strerror(errno));
		f->path[0] = '\0';
		return -1;
	}
	return 0;
}

static struct tables_open_fence *open_fence(struct tables_fences *f, uint32_t slot)
{
	uint32_t i;

	return slot != FT_NONE && keymap_get(&f->open, slot, &i) ? vec_at(&f->items, i) : NULL;
}

static void fence_made(struct tables_fences *f, const struct ft_event *ev, const struct ft_model *m)
{
	uint32_t slot = model_fence_step(m)->slot;
	uint32_t i;

	if (slot == FT_NONE)
		return;
	if (vec_take(&f->items, &f->closed, &i) || keymap_put(&f->open, slot, i)) {
		f->error = 1;
		return;
	}
	*vec_at(&f->items, i) = (struct tables_open_fence){ model_context_index(m, ev->v[FT_CONTEXT]),
							   (uint32_t)ev->v[FT_SEQNO], ev->pid, ev->ts,
							   0, 0 };
}

static void fence_signaled(struct tables_fences *f, const struct ft_event *ev, const struct ft_model *m)
{
	uint32_t slot = model_fence_step(m)->slot;
	struct tables_open_fence *o = open_fence(f, slot);

	if (!o)
		return;
	o->signal_ns = ev->ts;
	o->error = m->fences.slab.items[slot].error;	/* dma_fence_error comes first */
}

static void row(struct tables_fences *f, const struct ft_model *m, const struct tables_open_fence *o,
		uint64_t destroy_ns, int duplicate)
{
	const struct ft_timeline *tl = o->ctx != FT_NONE ? model_context_row(m, o->ctx) : NULL;
	FILE *out = f->out;

	fprintf(out, "{\"context\": %" PRIu64 ", \"seqno\": %u",
		o->ctx != FT_NONE ? ft_context_at(&m->fences.contexts, o->ctx)->context : 0, o->seqno);
	tables_str(out, "driver", tl ? tl->driver : NULL);
	tables_str(out, "timeline", tl ? tl->name : NULL);
	tables_u64(out, "pid", (uint64_t)o->pid);
	tables_u64(out, "init_ns", o->init_ns);
	tables_u64_or_null(out, "signal_ns", o->signal_ns != 0, o->signal_ns);
	tables_u64_or_null(out, "destroy_ns", destroy_ns != 0, destroy_ns);
	tables_u64_or_null(out, "latency_ns", o->signal_ns != 0, o->signal_ns - o->init_ns);
	fprintf(out, ", \"error\": ");
	if (report_errors_known(m))
		fprintf(out, "%d", o->error);
	else
		fprintf(out, "null");
	fprintf(out, ", \"duplicate\": %s}\n", duplicate ? "true" : "false");
	f->rows++;
}

/* Its row; a duplicate's signal went back to the fence it duplicated (model-identity.c). */
static void fence_destroyed(struct tables_fences *f, const struct ft_event *ev, const struct ft_model *m)
{
	const struct ft_fence_step *step = model_fence_step(m);
	struct tables_open_fence *o = open_fence(f, step->slot), *given = open_fence(f, step->given);
	uint32_t i;

	if (!o)
		return;
	if (given && o->signal_ns && !given->signal_ns)
		given->signal_ns = o->signal_ns;
	row(f, m, o, ev->ts, step->duplicate);
	if (keymap_take(&f->open, step->slot, &i) && vec_release(&f->closed, i))
		f->error = 1;
}

/** tables_fences_event() - after the model took @ev (analysis_window.on_event) */
void tables_fences_event(struct tables_fences *f, const struct ft_event *ev, const struct ft_model *m)
{
	if (!f->out || f->error)
		return;
	if (ev->id == FT_EV_FENCE_INIT)
		fence_made(f, ev, m);
	else if (ev->id == FT_EV_FENCE_SIGNALED)
		fence_signaled(f, ev, m);
	else if (ev->id == FT_EV_FENCE_DESTROY)
		fence_destroyed(f, ev, m);
}

/** tables_fences_finish() - rows of the fences alive at the end; 0, or -1 (@err) */
int tables_fences_finish(struct tables_fences *f, const struct ft_model *m, char *err, size_t errlen)
{
	uint32_t pos = 0, i;
	uint64_t slot;

	while (f->out && !f->error && keymap_next(&f->open, &pos, &slot))
		if (keymap_get(&f->open, slot, &i))
			row(f, m, vec_at(&f->items, i), 0, 0);
	if (f->error || !f->out || fflush(f->out) || ferror(f->out)) {
		snprintf(err, errlen, "%s: %s", f->path, f->error ? "out of memory" : "cannot write the fences");
		return -1;
	}
	return 0;
}

/** tables_fences_free() - close, and remove the temporary file unless moved */
void tables_fences_free(struct tables_fences *f)
{
	if (f->out)
		fclose(f->out);
	if (f->path[0])
		unlink(f->path);	/* ENOENT once tables_write() renamed it */
	keymap_free(&f->open);
	vec_free(&f->items);
	vec_free(&f->closed);
	memset(f, 0, sizeof(*f));
}
