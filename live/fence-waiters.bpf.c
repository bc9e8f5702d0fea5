// SPDX-License-Identifier: GPL-2.0
/*
 * fence-waiters.bpf.c - what is stuck already when `fence-trace stall`
 * starts, read through two task iterators (no tracepoint saw these waits
 * begin):
 *
 * - iter/task: every task asleep, with its kernel stack, how long it has
 *   not run, and, when it sleeps in dma_fence_default_wait(), the fence:
 *   that function keeps a struct default_wait_cb { callback, task } on its
 *   stack, linked into the fence's callback list, so a scan of the task's
 *   stack for (dma_fence_default_wait_cb, this task) finds the list, and
 *   the list its head in the fence.  This works with the fence's fds
 *   closed, and for a commit worker alike.
 * - iter/task_file: every unsignalled sync_file held, with the tasks in
 *   dma_fence_default_wait() on its fence (their callbacks), in
 *   poll()/select() on it (pollwake entries on its wait queue) and in
 *   epoll_wait() on an epoll watching it (ep_poll_callback entries, whose
 *   eppoll_entry leads to the epoll, whose own wait queue holds them).
 *
 * "How long it has not run": the task's se.exec_start, which the
 * scheduler sets to its runqueue's clock_task when it last stopped running,
 * against that runqueue's clock_task now.  A task asleep in a wait ran
 * when the wait began, so this is a lower bound of the wait's age; the
 * runqueue clock of an idle CPU lags and clock_task leaves out IRQ time,
 * which only make it lower.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>

#include "fence-waiters.h"

char LICENSE[] SEC("license") = "GPL";

#define STACK_BYTES 16384		/* THREAD_SIZE on x86_64 without KASAN */
#define CHUNK_WORDS 512
#define LIST_STEPS 8

/*
 * Addresses of static symbols, set by user space from /proc/kallsyms,
 * which it reads anyway for the stacks (libbpf would read it a second time
 * for __ksym externs: seconds in the lab's emulated guest); 0 if absent.
 */
const volatile __u64 default_wait_cb = 0;	/* dma_fence_default_wait_cb() */
const volatile __u64 pollwake = 0;		/* fs/select.c's wakeup */
const volatile __u64 ep_poll_callback = 0;
const volatile __u64 sync_file_fops = 0;
const volatile __u64 sw_sync_fence_ops = 0;	/* sw_sync.c's timeline_fence_ops */

/*
 * sw_sync's timeline: its fences' lock is the timeline's, and the
 * timeline's name is the fences' timeline name (sw_sync's own
 * dma_fence_parent()).  A kernel without sw_sync has no such type: the
 * read is then left out at load (bpf_core_type_exists).
 */
struct sync_timeline___ft {
	char name[32];
	spinlock_t lock;
} __attribute__((preserve_access_index));

extern const struct rq runqueues __ksym;

struct scratch {
	struct fw_task task;
	__u64 words[CHUNK_WORDS];
};

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct scratch);
} scratch SEC(".maps");

static __always_inline __u64 read_u64(__u64 addr)
{
	__u64 v = 0;

	bpf_probe_read_kernel(&v, sizeof(v), (void *)addr);
	return v;
}

/*
 * The kernel half of the address space, with 4-level page tables
 * (0xffff8...) and with 5 (0xff1..., the lab's QEMU -cpu max has LA57):
 * a fence's context, a small count, is not one.
 */
static __always_inline int is_kernel_pointer(__u64 v)
{
	return (v >> 56) == 0xff;
}

/*
 * The timeline's name, where the fence's ops say how to find it in kernel
 * memory without calling the driver: sw_sync's.  Other drivers' names are
 * constants user space knows by their ops (stall-before-names.c).
 */
static __always_inline void timeline_name(struct dma_fence *f, __u64 ops, char *name)
{
	struct sync_timeline___ft *tl;

	if (!sw_sync_fence_ops || ops != sw_sync_fence_ops ||
	    !bpf_core_type_exists(struct sync_timeline___ft))
		return;
	tl = (void *)((__u64)BPF_CORE_READ(f, lock) -
		      bpf_core_field_offset(struct sync_timeline___ft, lock));
	bpf_probe_read_kernel_str(name, FW_NAME, &tl->name);
}

static __always_inline void describe(struct dma_fence *f, __u64 *ctx, __u64 *seqno, __u64 *ops,
				     __u32 *signaled, char *timeline)
{
	*ctx = BPF_CORE_READ(f, context);
	*seqno = BPF_CORE_READ(f, seqno);
	*ops = (__u64)BPF_CORE_READ(f, ops);
	*signaled = BPF_CORE_READ(f, flags) & 1;	/* DMA_FENCE_FLAG_SIGNALED_BIT */
	timeline_name(f, *ops, timeline);
}

/*
 * The fence whose callback list holds the node at @node: walk the list to
 * its head, the one entry whose word after the list_head is not a callback
 * (a kernel text address) but the fence's context.
 */
static __always_inline __u64 fence_of_node(__u64 node)
{
	__u64 list = bpf_core_field_offset(struct dma_fence, cb_list);
	__u64 ctx = bpf_core_field_offset(struct dma_fence, context);
	__u64 p = node;

	for (int i = 0; i < LIST_STEPS; i++) {
		__u64 next = read_u64(p);

		if (!is_kernel_pointer(next) || next == node)
			return 0;
		if (!is_kernel_pointer(read_u64(next - list + ctx)))
			return next - list;
		p = next;
	}
	return 0;
}

struct scan {
	struct scratch *s;
	__u64 cb, task;
	__s64 found;		/* word index of the callback's task pointer, or -1 */
	__u32 seen;		/* FW_SCAN_CALLBACK_SEEN */
};

/* bpf_loop's step: verified once, not once per word as a plain loop is. */
static long scan_word(__u32 i, void *arg)
{
	struct scan *x = arg;

	if (i < 3 || i >= CHUNK_WORDS)
		return 0;
	if (x->s->words[i - 1] == x->cb)
		x->seen = FW_SCAN_CALLBACK_SEEN;
	if (x->s->words[i - 1] == x->cb && x->s->words[i] == x->task) {
		x->found = i;
		return 1;
	}
	return 0;
}

/* Scan @t's kernel stack for its default_wait_cb; the fence, or 0. */
static __always_inline __u64 waited_fence(struct task_struct *t, struct scratch *s, __u32 *scan)
{
	struct scan x = { .s = s, .cb = default_wait_cb, .task = (__u64)t, .found = -1 };
	__u64 base = (__u64)BPF_CORE_READ(t, stack), f;

	if (!base || !x.cb)
		return 0;
	/* chunks overlap by two words: a callback across a border is seen */
	for (int c = 0; c < STACK_BYTES / ((CHUNK_WORDS - 2) * 8) + 1; c++) {
		__u64 at = base + c * (CHUNK_WORDS - 2) * 8;

		if (at + CHUNK_WORDS * 8 > base + STACK_BYTES)
			at = base + STACK_BYTES - CHUNK_WORDS * 8;
		if (bpf_probe_read_kernel(s->words, sizeof(s->words), (void *)at)) {
			*scan |= FW_SCAN_READ_FAILED;
			continue;
		}
		bpf_loop(CHUNK_WORDS, scan_word, &x, 0);
		*scan |= x.seen;
		if (x.found < 0)
			continue;
		/* the callback's node is two words before func */
		f = fence_of_node(at + (x.found - 3) * 8);
		*scan |= f ? FW_SCAN_MATCHED : FW_SCAN_MATCHED | FW_SCAN_NO_HEAD;
		return f;
	}
	return 0;
}

static __always_inline __u64 asleep_ns(struct task_struct *t)
{
	__u32 cpu = BPF_CORE_READ(t, thread_info.cpu);
	struct rq *rq = bpf_per_cpu_ptr(&runqueues, cpu);
	__u64 now, last = BPF_CORE_READ(t, se.exec_start);

	if (!rq)
		return 0;
	now = BPF_CORE_READ(rq, clock_task);
	return now > last ? now - last : 0;
}

SEC("iter/task")
int tasks(struct bpf_iter__task *ctx)
{
	struct task_struct *t = ctx->task;
	struct scratch *s;
	struct fw_task *w;
	__u32 zero = 0;
	long n;
	__u64 f;

	if (!t)
		return 0;
	s = bpf_map_lookup_elem(&scratch, &zero);
	if (!s)
		return 0;
	w = &s->task;
	__builtin_memset(w, 0, sizeof(*w));
	w->state = BPF_CORE_READ(t, __state);
	if (!(w->state & 3))		/* TASK_INTERRUPTIBLE | TASK_UNINTERRUPTIBLE */
		return 0;
	w->pid = BPF_CORE_READ(t, pid);
	w->tgid = BPF_CORE_READ(t, tgid);
	BPF_CORE_READ_STR_INTO(&w->comm, t, comm);
	w->switches = BPF_CORE_READ(t, nvcsw) + BPF_CORE_READ(t, nivcsw);
	w->asleep_ns = asleep_ns(t);
	n = bpf_get_task_stack(t, w->stack, sizeof(w->stack), 0);
	w->n_stack = n > 0 ? (__u64)n / 8 : 0;
	f = waited_fence(t, s, &w->scan);
	if (f) {
		w->fence = f;
		describe((struct dma_fence *)f, &w->context, &w->seqno, &w->ops, &w->signaled, w->timeline);
	}
	bpf_seq_write(ctx->meta->seq, w, sizeof(*w));
	return 0;
}

/* The tasks whose dma_fence_default_wait() callbacks are on @f's list. */
static __always_inline void fence_waiters(struct dma_fence *f, struct fw_file *r)
{
	__u64 head = (__u64)f + bpf_core_field_offset(struct dma_fence, cb_list);
	__u64 node = read_u64(head), cb = default_wait_cb;

	for (int i = 0; i < LIST_STEPS && node != head && is_kernel_pointer(node); i++) {
		r->n_entries++;
		if (!r->first_cb)
			r->first_cb = read_u64(node + 16);
		if (cb && read_u64(node + 16) == cb && r->n_waiters < FW_WAITERS) {
			struct task_struct *t = (struct task_struct *)read_u64(node + 24);

			r->waiters[r->n_waiters & (FW_WAITERS - 1)] = BPF_CORE_READ(t, pid);
			r->n_waiters++;
		}
		node = read_u64(node);
	}
}

/* A walk of a wait queue by bpf_loop: verified once, not once per step. */
struct queue_walk {
	struct fw_file *r;
	__u64 head, node;
	__u64 ep_entry;		/* file_pollers(): the first ep_poll_callback entry */
};

static __always_inline struct wait_queue_entry *walk_entry(const struct queue_walk *w)
{
	return (void *)(w->node - bpf_core_field_offset(struct wait_queue_entry, entry));
}

/* bpf_loop's step over an eventpoll's wq: one task in epoll_wait(). */
static long epoll_waiter(__u32 i, void *arg)
{
	struct queue_walk *w = arg;
	struct wait_queue_entry *e;
	struct task_struct *t;

	if (w->node == w->head || !is_kernel_pointer(w->node) || w->r->n_epollers >= FW_WAITERS)
		return 1;
	e = walk_entry(w);
	t = BPF_CORE_READ(e, private);
	if (is_kernel_pointer((__u64)t)) {
		w->r->epollers[w->r->n_epollers & (FW_WAITERS - 1)] = BPF_CORE_READ(t, pid);
		w->r->n_epollers++;
	}
	w->node = read_u64(w->node);
	return 0;
}

/* bpf_loop's step over a sync_file's wq: a poll()/select(), or an epoll. */
static long file_waiter(__u32 i, void *arg)
{
	struct queue_walk *w = arg;
	struct fw_file *r = w->r;
	struct wait_queue_entry *e;
	__u64 func;

	if (w->node == w->head || !is_kernel_pointer(w->node))
		return 1;
	e = walk_entry(w);
	func = (__u64)BPF_CORE_READ(e, func);
	r->n_entries += 0x10000;
	if (!r->first_wake)
		r->first_wake = func;
	if (pollwake && func == pollwake && r->n_pollers < FW_WAITERS) {
		struct poll_wqueues *pwq = BPF_CORE_READ(e, private);

		r->pollers[r->n_pollers & (FW_WAITERS - 1)] = BPF_CORE_READ(pwq, polling_task, pid);
		r->n_pollers++;
	} else if (ep_poll_callback && func == ep_poll_callback && !r->epoll++) {
		w->ep_entry = (__u64)e;
	}
	w->node = read_u64(w->node);
	return 0;
}

/*
 * The tasks in poll()/select() on @sf (pollwake entries: their
 * poll_wqueues name the task), and in epoll_wait() on the first epoll
 * watching it: an ep_poll_callback entry is an eppoll_entry's wait, which
 * leads to the eventpoll, on whose own wq ep_poll() queues each waiter
 * with init_wait() (private: the task).
 */
static __always_inline void file_pollers(struct sync_file *sf, struct fw_file *r)
{
	struct queue_walk w = { .r = r, .head = (__u64)&sf->wq.head };
	struct eppoll_entry *pwq;
	struct eventpoll *ep;

	w.node = (__u64)BPF_CORE_READ(sf, wq.head.next);
	bpf_loop(LIST_STEPS, file_waiter, &w, 0);
	if (!w.ep_entry)
		return;
	pwq = (void *)(w.ep_entry - bpf_core_field_offset(struct eppoll_entry, wait));
	ep = BPF_CORE_READ(pwq, base, ep);
	if (!ep)
		return;
	w.head = (__u64)&ep->wq.head;
	w.node = (__u64)BPF_CORE_READ(ep, wq.head.next);
	bpf_loop(LIST_STEPS, epoll_waiter, &w, 0);
}

SEC("iter/task_file")
int sync_files(struct bpf_iter__task_file *ctx)
{
	struct file *file = ctx->file;
	struct task_struct *t = ctx->task;
	struct fw_file r = {};
	struct sync_file *sf;
	struct dma_fence *f;
	__u32 signaled;

	if (!file || !t || !sync_file_fops || (__u64)BPF_CORE_READ(file, f_op) != sync_file_fops)
		return 0;
	sf = BPF_CORE_READ(file, private_data);
	f = BPF_CORE_READ(sf, fence);
	if (!f)
		return 0;
	describe(f, &r.context, &r.seqno, &r.ops, &signaled, r.timeline);
	if (signaled)
		return 0;
	r.tgid = BPF_CORE_READ(t, tgid);
	r.fd = ctx->fd;
	r.sync_file = (__u64)sf;
	r.fence = (__u64)f;
	fence_waiters(f, &r);
	file_pollers(sf, &r);
	bpf_seq_write(ctx->meta->seq, &r, sizeof(r));
	return 0;
}
