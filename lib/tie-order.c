// SPDX-License-Identifier: GPL-2.0
/*
 * tie-order.c - a wait's end after the signal that ended it, when the
 * trace clock cannot tell them apart (see tie-order.h).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "tie-order.h"

static int ends_a_wait(const struct ft_event *ev)
{
	return ev->id == FT_EV_FENCE_WAIT_END || ev->id == FT_EV_PLANE_WAIT_END ||
	       ev->id == FT_EV_POLL_READY;
}

int tie_order_due(const struct tie_order *o, const struct ft_event *ev)
{
	return o->held.n && ev->ts != o->ts;
}

int tie_order_hold(struct tie_order *o, const struct ft_event *ev)
{
	struct ft_event *copy;

	if (o->held.n ? ev->cpu != o->cpu : !ends_a_wait(ev))
		return 0;
	if (vec_reserve(&o->bytes, o->bytes.n + ev->size) || !(copy = vec_push(&o->held)))
		return -ENOMEM;
	if (o->held.n == 1) {
		o->ts = ev->ts;
		o->cpu = ev->cpu;
	}
	*copy = *ev;
	/* an offset until release: bytes may move as it grows */
	copy->data = (const unsigned char *)(uintptr_t)o->bytes.n;
	if (ev->size)
		memcpy(o->bytes.items + o->bytes.n, ev->data, ev->size);
	o->bytes.n += ev->size;
	return 1;
}

const struct ft_event *tie_order_next(struct tie_order *o)
{
	struct ft_event *ev;

	if (o->next == o->held.n) {
		o->held.n = o->bytes.n = o->next = 0;
		return NULL;
	}
	ev = &o->held.items[o->next++];
	ev->data = o->bytes.items + (uintptr_t)ev->data;
	return ev;
}

void tie_order_free(struct tie_order *o)
{
	vec_free(&o->held);
	vec_free(&o->bytes);
	memset(o, 0, sizeof(*o));
}
