// SPDX-License-Identifier: GPL-2.0
/*
 * test-spill.c - record --bpf's spill file (live/record-bpf-spill.c): what
 * goes in comes back in order, across many buffer flushes; a write that
 * fails (a file size limit standing in for a full disk) keeps the whole
 * records before it; a damaged file and a reader that stops are said.
 */
#include <dirent.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "record-bpf-spill.h"
#include "tmpdir.h"
#include "unit.h"

#define N_EVENTS 20000		/* about two buffers' worth */

struct seen {
	uint64_t events, raws, losts, marks, next_a, lost_total, last_mark, vblanks;
	int out_of_order, stop_at;
	unsigned char raw[64];
	size_t raw_size;
	int raw_cpu;
	uint64_t raw_ts;
};

static int on_event(void *ctx, const struct fr_event *e)
{
	const struct fr_fence *f = (const struct fr_fence *)e;
	const struct fr_vblank *v = (const struct fr_vblank *)e;
	struct seen *s = ctx;

	if (e->type == FR_VBLANK) {
		if (v->crtc != -1 || v->seq != 7 || v->time_or_file != 123456789012ull)
			s->out_of_order = 1;
		s->vblanks++;
		return 0;
	}
	if (f->context != s->next_a || f->seqno != f->context * 3 || e->cpu != f->context % 2 ||
	    e->type != FR_SIGNALED)
		s->out_of_order = 1;
	s->next_a++;
	s->events++;
	return s->stop_at && s->events == (uint64_t)s->stop_at ? -1 : 0;
}

static int on_raw(void *ctx, int cpu, uint64_t ts, const void *data, size_t size)
{
	struct seen *s = ctx;

	s->raws++;
	s->raw_cpu = cpu;
	s->raw_ts = ts;
	s->raw_size = size < sizeof(s->raw) ? size : sizeof(s->raw);
	memcpy(s->raw, data, s->raw_size);
	return 0;
}

static void on_lost(void *ctx, int cpu, uint64_t count)
{
	struct seen *s = ctx;

	(void)cpu;
	s->losts++;
	s->lost_total += count;
}

static int on_mark(void *ctx, uint64_t watermark)
{
	struct seen *s = ctx;

	/* a mark comes after every event appended before it */
	if (watermark != s->next_a)
		s->out_of_order = 1;
	s->marks++;
	s->last_mark = watermark;
	return 0;
}

static const struct spill_reader reader = {
	.event = on_event, .raw = on_raw, .lost = on_lost, .mark = on_mark,
};

static struct fr_fence event(uint32_t i)
{
	struct fr_fence e = {
		.hdr = { .ts = 1000 + i, .pid = 42, .cpu = (uint16_t)(i % 2), .type = FR_SIGNALED },
		.context = i, .seqno = i * 3,
	};
	return e;
}

/* A capture whose trace would be DIR/t.dat, in a fresh temporary DIR (64 bytes). */
static void new_capture(struct capture *c, char *dir, char *path)
{
	assert_int_equal(tmpdir_make(dir, 64, "fence-trace-spill"), 0);
	snprintf(path, PATH_MAX, "%s/t.dat", dir);
	memset(c, 0, sizeof(*c));
	c->path = path;
}

/* A spill for DIR/t.dat holding fences 0 to @n - 1. */
static struct spill *spill_of_fences(struct capture *c, char *dir, char *path, uint32_t n)
{
	struct spill *s;

	new_capture(c, dir, path);
	s = spill_new(c);
	assert_non_null(s);
	for (uint32_t i = 0; i < n; i++) {
		struct fr_fence e = event(i);

		assert_int_equal(spill_event(s, &e.hdr), 0);
	}
	return s;
}

/* The spill's file is unlinked as soon as made: DIR stays empty. */
static int dir_entries(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;

	while (d && (e = readdir(d)))
		n += e->d_name[0] != '.';
	if (d)
		closedir(d);
	return n;
}

/* The spill left nothing in DIR; then DIR goes (tmpdir_remove: nothing outside it). */
static void remove_capture_dir(const char *dir)
{
	assert_int_equal(dir_entries(dir), 0);
	assert_int_equal(tmpdir_remove(dir), 0);
}

static void test_round_trip(void **state)
{
	char dir[64], path[PATH_MAX];
	const char raw[] = "a tracefs event's data";	/* 23 bytes: padded to 24 in the file */
	const struct fr_vblank vblank = {
		.hdr = { .ts = 5, .type = FR_VBLANK }, .crtc = -1, .seq = 7, .time_or_file = 123456789012ull,
	};
	struct seen seen = { 0 };
	struct capture c;
	struct spill *s;

	(void)state;
	new_capture(&c, dir, path);
	s = spill_new(&c);
	assert_non_null(s);
	assert_int_equal(dir_entries(dir), 0);
	for (uint64_t i = 0; i < N_EVENTS; i++) {
		struct fr_fence e = event((uint32_t)i);

		assert_int_equal(spill_event(s, &e.hdr), 0);
		if (i % 1000 == 999)
			assert_int_equal(spill_mark(s, i + 1), 0);
	}
	assert_int_equal(spill_event(s, &vblank.hdr), 0);	/* 32 bytes, where a fence's are 24 */
	assert_int_equal(spill_raw(s, 1, 777, raw, sizeof(raw)), 0);
	assert_int_equal(spill_lost(s, 0, 5), 0);
	assert_int_equal(spill_lost(s, 1, 6), 0);
	assert_int_equal(spill_records(s), N_EVENTS + 2);
	assert_true(c.spilled_bytes > 0);	/* flushed on the way: the buffer is smaller */
	assert_int_equal(spill_read_back(s, &reader, &seen), 0);
	assert_int_equal(seen.out_of_order, 0);
	assert_int_equal(seen.events, N_EVENTS);
	assert_int_equal(seen.marks, N_EVENTS / 1000);
	assert_int_equal(seen.vblanks, 1);
	assert_int_equal(seen.raws, 1);
	assert_int_equal(seen.raw_cpu, 1);
	assert_int_equal(seen.raw_ts, 777);
	assert_int_equal(seen.raw_size, sizeof(raw));
	assert_memory_equal(seen.raw, raw, sizeof(raw));
	assert_int_equal(seen.losts, 2);
	assert_int_equal(seen.lost_total, 11);
	assert_int_equal(spill_failed(s), 0);
	spill_free(s);
	remove_capture_dir(dir);
}

/*
 * RLIMIT_FSIZE cuts the file at a byte count, as a full disk would: the
 * first failed write is said once, appends then fail, and reading back
 * gives exactly the whole records below the limit.
 */
static void test_write_fails(void **state)
{
	const size_t limit = 300020, record = sizeof(struct fr_fence);	/* 20 bytes of a cut record */
	char dir[64], path[PATH_MAX];
	struct rlimit old, lim = { .rlim_cur = limit };
	struct seen seen = { 0 };
	struct capture c;
	struct spill *s;
	uint64_t i;
	int rc = 0;

	(void)state;
	new_capture(&c, dir, path);
	s = spill_new(&c);
	assert_non_null(s);
	signal(SIGXFSZ, SIG_IGN);	/* EFBIG, not a signal */
	getrlimit(RLIMIT_FSIZE, &old);
	lim.rlim_max = old.rlim_max;
	assert_int_equal(setrlimit(RLIMIT_FSIZE, &lim), 0);
	for (i = 0; i < 10 * N_EVENTS && rc == 0; i++) {	/* past the limit by far */
		struct fr_fence e = event((uint32_t)i);

		rc = spill_event(s, &e.hdr);
	}
	setrlimit(RLIMIT_FSIZE, &old);
	assert_int_equal(rc, -1);
	assert_true(spill_failed(s) != 0);
	assert_int_equal(c.write_failure_said, 1);
	assert_int_equal(spill_mark(s, 1), -1);	/* nothing more after a failure */
	assert_int_equal(spill_read_back(s, &reader, &seen), 0);
	assert_int_equal(seen.out_of_order, 0);
	assert_int_equal(seen.events, limit / record);
	spill_free(s);
	remove_capture_dir(dir);
}

/* A reader that stops is not called again, and the read-back says -1. */
static void test_reader_stops(void **state)
{
	char dir[64], path[PATH_MAX];
	struct seen seen = { .stop_at = 10 };
	struct capture c;
	struct spill *s;

	(void)state;
	s = spill_of_fences(&c, dir, path, 100);
	assert_int_equal(spill_read_back(s, &reader, &seen), -1);
	assert_int_equal(seen.events, 10);
	spill_free(s);
	remove_capture_dir(dir);
}

/* The spill's fd, found by its (deleted) name among ours. */
static int spill_fd(const char *dir)
{
	char link[64], target[PATH_MAX];
	ssize_t n;

	for (int fd = 3; fd < 1024; fd++) {
		snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
		n = readlink(link, target, sizeof(target) - 1);
		if (n <= 0)
			continue;
		target[n] = '\0';
		if (strncmp(target, dir, strlen(dir)) == 0 && strstr(target, "t.dat.spill."))
			return fd;
	}
	return -1;
}

/* A record header that makes no sense stops the read-back, said. */
static void test_damaged_file(void **state)
{
	char dir[64], path[PATH_MAX];
	const struct fr_event junk = { .type = 0x999 };	/* neither a BPF record nor one of ours */
	struct seen seen = { 0 };
	struct capture c;
	struct spill *s;
	int fd;

	(void)state;
	s = spill_of_fences(&c, dir, path, 3);
	assert_int_equal(spill_read_back(s, &reader, &seen), 0);	/* flushes it */
	fd = spill_fd(dir);
	assert_true(fd >= 0);
	assert_int_equal(pwrite(fd, &junk, sizeof(junk), sizeof(struct fr_fence)), (ssize_t)sizeof(junk));
	memset(&seen, 0, sizeof(seen));
	assert_int_equal(spill_read_back(s, &reader, &seen), -1);
	assert_int_equal(seen.events, 1);
	spill_free(s);
	remove_capture_dir(dir);
}

int run_spill_tests(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_write_fails),
		cmocka_unit_test(test_reader_stops),
		cmocka_unit_test(test_damaged_file),
	};

	return cmocka_run_group_tests_name("record --bpf spill file", tests, NULL, NULL);
}
