// SPDX-License-Identifier: GPL-2.0
/*
 * model-context-table.c - where the fence contexts live (struct
 * ft_contexts in model.h): appended in chunks, found by id through an
 * index of places.  A leaf: it calls no other part of the model.
 *
 * A long trace has about as many contexts as merges or driver jobs, so
 * their memory is the trace's: 32 bytes a context in its chunk (allocated
 * whole, touched as it fills), and 4 bytes an index slot at a load of 1/2
 * to 3/4.  The index holds places, not ids: a probe compares the id in the
 * context itself, so a slot costs 4 bytes instead of a keymap's 13.  It
 * grows by half and is rebuilt from the chunks, which keep every id.
 */
#include <stdlib.h>
#include <string.h>

#include "model-internal.h"

/* Where the index's probe for @context starts, in [0, @cap). */
static uint32_t home_slot(uint64_t context, uint32_t cap)
{
	context ^= context >> 33;
	context *= 0xff51afd7ed558ccdull;
	context ^= context >> 33;
	return (uint32_t)(((context >> 32) * cap) >> 32);
}

/* The slot of @context in the index, or of the free slot to put it at. */
static uint32_t slot_of(const struct ft_contexts *cs, uint64_t context)
{
	uint32_t i = home_slot(context, cs->index_cap);

	while (cs->index[i] && ft_context_at(cs, cs->index[i] - 1)->context != context)
		if (++i == cs->index_cap)
			i = 0;
	return i;
}

/**
 * model_context_find() - the place in @cs of fence context @context
 *
 * Return: it, or FT_NONE when @context was never seen.
 */
uint32_t model_context_find(const struct ft_contexts *cs, uint64_t context)
{
	uint32_t place;

	if (!cs->index_cap)
		return FT_NONE;
	place = cs->index[slot_of(cs, context)];
	return place ? place - 1 : FT_NONE;
}

/* An index for one more context than @cs holds, rebuilt from the chunks. */
static int index_grow(struct ft_contexts *cs)
{
	uint32_t cap = cs->index_cap ? cs->index_cap + cs->index_cap / 2 : 64;
	uint32_t *index;

	if ((uint64_t)(cs->n + 1) * 4 <= (uint64_t)cs->index_cap * 3)
		return 0;
	if (cs->index_cap > UINT32_MAX / 3)
		return -1;
	/* realloc, not a second table: a large one is remapped, not copied */
	index = realloc(cs->index, (size_t)cap * sizeof(*index));
	if (!index)
		return -1;
	memset(index, 0, (size_t)cap * sizeof(*index));
	cs->index = index;
	cs->index_cap = cap;
	for (uint32_t i = 0; i < cs->n; i++)
		cs->index[slot_of(cs, ft_context_at(cs, i)->context)] = i + 1;
	return 0;
}

/**
 * model_context_add() - append fence context @context (not in @cs yet),
 * zeroed but for its id
 *
 * Return: its place, or FT_NONE when memory ran out (@cs is left as it was).
 */
uint32_t model_context_add(struct ft_contexts *cs, uint64_t context)
{
	uint32_t place = cs->n;
	struct ft_context **chunk;
	struct ft_context *c;

	if (place == FT_NONE - 1 || index_grow(cs))
		return FT_NONE;
	if (place % FT_CTX_CHUNK == 0) {
		chunk = vec_push(&cs->chunks);
		if (!chunk)
			return FT_NONE;
		*chunk = malloc(FT_CTX_CHUNK * sizeof(**chunk));
		if (!*chunk) {
			cs->chunks.n--;
			return FT_NONE;
		}
	}
	cs->n++;
	c = ft_context_at(cs, place);
	memset(c, 0, sizeof(*c));
	c->context = context;
	cs->index[slot_of(cs, context)] = place + 1;
	return place;
}

void model_context_table_free(struct ft_contexts *cs)
{
	for (unsigned int i = 0; i < cs->chunks.n; i++)
		free(cs->chunks.items[i]);
	vec_free(&cs->chunks);
	free(cs->index);
	memset(cs, 0, sizeof(*cs));
}
