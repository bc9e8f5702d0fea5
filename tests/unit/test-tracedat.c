// SPDX-License-Identifier: GPL-2.0
/* test-tracedat.c - trace.dat writer and reader: round trips and bad input. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <traceevent/event-parse.h>

#include "tmpdir.h"
#include "fixture-formats.h"
#include "trace-builder.h"
#include "tracedat.h"
#include "unit.h"

#define MAX_SEEN 64

/* What a walk saw: the first MAX_SEEN events in full, the rest counted. */
struct seen {
	struct tep_handle *tep;
	unsigned long long n, ts[MAX_SEEN];
	int cpu[MAX_SEEN], id[MAX_SEEN], pid[MAX_SEEN];
	long long missed[MAX_SEEN], context[MAX_SEEN], seqno[MAX_SEEN];
	char timeline[MAX_SEEN][32];
	unsigned long long last_ts;
	int out_of_order;
};

static char tmp_dir[64];

static const char *tmp_path(const char *name)
{
	static char path[4][128];
	static int i;

	i = (i + 1) % 4;
	snprintf(path[i], sizeof(path[i]), "%s/%s", tmp_dir, name);
	return path[i];
}

static int setup_dir(void **state)
{
	(void)state;
	tep_set_loglevel(TEP_LOG_NONE);	/* damaged formats are the point here */
	return tmpdir_make(tmp_dir, sizeof(tmp_dir), "tracedat-test");
}

static int teardown_dir(void **state)
{
	(void)state;
	return tmpdir_remove(tmp_dir);
}

static long long field(struct tep_handle *tep, struct tep_record *rec, const char *name)
{
	struct tep_event *ev = tep_find_event(tep, tep_data_type(tep, rec));
	struct tep_format_field *f = ev ? tep_find_field(ev, name) : NULL;
	unsigned long long v;

	if (!f || tep_read_number_field(f, rec->data, &v))
		return -1;
	return (long long)v;
}

static void seen_timeline(struct seen *s, struct tep_record *rec, int i)
{
	struct tep_event *ev = tep_find_event(s->tep, tep_data_type(s->tep, rec));
	unsigned int len = 0;
	const char *str = ev ? tracedat_data_loc(s->tep, rec, tep_find_field(ev, "timeline"),
						 &len) : NULL;

	if (str && len && len < sizeof(s->timeline[i]) && str[len - 1] == '\0')
		memcpy(s->timeline[i], str, len);
}

static int collect(struct tep_record *rec, void *ctx)
{
	struct seen *s = ctx;
	unsigned long long i = s->n++;

	if (rec->ts < s->last_ts)
		s->out_of_order = 1;
	s->last_ts = rec->ts;
	if (i >= MAX_SEEN)
		return 0;
	s->ts[i] = rec->ts;
	s->cpu[i] = rec->cpu;
	s->id[i] = tep_data_type(s->tep, rec);
	s->pid[i] = tep_data_pid(s->tep, rec);
	s->missed[i] = rec->missed_events;
	s->context[i] = field(s->tep, rec, "context");
	s->seqno[i] = field(s->tep, rec, "seqno");
	seen_timeline(s, rec, (int)i);
	return 0;
}

/* Open @path and walk it into @s; returns iterate's result, or -1 if open failed. */
static int read_all(const char *path, struct seen *s, struct tracedat **out)
{
	char err[256];
	struct tracedat *td = tracedat_open(path, err, sizeof(err));
	int ret;

	memset(s, 0, sizeof(*s));
	if (!td) {
		print_message("open: %s\n", err);
		return -1;
	}
	s->tep = tracedat_tep(td);
	ret = tracedat_iterate(td, collect, s);
	if (out)
		*out = td;
	else
		tracedat_close(td);
	return ret;
}

static struct trace_builder *new_builder(unsigned int cpus)
{
	struct trace_builder *tb = tb_new(cpus, TB_FIXTURES);

	assert_non_null(tb);
	return tb;
}

static void write_builder(struct trace_builder *tb, const char *path)
{
	int ret = tb_write(tb, path);

	if (ret)
		print_message("tb_write: %s\n", tb_error(tb));
	assert_int_equal(ret, 0);
}

static void test_round_trip(void **state)
{
	struct trace_builder *tb = new_builder(2);
	const char *path = tmp_path("round.dat");
	struct tracedat *td;
	struct seen s;
	int init = tb_event_id(tb, "dma_fence_init");
	int sig = tb_event_id(tb, "dma_fence_signaled");

	(void)state;
	assert_int_equal(init, 300);
	assert_int_equal(sig, 297);
	tb_set_pid(tb, 4242);
	assert_int_equal(tb_fence(tb, 0, 1000, "dma_fence_init", "sw_sync", "producer-A", 12, 1), 0);
	assert_int_equal(tb_fence(tb, 1, 1500, "dma_fence_init", "vkms", "CRTC:35-crtc-0", 5, 3), 0);
	assert_int_equal(tb_fence(tb, 0, 2000, "dma_fence_signaled", "sw_sync", "producer-A", 12, 1), 0);
	assert_int_equal(tb_fence(tb, 1, 2000, "dma_fence_signaled", "vkms", "CRTC:35-crtc-0", 5, 3), 0);
	assert_int_equal(tb_fence(tb, 1, 2100, "dma_fence_destroy", "vkms", "CRTC:35-crtc-0", 5, 3), 0);
	assert_int_equal(tb_fence(tb, 0, 3000, "dma_fence_destroy", "sw_sync", "producer-A", 12, 1), 0);
	write_builder(tb, path);
	tb_free(tb);

	assert_int_equal(read_all(path, &s, &td), 0);
	assert_int_equal(tracedat_version(td), 6);
	assert_int_equal(tracedat_cpus(td), 2);
	assert_int_equal(s.n, 6);
	{
		const unsigned long long ts[] = { 1000, 1500, 2000, 2000, 2100, 3000 };
		const int cpu[] = { 0, 1, 0, 1, 1, 0 };
		const int id[] = { 300, 300, 297, 297, 299, 299 };
		const long long ctx[] = { 12, 5, 12, 5, 5, 12 };
		const long long seq[] = { 1, 3, 1, 3, 3, 1 };
		int i;

		for (i = 0; i < 6; i++) {
			assert_int_equal(s.ts[i], ts[i]);
			assert_int_equal(s.cpu[i], cpu[i]);
			assert_int_equal(s.id[i], id[i]);
			assert_int_equal(s.context[i], ctx[i]);
			assert_int_equal(s.seqno[i], seq[i]);
			assert_int_equal(s.pid[i], 4242);
			assert_int_equal(s.missed[i], 0);
			assert_string_equal(s.timeline[i], cpu[i] ? "CRTC:35-crtc-0" : "producer-A");
		}
	}
	assert_int_equal(tracedat_cpu_events(td, 0), 3);
	assert_int_equal(tracedat_cpu_events(td, 1), 3);
	assert_null(tracedat_clock(td));
	assert_null(tracedat_uname(td));
	tracedat_close(td);
}

static void test_vblank_fields(void **state)
{
	struct trace_builder *tb = new_builder(1);
	const char *path = tmp_path("vblank.dat");
	struct tracedat *td;
	struct seen s;

	(void)state;
	assert_int_equal(tb_vblank(tb, 0, 10, 0, 77, -5000000001ll, 1), 0);
	assert_int_equal(tb_vblank_delivered(tb, 0, 11, 0xffff888012345678ull, 0, 77), 0);
	write_builder(tb, path);
	tb_free(tb);
	assert_int_equal(read_all(path, &s, &td), 0);
	assert_int_equal(s.n, 2);
	assert_int_equal(s.id[0], 291);
	assert_int_equal(s.id[1], 289);
	tracedat_close(td);
}

struct vblank_check {
	struct tep_handle *tep;
	int n;
	long long time, seq, file;
};

static int read_vblank(struct tep_record *rec, void *ctx)
{
	struct vblank_check *v = ctx;

	if (v->n++ == 0) {
		v->time = field(v->tep, rec, "time");
		v->seq = field(v->tep, rec, "seq");
	} else {
		v->file = field(v->tep, rec, "file");
	}
	return 0;
}

static void test_vblank_values(void **state)
{
	struct trace_builder *tb = new_builder(1);
	const char *path = tmp_path("vblank2.dat");
	struct vblank_check v = { 0 };
	struct tracedat *td;
	char err[256];

	(void)state;
	assert_int_equal(tb_vblank(tb, 0, 10, 0, 77, 5000000001ll, 1), 0);
	assert_int_equal(tb_vblank_delivered(tb, 0, 11, 0x1234567890ull, 0, 77), 0);
	write_builder(tb, path);
	tb_free(tb);
	td = tracedat_open(path, err, sizeof(err));
	assert_non_null(td);
	v.tep = tracedat_tep(td);
	assert_int_equal(tracedat_iterate(td, read_vblank, &v), 0);
	assert_int_equal(v.time, 5000000001ll);
	assert_int_equal(v.seq, 77);
	assert_int_equal(v.file, 0x1234567890ll);
	tracedat_close(td);
}

static void test_time_extend(void **state)
{
	struct trace_builder *tb = new_builder(1);
	const char *path = tmp_path("extend.dat");
	const unsigned long long t0 = 5, t1 = 5 + (1ull << 27) + 12345, t2 = t1 + (1ull << 40) + 7;
	struct seen s;

	(void)state;
	assert_int_equal(tb_fence(tb, 0, t0, "dma_fence_init", "d", "t", 1, 1), 0);
	assert_int_equal(tb_fence(tb, 0, t1, "dma_fence_init", "d", "t", 1, 2), 0);
	assert_int_equal(tb_fence(tb, 0, t2, "dma_fence_init", "d", "t", 1, 3), 0);
	assert_int_equal(tb_pages(tb, 0), 1);
	write_builder(tb, path);
	tb_free(tb);
	assert_int_equal(read_all(path, &s, NULL), 0);
	assert_int_equal(s.n, 3);
	assert_int_equal(s.ts[0], t0);
	assert_int_equal(s.ts[1], t1);
	assert_int_equal(s.ts[2], t2);
	assert_int_equal(s.seqno[2], 3);
}

static void test_missed_events(void **state)
{
	struct trace_builder *tb = new_builder(1);
	const char *path = tmp_path("missed.dat");
	struct seen s;

	(void)state;
	assert_int_equal(tb_fence(tb, 0, 100, "dma_fence_init", "d", "t", 1, 1), 0);
	assert_int_equal(tb_fence(tb, 0, 110, "dma_fence_init", "d", "t", 1, 2), 0);
	assert_int_equal(tb_missed(tb, 0, 17), 0);
	assert_int_equal(tb_fence(tb, 0, 200, "dma_fence_init", "d", "t", 1, 20), 0);
	assert_int_equal(tb_fence(tb, 0, 210, "dma_fence_init", "d", "t", 1, 21), 0);
	assert_int_equal(tb_missed(tb, 0, -1), 0);
	assert_int_equal(tb_fence(tb, 0, 300, "dma_fence_init", "d", "t", 1, 30), 0);
	assert_int_equal(tb_pages(tb, 0), 3);
	write_builder(tb, path);
	tb_free(tb);
	assert_int_equal(read_all(path, &s, NULL), 0);
	assert_int_equal(s.n, 5);
	assert_int_equal(s.missed[0], 0);
	assert_int_equal(s.missed[1], 0);
	assert_int_equal(s.missed[2], 17);
	assert_int_equal(s.seqno[2], 20);
	assert_int_equal(s.missed[3], 0);
	assert_int_equal(s.missed[4], -1);
	assert_int_equal(s.seqno[4], 30);
}

/* kbuffer_missed_events() says 0 when a time extend comes first on the page. */
static void test_missed_after_time_extend(void **state)
{
	struct trace_builder *tb = new_builder(1);
	const char *path = tmp_path("missed-extend.dat");
	struct seen s;

	(void)state;
	assert_int_equal(tb_fence(tb, 0, 100, "dma_fence_init", "d", "t", 1, 1), 0);
	assert_int_equal(tb_missed(tb, 0, 5), 0);
	assert_int_equal(tb_force_extend(tb, 0), 0);
	assert_int_equal(tb_fence(tb, 0, 200, "dma_fence_init", "d", "t", 1, 2), 0);
	assert_int_equal(tb_pages(tb, 0), 2);
	assert_int_equal(tb_page(tb, 0, 1)[16] & 31, 30);	/* the page opens with an extend */
	write_builder(tb, path);
	tb_free(tb);
	assert_int_equal(read_all(path, &s, NULL), 0);
	assert_int_equal(s.n, 2);
	assert_int_equal(s.ts[1], 200);
	assert_int_equal(s.missed[1], 5);
}

/* Page 0 of @tb's CPU 0: the offset of its event after @skip of them, data area. */
static unsigned char *event_header(struct trace_builder *tb, int skip)
{
	unsigned char *data = tb_page(tb, 0, 0) + 16;	/* 8-byte time stamp, 8-byte commit */
	unsigned int pos = 0, hdr;

	while (skip--) {
		memcpy(&hdr, data + pos, 4);
		pos += (hdr & 31) == 30 ? 8 : 4 + (hdr & 31) * 4;
	}
	return data + pos;
}

/* Give the event after @skip others on page 0 the header @hdr and next word @word; read it back. */
static void rewrite_and_read(struct trace_builder *tb, int skip, uint32_t hdr, uint32_t word,
			     const char *path, struct seen *s)
{
	unsigned char *ev = event_header(tb, skip);

	memcpy(ev, &hdr, 4);
	memcpy(ev + 4, &word, 4);
	write_builder(tb, path);
	tb_free(tb);
	assert_int_equal(read_all(path, s, NULL), 0);
}

/*
 * A padding event (a discarded one: the kernel keeps its time delta) is
 * stepped over by its length, and its delta counts for the event after.
 */
static void test_padding_keeps_delta(void **state)
{
	struct trace_builder *tb = new_builder(1);
	uint32_t hdr;
	struct seen s;

	(void)state;
	for (uint32_t i = 1; i <= 3; i++)
		assert_int_equal(tb_fence(tb, 0, 100 * i, "dma_fence_init", "d", "t", 1, i), 0);
	memcpy(&hdr, event_header(tb, 1), 4);
	/* the second event discarded: padding as long as its data */
	rewrite_and_read(tb, 1, (hdr & ~31u) | 29, (hdr & 31) * 4, tmp_path("padding.dat"), &s);
	assert_int_equal(s.n, 2);
	assert_int_equal(s.seqno[0], 1);
	assert_int_equal(s.seqno[1], 3);
	assert_int_equal(s.ts[1], 300);
}

/* An absolute time stamp (type 31) sets the time; the next delta adds to it. */
static void test_absolute_time_stamp(void **state)
{
	struct trace_builder *tb = new_builder(1);
	struct seen s;

	(void)state;
	assert_int_equal(tb_fence(tb, 0, 100, "dma_fence_init", "d", "t", 1, 1), 0);
	assert_int_equal(tb_force_extend(tb, 0), 0);
	assert_int_equal(tb_fence(tb, 0, 200, "dma_fence_init", "d", "t", 1, 2), 0);
	assert_int_equal(tb_fence(tb, 0, 300, "dma_fence_init", "d", "t", 1, 3), 0);
	assert_int_equal(event_header(tb, 1)[0] & 31, 30);	/* the extend, made absolute */
	rewrite_and_read(tb, 1, 31 | 5000u << 5, 0, tmp_path("absolute.dat"), &s);
	assert_int_equal(s.n, 3);
	assert_int_equal(s.ts[1], 5000);
	assert_int_equal(s.ts[2], 5100);
}

static void test_empty_cpu(void **state)
{
	struct trace_builder *tb = new_builder(3);
	const char *path = tmp_path("empty-cpu.dat");
	struct tracedat *td;
	struct seen s;

	(void)state;
	assert_int_equal(tb_fence(tb, 0, 100, "dma_fence_init", "d", "t", 1, 1), 0);
	assert_int_equal(tb_fence(tb, 2, 50, "dma_fence_init", "d", "t", 2, 1), 0);
	write_builder(tb, path);
	tb_free(tb);
	assert_int_equal(read_all(path, &s, &td), 0);
	assert_int_equal(tracedat_cpus(td), 3);
	assert_int_equal(s.n, 2);
	assert_int_equal(s.cpu[0], 2);
	assert_int_equal(s.cpu[1], 0);
	assert_int_equal(tracedat_cpu_events(td, 1), 0);
	assert_int_equal(tracedat_cpu_events(td, 2), 1);
	tracedat_close(td);
}

static void test_big_event(void **state)
{
	struct trace_builder *tb = new_builder(1);
	const char *path = tmp_path("big.dat");
	char timeline[200];
	struct seen s;

	(void)state;
	memset(timeline, 'x', sizeof(timeline) - 1);
	timeline[sizeof(timeline) - 1] = '\0';
	/* 8 + 16 + 5 + 200 bytes: past 28 * 4, so type_len 0 and a length word */
	assert_int_equal(tb_fence(tb, 0, 1, "dma_fence_init", "vkms", timeline, 9, 8), 0);
	assert_int_equal(tb_fence(tb, 0, 2, "dma_fence_init", "vkms", "short", 9, 9), 0);
	write_builder(tb, path);
	tb_free(tb);
	assert_int_equal(read_all(path, &s, NULL), 0);
	assert_int_equal(s.n, 2);
	assert_int_equal(s.seqno[0], 8);
	assert_int_equal(s.seqno[1], 9);
	assert_string_equal(s.timeline[1], "short");
}

static void build_many(const char *path, unsigned int n)
{
	struct trace_builder *tb = new_builder(2);
	unsigned int i;

	for (i = 0; i < n; i++)
		assert_int_equal(tb_fence(tb, i % 2, 1000ull + i * 10ull, i % 3 ? "dma_fence_signaled" :
					  "dma_fence_init", "vkms", "CRTC:35-crtc-0", 5, i), 0);
	assert_true(tb_pages(tb, 0) > 100);
	write_builder(tb, path);
	tb_free(tb);
}

static void test_many_pages(void **state)
{
	const char *path = tmp_path("many.dat");
	struct tracedat *td;
	struct seen s;

	(void)state;
	build_many(path, 100000);
	assert_int_equal(read_all(path, &s, &td), 0);
	assert_int_equal(s.n, 100000);
	assert_false(s.out_of_order);
	assert_int_equal(tracedat_cpu_events(td, 0), 50000);
	assert_int_equal(tracedat_cpu_events(td, 1), 50000);
	assert_int_equal(s.seqno[MAX_SEEN - 1], MAX_SEEN - 1);
	assert_int_equal(s.last_ts, 1000ull + 99999 * 10ull);
	tracedat_close(td);
}

/* What a page sink was given: each CPU's pages, in order. */
struct sunk {
	unsigned char *pages[2];
	size_t n[2];
	size_t fail_after;	/* pages taken before it says ENOSPC; 0: never */
};

static int sink(void *ctx, unsigned int cpu, const unsigned char *page, size_t size)
{
	struct sunk *k = ctx;

	if (k->fail_after && k->n[0] + k->n[1] >= k->fail_after)
		return -ENOSPC;
	k->pages[cpu] = realloc(k->pages[cpu], (k->n[cpu] + 1) * size);
	memcpy(k->pages[cpu] + k->n[cpu]++ * size, page, size);
	return 0;
}

static void add_many(struct trace_builder *tb, unsigned int n)
{
	for (unsigned int i = 0; i < n; i++)
		assert_int_equal(tb_fence(tb, i % 2, 1000ull + i * 10ull, "dma_fence_init", "vkms",
					  "CRTC:35-crtc-0", 5, i), 0);
}

/*
 * record --bpf streams pages out through a sink: a page leaves as soon as
 * the next one starts, tb_flush_pages() sends the open ones, and the pages
 * are byte for byte those the builder would have kept.
 */
static void test_page_sink(void **state)
{
	struct trace_builder *kept = new_builder(2), *streamed = new_builder(2);
	struct sunk k = { 0 };

	(void)state;
	tb_set_page_sink(streamed, sink, &k);
	add_many(kept, 5000);
	add_many(streamed, 5000);
	assert_int_equal(tb_pages(streamed, 0), 1);	/* only the open page stays */
	assert_int_equal(k.n[0], tb_pages(kept, 0) - 1);
	assert_int_equal(tb_flush_pages(streamed), 0);
	for (unsigned int cpu = 0; cpu < 2; cpu++) {
		assert_int_equal(k.n[cpu], tb_pages(kept, cpu));
		for (size_t i = 0; i < k.n[cpu]; i++)
			assert_memory_equal(k.pages[cpu] + i * 4096, tb_page(kept, cpu, i), 4096);
	}
	free(k.pages[0]);
	free(k.pages[1]);
	tb_free(kept);
	tb_free(streamed);
}

/* A sink that fails (a full disk) fails the event that needed a new page. */
static void test_page_sink_failure(void **state)
{
	struct trace_builder *tb = new_builder(2);
	struct sunk k = { .fail_after = 3 };
	int ret = 0;

	(void)state;
	tb_set_page_sink(tb, sink, &k);
	for (unsigned int i = 0; i < 5000 && !ret; i++)
		ret = tb_fence(tb, 0, 1000ull + i, "dma_fence_init", "vkms", "CRTC:35-crtc-0", 5, i);
	assert_int_equal(ret, -ENOSPC);
	assert_int_equal(k.n[0], 3);
	free(k.pages[0]);
	tb_free(tb);
}

static void test_options(void **state)
{
	struct trace_builder *tb = new_builder(1);
	const char *path = tmp_path("options.dat");
	struct tracedat *td;
	struct seen s;

	(void)state;
	tb_set_options(tb, "local global counter uptime perf [mono] mono_raw boot\n",
		       "Linux 6.1.192+ #1 SMP x86_64", "4242 fence-workload\n17 sw_sync\n");
	tb_set_pid(tb, 4242);
	assert_int_equal(tb_fence(tb, 0, 1, "dma_fence_init", "d", "t", 1, 1), 0);
	write_builder(tb, path);
	tb_free(tb);
	assert_int_equal(read_all(path, &s, &td), 0);
	assert_string_equal(tracedat_clock(td), "mono");
	assert_string_equal(tracedat_uname(td), "Linux 6.1.192+ #1 SMP x86_64");
	assert_string_equal(tep_data_comm_from_pid(tracedat_tep(td), 4242), "fence-workload");
	tracedat_close(td);
}

static int stop_at_two(struct tep_record *rec, void *ctx)
{
	(void)rec;
	return ++*(int *)ctx == 2 ? 42 : 0;
}

static void test_callback_stops(void **state)
{
	const char *path = tmp_path("stop.dat");
	struct trace_builder *tb = new_builder(1);
	struct tracedat *td;
	char err[256];
	int n = 0;

	(void)state;
	assert_int_equal(tb_fence(tb, 0, 1, "dma_fence_init", "d", "t", 1, 1), 0);
	assert_int_equal(tb_fence(tb, 0, 2, "dma_fence_init", "d", "t", 1, 2), 0);
	assert_int_equal(tb_fence(tb, 0, 3, "dma_fence_init", "d", "t", 1, 3), 0);
	write_builder(tb, path);
	tb_free(tb);
	td = tracedat_open(path, err, sizeof(err));
	assert_non_null(td);
	assert_int_equal(tracedat_iterate(td, stop_at_two, &n), 42);
	assert_int_equal(n, 2);
	tracedat_close(td);
}

static void test_write_bad_description(void **state)
{
	const char *path = tmp_path("never.dat");
	FILE *odd = tmpfile();
	int fd = fileno(odd);
	struct tracedat_out out = {
		.page_size = 4096, .cpus = 1, .header_page = "", .header_event = "",
		.cpu_data_fds = &fd,
	};
	char err[256];

	(void)state;
	assert_int_equal(fwrite("0123456789", 1, 10, odd), 10);
	fflush(odd);
	out.page_size = 1000;
	assert_int_equal(tracedat_write(path, &out, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "page size"));
	out.page_size = 4096;
	assert_int_equal(tracedat_write(path, &out, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "cpu0 data: 10 bytes, not a whole number of 4096-byte pages");
	assert_int_equal(access(path, F_OK), -1);
	fclose(odd);
}

/* release_cpu_data: the source's space is given back as it is copied. */
static void test_write_releases_cpu_data(void **state)
{
	const char *path = tmp_path("released.dat"), *src = tmp_path("released.cpu0");
	static char page[4096];
	struct tracedat_out out = {
		.page_size = 4096, .cpus = 1, .header_page = "", .header_event = "",
		.release_cpu_data = 1,
	};
	struct stat st;
	char err[256];
	int fd;

	(void)state;
	fd = open(src, O_RDWR | O_CREAT | O_TRUNC, 0600);
	assert_true(fd >= 0);
	unlink(src);
	memset(page, 0x5a, sizeof(page));
	for (int i = 0; i < 40; i++)
		assert_int_equal(write(fd, page, sizeof(page)), sizeof(page));
	fsync(fd);
	out.cpu_data_fds = &fd;
	assert_int_equal(tracedat_write(path, &out, err, sizeof(err)), 0);
	assert_int_equal(fstat(fd, &st), 0);
	assert_int_equal(st.st_size, 40 * 4096);	/* the size stays, the blocks go */
	assert_int_equal(st.st_blocks, 0);
	assert_int_equal(stat(path, &st), 0);
	assert_true(st.st_size >= 41 * 4096);
	close(fd);
	unlink(path);
}

/* A file-size limit makes writes come up short, then fail: as a full disk does. */
static void test_write_failure_removes_file(void **state)
{
	const char *path = tmp_path("too-big.dat");
	struct trace_builder *tb = new_builder(1);
	struct rlimit old, small;
	void (*old_handler)(int);
	unsigned int i;
	int ret;

	(void)state;
	for (i = 0; i < 2000; i++)
		assert_int_equal(tb_fence(tb, 0, i, "dma_fence_init", "d", "t", 1, i), 0);
	assert_int_equal(getrlimit(RLIMIT_FSIZE, &old), 0);
	small = old;
	/* room for the per-CPU page file (16 pages), not for the trace.dat */
	assert_int_equal(tb_pages(tb, 0), 16);
	small.rlim_cur = 16 * 4096 + 2048;
	old_handler = signal(SIGXFSZ, SIG_IGN);
	assert_int_equal(setrlimit(RLIMIT_FSIZE, &small), 0);
	ret = tb_write(tb, path);
	assert_int_equal(setrlimit(RLIMIT_FSIZE, &old), 0);
	signal(SIGXFSZ, old_handler);
	assert_int_equal(ret, -EFBIG);
	assert_non_null(strstr(tb_error(tb), "write failed: File too large (partial file removed)"));
	assert_int_equal(access(path, F_OK), -1);
	tb_free(tb);
}

int run_tracedat_tests(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_vblank_fields),
		cmocka_unit_test(test_vblank_values),
		cmocka_unit_test(test_time_extend),
		cmocka_unit_test(test_missed_events),
		cmocka_unit_test(test_missed_after_time_extend),
		cmocka_unit_test(test_padding_keeps_delta),
		cmocka_unit_test(test_absolute_time_stamp),
		cmocka_unit_test(test_empty_cpu),
		cmocka_unit_test(test_big_event),
		cmocka_unit_test(test_many_pages),
		cmocka_unit_test(test_page_sink),
		cmocka_unit_test(test_page_sink_failure),
		cmocka_unit_test(test_options),
		cmocka_unit_test(test_callback_stops),
		cmocka_unit_test(test_write_bad_description),
		cmocka_unit_test(test_write_releases_cpu_data),
		cmocka_unit_test(test_write_failure_removes_file),
	};

	return cmocka_run_group_tests_name("tracedat", tests, setup_dir, teardown_dir);
}
