// SPDX-License-Identifier: GPL-2.0
/*
 * model-members.c - the members of merged fences, from the kernel series'
 * dma_fence_member (one event per member when a dma_fence_array, as
 * SYNC_IOC_MERGE makes, or a dma_fence_chain is created).
 *
 * A wait on a merged fence is really a wait on whichever member signals
 * last, so outputs name that member rather than the array's fresh context
 * (seqno 1 for every merge).  The array holds a reference to each member,
 * so the members are still in the model whenever a wait on it ends.
 * A set lives as long as its container fence.
 */
#include <string.h>

#include "model-internal.h"

static struct ft_member_set *set_new(struct ft_model *m, struct ft_fence *container)
{
	struct ft_member_set *s;
	uint32_t idx;

	if (vec_take(&m->members.sets, &m->members.free, &idx)) {
		m->error = 1;
		return NULL;
	}
	s = &m->members.sets.items[idx];
	memset(s, 0, sizeof(*s));
	s->container = container->key;
	container->members = idx + 1;
	return s;
}

void model_fence_member(struct ft_model *m, const struct ft_event *ev)
{
	uint64_t ckey = (ev->v[FT_CONTAINER_CONTEXT] & 0xffffffffull) << 32 |
			(ev->v[FT_CONTAINER_SEQNO] & 0xffffffffull);
	struct ft_fence *c = model_fence_find(m, ckey);
	struct ft_member_set *s;
	struct ft_timeline *t;

	if (!c)
		return;		/* its dma_fence_init was not recorded */
	t = model_context_target(m, ft_context_at(&m->fences.contexts, c->ctx));
	if (t)		/* merges' rows say how many members their fences had */
		t->members++;
	s = c->members ? &m->members.sets.items[c->members - 1] : set_new(m, c);
	if (!s)
		return;
	s->total++;
	if (s->n < MODEL_MAX_MEMBERS)
		s->keys[s->n++] = (ev->v[FT_CONTEXT] & 0xffffffffull) << 32 |
				  (ev->v[FT_SEQNO] & 0xffffffffull);
}

/* @f goes: its member set, if any, is free again. */
void model_members_release(struct ft_model *m, struct ft_fence *f)
{
	if (!f->members)
		return;
	m->members.sets.items[f->members - 1].container = 0;
	if (vec_release(&m->members.free, f->members - 1))
		m->error = 1;
	f->members = 0;
}

/**
 * model_late_member() - the member of merged fence @key that holds a wait
 * on it: one still unsignalled, else the one that signalled last
 * @error: set to that member's error (0 none)
 *
 * Return: the member's key, or 0 when @key is not a merged fence with
 * recorded members (stock kernels: always 0).
 */
uint64_t model_late_member(const struct ft_model *m, uint64_t key, int *error)
{
	const struct ft_fence *c = model_fence_get(m, key);
	const struct ft_member_set *s;
	const struct ft_fence *late = NULL;

	*error = 0;
	if (!c || !c->members)
		return 0;
	s = &m->members.sets.items[c->members - 1];
	for (unsigned int i = 0; i < s->n; i++) {
		const struct ft_fence *f = model_fence_get(m, s->keys[i]);

		if (!f)
			continue;	/* created before the trace: long signalled */
		if (!f->signaled) {
			late = f;
			break;
		}
		if (!late || f->signal_ts > late->signal_ts)
			late = f;
	}
	if (!late)
		return 0;
	*error = late->error;
	return late->key;
}

void model_members_free(struct ft_members *ms)
{
	vec_free(&ms->sets);
	vec_free(&ms->free);
}
