/* SPDX-License-Identifier: GPL-2.0 */
/*
 * names-ask.h - what the names stream is asked for (fence-names.h).
 *
 * - The contexts wanted, each for NAMES_PATIENCE_NS (named by their next
 *   fence), then given up on for NAMES_RETRY_S.
 * - Once a program has sent a context it could not read: every fence of a
 *   kind it cannot read, so that a context of one fence is named by that
 *   fence.  The filter leaves out what the programs read: by driver for the
 *   kinds whose every fence they read (sw_sync, merges, vgem, virtio-gpu),
 *   by context for CRTC out-fences (whose driver also makes other fences).
 *
 * No I/O, and times come in as arguments, so the unit tests drive it.
 */
#ifndef FENCE_TRACE_NAMES_ASK_H
#define FENCE_TRACE_NAMES_ASK_H

#include <stddef.h>
#include <stdint.h>

#include "keymap.h"

#define NAMES_FILTER_MAX 48	/* contexts asked for at once */
#define NAMES_PATIENCE_NS 3000000000ull	/* wait this long for a context's fence */
#define NAMES_GIVEN_UP 1024
#define NAMES_RETRY_S 30	/* ask again for a name given up this long ago */
#define NAMES_READ_DRIVERS 8	/* drivers left out of the catch-all */
#define NAMES_READ_CONTEXTS 16	/* CRTC contexts left out of it; past that, caught too */

struct wanted_name {
	uint64_t context, since_ns;
};

struct names_ask {
	struct wanted_name wanted[NAMES_FILTER_MAX];
	unsigned int n_wanted;
	int catch_all;			/* a kind BPF cannot read was seen */
	char read_drivers[NAMES_READ_DRIVERS][32];
	unsigned int n_read_drivers;
	uint64_t read_contexts[NAMES_READ_CONTEXTS];
	unsigned int n_read_contexts;
	uint64_t given_up[NAMES_GIVEN_UP];	/* a ring: not asked for again */
	unsigned int n_given_up;
	struct keymap given_up_index;	/* context -> when given up, in s */
};

int ask_want(struct names_ask *a, uint64_t context, uint64_t now_ns);
void ask_read_driver(struct names_ask *a, const char *driver);
void ask_read_context(struct names_ask *a, uint64_t context);
void ask_prune(struct names_ask *a, const struct keymap *named, uint64_t now_ns);
int ask_filter(const struct names_ask *a, char *buf, size_t size);
void ask_free(struct names_ask *a);

#endif
