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
	uint32_t idx;

	if (m->n_free_member_sets) {
		idx = m->free_member_sets[--m->n_free_member_sets];
	} else {
		if (model_reserve(m, (void **)&m->member_sets, &m->cap_member_sets,
				  m->n_member_sets, sizeof(*m->member_sets)))
			return NULL;
		idx = m->n_member_sets++;
	}
	memset(&m->member_sets[idx], 0, sizeof(m->member_sets[idx]));
	m->member_sets[idx].container = container->key;
	container->members = idx + 1;
	return &m->member_sets[idx];
}

void model_fence_member(struct ft_model *m, const struct ft_event *ev)
{
	uint64_t ckey = (ev->v[FT_CONTAINER_CONTEXT] & 0xffffffffull) << 32 |
			(ev->v[FT_CONTAINER_SEQNO] & 0xffffffffull);
	struct ft_fence *c = model_fence_find(m, ckey);
	struct ft_member_set *s;

	if (!c)
		return;		/* its dma_fence_init was not recorded */
	s = c->members ? &m->member_sets[c->members - 1] : set_new(m, c);
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
	m->member_sets[f->members - 1].container = 0;
	if (model_reserve(m, (void **)&m->free_member_sets, &m->cap_free_member_sets,
			  m->n_free_member_sets, sizeof(*m->free_member_sets)) == 0)
		m->free_member_sets[m->n_free_member_sets++] = f->members - 1;
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
	s = &m->member_sets[c->members - 1];
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
