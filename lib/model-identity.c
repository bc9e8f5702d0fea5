// SPDX-License-Identifier: GPL-2.0
/*
 * model-identity.c - which live fence an event of a (context, seqno) key
 * means when more than one fence holds that key and the event does not
 * carry the fence's identity (see model.h).
 *
 * The fences of one key form a chain, oldest first: the key map names the
 * oldest, each fence the next newer (struct ft_fence.newer).  Two causes:
 *
 * - Duplicates.  sw_sync's sync_pt_create() initialises a fence before it
 *   takes the timeline's lock and looks for a pending one of the same
 *   value; when it finds one, it hands that one out and drops the new one
 *   at once.  With the fence-trace series (kernel/patches/0003) it drops
 *   it through dma_fence_put(), so the same task traces its
 *   dma_fence_destroy before anything else happens to it; stock kernels
 *   kfree() it, and no event ever follows.  A duplicate counts as a fence
 *   created, and as a duplicate; never as destroyed unsignalled or live
 *   at the end; the original keeps its own events and latency.
 * - Collisions: any other fence created while its key is live: stub
 *   fences are all (0, 0) (every merge of signalled fences makes one),
 *   64-bit seqnos equal in their low 32 bits, and a sw_sync fence made
 *   for a value already passed while the old fence of that value is still
 *   held (it signals at creation).  Both live on; a signal goes to the
 *   oldest not yet signalled, unless the task that made the newest
 *   signals it before anything else happened to it.
 */
#include <string.h>

#include "model-internal.h"

static struct ft_fence *slot(struct ft_model *m, uint32_t idx)
{
	return idx == FT_NONE ? NULL : &m->fences.slab.items[idx];
}

/**
 * model_dups_traced() - does this kernel trace the destruction of sw_sync's
 * duplicates?  Kernels with the series do (patch 0003 comes before the
 * events the decoder finds); others free them untraced.
 */
int model_dups_traced(const struct ft_model *m)
{
	return m->dec && (m->dec->have_set[FT_SET_SERIES] || m->dec->have_set[FT_SET_DMA_SERIES]);
}

/*
 * On a kernel that frees duplicates untraced: is an init of @key on
 * context @ci one?  sw_sync makes one only while a fence of that value is
 * pending (its tree holds only unsignalled fences).
 */
int model_untraced_duplicate(struct ft_model *m, uint32_t ci, uint64_t key)
{
	const struct ft_fence *f = model_fence_get(m, key);

	return f && !f->signaled && !model_dups_traced(m) &&
	       !strcmp(model_context_row(m, ci)->driver, "sw_sync");
}

/* Fence slot @idx, just created for a key that @oldest holds: the newest of the chain. */
void model_twin_link(struct ft_model *m, struct ft_fence *oldest, uint32_t idx)
{
	struct ft_fence *f = oldest;

	oldest->twinned = 1;
	while (f->newer != FT_NONE)
		f = slot(m, f->newer);
	f->newer = idx;
	slot(m, idx)->twinned = 1;
}

/**
 * model_twin_unlink() - take @f out of its key's chain (and the key map
 * when it was the last)
 *
 * Return: 0, or -1 when memory ran out.
 */
int model_twin_unlink(struct ft_model *m, struct ft_fence *f)
{
	uint32_t idx = (uint32_t)(f - m->fences.slab.items), head;
	struct ft_fence *p;

	if (!f->twinned) {	/* the only fence its key ever had: one probe */
		keymap_del(&m->fences.of_key, f->key);
		return 0;
	}
	if (!keymap_get(&m->fences.of_key, f->key, &head))
		return 0;
	if (head == idx && f->newer == FT_NONE) {
		keymap_del(&m->fences.of_key, f->key);
		return 0;
	}
	if (head == idx)
		return keymap_put(&m->fences.of_key, f->key, f->newer);
	for (p = slot(m, head); p && p->newer != idx; p = slot(m, p->newer))
		;
	if (p)
		p->newer = f->newer;
	return 0;
}

/*
 * Has the task of @ev, before anything else happened to @f, done the next
 * thing to the fence it made?  Not for pid 0: the idle task makes no
 * fence, and interrupts on an idle CPU trace as pid 0.
 */
static int untouched_since_made_by(const struct ft_fence *f, const struct ft_event *ev)
{
	return !f->signaled && !f->emit_ts && !f->error && ev->pid && f->init_pid == ev->pid;
}

/**
 * model_signal_target() - the live fence that dma_fence_signaled @ev signals
 *
 * Of several fences of one key: the newest, when the task that made it
 * signals it before anything else happened to it (sw_sync signals a fence
 * at creation when its value has passed: a fence made while an older one
 * of that value is signalled but still held); else the oldest not yet
 * signalled; NULL when no fence holds the key (made before the trace).
 */
struct ft_fence *model_signal_target(struct ft_model *m, const struct ft_event *ev)
{
	struct ft_fence *f = model_fence_find(m, model_event_key(ev)), *newest;

	for (newest = f; newest && newest->newer != FT_NONE; newest = slot(m, newest->newer))
		;
	if (newest && newest != f && untouched_since_made_by(newest, ev))
		return newest;
	return f;
}

/* @pid's entry of the direct-mapped cache in front of ft_fences.made_last. */
static struct ft_made_last *made_last_entry(struct ft_fences *fc, int pid)
{
	return &fc->made_last_cache[pid & (FT_MADE_LAST_CACHE - 1)];
}

/**
 * model_made_last_take() - the fence the task of dma_fence event @ev made
 * with its last dma_fence event, if that was an init; the task has now
 * done something else, so it is forgotten.  FT_NONE when there is none.
 */
uint32_t model_made_last_take(struct ft_model *m, const struct ft_event *ev)
{
	struct ft_fences *fc = &m->fences;
	struct ft_made_last *e;
	uint32_t idx;

	if (!ev->pid)
		return FT_NONE;
	e = made_last_entry(fc, ev->pid);
	if (e->pid == ev->pid) {
		e->pid = 0;
		return e->slot;
	}
	if (!fc->made_last.used || !keymap_take(&fc->made_last, (uint64_t)ev->pid, &idx))
		return FT_NONE;
	return idx;
}

/**
 * model_made_last_put() - task @pid's init just made fence slot @idx
 * (after model_made_last_take() of the same event: the task holds none)
 *
 * Return: 0, or -1 when memory ran out.
 */
int model_made_last_put(struct ft_model *m, int pid, uint32_t idx)
{
	struct ft_fences *fc = &m->fences;
	struct ft_made_last *e = made_last_entry(fc, pid);

	if (!pid)
		return 0;
	if (!e->pid) {
		e->pid = pid;
		e->slot = idx;
		return 0;
	}
	return keymap_put(&fc->made_last, (uint64_t)pid, idx);
}

/*
 * A duplicate given the signal of the fence it duplicates (its init traced
 * first, so it was the oldest unsignalled fence of the key when the signal
 * came): the signal was the other's, which gets it.  The other was made
 * before that signal: a fence made after it cannot have been the one
 * signalled, and then @dup was a real fence, signalled itself.
 */
static struct ft_fence *other_unsignaled(struct ft_model *m, struct ft_fence *dup,
					 struct ft_fence *oldest)
{
	for (struct ft_fence *f = oldest; f; f = slot(m, f->newer))
		if (f != dup && !f->signaled && f->init_ts <= dup->signal_ts)
			return f;
	return NULL;
}

static void give_signal_back(struct ft_fence *dup, struct ft_fence *other)
{
	other->signaled = 1;
	other->signal_ts = dup->signal_ts;
	dup->signaled = 0;
}

/*
 * model_destroy_target() for an event with the fence's identity: the fence
 * is known; a duplicate when its task destroys it right after making it,
 * unsignalled, while another live fence holds its key.
 */
static struct ft_fence *destroy_target_of_id(struct ft_model *m, const struct ft_event *ev,
					     uint64_t id, uint32_t made_last, int *dup)
{
	struct ft_fence *f = model_fence_of_id(m, id);
	uint32_t head;

	if (!f)
		return NULL;
	*dup = made_last != FT_NONE && slot(m, made_last) == f && f->init_pid == ev->pid &&
	       !f->signaled && keymap_get(&m->fences.of_key, f->key, &head) &&
	       (slot(m, head) != f || f->newer != FT_NONE);
	return f;
}

/**
 * model_destroy_target() - the live fence that dma_fence_destroy @ev ends
 * @made_last: the slot of the fence the destroying task made with its last
 *	dma_fence event (model_made_last_take()), or FT_NONE
 * @dup: set when it is a duplicate dropped at once
 * @given: the slot of the fence a duplicate's signal went back to, else FT_NONE
 *
 * Of several fences of one key: the one the destroying task made with its
 * last dma_fence event, a duplicate (sw_sync's sync_pt_create() traces
 * nothing between the init and the destroy of the one it drops), else the
 * oldest signalled (fences are released after they signal), else the
 * oldest.  NULL when no fence holds the key.  The duplicate may be the
 * older of the two: sync_pt_create() traces its init before it takes the
 * timeline's lock, so two tasks asking for one value at once may trace
 * their inits in either order, and the one that takes the lock second
 * drops its fence; a signal between the two inits and the destroy then
 * went to the duplicate and goes back to the other.  (The same rule as
 * tests/lab/fence-key-counts, which the guest test holds this to.)  With
 * the fence's identity in @ev, the fence of that identity.
 */
struct ft_fence *model_destroy_target(struct ft_model *m, const struct ft_event *ev,
				      uint32_t made_last, int *dup, uint32_t *given)
{
	struct ft_fence *oldest, *signaled = NULL, *mine = NULL, *other, *f;
	uint64_t id = model_event_id(m, ev);
	uint32_t head;

	*dup = 0;
	*given = FT_NONE;
	if (id)
		return destroy_target_of_id(m, ev, id, made_last, dup);
	if (!keymap_get(&m->fences.of_key, model_event_key(ev), &head))
		return NULL;
	oldest = slot(m, head);
	if (oldest->newer == FT_NONE)
		return oldest;
	for (f = oldest; f; f = slot(m, f->newer)) {
		if (made_last != FT_NONE && f == slot(m, made_last) && f->init_pid == ev->pid)
			mine = f;
		if (f->signaled && !signaled)
			signaled = f;
	}
	/* a signalled fence is a duplicate only if the signal can go back
	 * to the fence it duplicates: else it was signalled itself, a fence
	 * of a driver that reuses keys */
	other = mine && mine->signaled ? other_unsignaled(m, mine, oldest) : NULL;
	if (mine && (!mine->signaled || other)) {
		*dup = 1;
		if (other) {
			give_signal_back(mine, other);
			*given = model_fence_slot(m, other);
		}
		return mine;
	}
	return signaled ? signaled : oldest;
}
