// SPDX-License-Identifier: GPL-2.0
/*
 * model-frames.c - the frame timeline: every frame that landed on a CRTC,
 * every vblank in between, and for each miss one cause.
 *
 * Definitions (also in the README, "Frames"):
 * - A commit's target is the first vblank after its atomic ioctl entered
 *   (model-display.c); it landed on the vblank its out-fence was signalled
 *   for, and is late by landed - target vblanks when that is >= 1.
 * - Its deadline is the target's time minus the CRTC's latch margin: the
 *   user's (--latch-margin) or, estimated from the frames on time, the
 *   least time any of them was ready before its target (ready: submitted,
 *   its in-fence waiters woken, no earlier commit in the way).
 * - A late frame's primary class is the component that became ready last
 *   past the deadline: producer (its last in-fence signalled), queued (an
 *   earlier commit was in the way: the series' commit stall, or on any
 *   kernel the earlier frame landing on this one's target), wakeup (the
 *   in-fence was in time, the task waiting on it ran past the deadline);
 *   driver when none was.  Ties go in that order; the others past the
 *   deadline are contributing.  Events lost while it was in flight make
 *   it unknown: a wrong class is worse than none.
 * - Between two frames that landed, each vblank repeated the frame before.
 *   From the commit's target on, the repeat is the pending commit's:
 *   waiting-fence (producer, wakeup), queued, driver, unknown.  Before it
 *   no commit was pending: idle while within the compositor's cadence (the
 *   median of its last target intervals, from the commits before), else
 *   waiting-poll when a sync_file poll (series) was in progress across the
 *   vblank, else compositor-late.
 * Runs of repeats of one blame are kept for the report to list (idle ones
 * only counted).  The margin estimate can fall as frames come; the late
 * frames kept in detail, and the runs that were their wait, are classed
 * again with the final one at the end of the trace; those past the detail
 * cap keep the class of the estimate they met.
 */
#include <stdlib.h>
#include <string.h>

#include "model-internal.h"

static enum ft_repeat_kind repeat_of_class(enum ft_frame_class cls)
{
	switch (cls) {
	case FT_CLASS_PRODUCER:
	case FT_CLASS_WAKEUP: return FT_REPEAT_WAITING_FENCE;
	case FT_CLASS_QUEUED: return FT_REPEAT_QUEUED;
	case FT_CLASS_DRIVER: return FT_REPEAT_DRIVER;
	default: return FT_REPEAT_UNKNOWN;
	}
}

/* When each component of @l was ready, where past @deadline; 0 otherwise. */
static void past_deadline(const struct ft_late_frame *l, uint64_t deadline, uint64_t *when)
{
	memset(when, 0, FT_CLASSES * sizeof(*when));
	if (l->ready_ns > deadline)
		when[FT_CLASS_PRODUCER] = l->ready_ns;
	if (l->queued_until_ns > deadline)
		when[FT_CLASS_QUEUED] = l->queued_until_ns;
	if (l->ready_ns <= deadline && l->woken_ns > deadline)
		when[FT_CLASS_WAKEUP] = l->woken_ns;
}

/* @l's target less @margin_ns (0 when that is before the clock began). */
static uint64_t before_target(const struct ft_late_frame *l, uint64_t margin_ns)
{
	return l->target_ns > margin_ns ? l->target_ns - margin_ns : 0;
}

/*
 * Each stage's deadline: its target less the least time a frame on time
 * had left at that stage (stage_margins()), or the target itself before
 * any did.  Tail and hw_done always come after a commit is ready, so
 * judged against the readiness deadline every one of them would be late.
 */
static uint64_t stage_deadline(const struct ft_late_frame *l, int known, uint64_t margin_ns)
{
	if (!known)
		return l->target_ns;
	return before_target(l, margin_ns);
}

/*
 * A driver-class frame: the first of its stages that ended past its own
 * deadline.  The submission (in any trace) against the frame's deadline:
 * it came inside the latch margin.  Then, with the series, its commit tail's
 * start (a nonblocking commit's worker, or a blocking one after its fence
 * waits) and its hw_done (the driver programming the planes), each against
 * what the frames on time managed; neither late, the hardware took the
 * flip a vblank later than it could have: the latch.
 */
static void classify_driver_part(struct ft_late_frame *l, const struct ft_frame_stats *fs,
				 uint64_t deadline)
{
	uint64_t tail = stage_deadline(l, fs->tail_margin_known, fs->tail_margin_ns);
	uint64_t hw = stage_deadline(l, fs->hw_margin_known, fs->hw_margin_ns);

	if (l->submit_ns > deadline) {
		l->driver_part = FT_DRIVER_PART_SUBMIT;
		l->past_deadline_ns = l->submit_ns - deadline;
	} else if (!l->tail_ns || !l->hw_done_ns) {
		l->driver_part = FT_DRIVER_PART_UNTRACED;
	} else if (l->tail_ns > tail) {
		l->driver_part = FT_DRIVER_PART_TAIL_START;
		l->past_deadline_ns = l->tail_ns - tail;
	} else if (l->hw_done_ns > hw) {
		l->driver_part = FT_DRIVER_PART_COMMIT_TAIL;
		l->past_deadline_ns = l->hw_done_ns - hw;
	} else {
		l->driver_part = FT_DRIVER_PART_LATCH;
	}
}

/* A late frame's primary class and the contributing ones, at @margin_ns. */
static void classify(struct ft_late_frame *l, const struct ft_frame_stats *fs, uint64_t margin_ns)
{
	uint64_t deadline = before_target(l, margin_ns);
	uint64_t when[FT_CLASSES];
	enum ft_frame_class primary = FT_CLASS_DRIVER;

	l->contributing = 0;
	l->past_deadline_ns = 0;
	l->driver_part = FT_DRIVER_PART_UNTRACED;
	past_deadline(l, deadline, when);
	/* a wait's end stands in for an untraced signal: producer or wakeup? */
	if (l->lost || (when[FT_CLASS_PRODUCER] && !l->ready_known)) {
		l->cls = FT_CLASS_UNKNOWN;
		return;
	}
	for (int k = FT_CLASS_PRODUCER; k <= FT_CLASS_WAKEUP; k++)
		if (when[k] > (primary == FT_CLASS_DRIVER ? 0 : when[primary]))
			primary = (enum ft_frame_class)k;
	for (int k = FT_CLASS_PRODUCER; k <= FT_CLASS_WAKEUP; k++)
		if (when[k] && k != (int)primary)
			l->contributing |= 1u << k;
	l->cls = primary;
	if (primary != FT_CLASS_DRIVER)
		l->past_deadline_ns = when[primary] - deadline;
	else
		classify_driver_part(l, fs, deadline);
}

/* The latch margin: the user's, or the CRTC's estimate so far (0 before any). */
static uint64_t margin(const struct ft_model *m, const struct ft_frame_stats *fs)
{
	return m->display.latch_margin_ns >= 0 ? (uint64_t)m->display.latch_margin_ns
		: fs->margin_ns;
}

/* The least time left before the target over the frames on time so far (after it: 0). */
static void least_left(uint64_t *margin, int *known, uint64_t target, uint64_t at)
{
	uint64_t slack = target > at ? target - at : 0;

	if (!*known || slack < *margin)
		*margin = slack;
	*known = 1;
}

/*
 * A frame on time: how little time it had left before its target when it
 * was ready (the latch margin, unless the user gave it), and with the
 * series at each stage of its commit tail.
 */
static void estimate_margins(struct ft_model *m, struct ft_frame_stats *fs,
			     const struct ft_late_frame *l)
{
	if (!l->target_ns || l->target_estimated)
		return;
	if (m->display.latch_margin_ns < 0)
		least_left(&fs->margin_ns, &fs->margin_known, l->target_ns,
			   ft_late_ready_from(l, l->submit_ns));
	if (l->tail_ns)
		least_left(&fs->tail_margin_ns, &fs->tail_margin_known, l->target_ns, l->tail_ns);
	if (l->hw_done_ns)
		least_left(&fs->hw_margin_ns, &fs->hw_margin_known, l->target_ns, l->hw_done_ns);
}

/* The compositor's cadence in vblanks: the median of its last target intervals. */
static uint32_t cadence(const struct ft_frame_stats *fs)
{
	uint32_t v[FT_CADENCE_RING];
	unsigned int n = fs->cadence_n;

	if (!n)
		return 1;
	memcpy(v, fs->cadence, n * sizeof(*v));
	for (unsigned int i = 1; i < n; i++)
		for (unsigned int j = i; j > 0 && v[j - 1] > v[j]; j--) {
			uint32_t t = v[j];

			v[j] = v[j - 1];
			v[j - 1] = t;
		}
	return v[n / 2] ? v[n / 2] : 1;
}

/* A sync_file poll began before @ts and ended after it. */
static int polling_at(const struct ft_model *m, uint64_t ts)
{
	const struct ft_waits *ws = &m->waits;

	for (unsigned int i = 0; i < ws->polls_done_n; i++)
		if (ws->polls_done[i].start < ts && ws->polls_done[i].end > ts)
			return 1;
	for (unsigned int i = 0; i < ws->n_open_polls; i++)
		if (ws->open_polls[i].start < ts)
			return 1;
	return 0;
}

/* The frame that ended a run of repeats, and what the run is told against. */
struct gap {
	struct ft_crtc *c;
	uint32_t out_seqno;		/* the frame that landed after the run */
	int late;			/* its index in c->late once kept, -1 */
	uint32_t cadence;		/* the compositor's, in vblanks */
};

/*
 * @n repeated vblanks from @first on, all of @kind: counted, and kept as a
 * run (idle ones only counted).  @late: the late frame whose wait the run
 * is, for the class it may get at the end (model_frames_finish), or -1.
 */
static void repeat_run(struct ft_model *m, const struct gap *g, uint32_t first, uint32_t n,
		       enum ft_repeat_kind kind, int late)
{
	struct ft_crtc *c = g->c;

	if (!n)
		return;
	c->fs.repeats[kind] += n;
	if (kind == FT_REPEAT_IDLE)
		return;
	c->runs_total++;
	if (c->n_runs >= MODEL_MAX_REPEAT_RUNS)
		return;
	if (!c->runs) {
		c->runs = calloc(MODEL_MAX_REPEAT_RUNS, sizeof(*c->runs));
		if (!c->runs) {
			m->error = 1;
			return;
		}
	}
	c->runs[c->n_runs++] = (struct ft_repeat_run){
		.first_seq = first, .count = n, .frame_out_seqno = g->out_seqno,
		.kind = kind, .late = late, .cadence = g->cadence,
	};
}

/*
 * @n vblanks from @first on with no commit pending, past the cadence:
 * waiting-poll where a sync_file poll (series) was in progress across the
 * vblank, else compositor-late.  Without polls in the trace that is one
 * run; with them each vblank's time comes from one lookup and the period,
 * not one each: a display idle for an hour repeats 216,000 vblanks.
 */
static void unpending_repeats(struct ft_model *m, const struct gap *g, uint32_t first, uint32_t n)
{
	const struct ft_pipe *p = model_pipe_find(m, g->c->pipe);
	enum ft_repeat_kind run_kind = FT_REPEAT_COMPOSITOR_LATE;
	uint64_t t0 = 0, period = 0;
	uint32_t run_start = 0;
	int est;

	if (n && p && (m->waits.polls_done_n || m->waits.n_open_polls)) {
		t0 = model_vblank_time(m, g->c->pipe, first, &est);
		period = hist_percentile(&p->period, 0.5);
	}
	for (uint32_t k = 0; t0 && k < n; k++) {
		enum ft_repeat_kind kind = polling_at(m, t0 + k * period) ?
			FT_REPEAT_WAITING_POLL : FT_REPEAT_COMPOSITOR_LATE;

		if (k && kind != run_kind) {
			repeat_run(m, g, first + run_start, k - run_start, run_kind, -1);
			run_start = k;
		}
		run_kind = kind;
	}
	repeat_run(m, g, first + run_start, n - run_start, run_kind, -1);
}

/*
 * The vblanks between the last frame and @l, each blamed: from @l's target
 * on, on @l's class; before it (no commit pending) idle within the
 * compositor's cadence, else waiting-poll or compositor-late.  @late: @l's
 * index in c->late once kept, -1.
 */
static void count_repeats(struct ft_model *m, struct ft_crtc *c, struct ft_late_frame *l, int late)
{
	struct ft_frame_stats *fs = &c->fs;
	uint32_t gap = l->landed_seq - fs->last_seq, before, idle, first = fs->last_seq + 1;
	struct gap g = { .c = c, .out_seqno = l->out_seqno, .late = late, .cadence = cadence(fs) };

	if (gap <= 1 || gap >= 0x80000000u)
		return;
	if (gap - 1 > fs->longest_repeat_run)
		fs->longest_repeat_run = gap - 1;
	if (!l->target_ns) {
		repeat_run(m, &g, first, gap - 1, FT_REPEAT_UNKNOWN, -1);
		return;
	}
	before = l->target_seq - fs->last_seq - 1;	/* last + 1 .. target - 1 */
	if ((int32_t)before < 0)
		before = 0;
	if (before > gap - 1)
		before = gap - 1;
	l->repeats = gap - 1 - before;
	idle = before < g.cadence - 1 ? before : g.cadence - 1;
	repeat_run(m, &g, first, idle, FT_REPEAT_IDLE, -1);
	unpending_repeats(m, &g, first + idle, before - idle);
	repeat_run(m, &g, first + before, l->repeats, repeat_of_class(l->cls), late);
}

/*
 * The landed vblank is in the ring now: the target's time (estimated from
 * the period when its vblank event is missing: vkms' timer overruns under
 * TCG drop some), and how late the out-fence signalled after it.
 */
static void frame_times(const struct ft_model *m, int pipe, struct ft_late_frame *l)
{
	l->target_ns = model_vblank_time(m, pipe, l->target_seq, &l->target_estimated);
	l->late_by_known = l->target_ns != 0;
	l->late_by_ns = l->target_ns && l->signal_ns > l->target_ns ? l->signal_ns - l->target_ns : 0;
}

static void keep_late(struct ft_model *m, struct ft_crtc *c, const struct ft_late_frame *l)
{
	c->late_count++;
	if (c->n_late >= MODEL_MAX_LATE)
		return;
	if (!c->late) {
		c->late = calloc(MODEL_MAX_LATE, sizeof(*c->late));
		if (!c->late) {
			m->error = 1;
			return;
		}
	}
	c->late[c->n_late++] = *l;
}

/* Present-to-present pacing, and the cadence the next frame is held to. */
static void pace(struct ft_model *m, struct ft_frame_stats *fs, const struct ft_late_frame *l,
		 uint64_t landed_ns)
{
	uint32_t iv = l->landed_seq - fs->last_seq;

	if (iv && iv < 0x80000000u) {
		fs->present_vblanks[(iv < FT_PRESENT_SLOTS ? iv : FT_PRESENT_SLOTS) - 1]++;
		if (hist_add(&fs->present_ns, landed_ns - fs->last_ns))
			m->error = 1;
	}
	iv = l->target_seq - fs->last_target;
	if (l->target_ns && iv && iv < 0x80000000u) {
		fs->cadence[fs->cadence_head] = iv;
		fs->cadence_head = (fs->cadence_head + 1) % FT_CADENCE_RING;
		if (fs->cadence_n < FT_CADENCE_RING)
			fs->cadence_n++;
	}
}

/* Facts only the frame before can give: an earlier commit in the way. */
static void queued_behind(const struct ft_frame_stats *fs, struct ft_late_frame *l)
{
	if (!fs->have_last || !l->target_ns || l->queued_until_ns)
		return;
	if ((int32_t)(fs->last_seq - l->target_seq) >= 0) {
		l->queued_until_ns = fs->last_ns;
		l->queued_inferred = 1;
	}
}

/* The frame as judged now, for the passes that follow the model. */
static void note_landed(struct ft_model *m, const struct ft_crtc *c, const struct ft_late_frame *l,
			int late, int kept, uint64_t landed_ns)
{
	struct ft_display *d = &m->display;
	struct ft_landed *n = &d->landed[d->landed_total++ % MODEL_LANDED_RING];

	n->crtc = (uint32_t)(c - d->crtcs.items);
	n->outcome = !l->target_ns ? FT_LANDED_NOT_JUDGED : late ? FT_LANDED_LATE : FT_LANDED_ON_TIME;
	n->late = kept;
	n->landed_ns = landed_ns;
	n->frame = *l;
}

/**
 * model_landed() - the @n-th frame that landed (from 0), while remembered
 * @m: the model
 * @n: below m->display.landed_total
 *
 * Return: the frame, or NULL when it is out of the ring (more than
 * MODEL_LANDED_RING frames landed since).
 */
const struct ft_landed *model_landed(const struct ft_model *m, uint64_t n)
{
	if (n >= m->display.landed_total || m->display.landed_total - n > MODEL_LANDED_RING)
		return NULL;
	return &m->display.landed[n % MODEL_LANDED_RING];
}

/**
 * model_frame_landed() - a frame of CRTC @c went out on vblank @landed_ns
 * @m: the model
 * @c: its CRTC
 * @l: what the out-fence's signal found (target, waits, commit)
 * @target_known: @l->target_seq is its target vblank
 * @landed_ns: the time of the vblank it landed on
 */
void model_frame_landed(struct ft_model *m, struct ft_crtc *c, struct ft_late_frame *l,
			int target_known, uint64_t landed_ns)
{
	struct ft_frame_stats *fs = &c->fs;
	int late, kept;

	if (target_known)
		frame_times(m, c->pipe, l);
	late = l->target_ns && (int32_t)(l->landed_seq - l->target_seq) >= 1;

	fs->new_vblanks++;
	if (l->in_error)
		fs->error_fence++;
	l->lost = model_lost_between(m, l->submit_ns, landed_ns);
	queued_behind(fs, l);
	if (!l->target_ns) {
		fs->unjudged++;
	} else if (late) {
		classify(l, fs, margin(m, fs));
		fs->by_class[l->cls]++;
	} else {
		fs->on_time++;
		estimate_margins(m, fs, l);
	}
	kept = late && c->n_late < MODEL_MAX_LATE ? (int)c->n_late : -1;
	if (fs->have_last) {
		count_repeats(m, c, l, kept);
		pace(m, fs, l, landed_ns);
	} else {
		fs->first_ns = landed_ns;
	}
	if (late)
		keep_late(m, c, l);
	note_landed(m, c, l, late, kept, landed_ns);
	fs->have_last = 1;
	fs->last_seq = l->landed_seq;
	fs->last_target = l->target_seq;
	fs->last_ns = landed_ns;
}

static void stage_time(struct ft_late_frame *l, uint64_t commit, int hw_done, uint64_t ts)
{
	uint64_t *at = hw_done ? &l->hw_done_ns : &l->tail_ns;

	if (l->commit == commit && !*at)
		*at = ts;
}

#define STAGE_LOOKBACK 8	/* late frames searched for a stage traced after the landing */

/**
 * model_frame_stage_late() - a commit stage traced after its out-fence's signal
 * @m: the model
 * @context: the out-fence's context: its CRTC
 * @commit: the series' commit id
 * @hw_done: drm_fence_hw_done (else drm_fence_commit_tail)
 * @ts: when
 *
 * The flip is armed before hw_done, so a vblank in between signals the
 * out-fence first: the frame waiting for its vblank event, or the late
 * frame kept, learns it for its final class (model_frames_finish()).
 */
void model_frame_stage_late(struct ft_model *m, uint64_t context, uint64_t commit, int hw_done,
			    uint64_t ts)
{
	uint32_t ci = model_context_index(m, context);
	const struct ft_timeline *t = ci != FT_NONE ? model_context_row(m, ci) : NULL;
	struct ft_crtc *c;

	for (unsigned int i = 0; i < m->n_cpus; i++)
		if (m->display.delivered[i].pending)
			stage_time(&m->display.delivered[i].frame, commit, hw_done, ts);
	if (!t || t->crtc < 0)
		return;
	c = &m->display.crtcs.items[t->crtc];
	for (unsigned int k = c->n_late; k-- > 0 && k + STAGE_LOOKBACK >= c->n_late;)
		stage_time(&c->late[k], commit, hw_done, ts);
}

/* The end of the trace: the kept late frames classed at the final margin. */
void model_frames_finish(struct ft_model *m)
{
	for (unsigned int i = 0; i < m->display.crtcs.n; i++) {
		struct ft_crtc *c = &m->display.crtcs.items[i];
		struct ft_frame_stats *fs = &c->fs;

		fs->margin_ns = margin(m, fs);
		fs->margin_known |= m->display.latch_margin_ns >= 0;
		for (unsigned int k = 0; k < c->n_late; k++) {
			struct ft_late_frame *l = &c->late[k];

			fs->by_class[l->cls]--;
			fs->repeats[repeat_of_class(l->cls)] -= l->repeats;
			classify(l, fs, fs->margin_ns);
			fs->by_class[l->cls]++;
			fs->repeats[repeat_of_class(l->cls)] += l->repeats;
		}
		for (unsigned int k = 0; k < c->n_runs; k++)
			if (c->runs[k].late >= 0 && (unsigned int)c->runs[k].late < c->n_late)
				c->runs[k].kind = repeat_of_class(c->late[c->runs[k].late].cls);
	}
}
