// SPDX-License-Identifier: GPL-2.0
/*
 * test-tracedat-bad.c - damaged trace.dat files: a clear one-line error,
 * never a crash, a hang or a read outside the file (run under valgrind).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <traceevent/event-parse.h>

#include "tmpdir.h"
#include "fixture-formats.h"
#include "trace-builder.h"
#include "tracedat.h"
#include "unit.h"

#define EVENTS_PER_PAGE 127	/* 32-byte "d"/"t" fence events in 4080 bytes */

static char dir[64];
static unsigned char *good;	/* a valid file, see build_good() */
static size_t good_len;

static void write_bytes(const char *path, const void *p, size_t n)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);

	assert_true(fd >= 0);
	assert_int_equal(write(fd, p, n), (ssize_t)n);
	close(fd);
}

static unsigned char *read_bytes(const char *path, size_t *n)
{
	unsigned char *buf = malloc(1 << 20);
	int fd = open(path, O_RDONLY);
	ssize_t r;

	assert_non_null(buf);
	assert_true(fd >= 0);
	r = read(fd, buf, 1 << 20);
	close(fd);
	assert_true(r > 0 && r < (1 << 20));
	*n = (size_t)r;
	return buf;
}

static int count(struct tep_record *rec, void *ctx)
{
	(void)rec;
	++*(unsigned long *)ctx;
	return 0;
}

static int keep_ts(struct tep_record *rec, void *ctx)
{
	unsigned long long *ts = ctx;

	ts[ts[0] ? 1 : 0] = rec->ts;
	return 0;
}

/* 2 CPUs, 3 pages on CPU 0 (a time extend, a gap), 1 page on CPU 1, a long event. */
static struct trace_builder *good_builder(void)
{
	struct trace_builder *tb = tb_new(2, TB_FIXTURES);
	char name[160];
	int i;

	assert_non_null(tb);
	for (i = 0; i < EVENTS_PER_PAGE * 2; i++)
		assert_int_equal(tb_fence(tb, 0, 100 + i, "dma_fence_init", "d", "t", 1, i), 0);
	assert_int_equal(tb_missed(tb, 0, 3), 0);
	assert_int_equal(tb_fence(tb, 0, 1ull << 33, "dma_fence_signaled", "d", "t", 1, 0), 0);
	/* a delta past 27 bits: a time extend */
	assert_int_equal(tb_fence(tb, 0, (1ull << 33) + (1ull << 28), "dma_fence_destroy",
				  "d", "t", 1, 0), 0);
	memset(name, 'n', sizeof(name) - 1);
	name[sizeof(name) - 1] = '\0';
	assert_int_equal(tb_fence(tb, 1, 50, "dma_fence_init", "vkms", name, 2, 1), 0);
	assert_int_equal(tb_vblank(tb, 1, 60, 0, 1, 60, 1), 0);
	tb_set_options(tb, "local [mono]", "Linux test", "1 init\n");
	return tb;
}

static int setup(void **state)
{
	struct trace_builder *tb;

	(void)state;
	tep_set_loglevel(TEP_LOG_NONE);
	if (tmpdir_make(dir, sizeof(dir), "tracedat-bad"))
		return -1;
	tb = good_builder();
	if (tb_write(tb, tmpdir_join(dir, "good.dat")))
		return -1;
	tb_free(tb);
	good = read_bytes(tmpdir_join(dir, "good.dat"), &good_len);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	free(good);
	return tmpdir_remove(dir);
}

/* Open @path expecting failure with @want in the message. */
static void expect_open_error(const char *path, const char *want)
{
	char err[256] = "";
	struct tracedat *td = tracedat_open(path, err, sizeof(err));

	if (td)
		tracedat_close(td);
	assert_null(td);
	if (!strstr(err, want))
		print_message("error \"%s\" lacks \"%s\"\n", err, want);
	assert_non_null(strstr(err, want));
	assert_null(strchr(err, '\n'));
	assert_int_equal(strncmp(err, path, strlen(path)), 0);
}

/* Open a copy of the good file with @len bytes at @off replaced. */
static void expect_patched_error(size_t off, const void *bytes, size_t len, const char *want)
{
	unsigned char *copy = malloc(good_len);

	assert_non_null(copy);
	memcpy(copy, good, good_len);
	memcpy(copy + off, bytes, len);
	write_bytes(tmpdir_join(dir, "patched.dat"), copy, good_len);
	free(copy);
	expect_open_error(tmpdir_join(dir, "patched.dat"), want);
}

static size_t find(const char *s, size_t len)
{
	const unsigned char *p = memmem(good, good_len, s, len);

	assert_non_null(p);
	return (size_t)(p - good);
}

static void test_good_file_reads(void **state)
{
	char err[256];
	struct tracedat *td = tracedat_open(tmpdir_join(dir, "good.dat"), err, sizeof(err));
	unsigned long n = 0;

	(void)state;
	assert_non_null(td);
	assert_int_equal(tracedat_iterate(td, count, &n), 0);
	assert_int_equal(n, EVENTS_PER_PAGE * 2 + 4);
	tracedat_close(td);
}

static void test_missing_file(void **state)
{
	(void)state;
	expect_open_error(tmpdir_join(dir, "no-such.dat"), "No such file");
}

static void test_empty_file(void **state)
{
	(void)state;
	write_bytes(tmpdir_join(dir, "empty.dat"), "", 0);
	expect_open_error(tmpdir_join(dir, "empty.dat"), "empty file");
}

static void test_not_a_trace_file(void **state)
{
	static const char text[] = "this is a text file, not a trace\n";

	(void)state;
	write_bytes(tmpdir_join(dir, "text.dat"), text, sizeof(text));
	expect_open_error(tmpdir_join(dir, "text.dat"), "not a trace-cmd file");
	write_bytes(tmpdir_join(dir, "short.dat"), "\x17\x08", 2);	/* the magic, cut */
	expect_open_error(tmpdir_join(dir, "short.dat"), "truncated in file header");
}

static void test_wrong_version(void **state)
{
	(void)state;
	expect_patched_error(10, "8", 1, "version 8 not supported");
	expect_patched_error(10, "x", 1, "bad version string");
}

/* Offsets where one part of the header ends and the next begins. */
static size_t boundaries(size_t *at, size_t max)
{
	static const struct { const char *s; size_t len; } marks[] = {
		{ "header_page", 12 }, { "header_event", 13 },
		{ "name: dma_fence_destroy", 23 }, { "name: drm_vblank_event\n", 23 },
		{ "dma_fence", 10 }, { "drm", 4 }, { "1 init", 6 },
		{ "options  ", 10 }, { "flyrecord", 10 },
	};
	size_t n = 0, i, m, data;

	for (i = 0; i < sizeof(marks) / sizeof(marks[0]); i++) {
		m = find(marks[i].s, marks[i].len);
		at[n++] = m;
		at[n++] = m + 1;
		at[n++] = m > 8 ? m - 8 : 0;	/* inside the size before it */
	}
	data = (find("flyrecord", 10) + 10 + 32 + 4095) / 4096 * 4096;
	for (i = 0; i < 5 && n < max; i++)
		at[n++] = data + i * 4096 - 1;
	for (i = 1; i < 16 && n < max; i++)
		at[n++] = i;	/* inside the initial format */
	return n;
}

static void try_prefix(size_t len, unsigned long full)
{
	struct tracedat *td;
	unsigned long n = 0;
	char err[256] = "";
	int ret;

	write_bytes(tmpdir_join(dir, "cut.dat"), good, len);
	td = tracedat_open(tmpdir_join(dir, "cut.dat"), err, sizeof(err));
	if (!td) {
		if (!strstr(err, "truncated") && !strstr(err, "empty file"))
			print_message("cut at %zu: \"%s\"\n", len, err);
		assert_true(strstr(err, "truncated") || strstr(err, "empty file"));
		return;
	}
	ret = tracedat_iterate(td, count, &n);
	assert_true(ret == 0 || ret == -EINVAL);
	assert_true(n <= full);
	tracedat_close(td);
}

static void test_truncated(void **state)
{
	size_t at[64], n, i;

	(void)state;
	for (i = 0; i < 64; i++)
		try_prefix(good_len * i / 64, EVENTS_PER_PAGE * 2 + 4);
	n = boundaries(at, 64);
	for (i = 0; i < n; i++)
		if (at[i] < good_len)
			try_prefix(at[i], EVENTS_PER_PAGE * 2 + 4);
}

static void test_huge_format_size(void **state)
{
	const unsigned long long huge = 0x7fffffffffffff00ull;

	(void)state;
	expect_patched_error(find("name: dma_fence_destroy", 23) - 8, &huge, 8,
			     "truncated in event formats");
}

static void test_bad_cpu_table(void **state)
{
	const unsigned long long far = 1ull << 40;
	const unsigned int cpus = 0xffffffffu;
	size_t fly = find("flyrecord", 10) + 10;

	(void)state;
	expect_patched_error(find("options  ", 10) - 4, &cpus, 4, "truncated in flyrecord table");
	expect_patched_error(fly, &far, 8, "truncated in cpu0 data");
	expect_patched_error(fly + 8, &far, 8, "truncated in cpu0 data");
	expect_patched_error(fly + 8, "\x01", 1, "not a whole number of pages");
}

/* Open a copy of the good file with @len bytes at @off replaced: its clock. */
static void expect_patched_clock(size_t off, const void *bytes, size_t len, const char *clock)
{
	unsigned char *copy = malloc(good_len);
	struct tracedat *td;
	char err[256];

	assert_non_null(copy);
	memcpy(copy, good, good_len);
	memcpy(copy + off, bytes, len);
	write_bytes(tmpdir_join(dir, "clock.dat"), copy, good_len);
	free(copy);
	td = tracedat_open(tmpdir_join(dir, "clock.dat"), err, sizeof(err));
	assert_non_null(td);
	assert_string_equal(tracedat_clock(td), clock);
	tracedat_close(td);
}

/*
 * v6 keeps the clock twice: the TRACECLOCK option's text and, as trace-cmd
 * reads it, a "[clock]" after the flyrecord table, which wins.  A file
 * without a usable copy there (older writers) keeps the option's clock.
 */
static void test_clock_trailer(void **state)
{
	size_t trailer = find("flyrecord", 10) + 10 + 2 * 16;
	const unsigned long long garbage = 1ull << 50;

	(void)state;
	assert_memory_equal(good + trailer, "\x06\0\0\0\0\0\0\0[mono]", 14);
	expect_patched_clock(trailer + 8, "[boot]", 6, "boot");
	expect_patched_clock(trailer, &garbage, 8, "mono");
	expect_patched_clock(trailer + 8, "\x01\x02\x03\x04\x05\x06", 6, "mono");
	expect_patched_clock(trailer, "\0\0\0\0\0\0\0\0", 8, "mono");
}

/* Build the good trace with @edit applied to CPU 0's page @page, then iterate. */
static void expect_page_error(size_t page, size_t off, const void *bytes, size_t len,
			      unsigned long delivered, const char *want)
{
	struct trace_builder *tb = good_builder();
	struct tracedat *td;
	unsigned long n = 0;
	char err[256];

	memcpy(tb_page(tb, 0, page) + off, bytes, len);
	assert_int_equal(tb_write(tb, tmpdir_join(dir, "page.dat")), 0);
	tb_free(tb);
	td = tracedat_open(tmpdir_join(dir, "page.dat"), err, sizeof(err));
	assert_non_null(td);
	assert_int_equal(tracedat_iterate(td, count, &n), -EINVAL);
	if (!strstr(tracedat_error(td), want))
		print_message("error \"%s\" lacks \"%s\"\n", tracedat_error(td), want);
	assert_non_null(strstr(tracedat_error(td), want));
	assert_int_equal(n, delivered);
	tracedat_close(td);
}

static void test_damaged_pages(void **state)
{
	const unsigned long long big_commit = 5000, stored = 4080 | (3ull << 30);
	const unsigned int pad_back[2] = { 29, 0xfffffffc }, tiny = 1;
	const unsigned int long_tiny[2] = { 0, 2 }, long_huge[2] = { 0, 0xfffffffc };
	const unsigned int short_fmt = 3;	/* 12 bytes: the format needs 24 */

	(void)state;
	/* CPU 1's two events come first (ts 50, 60), then CPU 0's pages */
	expect_page_error(1, 8, &big_commit, 8, 2 + EVENTS_PER_PAGE,
			  "cpu0 page 1: commit larger than the page");
	expect_page_error(2, 8, &stored, 8, 2 + 2 * EVENTS_PER_PAGE,
			  "cpu0 page 2: missed-events count past the page end");
	/* padding of length -4 would send kbuffer round in circles */
	expect_page_error(0, 16, pad_back, 8, 0, "cpu0 page 0: bad padding length");
	expect_page_error(0, 16, &tiny, 4, 0, "cpu0 page 0: event shorter than the common fields");
	expect_page_error(0, 16, long_tiny, 8, 0, "cpu0 page 0: event shorter than the common fields");
	expect_page_error(0, 16, long_huge, 8, 0, "cpu0 page 0: event longer than the commit");
	expect_page_error(0, 16, &short_fmt, 4, 0, "cpu0 page 0: event shorter than its format");
}

/*
 * Time going back on one CPU: a page stamped before the event ahead of it,
 * and a time extend that carries the clock past 2^64 (a page stamped near
 * the top).  Both are damage: a one-line error naming CPU and page, the
 * events before it delivered.
 */
static void test_time_goes_back(void **state)
{
	const unsigned long long early = 50, top = ~0ull - 100;

	(void)state;
	expect_page_error(1, 0, &early, 8, 2 + EVENTS_PER_PAGE,
			  "cpu0 page 1: time goes back (50 ns after 226 ns)");
	/* page 2: the signal at the top, then the destroy's extend wraps */
	expect_page_error(2, 0, &top, 8, 2 + 2 * EVENTS_PER_PAGE + 1,
			  "cpu0 page 2: time goes back (");
}

/* Time stamps near 2^64 that do not go back read as they are. */
static void test_huge_timestamps_read(void **state)
{
	struct trace_builder *tb = tb_new(1, TB_FIXTURES);
	unsigned long long ts[2] = { 0 };
	struct tracedat *td;
	char err[256];

	(void)state;
	assert_non_null(tb);
	assert_int_equal(tb_fence(tb, 0, ~0ull - (1ull << 40), "dma_fence_init", "d", "t", 1, 1), 0);
	assert_int_equal(tb_fence(tb, 0, ~0ull - 5, "dma_fence_signaled", "d", "t", 1, 1), 0);
	assert_int_equal(tb_write(tb, tmpdir_join(dir, "huge.dat")), 0);
	tb_free(tb);
	td = tracedat_open(tmpdir_join(dir, "huge.dat"), err, sizeof(err));
	assert_non_null(td);
	assert_int_equal(tracedat_iterate(td, keep_ts, ts), 0);
	assert_true(ts[0] == ~0ull - (1ull << 40));
	assert_true(ts[1] == ~0ull - 5);
	tracedat_close(td);
}

/*
 * Records written out of time order across CPUs (CPU 1's come first in the
 * file, and interleave with CPU 0's): delivered merged in time order, ties
 * to the lower CPU.
 */
static int check_order(struct tep_record *rec, void *ctx)
{
	unsigned long long *last = ctx;

	if (rec->ts < last[0] || (rec->ts == last[0] && rec->cpu < (int)last[1]))
		fail_msg("cpu%d ts %llu delivered after cpu%llu ts %llu", rec->cpu,
			 rec->ts, last[1], last[0]);
	last[0] = rec->ts;
	last[1] = (unsigned long long)rec->cpu;
	last[2]++;
	return 0;
}

static void test_cross_cpu_order(void **state)
{
	static const unsigned long long t0[] = { 100, 300, 300, 700, 5000 }, t1[] = { 50, 300, 400, 6000 },
		t2[] = { 10, 7000 };
	struct trace_builder *tb = tb_new(3, TB_FIXTURES);
	unsigned long long last[3] = { 0 };
	struct tracedat *td;
	char err[256];
	unsigned int i;

	(void)state;
	assert_non_null(tb);
	for (i = 0; i < 4; i++)
		assert_int_equal(tb_fence(tb, 1, t1[i], "dma_fence_init", "d", "t", 1, i), 0);
	for (i = 0; i < 2; i++)
		assert_int_equal(tb_fence(tb, 2, t2[i], "dma_fence_init", "d", "t", 2, i), 0);
	for (i = 0; i < 5; i++)
		assert_int_equal(tb_fence(tb, 0, t0[i], "dma_fence_init", "d", "t", 0, i), 0);
	assert_int_equal(tb_write(tb, tmpdir_join(dir, "order.dat")), 0);
	tb_free(tb);
	td = tracedat_open(tmpdir_join(dir, "order.dat"), err, sizeof(err));
	assert_non_null(td);
	assert_int_equal(tracedat_iterate(td, check_order, last), 0);
	assert_int_equal(last[2], 11);
	assert_int_equal(last[0], 7000);
	tracedat_close(td);
}

/* Open a copy of the good file with @len bytes at @off replaced: must read. */
static void expect_patched_reads(size_t off, const void *bytes, size_t len)
{
	unsigned char *copy = malloc(good_len);
	struct tracedat *td;
	unsigned long n = 0;
	char err[256];

	assert_non_null(copy);
	memcpy(copy, good, good_len);
	memcpy(copy + off, bytes, len);
	write_bytes(tmpdir_join(dir, "format.dat"), copy, good_len);
	free(copy);
	td = tracedat_open(tmpdir_join(dir, "format.dat"), err, sizeof(err));
	assert_non_null(td);
	assert_int_equal(tracedat_iterate(td, count, &n), 0);
	assert_int_equal(n, EVENTS_PER_PAGE * 2 + 4);
	tracedat_close(td);
}

/*
 * Formats that crash libtraceevent 1.7's tep_parse_event() (found by the
 * fuzz tests): a NULL token after a damaged array declaration, SIGFPE from
 * folding a division by a non-number.  They must be skipped, not parsed.
 */
static void test_formats_that_crash_libtraceevent(void **state)
{
	(void)state;
	expect_patched_reads(find("char[] driver", 13) + 5, "\xdd", 1);
	expect_patched_reads(find("char[] driver", 13) + 5, "Y", 1);
	expect_patched_reads(find("__get_str(driver)", 17) + 8, "/", 1);
	expect_patched_reads(find("__get_str(timeline)", 19) + 8, "%", 1);
	/* an expression that stops after an operator: NULL in libtraceevent */
	expect_patched_reads(find("\"false\"\n", 8) + 7, ".", 1);
	expect_patched_reads(find("\"false\"\n", 8) + 7, "[", 1);
	/* REC->NAME naming no field: NULL inside __print_symbolic() */
	expect_patched_reads(find("REC->context", 12) + 8, "s", 1);
	/* a member, an arrow or a subscript after a subscript: NULL */
	expect_patched_reads(find(", REC->seqno", 12), "[1]. (void*)", 12);
	expect_patched_reads(find(", REC->seqno", 12), "[1]->seqno  ", 12);
	expect_patched_reads(find(", REC->seqno", 12), "[1][2]      ", 12);
}

/* Open a copy of the good file that @damage changed in place; must open. */
static struct tracedat *open_damaged(const char *name, void (*damage)(unsigned char *copy))
{
	unsigned char *copy = malloc(good_len);
	struct tracedat *td;
	char err[256];

	assert_non_null(copy);
	memcpy(copy, good, good_len);
	damage(copy);
	write_bytes(tmpdir_join(dir, name), copy, good_len);
	free(copy);
	td = tracedat_open(tmpdir_join(dir, name), err, sizeof(err));
	assert_non_null(td);
	return td;
}

/* The print format of @sys:@name is "(print format not trusted)", its @field kept. */
static void expect_untrusted_print(struct tracedat *td, const char *sys, const char *name,
				   const char *field)
{
	struct tep_event *ev = tep_find_event_by_name(tracedat_tep(td), sys, name);

	assert_non_null(ev);
	assert_non_null(tep_find_field(ev, field));
	assert_string_equal(ev->print_fmt.format, "(print format not trusted)");
}

static void rename_rec_context(unsigned char *copy)
{
	for (unsigned char *r = copy; (r = memmem(r, good_len - (size_t)(r - copy), "REC->context", 12)); r++)
		r[8] = 's';	/* REC->consext, in every dma_fence event */
}

/* A print format naming a field the event lacks is not trusted either. */
static void test_print_fmt_naming_no_field(void **state)
{
	struct tracedat *td = open_damaged("recname.dat", rename_rec_context);

	(void)state;
	expect_untrusted_print(td, "dma_fence", "dma_fence_init", "context");
	tracedat_close(td);
}

static void end_vblank_print_with_dot(unsigned char *copy)
{
	copy[find("\"false\"\n", 8) + 7] = '.';
}

/* A doubtful print format costs the print format, not the fields. */
static void test_damaged_print_fmt_keeps_fields(void **state)
{
	struct tracedat *td = open_damaged("print.dat", end_vblank_print_with_dot);
	struct tep_event *ev;

	(void)state;
	expect_untrusted_print(td, "drm", "drm_vblank_event", "high_prec");
	ev = tep_find_event_by_name(tracedat_tep(td), "dma_fence", "dma_fence_init");
	assert_non_null(ev);
	assert_string_equal(ev->print_fmt.format, "driver=%s timeline=%s context=%u seqno=%u");
	tracedat_close(td);
}

/* Random damage anywhere: only clean errors or clean reads. */
static void test_random_damage(void **state)
{
	unsigned char *copy = malloc(good_len);
	unsigned int seed = 12345, i, k;
	struct tracedat *td;
	unsigned long n;
	char err[256];

	(void)state;
	assert_non_null(copy);
	for (i = 0; i < 300; i++) {
		memcpy(copy, good, good_len);
		for (k = 0; k < 1 + i % 8; k++) {
			seed = seed * 1103515245u + 12345u;
			copy[(seed >> 8) % (i % 2 ? good_len : 8192)] ^= (unsigned char)(1u << (seed % 8));
		}
		write_bytes(tmpdir_join(dir, "fuzz.dat"), copy, good_len);
		td = tracedat_open(tmpdir_join(dir, "fuzz.dat"), err, sizeof(err));
		if (!td) {
			assert_true(err[0] != '\0');
			continue;
		}
		n = 0;
		assert_true(tracedat_iterate(td, count, &n) <= 0);
		tracedat_close(td);
	}
	free(copy);
}

int run_tracedat_bad_tests(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_good_file_reads),
		cmocka_unit_test(test_missing_file),
		cmocka_unit_test(test_empty_file),
		cmocka_unit_test(test_not_a_trace_file),
		cmocka_unit_test(test_wrong_version),
		cmocka_unit_test(test_truncated),
		cmocka_unit_test(test_huge_format_size),
		cmocka_unit_test(test_bad_cpu_table),
		cmocka_unit_test(test_clock_trailer),
		cmocka_unit_test(test_damaged_pages),
		cmocka_unit_test(test_time_goes_back),
		cmocka_unit_test(test_huge_timestamps_read),
		cmocka_unit_test(test_cross_cpu_order),
		cmocka_unit_test(test_formats_that_crash_libtraceevent),
		cmocka_unit_test(test_damaged_print_fmt_keeps_fields),
		cmocka_unit_test(test_print_fmt_naming_no_field),
		cmocka_unit_test(test_random_damage),
	};

	return cmocka_run_group_tests_name("tracedat_bad_input", tests, setup, teardown);
}
