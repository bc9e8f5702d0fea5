// SPDX-License-Identifier: GPL-2.0
/*
 * timeline-store.c - the growable arrays of timeline.h and the lookups
 * that both collectors (timeline-collect.c for fences, waits and vblanks,
 * timeline-commit.c for commits) and the writers use.
 */
#include <stdlib.h>
#include <string.h>

#include "timeline.h"

void *tl_push(struct tl_data *d, struct tl_array *a)
{
	if (a->n == a->cap) {
		size_t cap = a->cap ? a->cap * 2 : 1024;
		void *p = realloc(a->v, cap * a->size);

		if (!p) {
			d->error = 1;
			return NULL;
		}
		a->v = p;
		a->cap = cap;
	}
	memset((char *)a->v + a->n * a->size, 0, a->size);
	return (char *)a->v + a->n++ * a->size;
}

/*
 * The model's own-row index of fence context @context, or UINT32_MAX: the
 * page asks the model for every context's row (each_context).
 */
uint32_t tl_timeline_of(const struct ft_model *m, uint64_t context)
{
	uint32_t ci = model_context_index(m, context);

	return ci == FT_NONE ? UINT32_MAX : model_context_timeline(m, ci);
}

/*
 * Greedy sub-rows so that items in one row never overlap: the page can
 * then skip sub-pixel spans by binary search, and Perfetto gets properly
 * nested slices.  Items come in start order; past TL_MAX_ROWS the row
 * that frees first takes the item (overlap accepted, drawn over).
 */
int tl_assign_rows(struct tl_array *a, tl_extent_of extent, unsigned int lanes,
		   unsigned int *rows_used)
{
	uint64_t (*end)[TL_MAX_ROWS] = calloc(lanes ? lanes : 1, sizeof(*end));

	if (!end)
		return -1;
	for (size_t i = 0; i < a->n; i++) {
		struct tl_extent e = extent((char *)a->v + i * a->size);
		unsigned int r, best = 0;

		if (e.lane >= lanes)
			continue;
		for (r = 0; r < TL_MAX_ROWS; r++) {
			if (end[e.lane][r] <= e.t0)
				break;
			if (end[e.lane][r] < end[e.lane][best])
				best = r;
		}
		*e.row = (uint16_t)(r < TL_MAX_ROWS ? r : best);
		/* +1: a span starting exactly where another ends still shares the row */
		end[e.lane][*e.row] = e.t1 + 1;
		if (rows_used[e.lane] < *e.row + 1u)
			rows_used[e.lane] = *e.row + 1u;
	}
	free(end);
	return 0;
}

long tl_find_fence(const struct tl_data *d, uint32_t timeline, uint32_t seqno)
{
	uint32_t i;

	return keymap_get(&d->fence_index, (uint64_t)timeline << 32 | seqno, &i) ? (long)i : -1;
}
