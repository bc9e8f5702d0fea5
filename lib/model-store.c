// SPDX-License-Identifier: GPL-2.0
/*
 * model-store.c - the lookups every part of the model uses (model.c,
 * model-fences.c, model-commit.c, model-display.c, model-members.c,
 * model-wait.c).  It calls only the context table (model-context-table.c),
 * a leaf as well.
 */
#include "model-internal.h"

/* The stock events' fence key: (context, seqno), 32 bits each. */
uint64_t model_event_key(const struct ft_event *ev)
{
	return (ev->v[FT_CONTEXT] & 0xffffffffull) << 32 | (ev->v[FT_SEQNO] & 0xffffffffull);
}

/*
 * The live fence that an event of @key (other than its destroy) means: of
 * several fences of one key (model-identity.c), the oldest not yet
 * signalled, else the oldest.  FT_NONE when no fence holds the key.
 */
static uint32_t live_fence(const struct ft_model *m, uint64_t key)
{
	const struct ft_fence *slab = m->fences.slab.items;
	uint32_t head, idx;

	if (!keymap_get(&m->fences.of_key, key, &head))
		return FT_NONE;
	for (idx = head; idx != FT_NONE; idx = slab[idx].newer)
		if (!slab[idx].signaled)
			return idx;
	return head;
}

struct ft_fence *model_fence_find(struct ft_model *m, uint64_t key)
{
	uint32_t idx = live_fence(m, key);

	return idx != FT_NONE ? &m->fences.slab.items[idx] : NULL;
}

const struct ft_fence *model_fence_get(const struct ft_model *m, uint64_t key)
{
	uint32_t idx = live_fence(m, key);

	return idx != FT_NONE ? &m->fences.slab.items[idx] : NULL;
}

/* The live fence made with the kernel's identity @id; NULL when none is. */
struct ft_fence *model_fence_of_id(struct ft_model *m, uint64_t id)
{
	uint32_t idx;

	return keymap_get(&m->fences.of_id, id, &idx) ? &m->fences.slab.items[idx] : NULL;
}

/*
 * The identity by which dma_fence event @ev names its fence, 0 when it is
 * to be found by its key: the one @ev carries, once the inits carry one too
 * (the series; model.h).  record --bpf's files mix the two: its inits carry
 * none, the series' dma_fence_error (from tracefs) does.
 */
uint64_t model_event_id(const struct ft_model *m, const struct ft_event *ev)
{
	return m->fences.have_ids ? ev->v[FT_FENCE] : 0;
}

/*
 * The live fence that dma_fence event @ev (other than an init or a destroy)
 * means: the one of its identity (model_event_id()), else by its key.  NULL
 * when no live fence is it.
 */
struct ft_fence *model_event_fence(struct ft_model *m, const struct ft_event *ev)
{
	uint64_t id = model_event_id(m, ev);

	return id ? model_fence_of_id(m, id) : model_fence_find(m, model_event_key(ev));
}

/**
 * model_lost_between() - may events have been lost within [@from, @to]?
 *
 * So that every statistic drawn from such a span can say so.
 */
int model_lost_between(const struct ft_model *m, uint64_t from, uint64_t to)
{
	if (m->lost_windows_overflow)
		return 1;
	for (unsigned int i = 0; i < m->n_lost_windows; i++)
		if (m->lost_windows[i].from <= to && m->lost_windows[i].to >= from)
			return 1;
	return 0;
}

/* Where @c's events count now: its own row, its group (merges), or NULL: on @c. */
struct ft_timeline *model_context_target(struct ft_model *m, const struct ft_context *c)
{
	if (c->flags & FT_CTX_OWN)
		return &m->fences.timelines.items[c->row];
	if (c->flags & FT_CTX_MERGE)
		return &m->fences.groups.items[c->row];
	return NULL;
}

/** model_context_index() - the index in model.fences.contexts of @context, or FT_NONE. */
uint32_t model_context_index(const struct ft_model *m, uint64_t context)
{
	return model_context_find(&m->fences.contexts, context);
}

/**
 * model_context_row() - the row that names context @ctx (an index in
 * model.fences.contexts): its own, or its group's.
 */
const struct ft_timeline *model_context_row(const struct ft_model *m, uint32_t ctx)
{
	const struct ft_context *c = ft_context_at(&m->fences.contexts, ctx);

	if (c->flags & FT_CTX_OWN)
		return &m->fences.timelines.items[c->row];
	return &m->fences.groups.items[c->row];
}

/** model_context_timeline() - context @ctx's own row in model.fences.timelines, or FT_NONE. */
uint32_t model_context_timeline(const struct ft_model *m, uint32_t ctx)
{
	const struct ft_context *c = ft_context_at(&m->fences.contexts, ctx);

	return c->flags & FT_CTX_OWN ? c->row : FT_NONE;
}

/**
 * model_context_group() - the group in model.fences.groups of context
 * @ctx's driver and name (whether or not it counts it), or FT_NONE (CRTCs)
 */
uint32_t model_context_group(const struct ft_model *m, uint32_t ctx)
{
	const struct ft_context *c = ft_context_at(&m->fences.contexts, ctx);

	return c->flags & FT_CTX_OWN ? m->fences.timelines.items[c->row].home : c->row;
}

/**
 * model_fence_step() - which live fence the last dma_fence init, signal or
 * destroy meant (struct ft_fence_step), for a pass run after the model
 */
const struct ft_fence_step *model_fence_step(const struct ft_model *m)
{
	return &m->fences.step;
}

/* The slab slot of live fence @f, the slots model_fence_step() names. */
uint32_t model_fence_slot(const struct ft_model *m, const struct ft_fence *f)
{
	return (uint32_t)(f - m->fences.slab.items);
}
