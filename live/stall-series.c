// SPDX-License-Identifier: GPL-2.0
/*
 * stall-series.c - the kernel series' events for `fence-trace stall` (see
 * stall-series.h), read from a private tracefs instance at every poll.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <event-parse.h>
#include <tracefs.h>

#include "own-instance.h"
#include "stall.h"
#include "stall-series.h"
#include "sync.h"

static const char *const events[][2] = {
	{ "drm_fence", "drm_fence_wait_begin" },
	{ "drm_fence", "drm_fence_wait_end" },
	{ "drm_fence", "drm_fence_commit_stall" },
	{ "drm_fence", "drm_fence_flip_done" },
	{ "drm_fence", "drm_fence_commit_failed" },
	{ "sync_file", "sync_file_poll_begin" },
	{ "sync_file", "sync_file_poll_ready" },
};

/* Later in the series (patch 0008): used when the kernel has it. */
static const char *const optional_events[][2] = {
	{ "dma_fence", "dma_fence_error" },
};

/* 0 when this kernel has the series; then its events stream into @s. */
int series_start(struct stall_series *s, struct stall_ctx *c)
{
	const char *systems[] = { "drm_fence", "sync_file", "dma_fence", NULL };

	memset(s, 0, sizeof(*s));
	s->c = c;
	if (!tracefs_file_exists(NULL, "events/drm_fence/drm_fence_wait_begin/format"))
		return -1;
	s->tep = tracefs_local_events_system(NULL, systems);
	s->inst = own_instance_create("stall");
	if (!s->tep || !s->inst)
		goto fail;
	tracefs_instance_file_write(s->inst, "trace_clock", "mono");
	for (size_t i = 0; i < sizeof(events) / sizeof(events[0]); i++)
		if (tracefs_event_enable(s->inst, events[i][0], events[i][1]))
			goto fail;
	for (size_t i = 0; i < sizeof(optional_events) / sizeof(optional_events[0]); i++)
		tracefs_event_enable(s->inst, optional_events[i][0], optional_events[i][1]);
	tracefs_trace_on(s->inst);
	return 0;
fail:
	series_stop(s);
	return -1;
}

static uint64_t num(struct tep_event *ev, struct tep_record *rec, const char *field)
{
	unsigned long long v = 0;

	tep_get_field_val(NULL, ev, field, rec, &v, 0);
	return v;
}

static void wait_begin(struct stall_series *s, struct tep_event *ev, struct tep_record *rec)
{
	struct series_wait *w;

	if (s->n_waits >= SERIES_MAX)
		return;
	w = &s->waits[s->n_waits++];
	w->fence = num(ev, rec, "fence");
	w->commit = num(ev, rec, "commit");
	w->plane = (uint32_t)num(ev, rec, "plane");
	w->context = num(ev, rec, "context");
	w->seqno = num(ev, rec, "seqno");
	w->ts = rec->ts;
	w->end = 0;
}

static const struct series_failed_fence *failed_fence(const struct stall_series *s, uint64_t fence)
{
	for (unsigned int i = 0; i < SERIES_RECENT && i < s->n_failed; i++)
		if (s->failed[i].fence == fence)
			return &s->failed[i];
	return NULL;
}

/*
 * A commit's wait on an in-fence that signalled with an error: said now,
 * and followed until the commit flips or fails.  The atomic helpers ignore
 * a fence's error (dma_fence_wait() returns 0), so it normally flips.
 */
static void error_wait(struct stall_series *s, const struct series_wait *w, int error, int ret)
{
	struct series_error_wait *e;

	stall_print_error_fence(s->c, w, error, ret);
	if (s->n_error_waits >= SERIES_MAX)
		return;
	e = &s->error_waits[s->n_error_waits++];
	*e = (struct series_error_wait){ w->commit, w->context, w->seqno, w->end, w->plane, error, ret };
}

/* @commit flipped (@err 0, at vblank @vblank) or failed (@err): what became of it. */
static void error_wait_outcome(struct stall_series *s, uint64_t commit, int err, uint64_t vblank,
			       uint64_t ts)
{
	for (unsigned int i = 0; i < s->n_error_waits; i++) {
		if (s->error_waits[i].commit != commit)
			continue;
		stall_print_error_outcome(s->c, &s->error_waits[i], err, vblank, ts);
		s->error_waits[i--] = s->error_waits[--s->n_error_waits];
	}
}

static void wait_end(struct stall_series *s, struct tep_event *ev, struct tep_record *rec)
{
	uint64_t fence = num(ev, rec, "fence"), commit = num(ev, rec, "commit");
	const struct series_failed_fence *f = failed_fence(s, fence);
	struct series_wait *w;

	for (unsigned int i = 0; i < s->n_waits; i++) {
		if (s->waits[i].fence != fence || s->waits[i].commit != commit)
			continue;
		w = &s->ended[s->n_ended++ % SERIES_RECENT];
		*w = s->waits[i];
		w->end = rec->ts;
		s->waits[i] = s->waits[--s->n_waits];
		if (f && f->context == w->context && f->seqno == w->seqno)
			error_wait(s, w, f->error, (int)(int32_t)num(ev, rec, "ret"));
		return;
	}
}

static void fence_error(struct stall_series *s, struct tep_event *ev, struct tep_record *rec)
{
	struct series_failed_fence *f = &s->failed[s->n_failed++ % SERIES_RECENT];

	f->fence = num(ev, rec, "fence");
	f->context = num(ev, rec, "context");
	f->seqno = num(ev, rec, "seqno");
	f->error = (int)(int32_t)num(ev, rec, "error");
}

static void poll_begin(struct stall_series *s, struct tep_event *ev, struct tep_record *rec)
{
	struct series_poll *p;
	uint64_t sf = num(ev, rec, "sync_file");

	for (unsigned int i = 0; i < s->n_polls; i++)
		if (s->polls[i].sync_file == sf)
			return;		/* poll() again on the same file: one wait */
	if (s->n_polls >= SERIES_MAX)
		return;
	p = &s->polls[s->n_polls++];
	memset(p, 0, sizeof(*p));
	p->sync_file = sf;
	p->fence = num(ev, rec, "fence");
	p->context = num(ev, rec, "context");
	p->seqno = num(ev, rec, "seqno");
	p->pid = tep_data_pid(s->tep, rec);
	p->ts = rec->ts;
}

static void poll_ready(struct stall_series *s, struct tep_event *ev, struct tep_record *rec)
{
	uint64_t sf = num(ev, rec, "sync_file");

	for (unsigned int i = 0; i < s->n_polls; i++) {
		if (s->polls[i].sync_file != sf)
			continue;
		if (s->polls[i].reported)
			stall_print_poll_end(s->c, &s->polls[i], rec->ts);
		s->polls[i] = s->polls[--s->n_polls];
		return;
	}
}

static int on_event(struct tep_event *ev, struct tep_record *rec, int cpu, void *data)
{
	struct stall_series *s = data;

	(void)cpu;
	if (!strcmp(ev->name, "drm_fence_wait_begin"))
		wait_begin(s, ev, rec);
	else if (!strcmp(ev->name, "drm_fence_wait_end"))
		wait_end(s, ev, rec);
	else if (!strcmp(ev->name, "drm_fence_commit_stall"))
		stall_print_commit_stall(s->c, rec->ts, num(ev, rec, "commit"), (uint32_t)num(ev, rec, "crtc"),
					 (int64_t)num(ev, rec, "waits_on"),
					 (int)(int32_t)num(ev, rec, "stage"), (int)(int32_t)num(ev, rec, "ret"),
					 num(ev, rec, "duration_ns"));
	else if (!strcmp(ev->name, "dma_fence_error"))
		fence_error(s, ev, rec);
	else if (!strcmp(ev->name, "drm_fence_flip_done"))
		error_wait_outcome(s, num(ev, rec, "commit"), 0, num(ev, rec, "vblank"), rec->ts);
	else if (!strcmp(ev->name, "drm_fence_commit_failed"))
		error_wait_outcome(s, num(ev, rec, "commit"), (int)(int32_t)num(ev, rec, "err"), 0, rec->ts);
	else if (!strcmp(ev->name, "sync_file_poll_begin"))
		poll_begin(s, ev, rec);
	else if (!strcmp(ev->name, "sync_file_poll_ready"))
		poll_ready(s, ev, rec);
	return 0;
}

/* Take in what the instance holds; then report polls past the threshold. */
void series_read(struct stall_series *s)
{
	uint64_t now;

	if (!s->inst)
		return;
	tracefs_iterate_raw_events(s->tep, s->inst, NULL, 0, on_event, s);
	now = now_ns();
	for (unsigned int i = 0; i < s->n_polls; i++) {
		struct series_poll *p = &s->polls[i];

		if (!p->reported && now > p->ts && now - p->ts >= s->c->threshold_ns) {
			p->reported = 1;
			s->c->stalls++;
			stall_print_poll(s->c, p, now);
		}
	}
}

void series_stop(struct stall_series *s)
{
	if (s->inst) {
		tracefs_event_disable(s->inst, NULL, NULL);
		tracefs_instance_destroy(s->inst);
		tracefs_instance_free(s->inst);
	}
	if (s->tep)
		tep_free(s->tep);
	s->inst = NULL;
	s->tep = NULL;
}
