/* SPDX-License-Identifier: GPL-2.0 */
/*
 * keymap.h - open-addressing hash map from a 64-bit key to a 32-bit value,
 * with deletion: the live-fence table.  Grows by doubling; memory follows
 * the number of live entries, not the number of insertions.
 */
#ifndef FENCE_TRACE_KEYMAP_H
#define FENCE_TRACE_KEYMAP_H

#include <stdint.h>

struct keymap {
	uint64_t *keys;
	uint32_t *vals;
	uint8_t *state;		/* 0 empty, 1 used, 2 deleted */
	uint32_t cap, used, tombs;
};

int keymap_put(struct keymap *m, uint64_t key, uint32_t val);
int keymap_get(const struct keymap *m, uint64_t key, uint32_t *val);
int keymap_del(struct keymap *m, uint64_t key);
int keymap_take(struct keymap *m, uint64_t key, uint32_t *val);
int keymap_next(const struct keymap *m, uint32_t *pos, uint64_t *key);
void keymap_free(struct keymap *m);

#endif
