// SPDX-License-Identifier: GPL-2.0
/*
 * model-store.c - the model's growable arrays and the lookups every part
 * of the model uses (model.c, model-commit.c, model-display.c,
 * model-members.c, model-wait.c).  A leaf: it calls none of them.
 */
#include <stdlib.h>
#include <string.h>

#include "model-internal.h"

/* Grow *@arr (of @size-byte items) so that index @n fits. */
int model_reserve(struct ft_model *m, void **arr, unsigned int *cap, unsigned int n, size_t size)
{
	unsigned int want = *cap ? *cap : 16;
	void *p;

	if (n < *cap)
		return 0;
	while (want <= n)
		want *= 2;
	p = realloc(*arr, (size_t)want * size);
	if (!p) {
		m->error = 1;
		return -1;
	}
	memset((char *)p + (size_t)*cap * size, 0, (size_t)(want - *cap) * size);
	*arr = p;
	*cap = want;
	return 0;
}

struct ft_fence *model_fence_find(struct ft_model *m, uint64_t key)
{
	uint32_t idx;

	return keymap_get(&m->fence_of_key, key, &idx) ? &m->fences[idx] : NULL;
}

const struct ft_fence *model_fence_get(const struct ft_model *m, uint64_t key)
{
	uint32_t idx;

	return keymap_get(&m->fence_of_key, key, &idx) ? &m->fences[idx] : NULL;
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
