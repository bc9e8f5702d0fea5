// SPDX-License-Identifier: GPL-2.0
/*
 * stall-print-class.c - what `fence-trace stall` says of the frame class of
 * a commit whose in-fence wait it reported (stall-class.c judges): under
 * the stall when it is already certain, else on a line of its own
 * (CLASS:, or a "class" object) the moment it becomes so, and at the
 * latest when the wait ends, with why it is not known if it still is not.
 * Only for waits the kernel series names a commit of.
 */
#include <inttypes.h>
#include <stdio.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "fence-stall.skel.h"
#include "json-str.h"
#include "report.h"
#include "stall.h"
#include "stall-class.h"

/**
 * stall_pipes_read() - the vblanks of every pipe that had one since the
 * tool started (at most STALL_MAX_PIPES)
 * @c: the stall context
 * @pipes: STALL_MAX_PIPES entries to fill
 *
 * Return: how many were filled.
 */
unsigned int stall_pipes_read(struct stall_ctx *c, struct fs_vblank *pipes)
{
	int fd = bpf_map__fd(c->skel->maps.vblanks), key, *prev = NULL, next;
	unsigned int n = 0;

	while (n < STALL_MAX_PIPES && bpf_map_get_next_key(fd, prev, &next) == 0) {
		if (bpf_map_lookup_elem(fd, &next, &pipes[n]) == 0)
			n++;
		key = next;
		prev = &key;
	}
	return n;
}

/*
 * Did every pipe with vblanks have one in (@from, @to]?  A commit held
 * over that span then missed its target (the first vblank after it
 * entered, at the latest that one), whichever CRTC it is on.
 */
int stall_vblank_within(struct stall_ctx *c, uint64_t from, uint64_t to)
{
	struct fs_vblank pipes[STALL_MAX_PIPES];
	unsigned int n = stall_pipes_read(c, pipes), hit = 0;

	for (unsigned int i = 0; i < n; i++)
		for (unsigned int k = 0; k < FS_VBLANK_RING; k++)
			if (pipes[i].recent[k] > from && pipes[i].recent[k] <= to) {
				hit++;
				break;
			}
	return n && hit == n;
}

/*
 * Which commit @s waits for and when it entered, once the series' stream
 * has named them: the stream is read at every poll, and may come later
 * than the BPF side's wait.
 */
static void attach_commit(struct stall_ctx *c, struct stall_seen *s)
{
	const struct series_wait *sw;

	if (!c->have_series || s->wait.before_tool)
		return;
	if (s->commit < 0) {
		sw = series_wait_of(&c->series, s->wait.fence.context, s->wait.fence.seqno,
				    s->wait.pid);
		if (!sw)
			return;
		s->commit = (int64_t)sw->commit;
	}
	if (!s->entry_ns)
		s->entry_ns = series_commit_entry(&c->series, (uint64_t)s->commit);
}

/* The pipes' vblanks, read once for every wait judged at one time. */
struct pipes_now {
	struct fs_vblank pipes[STALL_MAX_PIPES];
	unsigned int n;
	int read;
};

static void judge(struct stall_ctx *c, struct pipes_now *p, const struct stall_frame *f,
		  uint64_t now, struct stall_verdict *v)
{
	struct stall_target t;

	if (!p->read) {
		p->n = stall_pipes_read(c, p->pipes);
		p->read = 1;
	}
	stall_target_of(p->pipes, p->n, f->entry_ns, c->watch_start_ns, now, &t);
	stall_class_judge(f, &t, c->latch_margin_ns, now, v);
}

/* The fence's signal while the wait lasts, from its timeline's last one. */
static void signal_so_far(struct stall_ctx *c, const struct fs_fence *fence, struct stall_frame *f)
{
	struct fs_signal sig;

	if (stall_last_signal(c, fence->context, &sig) ||
	    sig.seqno < fence->seqno)
		return;
	f->signal_ns = sig.ts;
	f->signal_exact = sig.seqno == fence->seqno;
}

static void why_text(const struct stall_ctx *c, const struct stall_verdict *v)
{
	const char *mark = c->latch_margin_ns >= 0 ? "deadline" : "target vblank";

	if (v->cls == FT_CLASS_PRODUCER && v->pending)
		printf("its in-fence is still pending, %.1f ms past its %s\n", v->past_ns / 1e6, mark);
	else if (v->cls == FT_CLASS_PRODUCER)
		printf("its in-fence signalled %.1f ms past its %s\n", v->past_ns / 1e6, mark);
	else if (v->pending)
		printf("its in-fence signalled before its %s, and its waiter has still not run, %.1f ms past it",
		       mark, v->past_ns / 1e6);
	else
		printf("its in-fence signalled before its %s, and its waiter ran %.1f ms past it",
		       mark, v->past_ns / 1e6);
	if (v->cls != FT_CLASS_WAKEUP)
		return;
	if (c->latch_margin_ns >= 0)
		printf("\n");
	else
		printf(" (if the driver's latch margin is under %.1f ms; past that, producer)\n",
		       v->margin_under_ns / 1e6);
}

static void class_json(const struct stall_seen *s, const struct stall_verdict *v)
{
	int known = v->cls != FT_CLASS_UNKNOWN;

	printf("{\"event\": \"class\", \"commit\": %" PRId64 ", \"tgid\": %u, \"pid\": %u, \"context\": %" PRIu64
	       ", \"seqno\": %" PRIu64 ", \"class\": ", s->commit, s->wait.tgid, s->wait.pid,
	       (uint64_t)s->wait.fence.context, (uint64_t)s->wait.fence.seqno);
	if (known)
		json_str(stdout, report_frame_class_name(v->cls));
	else
		printf("null");
	printf(", \"pending\": %s, \"past_ns\": ", v->pending ? "true" : "false");
	printf(known ? "%" PRIu64 : "null", v->past_ns);
	printf(", \"margin_under_ns\": ");
	printf(v->cls == FT_CLASS_WAKEUP && v->margin_under_ns ? "%" PRIu64 : "null", v->margin_under_ns);
	printf(", \"why\": ");
	if (known)
		printf("null");
	else
		json_str(stdout, v->why);
	printf("}\n");
}

/* @head: the line's start in text, under a STALL or on its own. */
static void say(struct stall_ctx *c, struct stall_seen *s, const struct stall_verdict *v,
		const char *head)
{
	if (c->json) {
		class_json(s, v);
	} else {
		printf("%s", head);
		if (v->cls == FT_CLASS_UNKNOWN) {
			printf("not known: %s\n", v->why);
		} else {
			printf("%s: ", report_frame_class_name(v->cls));
			why_text(c, v);
		}
	}
	fflush(stdout);
	s->class_said = v->cls != FT_CLASS_UNKNOWN;
}

/* Under a new STALL (text), or after it (JSON): the class, if already certain. */
void stall_class_start(struct stall_ctx *c, struct stall_seen *s, uint64_t now)
{
	struct pipes_now p = { .read = 0 };
	struct stall_frame f;
	struct stall_verdict v;

	attach_commit(c, s);
	if (s->commit < 0)
		return;
	f = (struct stall_frame){ .entry_ns = s->entry_ns };
	signal_so_far(c, &s->wait.fence, &f);
	judge(c, &p, &f, now, &v);
	if (v.cls != FT_CLASS_UNKNOWN)
		say(c, s, &v, "  frame class: ");
	else if (!c->json)
		printf("  frame class: not known yet: %s\n", v.why);
}

/* At every poll: the waits reported whose class has become certain since. */
void stall_class_scan(struct stall_ctx *c, uint64_t now)
{
	struct pipes_now p = { .read = 0 };
	char head[96];

	for (unsigned int i = 0; i < c->n_seen; i++) {
		struct stall_seen *s = &c->seen[i];
		struct stall_frame f;
		struct stall_verdict v;

		attach_commit(c, s);
		if (s->class_said || s->commit < 0)
			continue;
		f = (struct stall_frame){ .entry_ns = s->entry_ns };
		signal_so_far(c, &s->wait.fence, &f);
		judge(c, &p, &f, now, &v);
		if (v.cls == FT_CLASS_UNKNOWN)
			continue;
		snprintf(head, sizeof(head), "CLASS: commit %" PRId64 " (%.16s-%u's wait on context %" PRIu64
			 " seqno %" PRIu64 "): ", s->commit, s->wait.comm, s->wait.pid,
			 (uint64_t)s->wait.fence.context, (uint64_t)s->wait.fence.seqno);
		say(c, s, &v, head);
	}
}

/* The wait ended: the class with its signal and wake-up known, if not said. */
void stall_class_end(struct stall_ctx *c, struct stall_seen *s, const struct fs_end *e)
{
	struct pipes_now p = { .read = 0 };
	struct stall_frame f;
	struct stall_verdict v;

	attach_commit(c, s);	/* may learn the commit's entry only now */
	if (s->class_said || s->commit < 0)
		return;
	f = (struct stall_frame){
		.entry_ns = s->entry_ns, .signal_ns = e->signaled ? e->signal_ts : 0,
		.signal_exact = 1, .woken_ns = e->end,
	};
	if (!e->signaled || !e->signal_ts) {
		v = (struct stall_verdict){ .cls = FT_CLASS_UNKNOWN,
			.why = e->signaled ? "when its in-fence signalled is not known" :
			       "the wait ended unsignalled (interrupted or timed out)" };
	} else {
		judge(c, &p, &f, e->end, &v);
	}
	say(c, s, &v, "  frame class: ");
}
