// SPDX-License-Identifier: GPL-2.0
/*
 * trace-fixture.c - the shared fixture of the analysis tests: test-report*.c,
 * test-timeline.c, test-mutant-kills.c (see trace-fixture.h).
 */
#include <stdlib.h>
#include <unistd.h>

#include "fixture-formats.h"
#include "report.h"
#include "series-formats.h"
#include "trace-fixture.h"
#include "unit.h"
#include "vblank-land.h"

int trace_fixture_init(struct trace_fixture *f, int series)
{
	if (series && series_formats_make(f->formats, sizeof(f->formats)))
		return -1;
	f->tb = tb_new(2, series ? f->formats : TB_FIXTURES);
	if (!f->tb)
		return -1;
	tb_set_options(f->tb, "local global [mono] boot", "Linux 6.1.192+ test", NULL);
	return 0;
}

/* Safe on a fixture whose init failed half-way: every step checks. */
void trace_fixture_fini(struct trace_fixture *f)
{
	analysis_free(&f->a);
	tb_free(f->tb);
	if (f->path[0])
		unlink(f->path);
	if (f->formats[0])
		series_formats_remove(f->formats);
	free(f->text);
}

static int setup_with(void **state, int series)
{
	struct trace_fixture *f = calloc(1, sizeof(*f));

	if (!f)
		return -1;
	if (trace_fixture_init(f, series)) {
		trace_fixture_fini(f);
		free(f);
		return -1;
	}
	*state = f;
	return 0;
}

int trace_fixture_setup_stock(void **state)
{
	return setup_with(state, 0);
}

int trace_fixture_setup_series(void **state)
{
	return setup_with(state, 1);
}

int trace_fixture_teardown(void **state)
{
	trace_fixture_fini(*state);
	free(*state);
	return 0;
}

int trace_fixture_setup_pair(void **state)
{
	struct trace_fixture *pair = calloc(2, sizeof(*pair));

	*state = pair;
	return !pair || trace_fixture_init(&pair[0], 0) || trace_fixture_init(&pair[1], 0) ? -1 : 0;
}

int trace_fixture_teardown_pair(void **state)
{
	struct trace_fixture *pair = *state;

	if (pair) {
		trace_fixture_fini(&pair[0]);
		trace_fixture_fini(&pair[1]);
	}
	free(pair);
	return 0;
}

void trace_fixture_event(struct trace_fixture *f, unsigned int cpu, uint64_t ts,
			 const char *name, const void *payload, size_t len)
{
	int id = tb_event_id(f->tb, name);

	assert_true(id >= 0);
	assert_int_equal(tb_add(f->tb, cpu, ts, id, payload, len), 0);
}

/**
 * trace_fixture_land() - vblank @seq, on which out-fence @out_seqno lands
 * @f: the fixture
 * @seq: the vblank's sequence; its time is @seq * 16 ms
 * @out_seqno: the out-fence it signals (context 1), or 0 for none
 * @how: NULL, or what to trace differently (see struct tf_land)
 */
struct land_hook {
	struct trace_fixture *f;
	const struct tf_land *how;
	uint64_t t;
	uint32_t seq, out_seqno;
};

/* vblank_land()'s hook: the test's own, which fails the test itself. */
static int before_signal(void *arg)
{
	struct land_hook *h = arg;

	h->how->before_signal(h->f, h->t, h->seq, h->out_seqno);
	return 0;
}

void trace_fixture_land(struct trace_fixture *f, uint32_t seq, uint32_t out_seqno,
			const struct tf_land *how)
{
	static const struct tf_land plain;
	struct land_hook hook = { f, how ? how : &plain, seq * 16 * MS, seq, out_seqno };
	struct vblank_land l = {
		.t = hook.t, .seq = seq, .event_seq = hook.how->event_seq, .out_seqno = out_seqno,
		.out_timeline = hook.how->out_timeline,
		.before_signal = hook.how->before_signal ? before_signal : NULL, .arg = &hook,
	};

	assert_int_equal(vblank_land(f->tb, &l), 0);
	if (out_seqno && hook.how->after_vblank)
		hook.how->after_vblank(f, hook.t, out_seqno);
}

void trace_fixture_write(struct trace_fixture *f)
{
	int fd;

	snprintf(f->path, sizeof(f->path), "/tmp/test-trace-XXXXXX");
	fd = mkstemp(f->path);
	assert_true(fd >= 0);
	close(fd);
	if (tb_write(f->tb, f->path))
		fail_msg("tb_write: %s", tb_error(f->tb));
}

struct ft_model *trace_fixture_analyze(struct trace_fixture *f)
{
	struct analysis_window w = {
		.each_context = f->each_context,
		.latch_margin_given = f->latch_margin_ns != 0,
		.latch_margin_ns = (unsigned long long)f->latch_margin_ns,
	};
	char err[256];

	trace_fixture_write(f);
	if (analysis_run(&f->a, f->path, &w, err, sizeof(err)))
		fail_msg("analysis_run: %s", err);
	return &f->a.model;
}

FILE *trace_fixture_text(struct trace_fixture *f)
{
	FILE *out;

	free(f->text);
	f->text = NULL;
	f->len = 0;
	out = open_memstream(&f->text, &f->len);
	assert_non_null(out);
	return out;
}

const char *trace_fixture_render(struct trace_fixture *f, trace_fixture_output output,
				 const struct report_opts *o)
{
	struct report_info ri = { "x.dat", 6, 2, "mono", NULL, NULL, f->from_ns, f->to_ns, NULL };
	FILE *out = trace_fixture_text(f);

	assert_int_equal(output(out, &f->a.model, &ri, o), 0);
	assert_int_equal(fclose(out), 0);
	return f->text;
}

const char *trace_fixture_report(struct trace_fixture *f, int json)
{
	struct report_opts o = { SEC_ALL, NULL, -1, -1, -1, 0, 0 };

	return trace_fixture_render(f, json ? report_json : report_text, &o);
}
