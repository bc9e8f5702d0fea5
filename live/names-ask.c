// SPDX-License-Identifier: GPL-2.0
/*
 * names-ask.c - what the names stream is asked for (names-ask.h).
 */
#include <stdio.h>
#include <string.h>

#include "names-ask.h"

/* Given up on less than NAMES_RETRY_S ago: not asked for again yet. */
static int given_up(struct names_ask *a, uint64_t context, uint64_t now_ns)
{
	uint32_t when;

	if (!keymap_get(&a->given_up_index, context, &when))
		return 0;
	if (now_ns / 1000000000ull - when < NAMES_RETRY_S)
		return 1;
	keymap_del(&a->given_up_index, context);	/* it may make fences again */
	return 0;
}

/* Remembered for NAMES_RETRY_S, or until NAMES_GIVEN_UP later ones push it out. */
static void give_up(struct names_ask *a, uint64_t context, uint64_t now_ns)
{
	uint64_t *slot = &a->given_up[a->n_given_up++ % NAMES_GIVEN_UP];

	if (a->n_given_up > NAMES_GIVEN_UP)
		keymap_del(&a->given_up_index, *slot);
	*slot = context;
	keymap_put(&a->given_up_index, context, (uint32_t)(now_ns / 1000000000ull));
}

/*
 * Ask for @context, unless it is asked for already or was given up on
 * lately.  Return: 0 when too many are asked for: ask again later.
 */
int ask_want(struct names_ask *a, uint64_t context, uint64_t now_ns)
{
	if (given_up(a, context, now_ns))
		return 1;
	for (unsigned int i = 0; i < a->n_wanted; i++)
		if (a->wanted[i].context == context)
			return 1;
	if (a->n_wanted >= NAMES_FILTER_MAX)
		return 0;
	a->wanted[a->n_wanted++] = (struct wanted_name){ context, now_ns };
	return 1;
}

/* The programs read every fence of @driver: the catch-all leaves it out. */
void ask_read_driver(struct names_ask *a, const char *driver)
{
	unsigned int i;

	/* a name that cannot sit in a filter's quotes stays in */
	if (a->n_read_drivers >= NAMES_READ_DRIVERS || !driver[0] || strpbrk(driver, "\"\\"))
		return;
	for (i = 0; i < a->n_read_drivers; i++)
		if (!strcmp(a->read_drivers[i], driver))
			return;
	snprintf(a->read_drivers[a->n_read_drivers++], sizeof(a->read_drivers[0]), "%s", driver);
}

/* The programs read @context's fences (a CRTC's): the catch-all leaves it out. */
void ask_read_context(struct names_ask *a, uint64_t context)
{
	unsigned int i;

	for (i = 0; i < a->n_read_contexts; i++)
		if (a->read_contexts[i] == context)
			return;
	if (a->n_read_contexts < NAMES_READ_CONTEXTS)
		a->read_contexts[a->n_read_contexts++] = context;
}

/* Forget contexts named since (in @named), give up on those past NAMES_PATIENCE_NS. */
void ask_prune(struct names_ask *a, const struct keymap *named, uint64_t now_ns)
{
	unsigned int i, k = 0;
	uint32_t v;

	for (i = 0; i < a->n_wanted; i++) {
		struct wanted_name w = a->wanted[i];

		if (keymap_get(named, w.context, &v))
			continue;
		if (now_ns - w.since_ns > NAMES_PATIENCE_NS) {
			give_up(a, w.context, now_ns);
			continue;
		}
		a->wanted[k++] = w;
	}
	a->n_wanted = k;
}

/* Every fence but those the programs read: "driver != \"sw_sync\" && context != 3". */
static size_t catch_all(const struct names_ask *a, char *buf, size_t size)
{
	size_t used = 0;
	unsigned int i;

	for (i = 0; i < a->n_read_drivers && used < size; i++)
		used += (size_t)snprintf(buf + used, size - used, "%sdriver != \"%s\"",
					 used ? " && " : "", a->read_drivers[i]);
	for (i = 0; i < a->n_read_contexts && used < size; i++)
		used += (size_t)snprintf(buf + used, size - used, "%scontext != %llu",
					 used ? " && " : "", (unsigned long long)a->read_contexts[i]);
	return used;
}

/*
 * What to ask as one tracefs filter: the contexts wanted, or'ed with the
 * catch-all when on ("context == 7 || (driver != \"vgem\")"); "0" (no
 * filter) when the catch-all leaves nothing out.  Return: 0 when there is
 * nothing to ask for (the event goes off), else 1.
 */
int ask_filter(const struct names_ask *a, char *buf, size_t size)
{
	size_t used = 0;
	unsigned int i;

	buf[0] = '\0';
	if (a->catch_all && !a->n_read_drivers && !a->n_read_contexts) {
		snprintf(buf, size, "0");
		return 1;
	}
	for (i = 0; i < a->n_wanted && used < size; i++)
		used += (size_t)snprintf(buf + used, size - used, "%scontext == %llu",
					 used ? " || " : "", (unsigned long long)a->wanted[i].context);
	if (a->catch_all && used < size) {
		used += (size_t)snprintf(buf + used, size - used, "%s(", used ? " || " : "");
		if (used < size)
			used += catch_all(a, buf + used, size - used);
		if (used < size)
			snprintf(buf + used, size - used, ")");
	}
	return a->n_wanted || a->catch_all;
}

void ask_free(struct names_ask *a)
{
	keymap_free(&a->given_up_index);
}
