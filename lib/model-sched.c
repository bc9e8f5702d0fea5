// SPDX-License-Identifier: GPL-2.0
/*
 * model-sched.c - the scheduler's view of the fence waits in progress
 * (sched:sched_wakeup and sched:sched_switch, which `record --sched` or
 * `trace-cmd record -e sched_wakeup -e sched_switch` add): when a waiting
 * task was made runnable, and which task ran longest on the CPU it was
 * woken onto until its turn.  A wait's end says when the waiter ran, not
 * why it ran late: a frame of class wakeup names that task.
 *
 * The longest holder, not the last: after a real-time hog lets go, a
 * kworker may still run before the waiter, and it is the hog that made
 * the waiter late.  A task woken while still on its CPU (Linux traces
 * sched_wakeup for it too) needs no switch to run; if it is switched out
 * before it ends its wait, the holders count from then.  One pulled to
 * another CPU to run was held up by what ran on the one it was woken
 * onto.  Only the waits in progress are looked at (at most
 * MODEL_MAX_WAITS): a trace full of other tasks' switches costs a short
 * scan per event, and memory only for the names of the holders found.
 */
#include <stdio.h>
#include <string.h>

#include "model-internal.h"

/* sched_wakeup: a waiting task made runnable; a later one replaces it. */
void model_sched_wakeup(struct ft_model *m, const struct ft_event *ev)
{
	int pid = (int)ev->v[FT_PID], cpu = (int)ev->v[FT_TARGET_CPU];
	int on_cpu = cpu >= 0 && (unsigned int)cpu < m->n_cpus && m->cpu_current[cpu] == pid;

	for (unsigned int i = 0; i < m->waits.n_open; i++) {
		if (m->waits.open[i].pid != pid)
			continue;
		m->waits.open[i].wake = (struct ft_wake_track){ .ts = ev->ts, .from = ev->ts,
			.cpu = cpu, .held_by = FT_HELD_UNKNOWN, .on_cpu = on_cpu };
	}
}

/*
 * Keep switch @ev's prev_comm as the name of holder @pid (the trace's own
 * list may lack it): read here, once a holder is found, not per switch.
 */
static void name_holder(struct ft_model *m, int pid, const struct ft_event *ev)
{
	struct ft_task_name *t;
	char comm[16];
	uint32_t idx;

	if (!m->dec || !ft_event_str(m->dec, ev, FT_PREV_COMM, comm, sizeof(comm))[0])
		return;
	if (!keymap_get(&m->holder_of_pid, (uint64_t)pid, &idx)) {
		t = vec_push(&m->holder_names);
		if (!t || keymap_put(&m->holder_of_pid, (uint64_t)pid, m->holder_names.n - 1)) {
			m->error = 1;
			return;
		}
	} else {
		t = &m->holder_names.items[idx];
	}
	snprintf(t->comm, sizeof(t->comm), "%s", comm);
}

/*
 * @pid ran on the waiter's CPU from @from (or the wakeup) to @to: the
 * longest so far?  @ev: the switch that names it (its prev), or NULL.
 */
static void held(struct ft_model *m, struct ft_wake_track *w, int pid, const struct ft_event *ev,
		 uint64_t from, uint64_t to)
{
	uint64_t ns;

	if (pid < 0)
		return;
	if (from < w->from)
		from = w->from;
	ns = to > from ? to - from : 0;
	if (w->held_by != FT_HELD_UNKNOWN && ns < w->held_ns)
		return;
	w->held_ns = ns;
	w->held_by = pid;
	if (ev)
		name_holder(m, pid, ev);
}

/* What a switch on @cpu from @prev to @next means for open wait @o's task. */
static void follow(struct ft_model *m, struct ft_open_wait *o, const struct ft_event *ev,
		   int prev, int next)
{
	struct ft_wake_track *w = &o->wake;
	int cpu = ev->cpu, on = w->cpu;

	if (!w->ts || w->ran)
		return;
	if (prev == o->pid) {	/* woken while running, now put aside: held from here */
		w->on_cpu = 0;
		w->from = ev->ts;
		w->cpu = cpu;
		return;
	}
	if (cpu == on)
		held(m, w, prev, ev, m->cpu_switch_ts[cpu], ev->ts);
	if (next != o->pid)
		return;
	w->ran = 1;
	if (cpu != on && on >= 0 && (unsigned int)on < m->n_cpus)	/* pulled over */
		held(m, w, m->cpu_current[on], NULL, m->cpu_switch_ts[on], ev->ts);
}

/* sched_switch: the task it switches from held its CPU since the switch before. */
void model_sched_switch(struct ft_model *m, const struct ft_event *ev)
{
	int prev = (int)ev->v[FT_PREV_PID], next = (int)ev->v[FT_NEXT_PID];

	if (ev->cpu < 0 || (unsigned int)ev->cpu >= m->n_cpus)
		return;
	for (unsigned int i = 0; i < m->waits.n_open; i++)
		follow(m, &m->waits.open[i], ev, prev, next);
	m->cpu_switch_ts[ev->cpu] = ev->ts;
	m->cpu_current[ev->cpu] = next;
}

/**
 * model_wakeup_of() - what the scheduler said of open wait @o, ending at
 * @end on a fence signalled at @signal_ts (0: not traced): a wakeup before
 * the signal did not end the wait (not traced)
 */
struct ft_wakeup model_wakeup_of(const struct ft_open_wait *o, uint64_t end, uint64_t signal_ts)
{
	const struct ft_wake_track *w = &o->wake;
	struct ft_wakeup r = { .held_by = FT_HELD_UNKNOWN };

	if (!w->ts || w->ts < signal_ts || w->ts > end)
		return r;
	r.traced = 1;
	r.cpu = (int16_t)w->cpu;
	r.before_end_ns = end - w->ts > UINT32_MAX ? UINT32_MAX : (uint32_t)(end - w->ts);
	if (!w->ran && w->on_cpu) {
		r.held_by = o->pid;	/* never left its CPU */
	} else if (w->ran) {
		r.held_by = w->held_by;
		r.held_ns = w->held_ns > UINT32_MAX ? UINT32_MAX : (uint32_t)w->held_ns;
	}
	return r;
}

/** model_holder_name() - a holder's name from its switch, or NULL */
const char *model_holder_name(const struct ft_model *m, int pid)
{
	uint32_t idx;

	if (!keymap_get(&m->holder_of_pid, (uint64_t)pid, &idx))
		return NULL;
	return m->holder_names.items[idx].comm;
}
