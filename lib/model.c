// SPDX-License-Identifier: GPL-2.0
/*
 * model.c - the model's entry points (see model.h): each event goes to the
 * part that owns it (fences and timelines in model-fences.c, waits in
 * model-wait.c, the display in model-display.c, commits in model-commit.c,
 * merged fences in model-members.c, the scheduler's events in
 * model-sched.c); the event stream and what it lost
 * are kept here.
 */
#include <stdlib.h>
#include <string.h>

#include "model.h"
#include "model-internal.h"

int model_init(struct ft_model *m, struct ft_decoder *dec, unsigned int cpus)
{
	memset(m, 0, sizeof(*m));
	m->dec = dec;
	m->n_cpus = cpus ? cpus : 1;
	m->waits.stall_ns = MODEL_STALL_NS;
	m->display.latch_margin_ns = -1;
	m->display.delivered = calloc(m->n_cpus, sizeof(*m->display.delivered));
	m->cpu_last_ts = calloc(m->n_cpus, sizeof(*m->cpu_last_ts));
	m->cpu_switch_ts = calloc(m->n_cpus, sizeof(*m->cpu_switch_ts));
	m->cpu_current = malloc(m->n_cpus * sizeof(*m->cpu_current));
	if (!m->display.delivered || !m->cpu_last_ts || !m->cpu_switch_ts || !m->cpu_current)
		return -1;
	for (unsigned int i = 0; i < m->n_cpus; i++)
		m->cpu_current[i] = -1;
	return 0;
}

/* Events were lost on @ev's CPU between its previous event and @ev. */
static void account_lost(struct ft_model *m, const struct ft_event *ev)
{
	uint64_t from = m->first_ts;

	if (ev->missed > 0)
		m->lost += (uint64_t)ev->missed;
	else
		m->lost_unknown++;
	if (ev->cpu >= 0 && (unsigned int)ev->cpu < m->n_cpus && m->cpu_last_ts[ev->cpu])
		from = m->cpu_last_ts[ev->cpu];
	if (m->n_lost_windows < MODEL_MAX_LOST_WINDOWS) {
		m->lost_windows[m->n_lost_windows].from = from;
		m->lost_windows[m->n_lost_windows++].to = ev->ts;
	} else {
		m->lost_windows_overflow = 1;
	}
}

/* Events were lost where nobody can tell: every window may be short. */
void model_lost_everywhere(struct ft_model *m)
{
	m->lost_windows_overflow = 1;
}

/**
 * model_add() - feed one decoded event, in timestamp order
 */
void model_add(struct ft_model *m, const struct ft_event *ev)
{
	if (!m->events++)
		m->first_ts = ev->ts;
	m->last_ts = ev->ts;
	if (ev->missed)
		account_lost(m, ev);
	if (ev->cpu >= 0 && (unsigned int)ev->cpu < m->n_cpus)
		m->cpu_last_ts[ev->cpu] = ev->ts;
	switch (ev->id) {
	case FT_EV_FENCE_INIT:
	case FT_EV_FENCE_EMIT:
	case FT_EV_FENCE_SIGNALED:
	case FT_EV_FENCE_DESTROY:
	case FT_EV_FENCE_ERROR: model_fence_event(m, ev, model_made_last_take(m, ev)); break;
	/* the waits too end what a task's last init made it (model-identity.c) */
	case FT_EV_FENCE_WAIT_START:
		model_made_last_take(m, ev);
		model_wait_start(m, ev, model_event_key(ev));
		break;
	case FT_EV_FENCE_WAIT_END:
		model_made_last_take(m, ev);
		model_wait_end(m, ev, model_event_key(ev));
		break;
	case FT_EV_VBLANK: model_vblank(m, ev); break;
	case FT_EV_VBLANK_DELIVERED: model_vblank_delivered(m, ev); break;
	case FT_EV_FENCE_MEMBER: model_fence_member(m, ev); break;
	case FT_EV_SCHED_WAKEUP: model_sched_wakeup(m, ev); break;
	case FT_EV_SCHED_SWITCH: model_sched_switch(m, ev); break;
	default: model_commit_event(m, ev); break;
	}
}

/* At the end of the trace: what is still pending counts as never done. */
void model_finish(struct ft_model *m)
{
	model_display_finish(m);
	model_fences_finish(m);
}

void model_free(struct ft_model *m)
{
	model_fences_free(&m->fences);
	model_waits_free(&m->waits);
	model_display_free(&m->display);
	model_commits_free(&m->commits);
	model_members_free(&m->members);
	free(m->cpu_last_ts);
	free(m->cpu_switch_ts);
	free(m->cpu_current);
	keymap_free(&m->holder_of_pid);
	vec_free_items((void **)&m->holder_names.items, &m->holder_names.n, &m->holder_names.cap);
	memset(m, 0, sizeof(*m));
}
