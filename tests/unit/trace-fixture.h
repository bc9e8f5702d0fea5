/* SPDX-License-Identifier: GPL-2.0 */
/*
 * trace-fixture.h - the cmocka fixture of the analysis tests: a trace.dat
 * built event by event (trace-builder), written to a temporary file and
 * read back through the real source -> decode -> model path, and the
 * report or page rendered from it into memory.
 */
#ifndef FENCE_TRACE_TRACE_FIXTURE_H
#define FENCE_TRACE_TRACE_FIXTURE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "analyze.h"
#include "synth-time.h"
#include "trace-builder.h"

/* A stock event of producer-A's timeline; needs the fixture as @f in scope. */
#define FENCE(cpu, ts, ev, ctx, seq) \
	assert_int_equal(tb_fence(f->tb, cpu, ts, ev, "sw_sync", "producer-A", ctx, seq), 0)

struct trace_fixture {
	struct trace_builder *tb;
	struct analysis a;
	char path[64];		/* the written trace; "" until written */
	char formats[64];	/* stock fixtures + the series' formats; "" for a stock kernel */
	char *text;		/* what the last trace_fixture_text() stream held */
	unsigned long long from_ns, to_ns;	/* the window the report states; 0 none */
	size_t len;
	int each_context;	/* the model keeps every context's own row (model.h) */
	long long latch_margin_ns;	/* the frame timeline's, given; 0: estimated */
};

/* A builder for a stock kernel's events, or with the series' (@series). */
int trace_fixture_init(struct trace_fixture *f, int series);
void trace_fixture_fini(struct trace_fixture *f);

/* cmocka setup/teardown where *state is just a struct trace_fixture. */
int trace_fixture_setup_stock(void **state);
int trace_fixture_setup_series(void **state);
int trace_fixture_teardown(void **state);
/* A CMUnitTest entry running @fn on a fresh fixture (cmocka from unit.h). */
#define trace_fixture_stock_test(fn) \
	cmocka_unit_test_setup_teardown(fn, trace_fixture_setup_stock, trace_fixture_teardown)
#define trace_fixture_series_test(fn) \
	cmocka_unit_test_setup_teardown(fn, trace_fixture_setup_series, trace_fixture_teardown)
/* Two stock fixtures, *state an array of them (two traces to compare, as diff does). */
int trace_fixture_setup_pair(void **state);
int trace_fixture_teardown_pair(void **state);
#define trace_fixture_pair_test(fn) \
	cmocka_unit_test_setup_teardown(fn, trace_fixture_setup_pair, trace_fixture_teardown_pair)

/* Add a series event by name; @payload is what follows the common fields. */
void trace_fixture_event(struct trace_fixture *f, unsigned int cpu, uint64_t ts,
			 const char *name, const void *payload, size_t len);

/*
 * How trace_fixture_land() traces a vblank beyond the default: vblank @seq
 * of CRTC 51 (pipe 0) at @seq * 16 ms, signalling out-fence (vkms, context
 * 1) @out_seqno, none when 0.  NULL or zeroed fields: the defaults.
 */
struct tf_land {
	const char *out_timeline;	/* the out-fence's timeline; "CRTC:51-crtc-0" */
	uint32_t event_seq;		/* the vblank event's sequence; @seq */
	/* events of the commit that lands, before its out-fence's signal and
	 * after the vblank event (called only when @out_seqno is not 0) */
	void (*before_signal)(struct trace_fixture *f, uint64_t t, uint32_t seq, uint32_t out_seqno);
	void (*after_vblank)(struct trace_fixture *f, uint64_t t, uint32_t out_seqno);
};

/* The kernel's order at a vblank: delivered, the out-fence signal, vblank. */
void trace_fixture_land(struct trace_fixture *f, uint32_t seq, uint32_t out_seqno,
			const struct tf_land *how);

/* Write the built trace to f->path (fails the test if it cannot). */
void trace_fixture_write(struct trace_fixture *f);
/* Write it and run it through source -> decode -> model. */
struct ft_model *trace_fixture_analyze(struct trace_fixture *f);

/* A stream whose text lands in f->text when closed; the last text is freed. */
FILE *trace_fixture_text(struct trace_fixture *f);
/* The analysed trace's report, as text or JSON, in f->text. */
const char *trace_fixture_report(struct trace_fixture *f, int json);
/* ... rendered by report_text, report_json or report_csv with options @o. */
struct report_info;
struct report_opts;
typedef int (*trace_fixture_output)(FILE *out, const struct ft_model *m,
				    const struct report_info *info, const struct report_opts *o);
const char *trace_fixture_render(struct trace_fixture *f, trace_fixture_output output,
				 const struct report_opts *o);

#endif
