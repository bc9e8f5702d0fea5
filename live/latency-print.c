// SPDX-License-Identifier: GPL-2.0
/*
 * latency-print.c - the outputs of `fence-trace latency`: bcc-style text
 * histograms, or one JSON object per interval (NDJSON), always with the
 * drop counters; and clearing the kernel's histograms between intervals.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "fence-latency.h"	/* before the skeleton: its .bss uses struct fl_live */
#include "fence-latency.skel.h"
#include "json-str.h"
#include "latency.h"
#include "log2-hist.h"

static const char *const kind_names[] = {
	[FL_SIGNAL] = "signal latency",
	[FL_WAIT_CONTEXT] = "wait on timeline",
	[FL_WAIT_TASK] = "wait by task",
	[FL_OUT_VBLANK] = "out-fence signal after its vblank",
	[FL_PLANE_WAIT] = "in-fence wait of a commit",
};

/* Do -C and -T choose fence context @ctx? */
static int context_chosen(struct latency_ctx *c, uint64_t ctx)
{
	const struct fence_name *n;

	if (c->context >= 0 && ctx != (uint64_t)c->context)
		return 0;
	if (!c->timeline)
		return 1;
	n = names_find(&c->names, ctx);
	return n && strstr(n->timeline, c->timeline);
}

/* Per-task histograms are merged first (task_merge()); pipes and planes are no contexts. */
static int selected(struct latency_ctx *c, const struct fl_key *k)
{
	if (k->kind == FL_OUT_VBLANK || k->kind == FL_PLANE_WAIT)
		return 1;
	return k->kind != FL_WAIT_TASK && context_chosen(c, k->id);
}

/* Call @fn for every histogram the kernel holds, in map order. */
static void each_hist(struct latency_ctx *c, void (*fn)(struct latency_ctx *, const struct fl_key *,
							  const struct fl_hist *, int *), int *first)
{
	int fd = bpf_map__fd(c->skel->maps.hists);
	struct fl_key key, next, *prev = NULL;
	struct fl_hist h;

	while (bpf_map_get_next_key(fd, prev, &next) == 0) {
		if (bpf_map_lookup_elem(fd, &next, &h) == 0)
			fn(c, &next, &h, first);
		key = next;
		prev = &key;
	}
}

static void hist_merge(struct fl_hist *into, const struct fl_hist *h)
{
	for (int i = 0; i < FL_SLOTS; i++)
		into->slots[i] += h->slots[i];
	into->count += h->count;
	into->sum += h->sum;
	into->max = h->max > into->max ? h->max : into->max;
	if (!into->comm[0])
		memcpy(into->comm, h->comm, sizeof(into->comm));
}

/*
 * The kernel keeps a task's waits per waited context: add up, per task,
 * those of the contexts -C and -T choose, into c->tasks (sized for every
 * histogram the map can hold).
 */
static void task_merge(struct latency_ctx *c, const struct fl_key *k, const struct fl_hist *h, int *first)
{
	unsigned int i;

	(void)first;
	if (k->kind != FL_WAIT_TASK || !context_chosen(c, k->context))
		return;
	for (i = 0; i < c->n_tasks && c->tasks[i].tgid != k->id; i++)
		;
	if (i == c->n_tasks) {
		if (c->n_tasks == FL_MAX_HISTS)
			return;
		memset(&c->tasks[c->n_tasks++], 0, sizeof(c->tasks[0]));
		c->tasks[i].tgid = k->id;
	}
	hist_merge(&c->tasks[i].h, h);
}

/* Call @fn for each task's merged wait histogram, as if the kernel held it. */
static void each_task(struct latency_ctx *c, void (*fn)(struct latency_ctx *, const struct fl_key *,
							  const struct fl_hist *, int *), int *first)
{
	c->n_tasks = 0;
	if (c->per_task)
		each_hist(c, task_merge, NULL);
	for (unsigned int i = 0; i < c->n_tasks; i++) {
		struct fl_key k = { .id = c->tasks[i].tgid, .kind = FL_WAIT_TASK };

		fn(c, &k, &c->tasks[i].h, first);
	}
}

static void text_one(struct latency_ctx *c, const struct fl_key *k, const struct fl_hist *h, int *first)
{
	const struct fence_name *n = k->kind > FL_WAIT_CONTEXT ? NULL : names_find(&c->names, k->id);

	(void)first;
	if (k->kind == FL_WAIT_TASK)
		printf("\n%s: pid %" PRIu64 " (%.16s)\n", kind_names[k->kind], (uint64_t)k->id,
		       h->comm[0] ? h->comm : "?");
	else if (k->kind > FL_WAIT_TASK)
		printf("\n%s: %s %" PRIu64 "\n", kind_names[k->kind],
		       k->kind == FL_OUT_VBLANK ? "vblank pipe" : "plane", (uint64_t)k->id);
	else
		printf("\n%s: context %" PRIu64 " %s %s\n", kind_names[k->kind], (uint64_t)k->id,
		       n ? n->driver : "?", n ? n->timeline : names_unknown(&c->names));
	printf("    count %" PRIu64 ", mean %" PRIu64 " %s, max %" PRIu64 " %s%s", (uint64_t)h->count,
	       h->count ? (uint64_t)(h->sum / h->count) : 0, c->ms ? "ms" : "us", (uint64_t)h->max,
	       c->ms ? "ms" : "us", k->kind == FL_SIGNAL ? "" : "\n");
	if (k->kind == FL_SIGNAL)
		printf(", signalled with an error %" PRIu64 "\n", (uint64_t)h->errors);
	print_log2_hist(stdout, h->slots, FL_SLOTS, c->ms ? "msecs" : "usecs");
}

static void text_selected(struct latency_ctx *c, const struct fl_key *k, const struct fl_hist *h, int *first)
{
	if (selected(c, k))
		text_one(c, k, h, first);
}

static void drops_text(struct latency_ctx *c)
{
	char names[256];

	names_counts_line(&c->names, names, sizeof(names));
	printf("\ndrops: live-fence table full %" PRIu64 ", histogram map full %" PRIu64
	       ", wait map full %" PRIu64 "; signals of fences older than the tool %" PRIu64
	       "; destroyed unsignalled %" PRIu64 "\n%s\n",
	       latency_counter(c, FL_DROP_LIVE), latency_counter(c, FL_DROP_HIST),
	       latency_counter(c, FL_DROP_WAIT), latency_counter(c, FL_UNKNOWN_SIGNAL),
	       latency_counter(c, FL_DESTROYED_UNSIGNALED), names);
}

void latency_print_text(struct latency_ctx *c)
{
	char when[32];
	time_t now = time(NULL);

	strftime(when, sizeof(when), "%H:%M:%S", localtime(&now));
	printf("%s\n", when);
	each_hist(c, text_selected, NULL);
	each_task(c, text_one, NULL);
	drops_text(c);
}

static void json_one(struct latency_ctx *c, const struct fl_key *k, const struct fl_hist *h, int *first)
{
	static const char *const kinds[] = { "signal", "wait_context", "wait_task", "out_vblank",
					     "plane_wait" };
	const struct fence_name *n = k->kind > FL_WAIT_CONTEXT ? NULL : names_find(&c->names, k->id);

	printf("%s{\"kind\": \"%s\", \"id\": %" PRIu64 ", ", *first ? "" : ", ",
	       kinds[k->kind], (uint64_t)k->id);
	if (k->kind == FL_WAIT_TASK) {
		printf("\"comm\": ");
		json_str(stdout, h->comm);
		printf(", ");
	}
	printf("\"driver\": ");
	*first = 0;
	if (n)
		json_str(stdout, n->driver);
	else
		printf("null");
	printf(", \"timeline\": ");
	if (n)
		json_str(stdout, n->timeline);
	else
		printf("null");
	printf(", \"count\": %" PRIu64 ", \"sum\": %" PRIu64 ", \"max\": %" PRIu64 ", \"errors\": %"
	       PRIu64 ", \"slots\": [", (uint64_t)h->count, (uint64_t)h->sum, (uint64_t)h->max,
	       (uint64_t)h->errors);
	for (int i = 0; i < FL_SLOTS; i++)
		printf("%s%u", i ? ", " : "", h->slots[i]);
	printf("]}");
}

static void json_selected(struct latency_ctx *c, const struct fl_key *k, const struct fl_hist *h, int *first)
{
	if (selected(c, k))
		json_one(c, k, h, first);
}

void latency_print_json(struct latency_ctx *c)
{
	int first = 1;

	printf("{\"time\": %lld, \"unit\": \"%s\", \"histograms\": [", (long long)time(NULL),
	       c->ms ? "ms" : "us");
	each_hist(c, json_selected, &first);
	each_task(c, json_one, &first);
	printf("], \"drops\": {\"live_full\": %" PRIu64 ", \"hist_full\": %" PRIu64
	       ", \"wait_full\": %" PRIu64 "}, \"unknown_signals\": %" PRIu64
	       ", \"destroyed_unsignaled\": %" PRIu64 ", \"names\": {\"from_fence\": %" PRIu64
	       ", \"from_stream\": %" PRIu64 ", \"unnamed\": %" PRIu64 ", \"not_kept\": %" PRIu64
	       ", \"records_lost\": %" PRIu64 ", \"stream\": %s}}\n",
	       latency_counter(c, FL_DROP_LIVE), latency_counter(c, FL_DROP_HIST),
	       latency_counter(c, FL_DROP_WAIT), latency_counter(c, FL_UNKNOWN_SIGNAL),
	       latency_counter(c, FL_DESTROYED_UNSIGNALED), c->names.counts.from_fence,
	       c->names.counts.from_stream, names_unnamed(&c->names), c->names.counts.dropped,
	       c->names.counts.ring_lost, c->names.live ? "true" : "false");
}

/* Start the next interval from empty histograms (counters keep counting). */
void latency_clear(struct latency_ctx *c)
{
	int fd = bpf_map__fd(c->skel->maps.hists);
	struct fl_key key;

	while (bpf_map_get_next_key(fd, NULL, &key) == 0)
		if (bpf_map_delete_elem(fd, &key))
			break;
}
