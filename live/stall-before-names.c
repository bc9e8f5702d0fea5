// SPDX-License-Identifier: GPL-2.0
/*
 * stall-before-names.c - what a wait found at start is (stall-before.c):
 * whether a sleeping task's kernel stack is in a dma_fence wait, what
 * waits (a blocking commit's ioctl, a non-blocking commit's worker, any
 * other), and the fence's names: from a sync_file still held on it
 * (SYNC_IOC_FILE_INFO through pidfd_getfd, as top --pending does), the
 * series' fence_timeline (which adds the commit and plane), else the
 * symbol of its ops, since a fence's name is only known to its driver.
 */
#include <inttypes.h>
#include <linux/types.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "fence-waiters.h"
#include "kallsyms.h"
#include "proc-comm.h"
#include "stall-before-names.h"
#include "stall-debugfs.h"
#include "sync.h"

/*
 * The functions a task sleeps under while it waits on a dma_fence, the
 * innermost first: what the stacks of the lab's blocking and non-blocking
 * commits show, sw_sync and vgem fences alike (no .wait op of their own).
 */
static const char *const fence_waits[] = {
	"dma_fence_default_wait", "dma_fence_wait_timeout", "dma_fence_wait_any_timeout",
	"dma_resv_wait_timeout",
};

/* @s is the symbol @name (a module's "name [mod]" too)? */
static int sym_is(const char *s, const char *name)
{
	size_t n = strlen(name);

	return !strncmp(s, name, n) && (s[n] == '\0' || s[n] == ' ');
}

static const char *sym_at(const struct ksyms *k, uint64_t addr)
{
	const struct ksym *s = ksyms_find(k, addr);

	return s ? s->name : "?";
}

/* The index of the first stack entry in a fence wait function, or -1. */
static int first_wait(const struct fw_task *t, const struct ksyms *k)
{
	for (unsigned int i = 0; i < t->n_stack && i < FW_STACK; i++)
		for (size_t w = 0; w < sizeof(fence_waits) / sizeof(fence_waits[0]); w++)
			if (sym_is(sym_at(k, t->stack[i]), fence_waits[w]))
				return (int)i;
	return -1;
}

/**
 * before_on_stack() - the index of the first frame of @t's stack in the
 * function @name, or -1
 * @t: a sleeping task from the iterator
 * @k: the kernel's symbols
 * @name: the function
 */
int before_on_stack(const struct fw_task *t, const struct ksyms *k, const char *name)
{
	for (unsigned int i = 0; i < t->n_stack && i < FW_STACK; i++)
		if (sym_is(sym_at(k, t->stack[i]), name))
			return (int)i;
	return -1;
}

/**
 * before_stack_text() - @t's stack from frame @from outwards, "f < g < h"
 * (six functions at most, whole names only), after what @buf already holds
 * @t: the task
 * @k: the kernel's symbols
 * @from: the first frame shown
 * @buf: appended to
 * @len: its size
 *
 * Return: how many functions it shows.
 */
int before_stack_text(const struct fw_task *t, const struct ksyms *k, int from, char *buf, size_t len)
{
	const char *prev = NULL;
	size_t at = strnlen(buf, len);
	int shown = 0;

	for (int i = from; i >= 0 && i < (int)t->n_stack && i < FW_STACK && shown < 6; i++) {
		const char *s = sym_at(k, t->stack[i]);

		/* the callback's address, met by a stack walker that guesses */
		if ((prev && !strcmp(prev, s)) || sym_is(s, "dma_fence_default_wait_cb"))
			continue;
		if (at + strlen(s) + 4 >= len)
			break;		/* whole names only */
		at += (size_t)snprintf(buf + at, len - at, "%s%s", shown++ ? " < " : "", s);
		prev = s;
	}
	return shown;
}

/**
 * before_is_fence_wait() - is @t asleep in a dma_fence wait?
 * @t: a sleeping task from the iterator
 * @k: the kernel's symbols
 *
 * Return: 1 when its stack shows a fence wait function or the iterator
 * found its dma_fence_default_wait() callback.
 */
int before_is_fence_wait(const struct fw_task *t, const struct ksyms *k)
{
	return t->fence || first_wait(t, k) >= 0;
}

/**
 * before_where() - what waits and where: "a blocking atomic commit (...):
 * f < g < h", the stack from the fence wait outwards
 * @t: the task
 * @k: the kernel's symbols
 * @buf: filled
 * @len: its size
 */
void before_where(const struct fw_task *t, const struct ksyms *k, char *buf, size_t len)
{
	const char *what = "a dma_fence wait";
	size_t at;

	if (before_on_stack(t, k, "drm_mode_atomic_ioctl") >= 0)
		what = "a blocking atomic commit, in the ioctl's task";
	else if (before_on_stack(t, k, "drm_atomic_helper_wait_for_fences") >= 0)
		what = "a non-blocking atomic commit's worker";
	at = (size_t)snprintf(buf, len, "%s: ", what);
	if (!before_stack_text(t, k, first_wait(t, k), buf, len) && at < len)
		snprintf(buf + at, len - at, "(no fence wait function on its stack)");
}

/* The names of the fence of @f, asked of the sync_file itself. */
static void names_from_file(const struct fw_file *f, struct before_names *n)
{
	struct sync_summary s;
	int copy = sync_file_grab((int)f->tgid, (int)f->fd);

	if (copy < 0)
		return;
	if (sync_file_summary(copy, &s) == 0 && !n->driver[0]) {
		snprintf(n->driver, sizeof(n->driver), "%s", s.driver);
		snprintf(n->timeline, sizeof(n->timeline), "%s", s.timeline);
	}
	close(copy);
}

/*
 * Drivers whose names for a fence are the same for every fence of their
 * ops (their get_driver_name and get_timeline_name in 6.1 return
 * constants), and sw_sync, whose timeline name the iterator reads from its
 * timeline (@timeline NULL: the kernel's).
 */
static const struct ops_names {
	const char *ops, *driver, *timeline;
} ops_names[] = {
	{ "timeline_fence_ops", "sw_sync", NULL },
	{ "vgem_fence_ops", "vgem", "unbound" },
	{ "dma_fence_array_ops", "dma_fence_array", "unbound" },
	{ "dma_fence_chain_ops", "dma_fence_chain", "unbound" },
	{ "dma_fence_stub_ops", "stub", "stub" },
	{ "virtio_gpu_fence_ops", "virtio_gpu", "controlq" },
};

/* The names that @ops (its symbol @sym) gives every fence of it. */
static void names_from_ops(const char *sym, const char *kernel_timeline, struct before_names *n)
{
	for (size_t i = 0; i < sizeof(ops_names) / sizeof(ops_names[0]); i++) {
		const struct ops_names *o = &ops_names[i];
		const char *tl = o->timeline ? o->timeline : kernel_timeline;

		if (!sym_is(sym, o->ops) || !tl || !tl[0])
			continue;
		snprintf(n->driver, sizeof(n->driver), "%s", o->driver);
		snprintf(n->timeline, sizeof(n->timeline), "%s", tl);
		n->from_ops = 1;
		return;
	}
}

/**
 * before_names() - the names of the fence @fence (@context, @seqno, @ops)
 * @files: the sync_files held, from the iterator
 * @n_files: how many
 * @kernel_timeline: its timeline's name as the iterator read it, or ""
 * @k: the kernel's symbols
 * @n: filled: names, holders, the series' commit and plane
 */
void before_names(uint64_t fence, uint64_t context, uint64_t seqno, uint64_t ops,
		  const struct fw_file *files, size_t n_files, const char *kernel_timeline,
		  const struct ksyms *k, struct before_names *n)
{
	struct debugfs_wait dw;
	size_t at = 0;

	memset(n, 0, sizeof(*n));
	n->commit = -1;
	n->plane = -1;
	n->kernel_age_ns = -1;
	for (size_t i = 0; i < n_files; i++) {
		char comm[16];

		if (files[i].fence != fence || at >= sizeof(n->holders))
			continue;
		names_from_file(&files[i], n);
		proc_comm((int)files[i].tgid, comm, sizeof(comm));
		at += (size_t)snprintf(n->holders + at, sizeof(n->holders) - at, "%s%s-%u fd %u",
				       at ? ", " : "", comm, files[i].tgid, files[i].fd);
	}
	if (stall_debugfs_find_wait(context, seqno, &dw) == 0) {
		n->commit = (int64_t)dw.commit;
		n->plane = (int32_t)dw.plane;
		n->kernel_age_ns = dw.age_ns;
		if (!n->driver[0] && dw.driver[0]) {
			snprintf(n->driver, sizeof(n->driver), "%s", dw.driver);
			snprintf(n->timeline, sizeof(n->timeline), "%s", dw.timeline);
		}
	}
	if (!n->driver[0] && ops)
		names_from_ops(sym_at(k, ops), kernel_timeline, n);
	if (!n->driver[0] && ops)
		snprintf(n->timeline, sizeof(n->timeline), "(name unknown: its ops are %s)", sym_at(k, ops));
}
