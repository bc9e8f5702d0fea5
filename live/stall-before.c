// SPDX-License-Identifier: GPL-2.0
/*
 * stall-before.c - `fence-trace stall` at start: take stock of the waits
 * already in progress, which no tracepoint saw begin (the frozen screen
 * the user came with), through fence-waiters.bpf.c's task iterators.
 *
 * A task asleep in a dma_fence wait is seeded into fence-stall.bpf.c's
 * waits map as if its wait_start had been traced, flagged before_tool,
 * with its start at the latest possible (now less how long the task has
 * not run): the usual scan then reports it once past the threshold, and
 * its dma_fence_wait_end clears it, as for any wait.  Its key carries the
 * fence when one was found (on its stack, or by its callback on a held
 * sync_file's fence), else 0, which the wait_end hook looks up too.
 *
 * A wait that ended between the iterator's read and the seeding would
 * stay in the map for ever: so the tasks are read again after it, and a
 * wait whose task has run since (its context switch count moved) is taken
 * out.  A wait that began after the programs attached is traced already:
 * the map has it, and it is left alone.
 *
 * A poll()/select() or epoll_wait() on a sync_file (a compositor's wait)
 * never reaches dma_fence_wait: it is kept here, reported once past the
 * threshold, and cleared when its fence's context signals that seqno.
 *
 * A commit blocked behind an earlier commit waits on a completion, not a
 * fence (behind_waits[]): kept here too, reported once past the threshold,
 * and cleared when its task runs again, which a read of the tasks once a
 * second tells while one is left.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "fence-stall.skel.h"
#include "fence-waiters.skel.h"
#include "proc-comm.h"
#include "say.h"
#include "stall.h"
#include "stall-before-names.h"
#include "sync.h"

#define MAX_TASKS 8192
#define MAX_FILES 1024

struct stock {
	struct fw_task *tasks;
	struct fw_file *files;
	size_t n_tasks, n_files;
};

/* Run one iterator into @buf: how many records of @rec bytes, or -errno. */
static long read_iter(struct bpf_program *prog, void *buf, size_t rec, size_t max)
{
	struct bpf_link *link = bpf_program__attach_iter(prog, NULL);
	size_t got = 0, cap = rec * max;
	ssize_t r = 0;
	int fd;

	if (!link)
		return -errno;
	fd = bpf_iter_create(bpf_link__fd(link));
	if (fd < 0) {
		r = -errno;
		bpf_link__destroy(link);
		return r;
	}
	while (got + rec <= cap && (r = read(fd, (char *)buf + got, cap - got)) > 0)
		got += (size_t)r;
	if (r < 0)
		r = -errno;
	close(fd);
	bpf_link__destroy(link);
	return r < 0 ? r : (long)(got / rec);
}

static int take(struct fence_waiters_bpf *skel, struct stock *s, int files)
{
	long n = read_iter(skel->progs.tasks, s->tasks, sizeof(*s->tasks), MAX_TASKS);

	if (n < 0)
		return (int)n;
	s->n_tasks = (size_t)n;
	if (!files)
		return 0;
	n = read_iter(skel->progs.sync_files, s->files, sizeof(*s->files), MAX_FILES);
	if (n < 0)
		return (int)n;
	s->n_files = (size_t)n;
	return 0;
}

/*
 * Where the DRM atomic helpers make a commit wait for an earlier one (or
 * for its own flip), on a completion: the function on the task's stack,
 * the completion, and what it means.
 */
static const struct behind_wait behind_waits[] = {
	{ "drm_atomic_helper_swap_state", "hw_done",
	  "a commit waits for an earlier commit's hw_done before it swaps in its state" },
	{ "drm_atomic_helper_setup_commit", "cleanup_done",
	  "a blocking commit waits for an earlier commit's cleanup_done (10 s at most)" },
	{ "drm_atomic_helper_wait_for_dependencies", "dependencies",
	  "a non-blocking commit's worker waits for earlier commits' hw_done and flip_done" },
	{ "drm_atomic_helper_wait_for_flip_done", "flip_done",
	  "a commit waits for its own flip_done: the flip has not completed (10 s at most)" },
};

static const struct fw_task *task_of(const struct stock *s, uint32_t pid)
{
	for (size_t i = 0; i < s->n_tasks; i++)
		if (s->tasks[i].pid == pid)
			return &s->tasks[i];
	return NULL;
}

/* A held sync_file whose fence @pid waits on (its callback is on it), or NULL. */
static const struct fw_file *file_waited_by(const struct stock *s, uint32_t pid)
{
	for (size_t i = 0; i < s->n_files; i++)
		for (unsigned int w = 0; w < s->files[i].n_waiters && w < FW_WAITERS; w++)
			if (s->files[i].waiters[w] == pid)
				return &s->files[i];
	return NULL;
}

/* Does the waits map hold a wait of @pid_tgid (traced since the start)? */
static int traced(int fd, uint64_t pid_tgid)
{
	struct fs_wait_key key, *prev = NULL, next;

	while (bpf_map_get_next_key(fd, prev, &next) == 0) {
		if (next.pid_tgid == pid_tgid)
			return 1;
		key = next;
		prev = &key;
	}
	return 0;
}

/* A table of @n entries is full: one more found and not kept. */
static int full(struct stall_before *sb, unsigned int n)
{
	if (n < BEFORE_MAX)
		return 0;
	sb->dropped++;
	return 1;
}

static void seed_wait(struct stall_ctx *c, const struct stock *s, const struct fw_task *t,
		      const struct ksyms *k, uint64_t now)
{
	int fd = bpf_map__fd(c->skel->maps.waits);
	const struct fw_file *f = t->fence ? NULL : file_waited_by(s, t->pid);
	struct before_wait *b = &c->before.waits[c->before.n_waits];
	struct fs_wait w = { .tgid = t->tgid, .pid = t->pid, .before_tool = 1 };

	if (full(&c->before, c->before.n_waits))
		return;
	w.start = now > t->asleep_ns ? now - t->asleep_ns : 0;
	memcpy(w.comm, t->comm, sizeof(w.comm));
	w.fence = (struct fs_fence){ t->fence, t->context, t->seqno, t->signaled, 0 };
	if (f)
		w.fence = (struct fs_fence){ f->fence, f->context, f->seqno, 0, 0 };
	b->key = (struct fs_wait_key){ (uint64_t)t->tgid << 32 | t->pid, w.fence.ptr };
	if ((!b->key.fence && traced(fd, b->key.pid_tgid)) ||
	    bpf_map_update_elem(fd, &b->key, &w, BPF_NOEXIST))
		return;		/* its start was traced: not one from before */
	b->source = t->fence ? BEFORE_STACK : f ? BEFORE_SYNC_FILE : BEFORE_UNKNOWN;
	before_where(t, k, b->where, sizeof(b->where));
	before_names(w.fence.ptr, w.fence.context, w.fence.seqno, f ? f->ops : t->ops, s->files,
		     s->n_files, f ? f->timeline : t->timeline, k, &b->names);
	c->before.n_waits++;
}

/* @pid in poll() (or epoll_wait(), @epoll) on @f since the tool began: keep it. */
static void seed_poll(struct stall_ctx *c, const struct stock *s, const struct fw_file *f,
		      uint32_t pid, int epoll, const struct ksyms *k, uint64_t now)
{
	const struct fw_task *t = task_of(s, pid);
	struct before_poll *p = &c->before.polls[c->before.n_polls];

	if (!t)
		return;
	if (full(&c->before, c->before.n_polls))
		return;
	memset(p, 0, sizeof(*p));
	p->pid = t->pid;
	p->tgid = f->tgid;
	p->fd = f->fd;
	p->epoll = epoll;
	memcpy(p->comm, t->comm, sizeof(p->comm));
	proc_comm((int)f->tgid, p->holder, sizeof(p->holder));
	p->context = f->context;
	p->seqno = f->seqno;
	p->start = now > t->asleep_ns ? now - t->asleep_ns : 0;
	before_names(f->fence, f->context, f->seqno, f->ops, s->files, s->n_files, f->timeline, k,
		     &p->names);
	c->before.n_polls++;
}

static void seed_polls(struct stall_ctx *c, const struct stock *s, const struct ksyms *k,
		       uint64_t now)
{
	for (size_t i = 0; i < s->n_files; i++) {
		const struct fw_file *f = &s->files[i];

		for (unsigned int j = 0; j < f->n_pollers && j < FW_WAITERS; j++)
			seed_poll(c, s, f, f->pollers[j], 0, k, now);
		for (unsigned int j = 0; j < f->n_epollers && j < FW_WAITERS; j++)
			seed_poll(c, s, f, f->epollers[j], 1, k, now);
	}
}

/* @t blocked behind an earlier commit (or its own flip): keep it. */
static void seed_behind(struct stall_ctx *c, const struct fw_task *t, const struct ksyms *k,
			uint64_t now)
{
	struct before_behind *b = &c->before.behinds[c->before.n_behinds];

	for (size_t i = 0; i < sizeof(behind_waits) / sizeof(behind_waits[0]); i++) {
		int at = before_on_stack(t, k, behind_waits[i].function);

		if (at < 0)
			continue;
		if (full(&c->before, c->before.n_behinds))
			return;
		memset(b, 0, sizeof(*b));
		b->pid = t->pid;
		b->tgid = t->tgid;
		memcpy(b->comm, t->comm, sizeof(b->comm));
		b->kind = &behind_waits[i];
		before_stack_text(t, k, at, b->where, sizeof(b->where));
		b->start = now > t->asleep_ns ? now - t->asleep_ns : 0;
		b->switches = t->switches;
		c->before.n_behinds++;
		return;
	}
}

/* Has the task of @pid run since @then (or gone)? */
static int ran_since(const struct stock *then, const struct stock *now, uint32_t pid)
{
	const struct fw_task *a = task_of(then, pid), *b = task_of(now, pid);

	return !a || !b || a->switches != b->switches;
}

/* Take out what the second read shows ended, or may have, meanwhile. */
static void recheck(struct stall_ctx *c, const struct stock *then, const struct stock *now)
{
	struct stall_before *sb = &c->before;
	struct fs_wait w;

	for (unsigned int i = 0; i < sb->n_waits; i++) {
		struct fs_wait_key *k = &sb->waits[i].key;

		if (!ran_since(then, now, (uint32_t)k->pid_tgid))
			continue;
		if (bpf_map_lookup_elem(bpf_map__fd(c->skel->maps.waits), k, &w) == 0 && w.before_tool)
			bpf_map_delete_elem(bpf_map__fd(c->skel->maps.waits), k);
		sb->waits[i--] = sb->waits[--sb->n_waits];
	}
	for (unsigned int i = 0; i < sb->n_polls; i++)
		if (ran_since(then, now, sb->polls[i].pid))
			sb->polls[i--] = sb->polls[--sb->n_polls];
	for (unsigned int i = 0; i < sb->n_behinds; i++)
		if (ran_since(then, now, sb->behinds[i].pid))
			sb->behinds[i--] = sb->behinds[--sb->n_behinds];
}

static const char *sym_name(const struct ksyms *k, uint64_t addr)
{
	const struct ksym *s = addr ? ksyms_find(k, addr) : NULL;

	return s ? s->name : "-";
}

/* -v: every sleeping task's stack, to see what a wait looks like here. */
static void dump(const struct stock *s, const struct ksyms *k)
{
	for (size_t i = 0; i < s->n_tasks; i++) {
		const struct fw_task *t = &s->tasks[i];

		fprintf(stderr, "%s: asleep: %.16s-%u (thread %u) state %u, not run for %.1f ms, fence %s (scan %#x):",
			say_who(), t->comm, t->tgid, t->pid, t->state, t->asleep_ns / 1e6,
			t->fence ? "found" : "none", t->scan);
		for (unsigned int j = 0; j < t->n_stack && j < FW_STACK; j++) {
			const struct ksym *sym = ksyms_find(k, t->stack[j]);

			fprintf(stderr, " %s", sym ? sym->name : "?");
		}
		fprintf(stderr, "\n");
	}
	for (size_t i = 0; i < s->n_files; i++) {
		fprintf(stderr, "%s: sync_file: pid %u fd %u context %llu seqno %llu, %u in dma_fence_default_wait, %u in poll, %u epoll (%u in epoll_wait); %u wait queue entries (the first %s), %u callbacks (the first %s)\n",
			say_who(), s->files[i].tgid, s->files[i].fd, (unsigned long long)s->files[i].context,
			(unsigned long long)s->files[i].seqno, s->files[i].n_waiters, s->files[i].n_pollers,
			s->files[i].epoll, s->files[i].n_epollers, s->files[i].n_entries >> 16,
			sym_name(k, s->files[i].first_wake), s->files[i].n_entries & 0xffff,
			sym_name(k, s->files[i].first_cb));
	}
}

static int stock_alloc(struct stock *s)
{
	memset(s, 0, sizeof(*s));
	s->tasks = calloc(MAX_TASKS, sizeof(*s->tasks));
	s->files = calloc(MAX_FILES, sizeof(*s->files));
	return s->tasks && s->files ? 0 : -ENOMEM;
}

static void stock_free(struct stock *s)
{
	free(s->tasks);
	free(s->files);
}

/* The seeding between two reads of the tasks; 0, or -errno said in @why. */
static int take_and_seed(struct stall_ctx *c, struct fence_waiters_bpf *skel, const struct ksyms *k)
{
	struct stock s, again;
	int err = stock_alloc(&s), err2 = stock_alloc(&again);
	uint64_t now;

	err = err ?: err2;
	if (!err)
		err = take(skel, &s, 1);
	now = now_ns();
	if (!err && c->verbose)
		dump(&s, k);
	for (size_t i = 0; !err && i < s.n_tasks; i++)
		if (before_is_fence_wait(&s.tasks[i], k))
			seed_wait(c, &s, &s.tasks[i], k, now);
		else
			seed_behind(c, &s.tasks[i], k, now);
	if (!err)
		seed_polls(c, &s, k, now);
	if (!err)
		err = take(skel, &again, 0);
	if (!err)
		recheck(c, &s, &again);
	stock_free(&s);
	stock_free(&again);
	return err;
}

/**
 * stall_before_load() - read the kernel's symbols and load the iterators
 * @c: the stall
 *
 * Before the tool says it watches: loading takes seconds in an emulated
 * guest, and the stock taken after it is then reported at once.
 */
void stall_before_load(struct stall_ctx *c)
{
	struct stall_before *b = &c->before;
	uint64_t t0 = now_ns();

	b->ksyms = calloc(1, sizeof(*b->ksyms));
	b->ksyms_err = b->ksyms ? ksyms_load(b->ksyms, "/proc/kallsyms") : -ENOMEM;
	b->ksyms_ns = now_ns() - t0;
	b->skel = fence_waiters_bpf__open();
	b->load_err = b->skel ? 0 : -errno;
	if (!b->load_err && !b->ksyms_err) {
		b->skel->rodata->default_wait_cb = ksyms_addr(b->ksyms, "dma_fence_default_wait_cb");
		b->skel->rodata->pollwake = ksyms_addr(b->ksyms, "pollwake");
		b->skel->rodata->ep_poll_callback = ksyms_addr(b->ksyms, "ep_poll_callback");
		b->skel->rodata->sync_file_fops = ksyms_addr(b->ksyms, "sync_file_fops");
		b->skel->rodata->sw_sync_fence_ops = ksyms_addr(b->ksyms, "timeline_fence_ops");
	}
	if (!b->load_err)
		b->load_err = fence_waiters_bpf__load(b->skel);
	b->load_ns = now_ns() - t0;
}

/**
 * stall_before_take() - take stock of the waits in progress at start
 * @c: the stall, its programs attached, stall_before_load() done
 *
 * What cannot be done (no iterator, a kernel that refuses the stack walk,
 * no kernel symbols) is one line on stderr; stall goes on with the waits
 * that begin later.
 */
void stall_before_take(struct stall_ctx *c)
{
	struct stall_before *b = &c->before;
	uint64_t t0 = now_ns();
	int err = b->load_err ?: b->ksyms_err;

	if (!err)
		err = take_and_seed(c, b->skel, b->ksyms);
	if (c->verbose)
		say("taking stock: loading %.1f ms (kernel symbols %.1f ms), the iterators and seeding %.1f ms",
		    b->load_ns / 1e6, b->ksyms_ns / 1e6,
		    (now_ns() - t0) / 1e6);
	if (err) {
		say("cannot take stock of the waits already in progress (%s%s): only waits that begin from now on are seen",
		    b->ksyms_err ? "/proc/kallsyms: " : "", strerror(-err));
		return;
	}
	say("at start: %u task%s in a dma_fence wait, %u polling a sync_file and %u commit%s behind an earlier one, each begun before the tool",
	    b->n_waits, b->n_waits == 1 ? "" : "s", b->n_polls, b->n_behinds, b->n_behinds == 1 ? "" : "s");
	if (b->dropped)
		say("at start: %u more found past the first %d of their kind: not watched", b->dropped,
		    BEFORE_MAX);
}

void stall_before_free(struct stall_ctx *c)
{
	fence_waiters_bpf__destroy(c->before.skel);
	c->before.skel = NULL;
	if (c->before.ksyms)
		ksyms_free(c->before.ksyms);
	free(c->before.ksyms);
	c->before.ksyms = NULL;
}

const struct before_wait *stall_before_find(const struct stall_ctx *c, const struct fs_wait_key *k)
{
	for (unsigned int i = 0; i < c->before.n_waits; i++)
		if (!memcmp(&c->before.waits[i].key, k, sizeof(*k)))
			return &c->before.waits[i];
	return NULL;
}

/**
 * stall_before_going() - the polls and behind commits found at start that
 * were reported and have not cleared
 * @c: the stall
 *
 * Return: their number, for the closing line's "still going".
 */
unsigned int stall_before_going(const struct stall_ctx *c)
{
	const struct stall_before *sb = &c->before;
	unsigned int n = 0;

	for (unsigned int i = 0; i < sb->n_polls; i++)
		n += sb->polls[i].reported && !sb->polls[i].cleared;
	for (unsigned int i = 0; i < sb->n_behinds; i++)
		n += sb->behinds[i].reported && !sb->behinds[i].cleared;
	return n;
}

/* Read the tasks again (once a second at most): which behind ones have run. */
static void behind_recheck(struct stall_ctx *c, uint64_t now)
{
	struct stall_before *sb = &c->before;
	struct stock s;
	unsigned int left = 0;

	for (unsigned int i = 0; i < sb->n_behinds; i++)
		left += sb->behinds[i].reported && !sb->behinds[i].cleared;
	if (!left || now - sb->behind_checked < 1000000000ull)
		return;
	sb->behind_checked = now;
	if (stock_alloc(&s) == 0 && take(sb->skel, &s, 0) == 0) {
		/* seen when read: the read takes long enough for the task to run */
		uint64_t seen = now_ns();

		for (unsigned int i = 0; i < sb->n_behinds; i++) {
			struct before_behind *b = &sb->behinds[i];
			const struct fw_task *t = task_of(&s, b->pid);

			if (b->reported && !b->cleared && (!t || t->switches != b->switches)) {
				b->cleared = 1;
				stall_print_before_behind_end(c, b, seen);
			}
		}
	}
	stock_free(&s);
}

/* Has a stall found at start just passed the threshold?  Then it counts. */
static int newly_due(struct stall_ctx *c, int *reported, uint64_t start, uint64_t now)
{
	if (*reported || now <= start || now - start < c->threshold_ns)
		return 0;
	*reported = 1;
	c->stalls++;
	return 1;
}

/* The commits found behind an earlier one; 1 when --once fired. */
static int behind_scan(struct stall_ctx *c, uint64_t now)
{
	for (unsigned int i = 0; i < c->before.n_behinds; i++) {
		struct before_behind *b = &c->before.behinds[i];

		if (newly_due(c, &b->reported, b->start, now)) {
			stall_print_before_behind(c, b, now);
			if (c->once)
				return 1;
		}
	}
	behind_recheck(c, now);
	return 0;
}

/*
 * The polls found at start: each reported once past the threshold, and
 * cleared when its fence's context signals its seqno; then the commits
 * behind an earlier one.  1 when --once fired.
 */
int stall_before_scan(struct stall_ctx *c, uint64_t now)
{
	for (unsigned int i = 0; i < c->before.n_polls; i++) {
		struct before_poll *p = &c->before.polls[i];
		struct fs_signal sig;

		if (newly_due(c, &p->reported, p->start, now)) {
			stall_print_before_poll(c, p, now);
			if (c->once)
				return 1;
		}
		if (p->reported && !p->cleared && stall_last_signal(c, p->context, &sig) == 0 &&
		    sig.seqno >= p->seqno) {
			p->cleared = 1;
			stall_print_before_poll_end(c, p, sig.ts, now);
		}
	}
	return behind_scan(c, now);
}
