// SPDX-License-Identifier: GPL-2.0
/*
 * fence-names.c - fence context names: from the BPF programs' names ring,
 * else from a dma_fence_init stream asked for on demand (see fence-names.h).
 */
#include <bpf/libbpf.h>
#include <linux/types.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fence-names.h"
#include "fence-ops.h"
#include "keymap.h"
#include "live-reader.h"
#include "sync.h"	/* now_ns() */

#define STR_(x) #x
#define STR(x) STR_(x)

/*
 * FENCE_TRACE_NAMES=stream: the programs read no names, as if every fence
 * were of a kind they cannot read (what naming costs without the readers:
 * tests/bench/overhead-bench; fence-trace(1)).  Unset or "fence": they do.
 * Return: 1 stream only, 0 not, -1 any other value (said on stderr).
 */
int names_stream_only(void)
{
	const char *v = getenv("FENCE_TRACE_NAMES");

	if (!v || !*v || !strcmp(v, "fence"))
		return 0;
	if (!strcmp(v, "stream"))
		return 1;
	fprintf(stderr, "fence-trace: FENCE_TRACE_NAMES: '%s' is neither 'fence' nor 'stream'\n", v);
	return -1;
}

/*
 * Ready for names_attach() and names_set() in any case; the stream too,
 * where tracefs allows it.  Return: -1 when there is no stream.
 */
int names_start(struct fence_names *n)
{
	char why[128];

	memset(n, 0, sizeof(*n));
	n->live = live_reader_new("names");
	if (n->live)
		live_reader_setup(n->live, LIVE_READER_CLOCK, 0);	/* the readers' one clock; names use no time */
	if (!n->live || live_reader_decode(n->live, why, sizeof(why)) ||
	    live_reader_start(n->live, why, sizeof(why))) {
		live_reader_free(n->live);
		n->live = NULL;
		return -1;
	}
	return 0;
}

const struct fence_name *names_find(const struct fence_names *n, uint64_t context)
{
	uint32_t i;

	return keymap_get(&n->index, context, &i) ? &n->names[i] : NULL;
}

/* A new entry for @context in the table, or NULL (full: counted). */
static struct fence_name *name_add(struct fence_names *n, uint64_t context)
{
	struct fence_name *fn;

	if (n->n >= NAMES_MAX || keymap_put(&n->index, context, n->n)) {
		n->counts.dropped++;
		return NULL;
	}
	fn = &n->names[n->n++];
	fn->context = context;
	return fn;
}

/* Return: 1 when @context is named now, 0 when it had a name or found no room (counted). */
int names_set(struct fence_names *n, uint64_t context, const char *driver, const char *timeline)
{
	struct fence_name *fn;

	if (names_find(n, context) || !(fn = name_add(n, context)))
		return 0;
	snprintf(fn->driver, sizeof(fn->driver), "%s", driver);
	snprintf(fn->timeline, sizeof(fn->timeline), "%s", timeline);
	keymap_del(&n->unnamed, context);
	return 1;
}

/* A context a program could not name: unnamed until the stream names it. */
static void note_unnamed(struct fence_names *n, uint64_t context)
{
	uint32_t v;

	if (keymap_get(&n->unnamed, context, &v))
		return;
	if (n->unnamed.used >= NAMES_MAX || keymap_put(&n->unnamed, context, 1))
		n->counts.unnamed_more++;	/* counted, not asked for */
}

/*
 * A struct fence_name_rec from a program: named from the fence, or asked
 * of the stream.  A record whose strings are not NUL-terminated within
 * their 32 bytes is cut there.
 */
void names_from_record(struct fence_names *n, const void *data, size_t size)
{
	struct fence_name_rec r;
	const char *driver, *timeline;

	if (size < sizeof(r))
		return;
	memcpy(&r, data, sizeof(r));
	r.driver[sizeof(r.driver) - 1] = r.timeline[sizeof(r.timeline) - 1] = '\0';
	driver = fence_ops_driver(r.kind) ? fence_ops_driver(r.kind) : r.driver;
	timeline = fence_ops_timeline(r.kind) ? fence_ops_timeline(r.kind) : r.timeline;
	if (r.kind == FENCE_OPS_OTHER || !driver[0] || !timeline[0]) {
		n->ask.catch_all = 1;	/* its next contexts may have one fence each */
		if (!names_find(n, r.context)) {
			note_unnamed(n, r.context);
			names_want(n, r.context);	/* if too many are asked: names_poll() again */
		}
		return;
	}
	if (r.kind == FENCE_OPS_CRTC)
		ask_read_context(&n->ask, r.context);
	else
		ask_read_driver(&n->ask, driver);
	if (names_set(n, r.context, driver, timeline))
		n->counts.from_fence++;
}

static int on_ring_record(void *ctx, void *data, size_t size)
{
	names_from_record(ctx, data, size);
	return 0;
}

int names_attach(struct fence_names *n, int ring_fd, const volatile __u64 *ring_lost)
{
	n->ring = ring_buffer__new(ring_fd, on_ring_record, n, NULL);
	n->ring_lost = ring_lost;
	return n->ring ? 0 : -1;
}

/* A dma_fence_init, decoded by the catalogue: the first of its context names it. */
static void on_init(void *ctx, const struct ft_event *ev)
{
	struct fence_names *n = ctx;
	const struct ft_decoder *dec = live_reader_decoder(n->live);
	uint64_t context = ev->v[FT_CONTEXT];
	struct fence_name *fn;

	/* a full table: every fence that passes would count, not each context */
	if (ev->id != FT_EV_FENCE_INIT || names_find(n, context) || n->n >= NAMES_MAX ||
	    !(fn = name_add(n, context)))
		return;
	ft_event_str(dec, ev, FT_DRIVER, fn->driver, sizeof(fn->driver));
	ft_event_str(dec, ev, FT_TIMELINE, fn->timeline, sizeof(fn->timeline));
	keymap_del(&n->unnamed, context);
	n->counts.from_stream++;
}

/*
 * A tool has seen @context and has no name for it: ask the stream.
 * Return: 0 when too many names are on their way: ask again later.
 */
int names_want(struct fence_names *n, uint64_t context)
{
	if (!n->live || names_find(n, context) || n->n >= NAMES_MAX)	/* full: it could not be kept */
		return 1;
	return ask_want(&n->ask, context, now_ns());
}

/* Ask for the unnamed contexts that found no room before (ask_want() skips those given up). */
static void refill_wanted(struct fence_names *n)
{
	uint64_t now = now_ns(), context;
	uint32_t pos = 0;

	while (n->ask.n_wanted < NAMES_FILTER_MAX && keymap_next(&n->unnamed, &pos, &context))
		ask_want(&n->ask, context, now);
}

/* The event off, or on with a filter that keeps what is still to catch. */
static void update_stream(struct fence_names *n)
{
	char filter[sizeof(n->filter)];

	ask_prune(&n->ask, &n->index, now_ns());
	if (n->n < NAMES_MAX)
		refill_wanted(n);
	if (!ask_filter(&n->ask, filter, sizeof(filter))) {
		if (n->enabled && !live_reader_disable_id(n->live, FT_EV_FENCE_INIT))
			n->enabled = 0;
		return;
	}
	if (strcmp(filter, n->filter) && !live_reader_filter_id(n->live, FT_EV_FENCE_INIT, filter))
		snprintf(n->filter, sizeof(n->filter), "%s", filter);
	if (!n->enabled && !live_reader_enable_id(n->live, FT_EV_FENCE_INIT))
		n->enabled = 1;
}

/* Take the programs' names, read what the stream has; then ask it anew. */
void names_poll(struct fence_names *n)
{
	if (n->ring)
		ring_buffer__consume(n->ring);
	if (n->ring_lost)
		n->counts.ring_lost = *n->ring_lost;
	if (!n->live)
		return;
	if (n->enabled)
		live_reader_poll(n->live, on_init, n);
	update_stream(n);
}

/* Why a context has no name; the closing counts say how many. */
const char *names_unknown(const struct fence_names *n)
{
	if (!n->live)
		return "(name unknown: a kind BPF cannot read, and no tracefs stream to ask)";
	if (n->counts.dropped)
		return "(name unknown: the table of " STR(NAMES_MAX) " names is full)";
	return "(name unknown: a kind BPF cannot read, and no fence of it came while asked for)";
}

/*
 * Contexts not named: of a kind BPF cannot read and not (yet) named by the
 * stream, names not kept (table full), and records the ring had no room
 * for (each a context, or a repeat of one: its next fence sends it again).
 */
uint64_t names_unnamed(const struct fence_names *n)
{
	return n->unnamed.used + n->counts.unnamed_more + n->counts.dropped + n->counts.ring_lost;
}

/* One line on how the contexts seen were named, and how many were not. */
void names_counts_line(const struct fence_names *n, char *buf, size_t size)
{
	snprintf(buf, size, "fence names: %llu read from the fence, %llu from the tracefs stream%s, "
		 "%llu unnamed (%u still asked for, %llu not kept: table full, %llu names records lost: ring full)",
		 (unsigned long long)n->counts.from_fence, (unsigned long long)n->counts.from_stream,
		 n->live ? "" : " (none: no tracefs)", (unsigned long long)names_unnamed(n),
		 n->ask.n_wanted, (unsigned long long)n->counts.dropped,
		 (unsigned long long)n->counts.ring_lost);
}

/* The same in a table's column of 20: top's. */
const char *names_unknown_short(const struct fence_names *n)
{
	if (n->counts.dropped)
		return "(name table full)";
	return n->live ? "(kind not readable)" : "(no tracefs)";
}

void names_stop(struct fence_names *n)
{
	ring_buffer__free(n->ring);
	live_reader_free(n->live);
	keymap_free(&n->index);
	keymap_free(&n->unnamed);
	ask_free(&n->ask);
	n->ring = NULL;
	n->live = NULL;
}
