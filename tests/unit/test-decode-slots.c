// SPDX-License-Identifier: GPL-2.0
/*
 * test-decode-slots.c - ft_decode() reuses its event (lib/decode.c): a
 * field the last event had and this one lacks reads 0, never the last
 * event's value; read through the real reader and decoder.
 */
#include <string.h>

#include "trace-fixture.h"
#include "unit.h"

struct seen {
	enum ft_event_id id[4];
	uint64_t crtc[4], seq[4], time[4], context[4];
	unsigned int n;
};

static void keep(const struct ft_event *ev, const struct ft_model *m, void *ctx)
{
	struct seen *s = ctx;

	(void)m;
	if (s->n >= 4)
		return;
	s->id[s->n] = ev->id;
	s->crtc[s->n] = ev->v[FT_CRTC];
	s->seq[s->n] = ev->v[FT_SEQ];
	s->time[s->n] = ev->v[FT_TIME];
	s->context[s->n] = ev->v[FT_CONTEXT];
	s->n++;
}

/* A vblank (crtc, seq, time) then a fence event (context, seqno), then a vblank again. */
static void test_absent_fields_read_zero(void **state)
{
	struct trace_fixture *f = *state;
	struct analysis_window w = { .on_event = keep };
	struct seen s = { 0 };
	char err[256];

	assert_int_equal(tb_vblank(f->tb, 0, 1 * MS, 2, 7, 123456, 1), 0);
	FENCE(0, 2 * MS, "dma_fence_init", 3, 5);
	assert_int_equal(tb_vblank(f->tb, 0, 3 * MS, 1, 8, 654321, 1), 0);
	trace_fixture_write(f);
	w.ctx = &s;
	if (analysis_run(&f->a, f->path, &w, err, sizeof(err)))
		fail_msg("analysis_run: %s", err);
	assert_int_equal(s.n, 3);
	assert_int_equal(s.id[0], FT_EV_VBLANK);
	assert_int_equal(s.seq[0], 7);
	assert_int_equal(s.crtc[0], 2);
	assert_int_equal(s.id[1], FT_EV_FENCE_INIT);
	assert_int_equal(s.context[1], 3);
	assert_int_equal(s.crtc[1], 0);
	assert_int_equal(s.seq[1], 0);
	assert_int_equal(s.time[1], 0);
	assert_int_equal(s.seq[2], 8);
	assert_int_equal(s.context[2], 0);
}

int run_decode_slots_tests(void)
{
	const struct CMUnitTest tests[] = {
		trace_fixture_stock_test(test_absent_fields_read_zero),
	};

	return cmocka_run_group_tests_name("decode_slots", tests, NULL, NULL);
}
