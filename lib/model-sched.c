// SPDX-License-Identifier: GPL-2.0
/*
 * model-sched.c - the scheduler's view of the fence waits in progress
 * (sched:sched_wakeup and sched:sched_switch, which `record --sched` or
 * `trace-cmd record -e sched_wakeup -e sched_switch` add): when a waiting
 * task was made runnable, and which task held its CPU the longest until
 * it got its turn.  A wait's end says when the waiter ran, not why it ran
 * late: a frame of class wakeup names that task.
 *
 * The longest holder, not the last: after a real-time hog lets go, a
 * kworker may still run before the waiter, and it is the hog that made
 * the waiter late.  Only the waits in progress are looked at (at most
 * MODEL_MAX_WAITS), so a trace full of other tasks' switches costs a short
 * scan per event and no memory.
 */
#include "model-internal.h"

/* sched_wakeup: a waiting task made runnable; a later one replaces it. */
void model_sched_wakeup(struct ft_model *m, const struct ft_event *ev)
{
	int pid = (int)ev->v[FT_PID];

	for (unsigned int i = 0; i < m->waits.n_open; i++) {
		struct ft_wakeup *w = &m->waits.open[i].wakeup;

		if (m->waits.open[i].pid != pid)
			continue;
		*w = (struct ft_wakeup){ .ts = ev->ts, .cpu = (int)ev->v[FT_TARGET_CPU] };
	}
}

/* @prev ran on the woken waiter's CPU from @from to @to: the longest so far? */
static void held(struct ft_wakeup *w, int prev, uint64_t from, uint64_t to)
{
	uint64_t ns;

	if (from < w->ts)
		from = w->ts;
	ns = to > from ? to - from : 0;
	if (ns > UINT32_MAX)
		ns = UINT32_MAX;
	if (ns >= w->held_ns) {
		w->held_ns = (uint32_t)ns;
		w->held_by = prev;
	}
}

/*
 * sched_switch on @ev's CPU: the task it switches from held that CPU since
 * the CPU's switch before; a woken waiter switched to has run.
 */
void model_sched_switch(struct ft_model *m, const struct ft_event *ev)
{
	int prev = (int)ev->v[FT_PREV_PID], next = (int)ev->v[FT_NEXT_PID];
	int cpu = ev->cpu >= 0 && (unsigned int)ev->cpu < m->n_cpus ? ev->cpu : -1;
	uint64_t since = cpu >= 0 ? m->cpu_switch_ts[cpu] : ev->ts;

	for (unsigned int i = 0; i < m->waits.n_open; i++) {
		struct ft_open_wait *o = &m->waits.open[i];
		struct ft_wakeup *w = &o->wakeup;

		if (!w->ts || w->ran)
			continue;
		if (prev == o->pid) {	/* woken before it had left its CPU */
			*w = (struct ft_wakeup){ .ts = w->ts, .cpu = ev->cpu, .ran = 1, .held_by = prev };
			continue;
		}
		if (w->cpu == ev->cpu)
			held(w, prev, since, ev->ts);
		if (next == o->pid) {
			w->ran = 1;
			w->cpu = ev->cpu;
		}
	}
	if (cpu >= 0)
		m->cpu_switch_ts[cpu] = ev->ts;
}
