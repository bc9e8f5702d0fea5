// SPDX-License-Identifier: GPL-2.0
/* test-hist.c - latency histograms and the live-fence hash map. */
#include <math.h>
#include <stdlib.h>

#include "hist.h"
#include "keymap.h"
#include "time-span.h"
#include "unit.h"

static void test_exact_when_all_equal(void **state)
{
	struct hist h = { 0 };

	(void)state;
	for (int i = 0; i < 1000; i++)
		assert_int_equal(hist_add(&h, 16666667), 0);
	assert_int_equal(h.count, 1000);
	assert_int_equal(hist_percentile(&h, 0.5), 16666667);
	assert_int_equal(hist_percentile(&h, 0.99), 16666667);
	assert_int_equal(h.max, 16666667);
	hist_free(&h);
}

static void test_percentiles_within_bucket(void **state)
{
	struct hist h = { 0 };

	(void)state;
	/* 1..100 ms: nearest-rank p50 is 50 ms, p90 90 ms, p99 99 ms */
	for (uint64_t ms = 1; ms <= 100; ms++)
		hist_add(&h, ms * 1000000);
	assert_true(llabs((long long)hist_percentile(&h, 0.5) - 50000000) <= 50000000 / 256);
	assert_true(llabs((long long)hist_percentile(&h, 0.9) - 90000000) <= 90000000 / 256);
	assert_true(llabs((long long)hist_percentile(&h, 0.99) - 99000000) <= 99000000 / 256);
	assert_int_equal(hist_percentile(&h, 1.0), 100000000);
	assert_int_equal(h.min, 1000000);
	/* log2 buckets: 2^19 <= 1 ms < 2^20; 2^26 <= 68..100 ms < 2^27 */
	assert_int_equal(hist_log2_count(&h, 19, 1), 1);
	assert_int_equal(hist_log2_count(&h, 26, 1), 33);
	/* in microseconds, as BPF counts: 3 and 4 ms in slot 11; 66..100 ms in 16 */
	assert_int_equal(hist_log2_count(&h, 11, 1000), 2);
	assert_int_equal(hist_log2_count(&h, 16, 1000), 35);
	hist_free(&h);
}

static void test_small_and_huge_values(void **state)
{
	struct hist h = { 0 }, empty = { 0 };

	(void)state;
	hist_add(&h, 0);
	hist_add(&h, 3);
	hist_add(&h, UINT64_MAX);
	assert_int_equal(hist_percentile(&h, 0.3), 0);
	assert_int_equal(hist_percentile(&h, 0.6), 3);
	assert_true(hist_percentile(&h, 1.0) == UINT64_MAX);
	assert_int_equal(hist_percentile(&empty, 0.5), 0);
	hist_free(&h);
}

/* A million 16.7 ms periods alternating by 2 ns: a jitter of exactly 1 ns. */
static void test_stddev_of_tiny_deviations(void **state)
{
	struct hist h = { 0 };

	(void)state;
	assert_true(hist_stddev(&h) == 0.0);
	for (int i = 0; i < 1000000; i++)
		assert_int_equal(hist_add(&h, i % 2 ? 16666669 : 16666667), 0);
	assert_true(fabs(hist_stddev(&h) - 1.0) < 1e-6);
	hist_free(&h);
	h = (struct hist){ 0 };
	hist_add(&h, 10);
	assert_true(hist_stddev(&h) == 0.0);
	hist_add(&h, 12);
	hist_add(&h, 14);
	assert_true(fabs(hist_stddev(&h) - sqrt(8.0 / 3.0)) < 1e-9);
	hist_free(&h);
}

static void test_keymap_churn(void **state)
{
	struct keymap m = { 0 };
	uint32_t v;

	(void)state;
	/* a million fences, at most 100 alive: the map stays small */
	for (uint64_t i = 0; i < 1000000; i++) {
		assert_int_equal(keymap_put(&m, i << 32 | 7, (uint32_t)i), 0);
		if (i >= 100)
			assert_int_equal(keymap_del(&m, (i - 100) << 32 | 7), 1);
	}
	assert_int_equal(m.used, 100);
	assert_true(m.cap <= 1024);
	assert_true(keymap_get(&m, 999999ull << 32 | 7, &v));
	assert_int_equal(v, 999999);
	assert_false(keymap_get(&m, 5ull << 32 | 7, &v));
	assert_int_equal(keymap_del(&m, 5ull << 32 | 7), 0);
	/* key 0 (stub fences are context 0, seqno 0) is an ordinary key */
	assert_int_equal(keymap_put(&m, 0, 42), 0);
	assert_true(keymap_get(&m, 0, &v));
	assert_int_equal(v, 42);
	keymap_free(&m);
}

/* keymap_next() visits each key left once, deleted ones never, an empty map nothing. */
static void test_keymap_next(void **state)
{
	struct keymap m = { 0 };
	uint64_t key, sum = 0;
	uint32_t pos = 0, seen = 0;

	(void)state;
	assert_int_equal(keymap_next(&m, &pos, &key), 0);
	for (uint64_t i = 1; i <= 300; i++)
		assert_int_equal(keymap_put(&m, i, 0), 0);
	for (uint64_t i = 1; i <= 300; i += 3)
		assert_int_equal(keymap_del(&m, i), 1);
	while (keymap_next(&m, &pos, &key)) {
		assert_true(key % 3 != 1);
		sum += key;
		seen++;
	}
	assert_int_equal(seen, 200);
	assert_int_equal(sum, 300 * 301 / 2 - (1 + 298) * 100 / 2);
	assert_int_equal(keymap_next(&m, &pos, &key), 0);	/* stays at the end */
	keymap_free(&m);
}

/*
 * An age from a clock read before the event it is compared with: 0 and
 * counted, never 2^64 - x (stall printed "18446744073672.7 ms ago").
 */
static void test_span_out_of_order(void **state)
{
	unsigned int backwards = 0;

	(void)state;
	assert_int_equal(span_ns(1500, 1000, &backwards), 500);
	assert_int_equal(span_ns(1000, 1000, &backwards), 0);
	assert_int_equal(backwards, 0);
	assert_int_equal(span_ns(1000, 36827300000ull, &backwards), 0);
	assert_int_equal(backwards, 1);
	assert_true(span_ms(1000, 1001, &backwards) == 0.0);
	assert_int_equal(backwards, 2);
	assert_true(fabs(span_ms(3500000, 1000000, NULL) - 2.5) < 1e-9);
	assert_int_equal(span_ns(0, UINT64_MAX, NULL), 0);
}

/* One sample: exact figures without any bucket memory. */
static void test_one_sample_needs_no_buckets(void **state)
{
	struct hist h = { 0 };

	(void)state;
	assert_int_equal(hist_add(&h, 123456), 0);
	assert_null(h.buckets);
	assert_int_equal(hist_percentile(&h, 0.5), 123456);
	assert_int_equal(hist_percentile(&h, 0.99), 123456);
	assert_int_equal(hist_log2_count(&h, 16, 1), 1);	/* 2^16 <= 123456 < 2^17 */
	assert_int_equal(hist_log2_count(&h, 17, 1), 0);
	assert_int_equal(hist_add(&h, 7), 0);			/* the second one allocates */
	assert_non_null(h.buckets);
	assert_int_equal(hist_percentile(&h, 0.5), 7);
	assert_int_equal(hist_percentile(&h, 1.0), 123456);
	assert_int_equal(hist_log2_count(&h, 16, 1), 1);
	hist_free(&h);
}

/* Merging gives what adding the same samples one by one gives. */
static void test_merge_equals_adding(void **state)
{
	struct hist a = { 0 }, b = { 0 }, one = { 0 }, all = { 0 }, empty = { 0 };

	(void)state;
	for (uint64_t v = 1; v <= 300; v++) {
		hist_add(v % 3 ? &a : &b, v * 1000);
		hist_add(&all, v * 1000);
	}
	hist_add(&one, 5);
	hist_add(&all, 5);
	assert_int_equal(hist_merge(&a, &b), 0);
	assert_int_equal(hist_merge(&a, &one), 0);
	assert_int_equal(hist_merge(&a, &empty), 0);
	assert_int_equal(a.count, all.count);
	assert_int_equal(a.sum, all.sum);
	assert_int_equal(a.min, 5);
	assert_int_equal(a.max, 300000);
	for (double p = 0.1; p < 1.0; p += 0.1)
		assert_int_equal(hist_percentile(&a, p), hist_percentile(&all, p));
	assert_true(fabs(hist_stddev(&a) - hist_stddev(&all)) < 1e-6 * hist_stddev(&all));
	assert_int_equal(hist_merge(&empty, &b), 0);		/* into an empty one: a copy */
	assert_int_equal(empty.count, b.count);
	assert_int_equal(hist_percentile(&empty, 0.5), hist_percentile(&b, 0.5));
	hist_free(&a);
	hist_free(&b);
	hist_free(&one);
	hist_free(&all);
	hist_free(&empty);
}

int run_hist_tests(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_exact_when_all_equal),
		cmocka_unit_test(test_percentiles_within_bucket),
		cmocka_unit_test(test_small_and_huge_values),
		cmocka_unit_test(test_stddev_of_tiny_deviations),
		cmocka_unit_test(test_keymap_churn),
		cmocka_unit_test(test_keymap_next),
		cmocka_unit_test(test_span_out_of_order),
		cmocka_unit_test(test_one_sample_needs_no_buckets),
		cmocka_unit_test(test_merge_equals_adding),
	};

	return cmocka_run_group_tests_name("hist_keymap", tests, NULL, NULL);
}
