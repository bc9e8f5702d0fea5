// SPDX-License-Identifier: GPL-2.0
/*
 * top-pending.c - `fence-trace top --pending`: every unsignalled fence,
 * oldest first.  Two sources: the BPF live map (fences created since the
 * tool started: age and creator known), and the sync_file fds user space
 * holds right now, found by walking /proc/<pid>/fd and asking each
 * sync_file (through pidfd_getfd) with SYNC_IOC_FILE_INFO.  A held fence
 * older than the tool has no known age or creator, and says so.
 */
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "fence-latency.h"	/* before the skeleton: its .bss uses struct fl_live */
#include "fence-latency.skel.h"
#include "parse-num.h"
#include "proc-comm.h"
#include "sync.h"
#include "top.h"
#include "time-span.h"

static int is_sync_file(int pid, const char *fd)
{
	char path[320], target[64];
	ssize_t n;

	snprintf(path, sizeof(path), "/proc/%d/fd/%s", pid, fd);
	n = readlink(path, target, sizeof(target) - 1);
	if (n < 0)
		return 0;
	target[n] = '\0';
	return strcmp(target, "anon_inode:sync_file") == 0;
}

static void add_held(struct held_fence *h, int pid, int fd, const struct sync_summary *s)
{
	memset(h, 0, sizeof(*h));
	h->pid = pid;
	h->fd = fd;
	proc_comm(pid, h->comm, sizeof(h->comm));
	snprintf(h->driver, sizeof(h->driver), "%s", s->driver);
	snprintf(h->timeline, sizeof(h->timeline), "%s", s->timeline);
	h->have_seqno = s->have_seqno;
	h->context = s->context;
	h->seqno = (uint64_t)s->seqno;
}

static unsigned int scan_task(int pid, struct held_fence *held, unsigned int n, unsigned int max)
{
	char path[64];
	struct dirent *e;
	DIR *d;

	snprintf(path, sizeof(path), "/proc/%d/fd", pid);
	d = opendir(path);
	while (d && (e = readdir(d)) && n < max) {
		struct sync_summary s;
		unsigned int fd;
		int copy;

		if (parse_uint(e->d_name, 1u << 30, &fd) || !is_sync_file(pid, e->d_name))
			continue;
		copy = sync_file_grab(pid, (int)fd);
		if (copy < 0)
			continue;
		if (sync_file_summary(copy, &s) == 0 && s.status == 0)
			add_held(&held[n++], pid, (int)fd, &s);
		close(copy);
	}
	if (d)
		closedir(d);
	return n;
}

/**
 * top_find_held() - the unsignalled sync_files every task holds
 *
 * Return: how many were found (at most @max).
 */
int top_find_held(struct held_fence *held, unsigned int max)
{
	DIR *d = opendir("/proc");
	unsigned int n = 0, pid;
	struct dirent *e;

	while (d && (e = readdir(d)) && n < max)
		if (parse_uint(e->d_name, 1u << 30, &pid) == 0 && (int)pid != getpid())
			n = scan_task((int)pid, held, n, max);
	if (d)
		closedir(d);
	return (int)n;
}

static int older(const void *a, const void *b)
{
	const struct fl_live *x = a, *y = b;

	return x->ts < y->ts ? -1 : x->ts > y->ts;
}

/*
 * The live map's fences, all of them read and sorted so that the list
 * keeps the oldest TOP_MAX_PENDING; t->n_unlisted: the younger rest.
 */
static void read_live(struct top_ctx *t)
{
	unsigned int n = latency_live_copy(&t->lat, t->live, FL_MAX_LIVE);

	qsort(t->live, n, sizeof(t->live[0]), older);
	t->n_live = n < TOP_MAX_PENDING ? n : TOP_MAX_PENDING;
	t->n_unlisted = n - t->n_live;
}

/* Is @h's fence one of those created since we started but not listed? */
static int held_unlisted(const struct top_ctx *t, const struct held_fence *h)
{
	for (unsigned int i = t->n_live; h->have_seqno && i < t->n_live + t->n_unlisted; i++)
		if (t->live[i].context == h->context && t->live[i].seqno == h->seqno)
			return 1;
	return 0;
}

/* Print one row per holder of @l (every fd of every task), or one with none. */
static void print_live(struct top_ctx *t, const struct fl_live *l, uint64_t now)
{
	const struct fence_name *n;
	char comm[16], created[40];
	int rows = 0;

	n = names_find(&t->lat.names, l->context);
	proc_comm((int)l->tgid, comm, sizeof(comm));
	snprintf(created, sizeof(created), "%s-%u", comm, l->tgid);
	for (unsigned int i = 0; i <= t->n_held; i++) {
		struct held_fence *h = i < t->n_held ? &t->held[i] : NULL;
		const char *driver, *timeline;

		if (h ? !h->have_seqno || h->context != l->context || h->seqno != l->seqno : rows)
			continue;
		driver = n ? n->driver : h ? h->driver : "?";
		timeline = n ? n->timeline : h ? h->timeline : "?";
		printf("%-10.10s %-20.20s %8" PRIu64 " %10" PRIu64 " %7.1f ms  %-24s", driver, timeline,
		       (uint64_t)l->context, (uint64_t)l->seqno, span_ms(now, l->ts, NULL), created);
		if (h) {
			h->matched = 1;
			printf(" %s-%d fd %d", h->comm, h->pid, h->fd);
		}
		printf("\n");
		rows++;
	}
}

/* Say what the list lacks: fences past its size, and what BPF dropped. */
static void print_limits(struct top_ctx *t)
{
	char names[256];

	if (t->n_unlisted)
		printf("truncated: %u more fences created since fence-trace started are not listed "
		       "(at most %u, the oldest), %u of their holders with them\n", t->n_unlisted,
		       TOP_MAX_PENDING, t->n_unlisted_held);
	if (t->n_held == TOP_MAX_HELD)
		printf("truncated: held sync_files beyond %u are not listed\n", TOP_MAX_HELD);
	names_counts_line(&t->lat.names, names, sizeof(names));
	printf("drops: live table full %" PRIu64 " (fences not tracked, missing here)\n%s\n",
	       latency_counter(&t->lat, FL_DROP_LIVE), names);
}

void top_pending(struct top_ctx *t)
{
	uint64_t now;

	read_live(t);
	/* after: each fence read has sent its context's names already */
	names_poll(&t->lat.names);
	/* After the read: a fence created during it is not younger than now. */
	now = now_ns();
	t->n_held = (unsigned int)top_find_held(t->held, TOP_MAX_HELD);
	if (t->tty)
		printf("\033[H\033[2J");
	printf("unsignalled fences, oldest first (%u created since fence-trace started, %u held as sync_file fds)%s\n",
	       t->n_live, t->n_held, t->tty ? " - q quits" : "");
	printf("%-10s %-20s %8s %10s %10s  %-24s %s\n", "DRIVER", "TIMELINE", "CONTEXT", "SEQNO", "AGE",
	       "CREATED BY", "HELD BY");
	for (unsigned int i = 0; i < t->n_live; i++)
		print_live(t, &t->live[i], now);
	t->n_unlisted_held = 0;
	for (unsigned int i = 0; i < t->n_held; i++) {
		const struct held_fence *h = &t->held[i];

		if (h->matched)
			continue;
		if (held_unlisted(t, h)) {	/* not older than us: its fence is past the list */
			t->n_unlisted_held++;
			continue;
		}
		char ctx[24] = "?", seq[24] = "?";

		if (h->have_seqno) {
			snprintf(ctx, sizeof(ctx), "%" PRIu64, h->context);
			snprintf(seq, sizeof(seq), "%" PRIu64, h->seqno);
		}
		printf("%-10.10s %-20.20s %8s %10s %10s  %-24s %s-%d fd %d\n", h->driver, h->timeline,
		       ctx, seq, "unknown", "(before fence-trace)", h->comm, h->pid, h->fd);
	}
	print_limits(t);
	if (!t->tty)
		printf("\n");
	fflush(stdout);
}
