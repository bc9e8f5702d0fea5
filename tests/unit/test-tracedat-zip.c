// SPDX-License-Identifier: GPL-2.0
/*
 * test-tracedat-zip.c - compressed v7 files in the fast reader: trace-cmd's
 * own zstd capture (tests/fixtures/trace-cmd) and its zlib copy read to the
 * same report as the uncompressed data; a file the fast reader refuses by
 * design (a chunk above its 1 MiB) goes to libtracecmd, the fallback, and
 * reads to the same report; and damage in each section of each
 * compression (truncation, a changed size, broken compressed bytes, random
 * bit flips) ends in one line naming the section or chunk and its offset.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze.h"
#include "fixture-formats.h"
#include "report.h"
#include "tmpdir.h"
#include "trace-builder.h"
#include "tracedat.h"
#include "unit.h"
#include "v7-zip.h"

#define FIX_ZSTD "tests/fixtures/trace-cmd/zstd.dat"
#define FIX_ZLIB "tests/fixtures/trace-cmd/zlib.dat"

static char dir[64];

static int setup(void **state)
{
	(void)state;
	return tmpdir_make(dir, sizeof(dir), "tracedat-zip");
}

static int teardown(void **state)
{
	(void)state;
	return tmpdir_remove(dir);
}

static int count_events(struct tep_record *rec, void *ctx)
{
	(void)rec;
	++*(int *)ctx;
	return 0;
}

static unsigned char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	unsigned char *p;
	long n;

	assert_non_null(f);
	assert_int_equal(fseek(f, 0, SEEK_END), 0);
	n = ftell(f);
	assert_true(n > 0);
	rewind(f);
	p = malloc(n);
	assert_non_null(p);
	assert_int_equal(fread(p, 1, n, f), (size_t)n);
	fclose(f);
	*len = (size_t)n;
	return p;
}

static void spill(const char *path, const unsigned char *p, size_t len)
{
	FILE *f = fopen(path, "wb");

	assert_non_null(f);
	assert_int_equal(fwrite(p, 1, len, f), len);
	assert_int_equal(fclose(f), 0);
}

/* The whole text and JSON report of @path, without the heading's path; *reader gets which read it. */
static char *report_of(const char *path, const char **reader, unsigned long long *missing)
{
	struct report_opts o = { SEC_ALL, NULL, -1, -1, -1, 1, 0 };
	struct report_info ri = { "FILE", 0, 0, NULL, NULL, NULL, 0, 0, NULL };
	struct analysis a;
	char err[256], *text = NULL;
	size_t n;
	FILE *f;

	if (analysis_run(&a, path, NULL, err, sizeof(err)))
		fail_msg("%s", err);
	ri.version = a.info.version;
	ri.cpus = a.info.cpus;
	ri.clock = a.info.clock;
	ri.uname = a.info.uname;
	*reader = a.info.reader;
	*missing = a.model.missing;
	f = open_memstream(&text, &n);
	assert_non_null(f);
	assert_int_equal(report_text(f, &a.model, &ri, &o), 0);
	assert_int_equal(report_json(f, &a.model, &ri, &o), 0);
	fclose(f);
	analysis_free(&a);
	return text;
}

static void assert_same_report(const char *a, const char *want_a, const char *b, const char *want_b)
{
	unsigned long long miss_a, miss_b;
	const char *ra, *rb;
	char *ta = report_of(a, &ra, &miss_a), *tb = report_of(b, &rb, &miss_b);

	assert_string_equal(ra, want_a);
	assert_string_equal(rb, want_b);
	assert_string_equal(ta, tb);
	assert_int_equal(miss_a, miss_b);
	free(ta);
	free(tb);
}

/* Both fixtures, in the fast reader: every event, the same report. */
static void test_fixtures_read_fast(void **state)
{
	char err[256];
	struct tracedat *td;
	int n = 0;

	(void)state;
	assert_same_report(FIX_ZSTD, "fast", FIX_ZLIB, "fast");
	td = tracedat_open(FIX_ZSTD, err, sizeof(err));
	if (!td)
		fail_msg("%s", err);
	assert_int_equal(tracedat_iterate(td, count_events, &n), 0);
	assert_int_equal(n, 1724);
	assert_int_equal(tracedat_cpu_events(td, 0) + tracedat_cpu_events(td, 1), 1724);
	assert_int_equal(tracedat_missing(td), 0);
	tracedat_close(td);
}

/* `trace-cmd convert --compression none`: @src's data, uncompressed, in @dst. */
static void uncompress_with_trace_cmd(const char *src, const char *dst)
{
	char cmd[512];

	if (!have_trace_cmd())
		skip_because("trace-cmd is not installed\n");
	snprintf(cmd, sizeof(cmd), "trace-cmd convert -i '%s' -o '%s' --file-version 7 "
		 "--compression none >/dev/null 2>&1", src, dst);
	if (system(cmd))
		skip_because("trace-cmd convert cannot write an uncompressed v7\n");
}

/* trace-cmd's zstd capture reads as its uncompressed conversion does. */
static void test_zstd_as_uncompressed(void **state)
{
	const char *none = tmpdir_join(dir, "none.dat");

	(void)state;
	uncompress_with_trace_cmd(FIX_ZSTD, none);
	assert_same_report(FIX_ZSTD, "fast", none, "fast");
}

/*
 * A builder's file with more than 256 pages on CPU 0, uncompressed v7 by
 * trace-cmd convert, in *@len bytes.
 */
static unsigned char *big_v7(size_t *len)
{
	const char *v6 = tmpdir_join(dir, "big6.dat"), *v7 = tmpdir_join(dir, "big7.dat");
	struct trace_builder *tb = tb_new(2, TB_FIXTURES);
	unsigned int i;

	assert_non_null(tb);
	for (i = 0; i < 30000; i++) {
		assert_int_equal(tb_fence(tb, i % 7 ? 0 : 1, 1000000ull + i * 2000ull, "dma_fence_init",
					  "sw_sync", "p", 5, i + 1), 0);
		assert_int_equal(tb_fence(tb, i % 7 ? 0 : 1, 1001000ull + i * 2000ull,
					  "dma_fence_signaled", "sw_sync", "p", 5, i + 1), 0);
	}
	assert_int_equal(tb_write(tb, v6), 0);
	tb_free(tb);
	uncompress_with_trace_cmd(v6, v7);
	return slurp(v7, len);
}

/*
 * The fallback: chunks of 512 pages (2 MiB) are above the fast reader's
 * 1 MiB, so it refuses the file (ENOTSUP) and libtracecmd reads it; the
 * report is that of the same data in trace-cmd's 10-page chunks, which the
 * fast reader reads.
 */
static void test_big_chunks_fall_back_to_libtracecmd(void **state)
{
	const char *small = tmpdir_join(dir, "small-chunks.dat"), *big = tmpdir_join(dir, "big-chunks.dat");
	unsigned char *in, *out;
	size_t len, outlen;
	struct tracedat *td;
	char err[256];

	(void)state;
	in = big_v7(&len);
	assert_int_equal(v7_zip(in, len, V7_ZSTD, 10, &out, &outlen), 0);
	spill(small, out, outlen);
	free(out);
	assert_int_equal(v7_zip(in, len, V7_ZSTD, 512, &out, &outlen), 0);
	spill(big, out, outlen);
	free(out);
	free(in);
	errno = 0;
	td = tracedat_open(big, err, sizeof(err));
	assert_null(td);
	assert_int_equal(errno, ENOTSUP);
	assert_non_null(strstr(err, "bytes decompressed, above the fast reader's 1048576"));
	assert_same_report(small, "fast", big, "libtracecmd");
}

/* The same, zlib: libtracecmd 3.1.6 has no zlib, so the fallback fails, saying so. */
static void test_fallback_failure_is_one_line(void **state)
{
	const char *big = tmpdir_join(dir, "big-zlib.dat");
	unsigned char *in, *out;
	size_t len, outlen;
	struct analysis a;
	char err[256];

	(void)state;
	in = big_v7(&len);
	assert_int_equal(v7_zip(in, len, V7_ZLIB, 512, &out, &outlen), 0);
	spill(big, out, outlen);
	free(out);
	free(in);
	if (analysis_run(&a, big, NULL, err, sizeof(err)) == 0) {
		assert_string_equal(a.info.reader, "libtracecmd");	/* a libtracecmd with zlib */
		analysis_free(&a);
		return;
	}
	analysis_free(&a);
	assert_null(strchr(err, '\n'));
	assert_non_null(strstr(err, big));
}

/*
 * Damage.  The sections of a v7 file follow each other from the end of
 * the file header (libtracecmd walks them so); each CPU's chunks start at
 * the next page boundary in the flyrecord section.
 */
struct sect {
	unsigned int id;
	unsigned long long off, size;	/* of the header; the body's bytes */
};

static unsigned int get32(const unsigned char *p) { return p[0] | p[1] << 8 | p[2] << 16 | (unsigned int)p[3] << 24; }
static unsigned long long get64(const unsigned char *p) { return get32(p) | (unsigned long long)get32(p + 4) << 32; }
static void put32(unsigned char *p, unsigned int v) { for (int i = 0; i < 4; i++) p[i] = v >> (8 * i); }

static int sections(const unsigned char *p, size_t len, struct sect *s, int max)
{
	unsigned long long off = 18;	/* magic, "7", endian, long size, page size */
	int n = 0;

	off += strlen((const char *)p + off) + 1;	/* compression name */
	off += strlen((const char *)p + off) + 1 + 8;	/* its version, first options */
	for (; off + 16 <= len && n < max; n++) {
		s[n] = (struct sect){ p[off] | p[off + 1] << 8, off, get64(p + off + 8) };
		off += 16 + s[n].size;
	}
	assert_int_equal(off, len);
	return n;
}

static const char *section_name(unsigned int id)
{
	static const char *const names[] = { "header info", "ftrace formats", "event formats",
					     "kallsyms", "printk formats", "cmdlines" };

	return id >= 16 && id <= 21 ? names[id - 16] : id ? "?" : "options";
}

/* Open and walk @p; it must fail with one line holding @want and @want2. */
static void expect_damage(const unsigned char *p, size_t len, const char *want, const char *want2)
{
	const char *path = tmpdir_join(dir, "damaged.dat");
	struct tracedat *td;
	char err[256];
	int n = 0;

	spill(path, p, len);
	td = tracedat_open(path, err, sizeof(err));
	if (td) {
		assert_int_equal(tracedat_iterate(td, count_events, &n), -EINVAL);
		snprintf(err, sizeof(err), "%s", tracedat_error(td));
		tracedat_close(td);
	}
	if (!strstr(err, want) || !strstr(err, want2) || strchr(err, '\n') || strncmp(err, path, strlen(path)))
		fail_msg("want \"%s\" and \"%s\", got \"%s\"", want, want2, err);
}

/* Each compressed section's block: size past the section, size off by one, bad bytes. */
static void damage_section(unsigned char *p, size_t len, const struct sect *s, const char *codec)
{
	unsigned char *b = p + s->off + 16, save[9];
	char at[64];

	snprintf(at, sizeof(at), "%s section at offset %llu", section_name(s->id), s->off);
	memcpy(save, b, 9);
	put32(b, (unsigned int)s->size);
	expect_damage(p, len, at, "compressed bytes");
	memcpy(b, save, 9);
	put32(b + 4, get32(b + 4) + 1);
	expect_damage(p, len, at, codec);
	memcpy(b, save, 9);
	b[8] ^= 0x55;
	expect_damage(p, len, at, codec);
	memcpy(b, save, 9);
}

/* Each CPU's first chunk: its sizes, its bytes, the chunk count. */
static void damage_chunks(unsigned char *p, size_t len, const struct sect *s, const char *codec)
{
	unsigned long long pos = s->off + 16, end = pos + s->size;
	unsigned char save[13];
	char at[64];
	int cpu;

	for (cpu = 0; cpu < 2; cpu++) {
		pos = (pos + 4095) & ~4095ull;
		memcpy(save, p + pos, 13);
		snprintf(at, sizeof(at), "cpu%d chunk at offset %llu", cpu, pos + 4);
		put32(p + pos + 4, get32(p + pos + 4) + 100000);
		expect_damage(p, len, at, "compressed bytes");
		memcpy(p + pos, save, 13);
		put32(p + pos + 8, get32(p + pos + 8) + 4096);
		expect_damage(p, len, at, codec);
		memcpy(p + pos, save, 13);
		p[pos + 12] ^= 0x55;
		expect_damage(p, len, at, codec);
		memcpy(p + pos, save, 13);
		put32(p + pos, get32(p + pos) + 1);
		snprintf(at, sizeof(at), "cpu%d ", cpu);
		expect_damage(p, len, at, "offset");
		put32(p + pos, get32(save) - 1);
		snprintf(at, sizeof(at), "cpu%d data at offset %llu", cpu, pos);
		expect_damage(p, len, at, "chunks end at");
		memcpy(p + pos, save, 13);
		for (unsigned int n = get32(p + pos), i = 0; i < n; i++)
			pos += 4 * !i + 8 + get32(p + pos + 4 * !i);
		assert_true(pos <= end);
	}
}

static void damage_each_section(const char *fixture, const char *codec)
{
	struct sect s[32];
	unsigned char *p;
	size_t len;
	int i, n, seen = 0;

	p = slurp(fixture, &len);
	n = sections(p, len, s, 32);
	for (i = 0; i < n; i++) {
		if (s[i].id >= 16 && s[i].id <= 21) {
			damage_section(p, len, &s[i], codec);
			seen |= 1 << (s[i].id - 16);
		} else if (s[i].id == 3) {
			damage_chunks(p, len, &s[i], codec);
			seen |= 1 << 6;
		} else if (s[i].id == 0) {
			/* plain: its size past the end of the file */
			put32(p + s[i].off + 8, (unsigned int)len);
			expect_damage(p, len, "truncated in options", "offset");
			put32(p + s[i].off + 8, (unsigned int)s[i].size);
			seen |= 1 << 7;
		}
		/* 15, the section descriptions: the fast reader does not read them */
	}
	assert_int_equal(seen, 0xff);
	free(p);
}

static void test_damaged_zstd_sections(void **state)
{
	(void)state;
	damage_each_section(FIX_ZSTD, "zstd");
}

static void test_damaged_zlib_sections(void **state)
{
	(void)state;
	damage_each_section(FIX_ZLIB, "zlib");
}

/*
 * Cut anywhere, or one bit flipped anywhere: the file reads (a flip in
 * bytes nothing checks: a zstd literal, a timestamp) or fails with one
 * line, never a crash.  In the ASan build the flips stay from the
 * flyrecord section on: libtraceevent 1.7 leaks a few bytes on some
 * damaged formats (see tests/fuzz/run-fuzz), and LeakSanitizer would
 * count them against us.
 */
static void cut_and_flip(const char *fixture)
{
	const char *path = tmpdir_join(dir, "flipped.dat");
	unsigned int seed = 16, i, bit, from = 0;
	struct tracedat *td;
	struct sect s[32];
	unsigned char *p;
	char err[256];
	size_t len;
	int n;

	p = slurp(fixture, &len);
#ifdef __SANITIZE_ADDRESS__
	for (i = 0, n = sections(p, len, s, 32); (int)i < n; i++)
		if (s[i].id == 3)
			from = (unsigned int)s[i].off;
#else
	(void)s;
#endif
	for (i = 0; i < 600; i++) {
		seed = seed * 1103515245u + 12345u;
		bit = from * 8 + (seed >> 4) % ((len - from) * 8);
		if (i < 64)
			spill(path, p, len * i / 64);
		else
			p[bit / 8] ^= 1 << bit % 8, spill(path, p, len), p[bit / 8] ^= 1 << bit % 8;
		td = tracedat_open(path, err, sizeof(err));
		if (td) {
			n = 0;
			if (tracedat_iterate(td, count_events, &n))
				snprintf(err, sizeof(err), "%s", tracedat_error(td));
			else
				err[0] = '\0';
			tracedat_close(td);
		}
		if (!td || err[0])
			assert_true(!strchr(err, '\n') && !strncmp(err, path, strlen(path)));
	}
	free(p);
}

static void test_cut_and_flipped(void **state)
{
	(void)state;
	cut_and_flip(FIX_ZSTD);
	cut_and_flip(FIX_ZLIB);
}

int run_tracedat_zip_tests(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fixtures_read_fast),
		cmocka_unit_test(test_zstd_as_uncompressed),
		cmocka_unit_test(test_big_chunks_fall_back_to_libtracecmd),
		cmocka_unit_test(test_fallback_failure_is_one_line),
		cmocka_unit_test(test_damaged_zstd_sections),
		cmocka_unit_test(test_damaged_zlib_sections),
		cmocka_unit_test(test_cut_and_flipped),
	};

	return cmocka_run_group_tests_name("tracedat compressed", tests, setup, teardown);
}
