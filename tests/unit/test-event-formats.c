// SPDX-License-Identifier: GPL-2.0
/*
 * test-event-formats.c - the live readers' format loader
 * (capture/event-formats.c) on a folder laid out as tracefs lays out
 * events/, from the 6.1 fixture formats: the systems asked for and no
 * others, a system the kernel lacks (drm_fence on a stock kernel) is
 * none, the sub-buffer header gives 8-byte longs; no header_page is an
 * error that names the file.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include <event-parse.h>

#include "event-formats.h"
#include "fixture-formats.h"
#include "tmpdir.h"
#include "unit.h"

static void copy(const char *from_name, const char *to)
{
	char from[512], buf[8192];
	size_t n;
	FILE *in, *out;

	snprintf(from, sizeof(from), "%s/%s", TB_FIXTURES, from_name);
	in = fopen(from, "r");
	out = fopen(to, "w");
	assert_non_null(in);
	assert_non_null(out);
	while ((n = fread(buf, 1, sizeof(buf), in)) > 0)
		assert_int_equal(fwrite(buf, 1, n, out), n);
	fclose(in);
	assert_int_equal(fclose(out), 0);
}

/* @dir/events/SYSTEM/EVENT/format for "SYSTEM-EVENT.format" of the fixture. */
static void add_event(const char *dir, const char *system, const char *event)
{
	char path[512], name[256];

	snprintf(path, sizeof(path), "%s/events/%s", dir, system);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/events/%s/%s", dir, system, event);
	assert_int_equal(mkdir(path, 0755), 0);
	snprintf(path, sizeof(path), "%s/events/%s/%s/format", dir, system, event);
	snprintf(name, sizeof(name), "%s-%s.format", system, event);
	copy(name, path);
}

static void make_tracefs(char *dir, size_t len, int with_header)
{
	char path[512];

	assert_int_equal(tmpdir_make(dir, len, "test-event-formats"), 0);
	snprintf(path, sizeof(path), "%s/events", dir);
	assert_int_equal(mkdir(path, 0755), 0);
	if (with_header) {
		snprintf(path, sizeof(path), "%s/events/header_page", dir);
		copy("header_page", path);
	}
	add_event(dir, "dma_fence", "dma_fence_init");
	add_event(dir, "dma_fence", "dma_fence_signaled");
	add_event(dir, "drm", "drm_vblank_event");
}

static void test_systems_asked_for(void **state)
{
	const char *systems[] = { "dma_fence", "drm_fence", NULL };
	struct tep_handle *tep;
	struct tep_event *e;
	char dir[256], why[256] = "";

	(void)state;
	make_tracefs(dir, sizeof(dir), 1);
	tep = event_formats_load(dir, systems, why, sizeof(why));
	assert_non_null(tep);
	assert_string_equal(why, "");
	assert_int_equal(tep_get_header_page_size(tep), 8);
	assert_int_equal(tep_get_long_size(tep), 8);
	e = tep_find_event_by_name(tep, "dma_fence", "dma_fence_init");
	assert_non_null(e);
	assert_non_null(tep_find_field(e, "seqno"));
	assert_non_null(tep_find_event_by_name(tep, "dma_fence", "dma_fence_signaled"));
	assert_null(tep_find_event_by_name(tep, "drm", "drm_vblank_event"));	/* not asked */
	tep_free(tep);
	assert_int_equal(tmpdir_remove(dir), 0);
}

static void test_no_header_page(void **state)
{
	const char *systems[] = { "dma_fence", NULL };
	char dir[256], why[256] = "";

	(void)state;
	make_tracefs(dir, sizeof(dir), 0);
	assert_null(event_formats_load(dir, systems, why, sizeof(why)));
	assert_non_null(strstr(why, "cannot read the kernel's event formats ("));
	assert_non_null(strstr(why, "/events/header_page)"));
	assert_int_equal(tmpdir_remove(dir), 0);
}

int run_event_formats_tests(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_systems_asked_for),
		cmocka_unit_test(test_no_header_page),
	};

	return cmocka_run_group_tests_name("live readers' event formats", tests, NULL, NULL);
}
