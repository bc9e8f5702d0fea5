// SPDX-License-Identifier: GPL-2.0
/*
 * test-names-ask.c - the BPF tools' names (live/fence-names.h): what the
 * programs' records name, and what the tracefs stream is asked for (the
 * contexts wanted, given up on and asked again, the catch-all of the kinds
 * BPF cannot read, the filter's text).
 */
#include <linux/types.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "fence-names.h"
#include "fence-ops.h"
#include "names-ask.h"
#include "unit.h"

#define S 1000000000ull

static struct fence_names names;	/* large: not on the stack */

static void test_want_then_give_up_then_retry(void **state)
{
	struct names_ask a = { 0 };
	struct keymap named = { 0 };

	(void)state;
	assert_int_equal(ask_want(&a, 7, 0), 1);
	assert_int_equal(ask_want(&a, 7, 1), 1);	/* asked once */
	assert_int_equal(a.n_wanted, 1);
	ask_prune(&a, &named, NAMES_PATIENCE_NS);	/* not past its patience */
	assert_int_equal(a.n_wanted, 1);
	ask_prune(&a, &named, NAMES_PATIENCE_NS + 1);
	assert_int_equal(a.n_wanted, 0);
	assert_int_equal(a.given_up_index.used, 1);
	/* given up lately: not asked again, but not refused either */
	assert_int_equal(ask_want(&a, 7, NAMES_PATIENCE_NS + 10 * S), 1);
	assert_int_equal(a.n_wanted, 0);
	assert_int_equal(ask_want(&a, 7, NAMES_PATIENCE_NS + (NAMES_RETRY_S + 1) * S), 1);
	assert_int_equal(a.n_wanted, 1);
	ask_free(&a);
}

static void test_named_context_is_forgotten(void **state)
{
	struct names_ask a = { 0 };
	struct keymap named = { 0 };

	(void)state;
	ask_want(&a, 7, 0);
	ask_want(&a, 9, 0);
	keymap_put(&named, 9, 0);
	ask_prune(&a, &named, 1);
	assert_int_equal(a.n_wanted, 1);
	assert_int_equal(a.wanted[0].context, 7);
	assert_int_equal(a.given_up_index.used, 0);
	keymap_free(&named);
	ask_free(&a);
}

static void test_too_many_wanted(void **state)
{
	struct names_ask a = { 0 };

	(void)state;
	for (unsigned int i = 0; i < NAMES_FILTER_MAX; i++)
		assert_int_equal(ask_want(&a, 100 + i, 0), 1);
	assert_int_equal(ask_want(&a, 1, 0), 0);
	assert_int_equal(a.n_wanted, NAMES_FILTER_MAX);
	ask_free(&a);
}

static void test_filter_text(void **state)
{
	struct names_ask a = { 0 };
	char buf[2048];

	(void)state;
	assert_int_equal(ask_filter(&a, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "");
	ask_want(&a, 7, 0);
	ask_want(&a, 9, 0);
	assert_int_equal(ask_filter(&a, buf, sizeof(buf)), 1);
	assert_string_equal(buf, "context == 7 || context == 9");
	ask_free(&a);
}

/* The catch-all: every fence but the kinds read; no filter when nothing is read. */
static void test_filter_catch_all(void **state)
{
	struct names_ask a = { .catch_all = 1 };
	struct keymap named = { 0 };
	char buf[2048];

	(void)state;
	ask_want(&a, 7, 0);
	assert_int_equal(ask_filter(&a, buf, sizeof(buf)), 1);
	assert_string_equal(buf, "0");
	ask_read_driver(&a, "sw_sync");
	ask_read_driver(&a, "sw_sync");
	ask_read_driver(&a, "bad\"name");	/* cannot be quoted: stays caught */
	ask_read_context(&a, 3);
	ask_read_context(&a, 3);
	assert_int_equal(ask_filter(&a, buf, sizeof(buf)), 1);
	assert_string_equal(buf, "context == 7 || (driver != \"sw_sync\" && context != 3)");
	ask_prune(&a, &named, NAMES_PATIENCE_NS + 1);
	ask_filter(&a, buf, sizeof(buf));
	assert_string_equal(buf, "(driver != \"sw_sync\" && context != 3)");
	ask_free(&a);
}

/* The fullest filter fits the buffer fence-names.c keeps. */
static void test_filter_fits(void **state)
{
	struct names_ask a = { .catch_all = 1 };
	char buf[sizeof(names.filter)], driver[32] = "a_driver_name_of_31_characters_";

	(void)state;
	for (unsigned int i = 0; i < NAMES_FILTER_MAX; i++)
		ask_want(&a, UINT64_MAX - i, 0);
	for (unsigned int i = 0; i < NAMES_READ_DRIVERS + 1; i++) {
		driver[0] = (char)('a' + i);	/* different ones, one too many */
		ask_read_driver(&a, driver);
	}
	for (unsigned int i = 0; i < NAMES_READ_CONTEXTS + 1; i++)
		ask_read_context(&a, UINT64_MAX - i);
	assert_int_equal(a.n_read_drivers, NAMES_READ_DRIVERS);
	assert_int_equal(a.n_read_contexts, NAMES_READ_CONTEXTS);
	ask_filter(&a, buf, sizeof(buf));
	assert_true(strlen(buf) < sizeof(buf) - 1);
	assert_int_equal(buf[strlen(buf) - 1], ')');
	ask_free(&a);
}

static void record(struct fence_name_rec *r, uint64_t context, unsigned int kind,
		   const char *driver, const char *timeline)
{
	memset(r, 0, sizeof(*r));
	r->context = context;
	r->kind = kind;
	snprintf(r->driver, sizeof(r->driver), "%s", driver);
	snprintf(r->timeline, sizeof(r->timeline), "%s", timeline);
}

/* Fixed names from the kind, read ones from the record, cut at 32 bytes. */
static void test_records_name(void **state)
{
	struct fence_name_rec r;
	const struct fence_name *n;

	(void)state;
	memset(&names, 0, sizeof(names));	/* no stream: names_start() not called */
	record(&r, 5, FENCE_OPS_ARRAY, "", "");
	names_from_record(&names, &r, sizeof(r));
	record(&r, 6, FENCE_OPS_CRTC, "vkms", "CRTC:35-crtc-0");
	names_from_record(&names, &r, sizeof(r));
	record(&r, 8, FENCE_OPS_SW_SYNC, "", "producer-A");
	memset(r.timeline, 'x', sizeof(r.timeline));	/* not terminated */
	names_from_record(&names, &r, sizeof(r));
	names_from_record(&names, &r, sizeof(r) - 1);	/* short: ignored */
	n = names_find(&names, 5);
	assert_non_null(n);
	assert_string_equal(n->driver, "dma_fence_array");
	assert_string_equal(n->timeline, "unbound");
	n = names_find(&names, 6);
	assert_non_null(n);
	assert_string_equal(n->driver, "vkms");
	assert_string_equal(n->timeline, "CRTC:35-crtc-0");
	n = names_find(&names, 8);
	assert_non_null(n);
	assert_string_equal(n->driver, "sw_sync");
	assert_int_equal(strlen(n->timeline), 31);
	assert_int_equal(names.counts.from_fence, 3);
	/* what the catch-all leaves out: the kinds read whole by driver, a CRTC by context */
	assert_int_equal(names.ask.n_read_drivers, 2);
	assert_string_equal(names.ask.read_drivers[0], "dma_fence_array");
	assert_string_equal(names.ask.read_drivers[1], "sw_sync");
	assert_int_equal(names.ask.n_read_contexts, 1);
	assert_int_equal(names.ask.read_contexts[0], 6);
	assert_int_equal(names.ask.catch_all, 0);
	names_stop(&names);
}

/* A kind BPF cannot read, or a read that came back empty: unnamed, and remembered as such. */
static void test_records_unreadable(void **state)
{
	struct fence_name_rec r;
	char line[256];

	(void)state;
	memset(&names, 0, sizeof(names));
	record(&r, 5, FENCE_OPS_OTHER, "", "");
	names_from_record(&names, &r, sizeof(r));
	record(&r, 6, FENCE_OPS_CRTC, "vkms", "");
	names_from_record(&names, &r, sizeof(r));
	assert_null(names_find(&names, 5));
	assert_null(names_find(&names, 6));
	assert_int_equal(names.ask.catch_all, 1);
	assert_int_equal(names.counts.from_fence, 0);
	names_from_record(&names, &r, sizeof(r));	/* sent again: one context still */
	names.counts.ring_lost = 1;
	names_counts_line(&names, line, sizeof(line));
	assert_string_equal(line, "fence names: 0 read from the fence, 0 from the tracefs stream "
			    "(none: no tracefs), 3 unnamed (0 still asked for, 0 not kept: table full, "
			    "1 names records lost: ring full)");
	/* named later (by the stream, or a record that could read it): no longer unnamed */
	names_set(&names, 6, "vkms", "CRTC:35-crtc-0");
	assert_int_equal(names_unnamed(&names), 2);
	names_stop(&names);
}

int run_names_ask_tests(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_want_then_give_up_then_retry),
		cmocka_unit_test(test_named_context_is_forgotten),
		cmocka_unit_test(test_too_many_wanted),
		cmocka_unit_test(test_filter_text),
		cmocka_unit_test(test_filter_catch_all),
		cmocka_unit_test(test_filter_fits),
		cmocka_unit_test(test_records_name),
		cmocka_unit_test(test_records_unreadable),
	};

	return cmocka_run_group_tests_name("names_ask", tests, NULL, NULL);
}
