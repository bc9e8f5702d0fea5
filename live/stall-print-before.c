// SPDX-License-Identifier: GPL-2.0
/*
 * stall-print-before.c - what `fence-trace stall` says about a sync_file
 * poll (or epoll_wait) found in progress at start (stall-before.c): the
 * polling task, the sync_file's holder and fd, the fence, since when at
 * least; then that its fence signalled.  And a commit found blocked
 * behind an earlier one: the task, what it waits for, where; then that it
 * runs again.  The dma_fence
 * waits found at start are printed with the others (stall-print.c).
 */
#include <inttypes.h>
#include <stdio.h>

#include "json-str.h"
#include "stall.h"
#include "stall-before.h"
#include "stall-debugfs.h"
#include "time-span.h"

static void names(const struct before_poll *p, const char **driver, const char **timeline)
{
	*driver = p->names.driver[0] ? p->names.driver : "?";
	*timeline = p->names.timeline[0] ? p->names.timeline : "(name unknown)";
}

static void poll_json(struct stall_ctx *c, const struct before_poll *p, uint64_t now)
{
	const char *drv, *tl;

	names(p, &drv, &tl);
	printf("{\"event\": \"poll_stall\", \"start_ns\": %" PRIu64 ", \"waited_ns\": %" PRIu64
	       ", \"pid\": %u, \"context\": %" PRIu64 ", \"seqno\": %" PRIu64 ", \"timeline\": ",
	       p->start, span_ns(now, p->start, &c->backwards), p->pid, p->context, p->seqno);
	json_str(stdout, tl);
	printf(", \"began_before_tool\": true, \"comm\": ");
	json_str(stdout, p->comm);
	printf(", \"driver\": ");
	json_str(stdout, drv);
	printf(", \"holder_tgid\": %u, \"fd\": %u, \"via\": \"%s\"", p->tgid, p->fd,
	       p->epoll ? "epoll_wait" : "poll");
	stall_debugfs_json(&(struct stall_target){ -1, p->context, p->seqno });
	printf("}\n");
}

/**
 * stall_print_before_poll() - a poll on a sync_file that began before the tool
 * @c: the stall
 * @p: the poll
 * @now: CLOCK_MONOTONIC now
 */
void stall_print_before_poll(struct stall_ctx *c, const struct before_poll *p, uint64_t now)
{
	const char *drv, *tl;

	if (c->json) {
		poll_json(c, p, now);
		fflush(stdout);
		return;
	}
	names(p, &drv, &tl);
	printf("STALL: %.16s-%u has polled a sync_file for at least %.1f ms (%s, outside dma_fence_wait) on %s %s context %" PRIu64 " seqno %" PRIu64 " [began before the tool]\n",
	       p->comm, p->pid, span_ms(now, p->start, &c->backwards),
	       p->epoll ? "in epoll_wait() on an epoll watching it" : "a poll() wait", drv, tl,
	       p->context, p->seqno);
	printf("  began before fence-trace started: waiting since at least %.3f s (CLOCK_MONOTONIC): the task has not run since then\n",
	       p->start / 1e9);
	printf("  the sync_file: %s-%u fd %u%s%s\n", p->holder, p->tgid, p->fd,
	       p->names.holders[0] ? "; held by " : "", p->names.holders);
	printf("  created before the tool started: creator unknown\n");
	if (p->names.commit >= 0)
		printf("  commit %" PRId64 ", plane %d waits on it too (the series' fence_timeline)\n",
		       p->names.commit, p->names.plane);
	stall_debugfs_text(&(struct stall_target){ -1, p->context, p->seqno });
	fflush(stdout);
}

/**
 * stall_print_before_poll_end() - its fence signalled (at @signal_ts)
 * @c: the stall
 * @p: the poll
 * @signal_ts: when its timeline signalled it
 * @now: when that was seen
 */
void stall_print_before_poll_end(struct stall_ctx *c, const struct before_poll *p, uint64_t signal_ts,
				 uint64_t now)
{
	if (c->json)
		printf("{\"event\": \"poll_cleared\", \"start_ns\": %" PRIu64 ", \"end_ns\": %" PRIu64
		       ", \"stall_ns\": %" PRIu64 ", \"pid\": %u, \"context\": %" PRIu64 ", \"seqno\": %" PRIu64
		       ", \"began_before_tool\": true}\n", p->start, signal_ts,
		       span_ns(signal_ts, p->start, &c->backwards), p->pid, p->context, p->seqno);
	else
		printf("CLEARED after at least %.1f ms (the poll began before the tool): the polled sync_file's fence signalled (context %" PRIu64 " seqno %" PRIu64 "), seen %.1f ms later\n",
		       span_ms(signal_ts, p->start, &c->backwards), p->context, p->seqno,
		       span_ms(now, signal_ts, &c->backwards));
	fflush(stdout);
}

static void behind_json(struct stall_ctx *c, const struct before_behind *b, uint64_t now)
{
	printf("{\"event\": \"behind_stall\", \"start_ns\": %" PRIu64 ", \"waited_ns\": %" PRIu64
	       ", \"pid\": %u, \"tgid\": %u, \"comm\": ", b->start, span_ns(now, b->start, &c->backwards),
	       b->pid, b->tgid);
	json_str(stdout, b->comm);
	printf(", \"stage\": ");
	json_str(stdout, b->kind->stage);
	printf(", \"where\": ");
	json_str(stdout, b->where);
	printf(", \"began_before_tool\": true");
	stall_debugfs_json(&(struct stall_target){ -1, 0, 0 });
	printf("}\n");
}

/**
 * stall_print_before_behind() - a commit blocked behind an earlier one (or
 * its own flip), found at start
 * @c: the stall
 * @b: the commit's task
 * @now: CLOCK_MONOTONIC now
 */
void stall_print_before_behind(struct stall_ctx *c, const struct before_behind *b, uint64_t now)
{
	if (c->json) {
		behind_json(c, b, now);
		fflush(stdout);
		return;
	}
	printf("COMMIT STALL: %.16s-%u (thread %u) has been blocked at least %.1f ms behind an earlier commit (%s), not on an in-fence [began before the tool]\n",
	       b->comm, b->tgid, b->pid, span_ms(now, b->start, &c->backwards), b->kind->stage);
	printf("  began before fence-trace started: waiting since at least %.3f s (CLOCK_MONOTONIC): the task has not run since then\n",
	       b->start / 1e9);
	printf("  what: %s\n  where: %s\n", b->kind->what, b->where);
	printf("  the earlier commit's own wait, if it is on an in-fence, is a STALL of its own\n");
	stall_debugfs_text(&(struct stall_target){ -1, 0, 0 });
	fflush(stdout);
}

/**
 * stall_print_before_behind_end() - that commit's task ran again, seen at
 * @now (the tasks are read once a second while one is left)
 * @c: the stall
 * @b: the commit's task
 * @now: when that was seen
 */
void stall_print_before_behind_end(struct stall_ctx *c, const struct before_behind *b, uint64_t now)
{
	if (c->json)
		printf("{\"event\": \"behind_cleared\", \"start_ns\": %" PRIu64 ", \"seen_ns\": %" PRIu64
		       ", \"stall_ns\": %" PRIu64 ", \"pid\": %u, \"stage\": \"%s\", \"began_before_tool\": true}\n",
		       b->start, now, span_ns(now, b->start, &c->backwards), b->pid, b->kind->stage);
	else
		printf("CLEARED after at least %.1f ms (the commit's wait began before the tool): %.16s-%u (thread %u) runs again, its %s wait over (seen within 1 s)\n",
		       span_ms(now, b->start, &c->backwards), b->comm, b->tgid, b->pid, b->kind->stage);
	fflush(stdout);
}
