// SPDX-License-Identifier: GPL-2.0
/*
 * keymap.c - u64 -> u32 hash map with deletion (see keymap.h).
 */
#include <stdlib.h>
#include <string.h>

#include "keymap.h"

static uint32_t slot_of(uint64_t key, uint32_t cap)
{
	key ^= key >> 33;
	key *= 0xff51afd7ed558ccdull;
	key ^= key >> 33;
	return (uint32_t)key & (cap - 1);
}

/* Index of @key, or of the slot to insert it at (UINT32_MAX if full). */
static uint32_t find(const struct keymap *m, uint64_t key, int *found)
{
	uint32_t i = slot_of(key, m->cap), first_free = UINT32_MAX;

	*found = 0;
	for (uint32_t n = 0; n < m->cap; n++, i = (i + 1) & (m->cap - 1)) {
		if (m->state[i] == 0)
			return first_free != UINT32_MAX ? first_free : i;
		if (m->state[i] == 2) {
			if (first_free == UINT32_MAX)
				first_free = i;
		} else if (m->keys[i] == key) {
			*found = 1;
			return i;
		}
	}
	return first_free;
}

static int grow(struct keymap *m)
{
	struct keymap big = { 0 };

	big.cap = m->cap ? m->cap * 2 : 64;
	/* Mostly tombstones: rehash at the same size. */
	if (m->cap && m->used < m->cap / 4)
		big.cap = m->cap;
	big.keys = malloc(big.cap * sizeof(*big.keys));
	big.vals = malloc(big.cap * sizeof(*big.vals));
	big.state = calloc(big.cap, 1);
	if (!big.keys || !big.vals || !big.state) {
		keymap_free(&big);
		return -1;
	}
	for (uint32_t i = 0; i < m->cap; i++)
		if (m->state[i] == 1)
			keymap_put(&big, m->keys[i], m->vals[i]);
	keymap_free(m);
	*m = big;
	return 0;
}

int keymap_put(struct keymap *m, uint64_t key, uint32_t val)
{
	uint32_t i;
	int found;

	if ((m->used + m->tombs + 1) * 4 > m->cap * 3 && grow(m))
		return -1;
	i = find(m, key, &found);
	if (!found) {
		if (m->state[i] == 2)
			m->tombs--;
		m->state[i] = 1;
		m->keys[i] = key;
		m->used++;
	}
	m->vals[i] = val;
	return 0;
}

int keymap_get(const struct keymap *m, uint64_t key, uint32_t *val)
{
	int found;
	uint32_t i;

	if (!m->cap)
		return 0;
	i = find(m, key, &found);
	if (found)
		*val = m->vals[i];
	return found;
}

int keymap_del(struct keymap *m, uint64_t key)
{
	uint32_t val;

	return keymap_take(m, key, &val);
}

/* keymap_get() and keymap_del() in one probe. */
int keymap_take(struct keymap *m, uint64_t key, uint32_t *val)
{
	int found;
	uint32_t i;

	if (!m->cap)
		return 0;
	i = find(m, key, &found);
	if (!found)
		return 0;
	*val = m->vals[i];
	m->state[i] = 2;
	m->used--;
	m->tombs++;
	return 1;
}

/*
 * The next key from slot *@pos on, in no order; *@pos moves past it.
 * Start at 0.  Return: 0 when no key is left.
 */
int keymap_next(const struct keymap *m, uint32_t *pos, uint64_t *key)
{
	for (; *pos < m->cap; (*pos)++) {
		if (m->state[*pos] == 1) {
			*key = m->keys[(*pos)++];
			return 1;
		}
	}
	return 0;
}

void keymap_free(struct keymap *m)
{
	free(m->keys);
	free(m->vals);
	free(m->state);
	memset(m, 0, sizeof(*m));
}
