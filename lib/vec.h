/* SPDX-License-Identifier: GPL-2.0 */
/*
 * vec.h - a growable array of fixed-size items, and a free list of slots
 * to recycle on top of it.
 *
 * VEC(type) is an anonymous struct; VEC_FIELDS(type) puts the same fields
 * into a named one (struct foo { VEC_FIELDS(struct bar); };) so that it can
 * be passed to a function.  items[0..n) are in use; a grown array's new
 * items are zeroed.  Capacity starts at 16 and doubles.  The macros return
 * NULL or -1 when memory runs out and leave the array as it was: the
 * caller keeps the error flag.
 */
#ifndef FENCE_TRACE_VEC_H
#define FENCE_TRACE_VEC_H

#include <stddef.h>
#include <stdint.h>

#define VEC_FIELDS(type) type *items; unsigned int n, cap
#define VEC(type) struct { VEC_FIELDS(type); }

/* A free list: indices of items that may be used again. */
struct vec_free {
	VEC_FIELDS(uint32_t);
};

int vec_grow(void **items, unsigned int *cap, unsigned int n, size_t size);
int vec_slot(void **items, unsigned int *n, unsigned int *cap, size_t size,
	     struct vec_free *fl, uint32_t *idx);
int vec_release(struct vec_free *fl, uint32_t idx);
void vec_free_items(void **items, unsigned int *n, unsigned int *cap);

/* Make index @want of @v fit.  Return: 0, or -1 when memory ran out. */
#define vec_reserve(v, want) \
	vec_grow((void **)&(v)->items, &(v)->cap, (want), sizeof(*(v)->items))

/* Append one zeroed item to @v.  Return: it, or NULL when memory ran out. */
#define vec_push(v) (vec_reserve((v), (v)->n) ? NULL : &(v)->items[(v)->n++])

#define vec_at(v, i) (&(v)->items[(i)])

/*
 * Take a slot of @v for one more item into *@idx: the last one freed in
 * @fl, else a new one at the end (not cleared: a reused slot keeps what it
 * held).  Return: 0, or -1 when memory ran out.
 */
#define vec_take(v, fl, idx) \
	vec_slot((void **)&(v)->items, &(v)->n, &(v)->cap, sizeof(*(v)->items), (fl), (idx))

#define vec_free(v) vec_free_items((void **)&(v)->items, &(v)->n, &(v)->cap)

#endif
