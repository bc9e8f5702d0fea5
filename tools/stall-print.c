// SPDX-License-Identifier: GPL-2.0
/*
 * stall-print.c - what `fence-trace stall` says about a stuck wait: the
 * task, the fence (driver, timeline, context, seqno), how far behind its
 * timeline is, who created it, the members of a merged fence and which of
 * them are still pending, and the kernel's own view (debugfs); then how
 * and when the stall ended.  Text, or one JSON object per line.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "fence-stall.skel.h"
#include "stall.h"
#include "sync.h"

static void name_of(struct stall_ctx *c, uint64_t context, const char **driver, const char **timeline)
{
	const struct fence_name *n = c->have_names ? names_find(&c->names, context) : NULL;

	*driver = n ? n->driver : "?";
	*timeline = n ? n->timeline : "(name unknown: no fence of it created since the tool started)";
}

static int last_signal(struct stall_ctx *c, uint64_t context, struct fs_signal *s)
{
	return bpf_map_lookup_elem(bpf_map__fd(c->skel->maps.last_signal), &context, s);
}

/* Is member @m signalled now?  Its own flag then, or its timeline since. */
static int member_signaled(struct stall_ctx *c, const struct fs_fence *m)
{
	struct fs_signal s;

	if (m->signaled)
		return 1;
	return last_signal(c, m->context, &s) == 0 && s.seqno >= m->seqno;
}

static void behind(struct stall_ctx *c, const struct fs_fence *f, uint64_t now)
{
	struct fs_signal s;

	if (last_signal(c, f->context, &s)) {
		printf("  timeline: nothing signalled on context %" PRIu64 " since the tool started\n",
		       (uint64_t)f->context);
		return;
	}
	printf("  timeline: last signalled seqno %" PRIu64 ", %.1f ms ago; this fence is %" PRId64
	       " behind it%s\n", (uint64_t)s.seqno, (now - s.ts) / 1e6,
	       (int64_t)(f->seqno - s.seqno), s.error ? " (that signal carried an error)" : "");
}

static void members(struct stall_ctx *c, const struct fs_wait *w)
{
	const char *drv, *tl;

	printf("  merged fence (dma_fence_array) of %u:\n", w->n_members);
	for (unsigned int i = 0; i < w->n_members && i < FS_MEMBERS; i++) {
		const struct fs_fence *m = &w->members[i];

		name_of(c, m->context, &drv, &tl);
		printf("    member %s %s context %" PRIu64 " seqno %" PRIu64 ": %s\n", drv, tl,
		       (uint64_t)m->context, (uint64_t)m->seqno,
		       member_signaled(c, m) ? "signalled" : "PENDING (holds the wait)");
	}
	if (w->n_members > FS_MEMBERS)
		printf("    ... and %u more\n", w->n_members - FS_MEMBERS);
}

/* The kernel's own debugfs view, for the report. */
static void snapshot(const char *path)
{
	char line[256];
	unsigned int n = 0;
	FILE *f = fopen(path, "r");

	if (!f)
		return;
	printf("  %s:\n", path);
	while (fgets(line, sizeof(line), f) && n++ < 40)
		printf("    %s", line);
	fclose(f);
}

/* At most @max bytes of @s (not always NUL-terminated), JSON-escaped. */
static void json_str(const char *s, size_t max)
{
	putchar('"');
	for (size_t i = 0; i < max && s[i]; i++) {
		unsigned char ch = (unsigned char)s[i];

		if (ch == '"' || ch == '\\')
			printf("\\%c", ch);
		else if (ch < 0x20 || ch == '<' || ch == '>' || ch == '&')
			printf("\\u%04x", ch);
		else
			putchar(ch);
	}
	putchar('"');
}

static void start_json(struct stall_ctx *c, const struct fs_wait *w, uint64_t now)
{
	const char *drv, *tl;
	struct fs_signal s;
	int have = last_signal(c, w->fence.context, &s) == 0;

	char last[32] = "null";

	name_of(c, w->fence.context, &drv, &tl);
	if (have)
		snprintf(last, sizeof(last), "%" PRIu64, (uint64_t)s.seqno);
	printf("{\"event\": \"stall\", \"start_ns\": %" PRIu64 ", \"waited_ns\": %" PRIu64
	       ", \"tgid\": %u, \"pid\": %u, \"comm\": ", (uint64_t)w->start,
	       (uint64_t)(now - w->start), w->tgid, w->pid);
	json_str(w->comm, sizeof(w->comm));
	printf(", \"context\": %" PRIu64 ", \"seqno\": %" PRIu64 ", \"driver\": ",
	       (uint64_t)w->fence.context, (uint64_t)w->fence.seqno);
	json_str(drv, 32);
	printf(", \"timeline\": ");
	json_str(tl, 80);
	printf(", \"last_signaled_seqno\": %s, \"creator_tgid\": %u, \"pending_members\": [",
	       last, w->creator.tgid);
	for (unsigned int i = 0, k = 0; w->is_array && i < w->n_members && i < FS_MEMBERS; i++)
		if (!member_signaled(c, &w->members[i]))
			printf("%s{\"context\": %" PRIu64 ", \"seqno\": %" PRIu64 "}", k++ ? ", " : "",
			       (uint64_t)w->members[i].context, (uint64_t)w->members[i].seqno);
	printf("]}\n");
}

void stall_print_start(struct stall_ctx *c, const struct fs_wait *w, uint64_t now)
{
	const char *drv, *tl;

	if (c->json) {
		start_json(c, w, now);
		return;
	}
	name_of(c, w->fence.context, &drv, &tl);
	printf("STALL: %.16s-%u (thread %u) has waited %.1f ms on %s %s context %" PRIu64 " seqno %" PRIu64 "\n",
	       w->comm, w->tgid, w->pid, (now - w->start) / 1e6, drv, tl, (uint64_t)w->fence.context,
	       (uint64_t)w->fence.seqno);
	behind(c, &w->fence, now);
	if (w->creator.ts)
		printf("  created by %.16s-%u, %.1f ms ago\n", w->creator.comm, w->creator.tgid,
		       (now - w->creator.ts) / 1e6);
	else
		printf("  created before the tool started: creator unknown\n");
	if (w->is_array)
		members(c, w);
	printf("  commit, CRTC and plane: not attributable without the fence-trace kernel series\n");
	snapshot("/sys/kernel/debug/sync/info");
	fflush(stdout);
}

void stall_print_end(struct stall_ctx *c, const struct fs_end *e, const struct fs_wait *w)
{
	const char *how = !e->signaled ? "the wait ended unsignalled (interrupted or timed out)" :
			  e->error ? "the fence signalled with an error" : "the fence signalled";

	if (c->json) {
		printf("{\"event\": \"cleared\", \"start_ns\": %" PRIu64 ", \"end_ns\": %" PRIu64
		       ", \"stall_ns\": %" PRIu64 ", \"tgid\": %u, \"pid\": %u, "
		       "\"context\": %" PRIu64 ", \"seqno\": %" PRIu64 ", \"signaled\": %s, \"error\": %d}\n",
		       (uint64_t)e->start, (uint64_t)e->end, (uint64_t)(e->end - e->start), e->tgid, e->pid,
		       (uint64_t)e->context, (uint64_t)e->seqno,
		       e->signaled ? "true" : "false", e->error);
	} else {
		printf("CLEARED after %.1f ms: %s%s context %" PRIu64 " seqno %" PRIu64 " (error %d)%s\n",
		       (e->end - e->start) / 1e6, how, w ? "" : " [stall began and ended between polls]",
		       (uint64_t)e->context, (uint64_t)e->seqno, e->error,
		       e->error == -2 ? ": -ENOENT, a sw_sync timeline closed with it pending" : "");
	}
	fflush(stdout);
}
