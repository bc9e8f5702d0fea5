// SPDX-License-Identifier: GPL-2.0
/*
 * vec.c - the growable array of vec.h.  The macros there pass an array's
 * fields here with its item size.
 */
#include <stdlib.h>
#include <string.h>

#include "vec.h"

/**
 * vec_grow() - grow *@items (of @size-byte items, *@cap of them) so that
 * index @n fits; new items are zeroed
 *
 * Return: 0, or -1 when memory ran out (*@items is left as it was).
 */
int vec_grow(void **items, unsigned int *cap, unsigned int n, size_t size)
{
	unsigned int want = *cap ? *cap : 16;
	void *p;

	if (n < *cap)
		return 0;
	while (want <= n)
		want *= 2;
	p = realloc(*items, (size_t)want * size);
	if (!p)
		return -1;
	memset((char *)p + (size_t)*cap * size, 0, (size_t)(want - *cap) * size);
	*items = p;
	*cap = want;
	return 0;
}

/**
 * vec_slot() - a slot for one more item: the last index put on @fl, else
 * a new item at the end of *@items (*@n in use, *@cap allocated)
 * @idx: set to the slot's index
 *
 * Return: 0, or -1 when memory ran out.
 */
int vec_slot(void **items, unsigned int *n, unsigned int *cap, size_t size,
	     struct vec_free *fl, uint32_t *idx)
{
	if (fl->n) {
		*idx = fl->items[--fl->n];
		return 0;
	}
	if (vec_grow(items, cap, *n, size))
		return -1;
	*idx = (*n)++;
	return 0;
}

/**
 * vec_release() - put slot @idx on free list @fl for vec_slot() to reuse
 *
 * Return: 0, or -1 when memory ran out (the slot is then never reused).
 */
int vec_release(struct vec_free *fl, uint32_t idx)
{
	uint32_t *slot = vec_push(fl);

	if (!slot)
		return -1;
	*slot = idx;
	return 0;
}

/**
 * vec_free_items() - free an array's items and empty it
 */
void vec_free_items(void **items, unsigned int *n, unsigned int *cap)
{
	free(*items);
	*items = NULL;
	*n = 0;
	*cap = 0;
}
