// SPDX-License-Identifier: GPL-2.0
/*
 * test-tracedat-compat.c - the writer and reader against trace-cmd itself:
 * `trace-cmd report` reads the writer's files, and the reader reads the
 * v7 files `trace-cmd convert` makes of them.  Reading and converting a
 * file touch no tracing.  Skipped when trace-cmd is not installed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <traceevent/event-parse.h>

#include "tmpdir.h"
#include "fixture-formats.h"
#include "trace-builder.h"
#include "tracedat.h"
#include "unit.h"

static char dir[64];

static int setup(void **state)
{
	(void)state;
	return tmpdir_make(dir, sizeof(dir), "tracedat-compat");
}

static int teardown(void **state)
{
	(void)state;
	return tmpdir_remove(dir);
}

/* Run @cmd, its output (stdout and stderr) into @out. */
static int run(const char *cmd, char *out, size_t len)
{
	FILE *p = popen(cmd, "r");
	size_t n;

	assert_non_null(p);
	n = fread(out, 1, len - 1, p);
	out[n] = '\0';
	return pclose(p);
}

static const char *const stats[] = {
	"entries: 0\noverrun: 0\ncommit overrun: 0\nbytes: 4242\n",
	"entries: 0\noverrun: 0\ncommit overrun: 0\nbytes: 1717\n",
};

static void build(const char *path)
{
	struct trace_builder *tb = tb_new(2, TB_FIXTURES);

	assert_non_null(tb);
	tb_set_cpu_stats(tb, stats);
	tb_set_options(tb, "local global [mono] mono_raw boot\n", "Linux 6.1.192+ lab x86_64",
		       "4242 fence-workload\n");
	tb_set_pid(tb, 4242);
	assert_int_equal(tb_fence(tb, 0, 1000000, "dma_fence_init", "sw_sync", "producer-A",
				  12345, 678), 0);
	assert_int_equal(tb_fence(tb, 1, 1500000, "dma_fence_wait_start", "vkms",
				  "CRTC:35-crtc-0", 5, 3), 0);
	assert_int_equal(tb_vblank(tb, 1, 2000000, 0, 41, 2000000, 1), 0);
	assert_int_equal(tb_missed(tb, 0, 9), 0);
	assert_int_equal(tb_fence(tb, 0, 3000000, "dma_fence_signaled", "sw_sync", "producer-A",
				  12345, 678), 0);
	assert_int_equal(tb_write(tb, path), 0);
	tb_free(tb);
}

static void test_trace_cmd_report(void **state)
{
	const char *path = tmpdir_join(dir, "report.dat");
	char cmd[256], out[8192];

	(void)state;
	if (!have_trace_cmd())
		skip_because("trace-cmd is not installed\n");
	build(path);
	snprintf(cmd, sizeof(cmd), "trace-cmd report '%s' 2>&1", path);
	assert_int_equal(run(cmd, out, sizeof(out)), 0);
	if (!strstr(out, "context=12345 seqno=678"))
		print_message("trace-cmd report said:\n%s\n", out);
	assert_non_null(strstr(out, "fence-workload-4242"));
	assert_non_null(strstr(out, "dma_fence_init:"));
	assert_non_null(strstr(out, "driver=sw_sync timeline=producer-A context=12345 seqno=678"));
	assert_non_null(strstr(out, "dma_fence_wait_start:"));
	assert_non_null(strstr(out, "crtc=0, seq=41, time=2000000, high-prec=true"));
	assert_non_null(strstr(out, "[9 EVENTS DROPPED]"));
	/* trace-cmd found the "[mono]" after the flyrecord table */
	assert_null(strstr(out, "trace_clock bug"));
	snprintf(cmd, sizeof(cmd), "trace-cmd report --uname '%s' 2>&1", path);
	assert_int_equal(run(cmd, out, sizeof(out)), 0);
	assert_non_null(strstr(out, "Linux 6.1.192+ lab x86_64"));
	/* one CPUSTAT option per CPU, in CPU order */
	snprintf(cmd, sizeof(cmd), "trace-cmd report --stat '%s' 2>&1", path);
	assert_int_equal(run(cmd, out, sizeof(out)), 0);
	assert_non_null(strstr(out, "bytes: 4242"));
	assert_true(strstr(out, "bytes: 1717") > strstr(out, "bytes: 4242"));
}

/* An empty CPU and a delta too wide for 27 bits, as trace-cmd decodes them. */
static void test_trace_cmd_report_extend(void **state)
{
	const char *path = tmpdir_join(dir, "extend.dat");
	struct trace_builder *tb = tb_new(3, TB_FIXTURES);
	char cmd[256], out[4096];

	(void)state;
	if (!have_trace_cmd())
		skip_because("trace-cmd is not installed\n");
	assert_non_null(tb);
	assert_int_equal(tb_fence(tb, 0, 1000000, "dma_fence_init", "d", "t", 1, 1), 0);
	assert_int_equal(tb_fence(tb, 2, 1500000, "dma_fence_wait_end", "d", "t", 1, 1), 0);
	assert_int_equal(tb_fence(tb, 2, 1500000 + (1ull << 30), "dma_fence_enable_signal",
				  "d", "t", 1, 1), 0);
	assert_int_equal(tb_write(tb, path), 0);
	tb_free(tb);
	snprintf(cmd, sizeof(cmd), "trace-cmd report '%s' 2>&1", path);
	assert_int_equal(run(cmd, out, sizeof(out)), 0);
	if (!strstr(out, "1.075242: dma_fence_enable_signal:"))
		print_message("trace-cmd report said:\n%s\n", out);
	assert_non_null(strstr(out, "cpus=3"));
	assert_non_null(strstr(out, "[002]     0.001500: dma_fence_wait_end:"));
	/* 0.0015 s + 2^30 ns */
	assert_non_null(strstr(out, "[002]     1.075242: dma_fence_enable_signal:"));
}

struct digest {
	struct tep_handle *tep;
	int n;
	unsigned long long ts[8];
	int cpu[8], type[8];
	long long missed[8];
};

static int digest(struct tep_record *rec, void *ctx)
{
	struct digest *d = ctx;

	if (d->n < 8) {
		d->ts[d->n] = rec->ts;
		d->cpu[d->n] = rec->cpu;
		d->type[d->n] = tep_data_type(d->tep, rec);
		d->missed[d->n] = rec->missed_events;
	}
	d->n++;
	return 0;
}

static void read_digest(const char *path, struct digest *d, int version)
{
	struct tracedat *td;
	char err[256];

	memset(d, 0, sizeof(*d));
	td = tracedat_open(path, err, sizeof(err));
	if (!td)
		print_message("%s\n", err);
	assert_non_null(td);
	assert_int_equal(tracedat_version(td), version);
	assert_string_equal(tracedat_clock(td), "mono");
	assert_string_equal(tracedat_uname(td), "Linux 6.1.192+ lab x86_64");
	d->tep = tracedat_tep(td);
	assert_int_equal(tracedat_iterate(td, digest, d), 0);
	tracedat_close(td);
}

/* The builder's v6 file converted to v7 with @compression reads as the v6 does. */
static void check_converted(const char *compression)
{
	const char *v6 = tmpdir_join(dir, "conv.dat"), *v7 = tmpdir_join(dir, "conv-v7.dat");
	struct digest a, b;
	char cmd[384], out[4096];

	if (!have_trace_cmd())
		skip_because("trace-cmd is not installed\n");
	build(v6);
	snprintf(cmd, sizeof(cmd), "trace-cmd convert -i '%s' -o '%s' --file-version 7 "
		 "--compression %s 2>&1", v6, v7, compression);
	if (run(cmd, out, sizeof(out))) {
		skip_because("trace-cmd convert cannot write v7 (%s): %.60s\n", compression, out);
	}
	read_digest(v6, &a, 6);
	read_digest(v7, &b, 7);
	assert_int_equal(a.n, 4);
	assert_int_equal(b.n, a.n);
	assert_memory_equal(&a.ts, &b.ts, sizeof(a.ts));
	assert_memory_equal(&a.cpu, &b.cpu, sizeof(a.cpu));
	assert_memory_equal(&a.type, &b.type, sizeof(a.type));
	assert_memory_equal(&a.missed, &b.missed, sizeof(a.missed));
	assert_int_equal(b.missed[3], 9);
}

static void test_v7_uncompressed(void **state)
{
	(void)state;
	check_converted("none");
}

/* trace-cmd's compressed v7 (zstd on Debian 12) is the fast reader's too. */
static void test_v7_compressed(void **state)
{
	(void)state;
	check_converted("any");
}

int run_tracedat_compat_tests(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_trace_cmd_report),
		cmocka_unit_test(test_trace_cmd_report_extend),
		cmocka_unit_test(test_v7_uncompressed),
		cmocka_unit_test(test_v7_compressed),
	};

	return cmocka_run_group_tests_name("tracedat_trace_cmd", tests, setup, teardown);
}
