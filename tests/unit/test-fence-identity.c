// SPDX-License-Identifier: GPL-2.0
/*
 * test-fence-identity.c - which fence an event of a (context, seqno) key
 * means when the key is shared (lib/model-identity.c), on constructed
 * traces read through the real reader, decoder and model: sw_sync's
 * duplicate with the series' events (its destroy traced at once) and on a
 * stock kernel (never traced again), a key reused after its fence was
 * destroyed, a real collision (two live fences, one key), and a signal
 * of a fence created before the trace.  Each creation is a fence of its
 * own; only the real collision counts as key_reused.  With the series'
 * identity in the dma_fence events (patch 0005, field "fence"), the same
 * shapes where the order of events would mislead: each event means the
 * fence of its identity.
 */
#include <string.h>

#include "model-internal.h"
#include "series-formats.h"
#include "trace-fixture.h"
#include "unit.h"

#define CTX 3
#define T0 (1000 * MS)

/* An event of @ctx's fence @seqno on @driver's timeline "tl", traced by task @pid. */
static void ev(struct trace_fixture *f, int pid, unsigned int cpu, uint64_t ts, const char *name,
	       const char *driver, uint32_t seqno)
{
	tb_set_pid(f->tb, pid);
	assert_int_equal(tb_fence(f->tb, cpu, ts, name, driver, "tl", CTX, seqno), 0);
	tb_set_pid(f->tb, 0);
}

/* ev() with the fence's identity @id, as the series' dma_fence events carry it. */
static void evi(struct trace_fixture *f, int pid, unsigned int cpu, uint64_t ts, const char *name,
		const char *driver, uint32_t seqno, uint64_t id)
{
	tb_set_pid(f->tb, pid);
	assert_int_equal(tb_fence_with_id(f->tb, cpu, ts, name, driver, "tl", CTX, seqno, id), 0);
	tb_set_pid(f->tb, 0);
}

static const struct ft_timeline *row(const struct ft_model *m)
{
	uint32_t ci = model_context_index(m, CTX);

	assert_int_not_equal(ci, FT_NONE);
	return model_context_row(m, ci);
}

/* The row's counts, and that every fence left the slab. */
static void assert_counts(const struct ft_model *m, const struct ft_timeline *t, uint64_t fences,
			  uint64_t duplicates, uint64_t key_reused, uint64_t signaled)
{
	assert_int_equal(t->fences, fences);
	assert_int_equal(t->duplicates, duplicates);
	assert_int_equal(t->key_reused, key_reused);
	assert_int_equal(t->signaled, signaled);
	assert_int_equal(t->destroyed_unsignaled, 0);
	assert_int_equal(m->fences.slab.n - m->fences.free.n, 0);
}

/* Every fence of the row is accounted for once: signalled, dropped or left. */
static void assert_balanced(const struct ft_timeline *t)
{
	assert_int_equal(t->fences, t->signaled + t->destroyed_unsignaled + t->unsignaled_at_end +
			 t->duplicates);
}

/*
 * sync_pt_create() with the series (patch 0003): task 11 asks for value 5
 * while task 10's fence of value 5 is pending; the duplicate is traced
 * created and at once destroyed, by task 11, and the original signals on
 * the other CPU in between.  Then one task makes a duplicate of its own
 * fence of value 6.
 */
static void test_duplicate_with_series_events(void **state)
{
	struct trace_fixture *f = *state;
	const struct ft_timeline *t;
	struct ft_model *m;
	const char *text;

	ev(f, 10, 0, T0, "dma_fence_init", "sw_sync", 5);
	ev(f, 11, 0, T0 + 1 * MS, "dma_fence_init", "sw_sync", 5);
	ev(f, 0, 1, T0 + 1 * MS + 500, "dma_fence_signaled", "sw_sync", 5);	/* the original's */
	ev(f, 11, 0, T0 + 1 * MS + 1000, "dma_fence_destroy", "sw_sync", 5);	/* the duplicate's */
	ev(f, 10, 0, T0 + 2 * MS, "dma_fence_destroy", "sw_sync", 5);
	ev(f, 10, 0, T0 + 3 * MS, "dma_fence_init", "sw_sync", 6);
	ev(f, 10, 0, T0 + 4 * MS, "dma_fence_init", "sw_sync", 6);
	ev(f, 10, 0, T0 + 4 * MS + 1000, "dma_fence_destroy", "sw_sync", 6);
	ev(f, 0, 1, T0 + 9 * MS, "dma_fence_signaled", "sw_sync", 6);
	ev(f, 10, 0, T0 + 10 * MS, "dma_fence_destroy", "sw_sync", 6);
	m = trace_fixture_analyze(f);
	t = row(m);
	assert_int_equal(t->fences, 4);
	assert_int_equal(t->duplicates, 2);
	assert_int_equal(t->key_reused, 0);
	assert_int_equal(t->signaled, 2);
	assert_int_equal(t->destroyed_unsignaled, 0);
	assert_int_equal(t->unsignaled_at_end, 0);
	assert_int_equal(t->out_of_order, 0);
	assert_int_equal(m->fences.signal_unknown, 0);
	/* the originals' latencies, from their own inits */
	assert_int_equal(t->latency.count, 2);
	assert_int_equal(t->latency.min, 1 * MS + 500);
	assert_int_equal(t->latency.max, 6 * MS);
	assert_int_equal(m->fences.slab.n - m->fences.free.n, 0);	/* nothing left live */
	assert_balanced(t);
	text = trace_fixture_report(f, 0);
	assert_non_null(strstr(text, "  duplicates (a fence made for a live fence's (context, seqno), dropped at once): 2\n"));
	assert_non_null(strstr(text, "  (context, seqno) reused while live: 0\n"));
	text = trace_fixture_report(f, 1);
	assert_non_null(strstr(text, "\"key_reused\": 0, \"duplicates\": 2, \"duplicates_traced\": true,"));
}

/*
 * The duplicate's init traced first, and the original's signal before the
 * duplicate's destroy: the signal went to the oldest unsignalled fence,
 * the duplicate; its task's destroy right after its init shows what it
 * was, and the signal goes back to the original (which is then destroyed
 * signalled, not "destroyed unsignalled").  The latency sample stays the
 * one taken at the signal, from the duplicate's init: 1 us longer here.
 */
static void test_duplicate_first_given_the_signal(void **state)
{
	struct trace_fixture *f = *state;
	const struct ft_timeline *t;
	struct ft_model *m;

	ev(f, 11, 0, T0, "dma_fence_init", "sw_sync", 5);		/* the duplicate */
	ev(f, 10, 1, T0 + 1000, "dma_fence_init", "sw_sync", 5);	/* the original */
	ev(f, 0, 1, T0 + 5000, "dma_fence_signaled", "sw_sync", 5);	/* the original's */
	ev(f, 11, 0, T0 + 8000, "dma_fence_destroy", "sw_sync", 5);
	ev(f, 10, 1, T0 + MS, "dma_fence_destroy", "sw_sync", 5);
	m = trace_fixture_analyze(f);
	t = row(m);
	assert_counts(m, t, 2, 1, 0, 1);
	assert_balanced(t);
}

/*
 * Not a duplicate, though its task destroys it with nothing else traced
 * between (a task that waited on its fence, signalled by another, then
 * closed it): task 10's fence of value 5 is signalled by task 12; task 11
 * makes one for the passed value (a collision); task 13 makes one more,
 * not signalled yet; task 10 drops its fence; task 13's signals at
 * creation.  Task 10's fence kept the signal it had (task 13's was made
 * after it, so it cannot have been the one signalled), and task 13's
 * gets its own: three signalled, none a duplicate.  (Seen once in 50,000
 * fences of the kernel's selftests/sync on a loaded guest.)
 */
static void test_signalled_then_dropped_by_its_maker(void **state)
{
	struct trace_fixture *f = *state;
	const struct ft_timeline *t;
	struct ft_model *m;

	ev(f, 10, 0, T0, "dma_fence_init", "sw_sync", 5);
	ev(f, 12, 1, T0 + 1 * MS, "dma_fence_signaled", "sw_sync", 5);		/* 10's */
	ev(f, 11, 1, T0 + 2 * MS, "dma_fence_init", "sw_sync", 5);
	ev(f, 11, 1, T0 + 3 * MS, "dma_fence_signaled", "sw_sync", 5);		/* at creation */
	ev(f, 13, 1, T0 + 4 * MS, "dma_fence_init", "sw_sync", 5);
	ev(f, 10, 0, T0 + 5 * MS, "dma_fence_destroy", "sw_sync", 5);		/* 10's */
	ev(f, 13, 1, T0 + 6 * MS, "dma_fence_signaled", "sw_sync", 5);		/* 13's own */
	ev(f, 11, 1, T0 + 7 * MS, "dma_fence_destroy", "sw_sync", 5);
	ev(f, 13, 1, T0 + 8 * MS, "dma_fence_destroy", "sw_sync", 5);
	m = trace_fixture_analyze(f);
	t = row(m);
	assert_counts(m, t, 3, 0, 2, 3);
	assert_balanced(t);
}

/*
 * Two duplicates made at once by tasks whose pids share a slot of the
 * model's direct-mapped "fence it just made" cache (10 and 10 + 1024):
 * the second goes to the map behind it, and both are told duplicates.
 */
static void test_duplicates_of_tasks_sharing_a_cache_slot(void **state)
{
	struct trace_fixture *f = *state;
	const struct ft_timeline *t;
	struct ft_model *m;

	ev(f, 30, 0, T0, "dma_fence_init", "sw_sync", 5);
	ev(f, 31, 1, T0 + 1000, "dma_fence_init", "sw_sync", 6);
	ev(f, 10, 0, T0 + 2000, "dma_fence_init", "sw_sync", 5);		/* duplicates */
	ev(f, 10 + FT_MADE_LAST_CACHE, 1, T0 + 3000, "dma_fence_init", "sw_sync", 6);
	ev(f, 10 + FT_MADE_LAST_CACHE, 1, T0 + 4000, "dma_fence_destroy", "sw_sync", 6);
	ev(f, 10, 0, T0 + 5000, "dma_fence_destroy", "sw_sync", 5);
	ev(f, 0, 0, T0 + MS, "dma_fence_signaled", "sw_sync", 5);
	ev(f, 0, 1, T0 + MS + 1000, "dma_fence_signaled", "sw_sync", 6);
	ev(f, 30, 0, T0 + 2 * MS, "dma_fence_destroy", "sw_sync", 5);
	ev(f, 31, 1, T0 + 2 * MS, "dma_fence_destroy", "sw_sync", 6);
	m = trace_fixture_analyze(f);
	t = row(m);
	assert_counts(m, t, 4, 2, 0, 2);
	assert_balanced(t);
}

/*
 * sync_pt_create() traces the init before it takes the timeline's lock:
 * two tasks asking for value 5 at once trace their inits in either order,
 * and the duplicate is the fence of the task that locked second, here the
 * first init.  A fence made once the value has passed is signalled at
 * creation by its task, while the original, signalled, is still held:
 * a collision, and that signal is its own.
 */
static void test_duplicate_traced_first(void **state)
{
	struct trace_fixture *f = *state;
	const struct ft_timeline *t;
	struct ft_model *m;

	ev(f, 11, 0, T0, "dma_fence_init", "sw_sync", 5);		/* the duplicate */
	ev(f, 10, 1, T0 + 1000, "dma_fence_init", "sw_sync", 5);	/* the original */
	ev(f, 11, 0, T0 + 8000, "dma_fence_destroy", "sw_sync", 5);
	ev(f, 12, 1, T0 + 2 * MS, "dma_fence_init", "sw_sync", 5);	/* one more: a duplicate */
	ev(f, 0, 0, T0 + 2 * MS + 100, "dma_fence_signaled", "sw_sync", 5);	/* the original's */
	ev(f, 13, 0, T0 + 3 * MS, "dma_fence_init", "sw_sync", 5);
	ev(f, 13, 0, T0 + 3 * MS + 200, "dma_fence_signaled", "sw_sync", 5);	/* at creation */
	ev(f, 12, 1, T0 + 3 * MS + 500, "dma_fence_destroy", "sw_sync", 5);	/* ... of task 12 */
	ev(f, 13, 0, T0 + 4 * MS, "dma_fence_destroy", "sw_sync", 5);
	ev(f, 10, 1, T0 + 5 * MS, "dma_fence_destroy", "sw_sync", 5);
	m = trace_fixture_analyze(f);
	t = row(m);
	assert_int_equal(t->fences, 4);
	assert_int_equal(t->duplicates, 2);
	assert_int_equal(t->key_reused, 1);
	assert_int_equal(t->signaled, 2);
	assert_int_equal(t->latency.min, 200);
	assert_int_equal(t->latency.max, 2 * MS + 100 - 1000);
	assert_int_equal(t->destroyed_unsignaled, 0);
	assert_int_equal(m->fences.slab.n - m->fences.free.n, 0);
	assert_balanced(t);
}

/*
 * The same on a stock kernel: sync_pt_create() kfree()s the duplicate, so
 * its init is the last event it ever has.  Both tasks close their
 * sync_files; the last close destroys the original.
 */
static void test_duplicate_on_stock_events(void **state)
{
	struct trace_fixture *f = *state;
	const struct ft_timeline *t;
	struct ft_model *m;
	const char *text;

	ev(f, 10, 0, T0, "dma_fence_init", "sw_sync", 5);
	ev(f, 11, 0, T0 + 1 * MS, "dma_fence_init", "sw_sync", 5);
	ev(f, 11, 0, T0 + 2 * MS, "dma_fence_init", "sw_sync", 5);
	ev(f, 0, 1, T0 + 3 * MS, "dma_fence_signaled", "sw_sync", 5);
	ev(f, 11, 0, T0 + 4 * MS, "dma_fence_destroy", "sw_sync", 5);
	/* the next value, pending when the trace ends, and its duplicate */
	ev(f, 10, 0, T0 + 5 * MS, "dma_fence_init", "sw_sync", 6);
	ev(f, 11, 0, T0 + 6 * MS, "dma_fence_init", "sw_sync", 6);
	m = trace_fixture_analyze(f);
	t = row(m);
	assert_int_equal(t->fences, 5);
	assert_int_equal(t->duplicates, 3);
	assert_int_equal(t->key_reused, 0);
	assert_int_equal(t->signaled, 1);
	assert_int_equal(t->latency.max, 3 * MS);	/* the original's */
	assert_int_equal(t->destroyed_unsignaled, 0);
	assert_int_equal(t->unsignaled_at_end, 1);	/* value 6, not its duplicate */
	assert_balanced(t);
	text = trace_fixture_report(f, 0);
	assert_non_null(strstr(text, "dropped at once): 3 (sw_sync's; this kernel frees them untraced)\n"));
	text = trace_fixture_report(f, 1);
	assert_non_null(strstr(text, "\"duplicates\": 3, \"duplicates_traced\": false,"));
}

/* A value used again once its fence is gone: a new fence, no collision, no duplicate. */
static void test_reuse_after_destroy(void **state)
{
	struct trace_fixture *f = *state;
	const struct ft_timeline *t;
	struct ft_model *m;

	ev(f, 10, 0, T0, "dma_fence_init", "sw_sync", 5);
	ev(f, 0, 1, T0 + 1 * MS, "dma_fence_signaled", "sw_sync", 5);
	ev(f, 10, 0, T0 + 2 * MS, "dma_fence_destroy", "sw_sync", 5);
	ev(f, 10, 0, T0 + 3 * MS, "dma_fence_init", "sw_sync", 5);
	ev(f, 10, 0, T0 + 3 * MS + 1000, "dma_fence_destroy", "sw_sync", 5);	/* the same task, at once */
	ev(f, 10, 0, T0 + 4 * MS, "dma_fence_init", "sw_sync", 5);
	ev(f, 0, 1, T0 + 7 * MS, "dma_fence_signaled", "sw_sync", 5);
	m = trace_fixture_analyze(f);
	t = row(m);
	assert_int_equal(t->fences, 3);
	assert_int_equal(t->key_reused, 0);
	assert_int_equal(t->duplicates, 0);
	assert_int_equal(t->out_of_order, 2);		/* the value went back, twice */
	assert_int_equal(t->signaled, 2);
	assert_int_equal(t->destroyed_unsignaled, 1);	/* nothing live held its key */
	assert_int_equal(t->latency.min, 1 * MS);
	assert_int_equal(t->latency.max, 3 * MS);
	assert_balanced(t);
}

/*
 * Two live fences, one key, on a driver that makes no duplicates: 64-bit
 * seqnos 0x1_00000005 and 0x2_00000005 both read as 5.  Both live on and
 * signal in turn; each destroy takes a signalled one.  Also with the
 * series: the newer one is signalled before its task destroys it, so it
 * was no duplicate dropped at once.
 */
static void collision(struct trace_fixture *f)
{
	const struct ft_timeline *t;
	struct ft_model *m;

	ev(f, 10, 0, T0, "dma_fence_init", "amdgpu", (uint32_t)0x100000005ull);
	ev(f, 11, 0, T0 + 1 * MS, "dma_fence_init", "amdgpu", (uint32_t)0x200000005ull);
	ev(f, 0, 1, T0 + 4 * MS, "dma_fence_signaled", "amdgpu", 5);
	ev(f, 0, 1, T0 + 9 * MS, "dma_fence_signaled", "amdgpu", 5);
	ev(f, 11, 0, T0 + 10 * MS, "dma_fence_destroy", "amdgpu", 5);
	ev(f, 0, 1, T0 + 11 * MS, "dma_fence_signaled", "amdgpu", 5);	/* both signalled already */
	m = trace_fixture_analyze(f);
	t = row(m);
	assert_int_equal(t->fences, 2);
	assert_int_equal(t->key_reused, 1);
	assert_int_equal(t->duplicates, 0);
	assert_int_equal(t->out_of_order, 0);
	assert_int_equal(t->signaled, 2);
	assert_int_equal(t->latency.min, 4 * MS);
	assert_int_equal(t->latency.max, 8 * MS);
	assert_int_equal(t->destroyed_unsignaled, 0);
	assert_int_equal(t->unsignaled_at_end, 0);
	assert_int_equal(m->fences.signal_unknown, 0);
	assert_int_equal(m->fences.slab.n - m->fences.free.n, 1);	/* one still live */
	assert_balanced(t);
	assert_non_null(strstr(trace_fixture_report(f, 0), "  (context, seqno) reused while live: 1\n"));
}

static void test_collision_stock(void **state)
{
	collision(*state);
}

static void test_collision_series(void **state)
{
	collision(*state);
}

/*
 * On a stock kernel a sw_sync fence made for a signalled, still live
 * fence's value is no duplicate (sw_sync hands out only pending ones): a
 * collision, both counted.
 */
static void test_stock_sw_sync_after_signal_is_a_collision(void **state)
{
	struct trace_fixture *f = *state;
	const struct ft_timeline *t;
	struct ft_model *m;

	ev(f, 10, 0, T0, "dma_fence_init", "sw_sync", 5);
	ev(f, 0, 1, T0 + 1 * MS, "dma_fence_signaled", "sw_sync", 5);
	ev(f, 11, 0, T0 + 2 * MS, "dma_fence_init", "sw_sync", 5);
	ev(f, 0, 1, T0 + 2 * MS + 100, "dma_fence_signaled", "sw_sync", 5);
	m = trace_fixture_analyze(f);
	t = row(m);
	assert_int_equal(t->fences, 2);
	assert_int_equal(t->key_reused, 1);
	assert_int_equal(t->duplicates, 0);
	assert_int_equal(t->signaled, 2);
	assert_int_equal(t->latency.min, 100);
	assert_balanced(t);
}

/*
 * A fence created before the trace began signals in it: counted as such,
 * once; a fence created in the trace with another key changes nothing.
 */
static void test_signal_of_a_fence_from_before_the_trace(void **state)
{
	struct trace_fixture *f = *state;
	struct ft_model *m;
	const char *text;

	ev(f, 10, 0, T0, "dma_fence_init", "sw_sync", 6);
	ev(f, 0, 1, T0 + 1 * MS, "dma_fence_signaled", "sw_sync", 5);
	ev(f, 0, 1, T0 + 2 * MS, "dma_fence_signaled", "sw_sync", 6);
	ev(f, 10, 0, T0 + 3 * MS, "dma_fence_destroy", "sw_sync", 5);	/* unknown: ignored */
	m = trace_fixture_analyze(f);
	assert_int_equal(m->fences.signal_unknown, 1);
	assert_int_equal(row(m)->fences, 1);
	assert_int_equal(row(m)->signaled, 1);
	assert_int_equal(row(m)->destroyed_unsignaled, 0);
	text = trace_fixture_report(f, 0);
	assert_non_null(strstr(text, "  signals of fences created before the trace: 1\n"));
}

/*
 * Two live fences of one key signal in the opposite order of their
 * making, the newer first, from an interrupt (pid 0): by order alone the
 * first signal goes to the oldest unsignalled fence; the identities say
 * whose it was, and each latency is its own fence's (3 ms and 9 ms, not
 * 4 and 8).
 */
static void test_identity_names_the_signalled_fence(void **state)
{
	struct trace_fixture *f = *state;
	const struct ft_timeline *t;
	struct ft_model *m;

	evi(f, 10, 0, T0, "dma_fence_init", "amdgpu", 5, 0xa1);
	evi(f, 11, 0, T0 + 1 * MS, "dma_fence_init", "amdgpu", 5, 0xb2);
	evi(f, 0, 1, T0 + 4 * MS, "dma_fence_signaled", "amdgpu", 5, 0xb2);
	evi(f, 0, 1, T0 + 9 * MS, "dma_fence_signaled", "amdgpu", 5, 0xa1);
	evi(f, 10, 0, T0 + 10 * MS, "dma_fence_destroy", "amdgpu", 5, 0xa1);
	evi(f, 11, 0, T0 + 11 * MS, "dma_fence_destroy", "amdgpu", 5, 0xb2);
	m = trace_fixture_analyze(f);
	t = row(m);
	assert_counts(m, t, 2, 0, 1, 2);
	assert_int_equal(t->latency.min, 3 * MS);
	assert_int_equal(t->latency.max, 9 * MS);
	assert_balanced(t);
}

/*
 * sw_sync's duplicate with identities: made first and given nothing; the
 * original's signal is the original's, with no signal to give back, and
 * its latency is from its own init.
 */
static void test_identity_duplicate(void **state)
{
	struct trace_fixture *f = *state;
	const struct ft_timeline *t;
	struct ft_model *m;

	evi(f, 11, 0, T0, "dma_fence_init", "sw_sync", 5, 0xd0);		/* the duplicate */
	evi(f, 10, 1, T0 + 1000, "dma_fence_init", "sw_sync", 5, 0x01);	/* the original */
	evi(f, 0, 1, T0 + 5000, "dma_fence_signaled", "sw_sync", 5, 0x01);
	evi(f, 11, 0, T0 + 8000, "dma_fence_destroy", "sw_sync", 5, 0xd0);
	evi(f, 10, 1, T0 + 9000, "dma_fence_destroy", "sw_sync", 5, 0x01);
	m = trace_fixture_analyze(f);
	t = row(m);
	assert_counts(m, t, 2, 1, 0, 1);
	assert_int_equal(t->latency.count, 1);
	assert_int_equal(t->latency.min, 4000);
	assert_balanced(t);
	assert_non_null(strstr(trace_fixture_report(f, 1), "\"key_reused\": 0, \"duplicates\": 1, \"duplicates_traced\": true,"));
}

/*
 * A fence made before the trace signals while a fence of the same key,
 * made in the trace, is live: by key the signal would be the live one's;
 * by identity it is a fence the trace never saw made, and the live one
 * stays unsignalled to the end.
 */
static void test_identity_signal_of_an_unseen_fence(void **state)
{
	struct trace_fixture *f = *state;
	const struct ft_timeline *t;
	struct ft_model *m;

	evi(f, 10, 0, T0, "dma_fence_init", "amdgpu", 5, 0xb2);
	evi(f, 0, 1, T0 + 1 * MS, "dma_fence_signaled", "amdgpu", 5, 0xa1);
	evi(f, 10, 0, T0 + 2 * MS, "dma_fence_destroy", "amdgpu", 5, 0xa1);	/* unseen: ignored */
	m = trace_fixture_analyze(f);
	t = row(m);
	assert_int_equal(m->fences.signal_unknown, 1);
	assert_int_equal(t->fences, 1);
	assert_int_equal(t->signaled, 0);
	assert_int_equal(t->destroyed_unsignaled, 0);
	assert_int_equal(t->unsignaled_at_end, 1);
}

/*
 * The kernel gives a freed fence's address, so its identity, to a later
 * fence: one identity, two fences in turn, each its own signal and
 * destroy; and an identity whose destroy was lost (a new init with it
 * while the model still holds it) goes to the new fence.
 */
static void test_identity_reused_after_destroy(void **state)
{
	struct trace_fixture *f = *state;
	const struct ft_timeline *t;
	struct ft_model *m;

	evi(f, 10, 0, T0, "dma_fence_init", "amdgpu", 5, 0xa1);
	evi(f, 0, 1, T0 + 1 * MS, "dma_fence_signaled", "amdgpu", 5, 0xa1);
	evi(f, 10, 0, T0 + 2 * MS, "dma_fence_destroy", "amdgpu", 5, 0xa1);
	evi(f, 10, 0, T0 + 3 * MS, "dma_fence_init", "amdgpu", 6, 0xa1);
	evi(f, 10, 0, T0 + 4 * MS, "dma_fence_init", "amdgpu", 7, 0xa1);	/* 6's destroy lost */
	evi(f, 0, 1, T0 + 6 * MS, "dma_fence_signaled", "amdgpu", 7, 0xa1);
	evi(f, 10, 0, T0 + 7 * MS, "dma_fence_destroy", "amdgpu", 7, 0xa1);
	m = trace_fixture_analyze(f);
	t = row(m);
	assert_int_equal(t->fences, 3);
	assert_int_equal(t->signaled, 2);
	assert_int_equal(t->latency.min, 1 * MS);
	assert_int_equal(t->latency.max, 2 * MS);
	assert_int_equal(t->unsignaled_at_end, 1);	/* 6: it kept no identity */
	assert_int_equal(t->destroyed_unsignaled, 0);
	assert_balanced(t);
}

/*
 * record --bpf's files on the series' kernel: the dma_fence events from
 * BPF carry no identity (0), the series' dma_fence_error from tracefs
 * does.  The error is the fence's of its key: the inits carried no
 * identity to follow.
 */
static void test_error_with_identity_in_a_file_without(void **state)
{
	struct trace_fixture *f = *state;
	struct series_fence fe = { "amdgpu", "tl", CTX, 5, 0xa1 };
	const struct ft_fence *live;
	struct payload p;
	struct ft_model *m;

	ev(f, 10, 0, T0, "dma_fence_init", "amdgpu", 5);
	series_fence_error(&p, &fe, -5);
	trace_fixture_event(f, 1, T0 + 1 * MS, "dma_fence_error", p.b, p.len);
	ev(f, 0, 1, T0 + 1 * MS + 10, "dma_fence_signaled", "amdgpu", 5);
	m = trace_fixture_analyze(f);
	assert_int_equal(row(m)->errors, 1);
	live = model_fence_get(m, (uint64_t)CTX << 32 | 5);
	assert_non_null(live);
	assert_int_equal(live->error, -5);
}

int run_fence_identity_tests(void)
{
	const struct CMUnitTest tests[] = {
		trace_fixture_series_test(test_duplicate_with_series_events),
		trace_fixture_series_test(test_duplicate_traced_first),
		trace_fixture_stock_test(test_duplicate_on_stock_events),
		trace_fixture_series_test(test_reuse_after_destroy),
		trace_fixture_series_test(test_duplicate_first_given_the_signal),
		trace_fixture_series_test(test_signalled_then_dropped_by_its_maker),
		trace_fixture_series_test(test_duplicates_of_tasks_sharing_a_cache_slot),
		trace_fixture_stock_test(test_collision_stock),
		trace_fixture_series_test(test_collision_series),
		trace_fixture_stock_test(test_stock_sw_sync_after_signal_is_a_collision),
		trace_fixture_stock_test(test_signal_of_a_fence_from_before_the_trace),
		trace_fixture_series_test(test_identity_names_the_signalled_fence),
		trace_fixture_series_test(test_identity_duplicate),
		trace_fixture_series_test(test_identity_signal_of_an_unseen_fence),
		trace_fixture_series_test(test_identity_reused_after_destroy),
		trace_fixture_series_test(test_error_with_identity_in_a_file_without),
	};

	return cmocka_run_group_tests_name("fence identity", tests, NULL, NULL);
}
