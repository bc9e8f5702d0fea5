// SPDX-License-Identifier: GPL-2.0
/*
 * model-vblank-ring.c - vblank pipes and the ring of their recent vblanks:
 * which vblank came when, which one a commit targets.  Read by the display
 * (pairing, late frames) and the frame timeline (repeats) alike.
 */
#include "model-internal.h"

/* Pipe @pipe, or NULL before its first vblank. */
struct ft_pipe *model_pipe_find(const struct ft_model *m, int pipe)
{
	for (unsigned int i = 0; i < m->display.pipes.n; i++)
		if (m->display.pipes.items[i].pipe == pipe)
			return &m->display.pipes.items[i];
	return NULL;
}

/* Pipe @pipe, made on first sight (NULL: out of memory, m->error set). */
struct ft_pipe *model_pipe_get(struct ft_model *m, int pipe)
{
	struct ft_pipe *p = model_pipe_find(m, pipe);

	if (p)
		return p;
	p = vec_push(&m->display.pipes);
	if (!p) {
		m->error = 1;
		return NULL;
	}
	p->pipe = pipe;
	return p;
}

/*
 * The vblank before @ts on @p (its seq and time), from the ring of recent
 * vblanks.  Return: 0 if found, -1 if the ring does not reach back so far.
 */
static int vblank_before(const struct ft_pipe *p, uint64_t ts, uint32_t *seq, uint64_t *when)
{
	for (unsigned int k = 1; k <= p->ring_n; k++) {
		unsigned int i = (p->ring_head + MODEL_VBLANK_RING - k) % MODEL_VBLANK_RING;

		if (p->ring_ts[i] < ts) {
			*seq = p->ring_seq[i];
			*when = p->ring_ts[i];
			return 0;
		}
	}
	return -1;
}

static uint64_t vblank_time(const struct ft_pipe *p, uint32_t seq)
{
	for (unsigned int k = 1; k <= p->ring_n; k++) {
		unsigned int i = (p->ring_head + MODEL_VBLANK_RING - k) % MODEL_VBLANK_RING;

		if (p->ring_seq[i] == seq)
			return p->ring_ts[i];
	}
	return 0;
}

/**
 * model_vblank_time() - when vblank @seq of @pipe was, as far as the trace says
 * @m: the model
 * @pipe: the vblank pipe
 * @seq: the vblank's sequence
 * @estimated: set when it is not among the recent vblanks traced, and the
 *	time is the nearest one's plus or minus the median period
 *
 * Return: its time, or 0 when nothing on the pipe gives it.
 */
uint64_t model_vblank_time(const struct ft_model *m, int pipe, uint32_t seq, int *estimated)
{
	const struct ft_pipe *p = model_pipe_find(m, pipe);
	uint64_t t = p ? vblank_time(p, seq) : 0, period;
	unsigned int last;
	int32_t ahead;

	*estimated = 0;
	if (t || !p || !p->ring_n)
		return t;
	period = hist_percentile(&p->period, 0.5);
	last = (p->ring_head + MODEL_VBLANK_RING - 1) % MODEL_VBLANK_RING;
	ahead = (int32_t)(seq - p->ring_seq[last]);
	if (!period || (ahead < 0 && (uint64_t)-(int64_t)ahead * period >= p->ring_ts[last]))
		return 0;
	*estimated = 1;
	return (uint64_t)((int64_t)p->ring_ts[last] + (int64_t)ahead * (int64_t)period);
}

/*
 * The first vblank after @submit on @p: the one after the last traced
 * before it, or else (every vblank the pipe traced came after it) the
 * first traced, or @landing itself when none was yet, as long as the ring
 * has let none go.  Return: 0, or -1 unknown.
 */
int model_target_vblank(const struct ft_pipe *p, uint64_t submit, uint32_t landing, uint32_t *seq)
{
	uint64_t when;

	if (!vblank_before(p, submit, seq, &when)) {
		*seq += 1;
		return 0;
	}
	if (p->ring_n == MODEL_VBLANK_RING)
		return -1;
	*seq = p->ring_n ? p->ring_seq[(p->ring_head + MODEL_VBLANK_RING - p->ring_n) % MODEL_VBLANK_RING]
		: landing;
	return 0;
}

