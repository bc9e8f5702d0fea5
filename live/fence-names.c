// SPDX-License-Identifier: GPL-2.0
/*
 * fence-names.c - fence context names from a filtered dma_fence_init
 * stream (see fence-names.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fence-names.h"
#include "keymap.h"
#include "live-reader.h"
#include "sync.h"	/* now_ns() */

#define STR_(x) #x
#define STR(x) STR_(x)

static int start(struct fence_names *n, int on_demand)
{
	char why[128];

	memset(n, 0, sizeof(*n));
	n->live = live_reader_new("names");
	n->on_demand = on_demand;
	if (n->live)
		live_reader_setup(n->live, 0);	/* the readers' one clock; names use no time */
	if (!n->live || live_reader_decode(n->live, why, sizeof(why)) ||
	    (!on_demand && live_reader_enable_id(n->live, FT_EV_FENCE_INIT)) ||
	    live_reader_start(n->live, why, sizeof(why))) {
		names_stop(n);
		return -1;
	}
	n->enabled = !on_demand;
	return 0;
}

int names_start(struct fence_names *n)
{
	return start(n, 0);
}

int names_start_on_demand(struct fence_names *n)
{
	return start(n, 1);
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
		n->dropped++;
		return NULL;
	}
	fn = &n->names[n->n++];
	fn->context = context;
	n->changed = 1;
	return fn;
}

/* A name known without the stream (a fence kind whose names are fixed). */
void names_set(struct fence_names *n, uint64_t context, const char *driver, const char *timeline)
{
	struct fence_name *fn;

	if (names_find(n, context) || !(fn = name_add(n, context)))
		return;
	snprintf(fn->driver, sizeof(fn->driver), "%s", driver);
	snprintf(fn->timeline, sizeof(fn->timeline), "%s", timeline);
}

/* A dma_fence_init, decoded by the catalogue: the first of its context names it. */
static void on_init(void *ctx, const struct ft_event *ev)
{
	struct fence_names *n = ctx;
	const struct ft_decoder *dec = live_reader_decoder(n->live);
	struct fence_name *fn;

	if (ev->id != FT_EV_FENCE_INIT || names_find(n, ev->v[FT_CONTEXT]))
		return;
	fn = name_add(n, ev->v[FT_CONTEXT]);
	if (fn) {
		ft_event_str(dec, ev, FT_DRIVER, fn->driver, sizeof(fn->driver));
		ft_event_str(dec, ev, FT_TIMELINE, fn->timeline, sizeof(fn->timeline));
	}
}

/* Given up on less than NAMES_RETRY_S ago: not asked for again yet. */
static int given_up(struct fence_names *n, uint64_t context)
{
	uint32_t when;

	if (!keymap_get(&n->given_up_index, context, &when))
		return 0;
	if (now_ns() / 1000000000ull - when < NAMES_RETRY_S)
		return 1;
	keymap_del(&n->given_up_index, context);	/* it may make fences again */
	return 0;
}

/* Remembered for NAMES_RETRY_S, or until NAMES_GIVEN_UP later ones push it out. */
static void give_up(struct fence_names *n, uint64_t context)
{
	uint64_t *slot = &n->given_up[n->n_given_up++ % NAMES_GIVEN_UP];

	if (n->n_given_up > NAMES_GIVEN_UP)
		keymap_del(&n->given_up_index, *slot);
	*slot = context;
	keymap_put(&n->given_up_index, context, (uint32_t)(now_ns() / 1000000000ull));
}

/*
 * On demand: a tool has seen @context; ask the stream for its name.
 * Return: 0 when too many names are on their way: ask again later.
 */
int names_want(struct fence_names *n, uint64_t context)
{
	if (!n->on_demand || names_find(n, context) || given_up(n, context))
		return 1;
	for (unsigned int i = 0; i < n->n_wanted; i++)
		if (n->wanted[i].context == context)
			return 1;
	if (n->n_wanted >= NAMES_FILTER_MAX)
		return 0;
	n->wanted[n->n_wanted++] = (struct wanted_name){ context, now_ns() };
	return 1;
}

/* Drop the named contexts in the kernel, as far as a filter stays short. */
static void update_filter(struct fence_names *n)
{
	char filter[2048] = "", *p = filter;
	unsigned int i;

	for (i = 0; i < n->n && i < NAMES_FILTER_MAX; i++)
		p += snprintf(p, filter + sizeof(filter) - p, "%scontext != %llu",
			      i ? " && " : "", (unsigned long long)n->names[i].context);
	if (i && !live_reader_filter_id(n->live, FT_EV_FENCE_INIT, filter))
		n->filtered = i;
}

/*
 * On demand: forget contexts named since, and those that made no fence
 * within NAMES_PATIENCE_NS; then the event goes off, or on with a filter
 * that keeps just the contexts still wanted.
 */
static void update_demand(struct fence_names *n)
{
	char filter[2048] = "", *p = filter;
	uint64_t now = now_ns();
	unsigned int i, k = 0;

	for (i = 0; i < n->n_wanted; i++) {
		struct wanted_name w = n->wanted[i];

		if (names_find(n, w.context))
			continue;
		if (now - w.since_ns > NAMES_PATIENCE_NS) {
			give_up(n, w.context);
			continue;
		}
		n->wanted[k++] = w;
	}
	n->n_wanted = k;
	if (!k) {
		if (n->enabled && !live_reader_disable_id(n->live, FT_EV_FENCE_INIT))
			n->enabled = 0;
		return;
	}
	for (i = 0; i < k; i++)
		p += snprintf(p, filter + sizeof(filter) - p, "%scontext == %llu",
			      i ? " || " : "", (unsigned long long)n->wanted[i].context);
	if (strcmp(filter, n->filter) &&
	    !live_reader_filter_id(n->live, FT_EV_FENCE_INIT, filter))
		snprintf(n->filter, sizeof(n->filter), "%s", filter);
	if (!n->enabled && !live_reader_enable_id(n->live, FT_EV_FENCE_INIT))
		n->enabled = 1;
}

/* Read what the instance has; learn new names. */
void names_poll(struct fence_names *n)
{
	if (!n->live)
		return;
	n->changed = 0;
	if (n->enabled)
		live_reader_poll(n->live, on_init, n);
	if (n->on_demand)
		update_demand(n);
	else if (n->changed && n->filtered < NAMES_FILTER_MAX)
		update_filter(n);
}

/*
 * Why a context has no name: it made no fence since we started, unless
 * the table overflowed, after which a new context cannot be told apart.
 */
const char *names_unknown(const struct fence_names *n)
{
	if (n->on_demand && !n->dropped)
		return "(name unknown: no fence of it since it was first seen)";
	return n->dropped ? "(name unknown: the table of " STR(NAMES_MAX) " names is full)" :
		"(name unknown: created before we started)";
}

void names_stop(struct fence_names *n)
{
	live_reader_free(n->live);
	keymap_free(&n->index);
	keymap_free(&n->given_up_index);
	n->live = NULL;
}
