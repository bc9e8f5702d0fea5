// SPDX-License-Identifier: GPL-2.0
/*
 * test-series-probe.c - `fence-trace check`'s view of the kernel series:
 * the table of what each patch adds agrees with tracepoints/formats/, and
 * made-up kernels (full, stock, an older series, a patch with an event
 * missing, nothing visible, one patch not looked at) get the right version.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "series-probe.h"
#include "unit.h"

/* A made-up kernel: every item present except those in @absent, @unknown. */
struct fake_kernel {
	const char *const *absent, *const *unknown;
	int all_unknown;
};

static int listed(const char *const *list, const char *item)
{
	for (; list && *list; list++)
		if (strcmp(*list, item) == 0 || (strchr(*list, '*') &&
		    strncmp(*list, item, (size_t)(strchr(*list, '*') - *list)) == 0))
			return 1;
	return 0;
}

static enum probe_answer fake_have(void *ctx, const char *item)
{
	const struct fake_kernel *k = ctx;

	if (k->all_unknown || listed(k->unknown, item))
		return PROBE_UNKNOWN;
	return listed(k->absent, item) ? PROBE_ABSENT : PROBE_PRESENT;
}

static const char *version_of(const struct fake_kernel *k, struct series_result *r, int *full)
{
	static char buf[512];

	series_probe(fake_have, (void *)k, r);
	*full = series_version(r, buf, sizeof(buf));
	return buf;
}

/* Is event @item ("sys:event") changed by an item of @list that names a field of it? */
static int field_listed(const char *const *list, const char *item)
{
	size_t n = strlen(item);

	for (; list && *list; list++)
		if (strncmp(*list, item, n) == 0 && (*list)[n] == '.')
			return 1;
	return 0;
}

/*
 * Every event of the series has its format file, and every format file its
 * patch: the patch that adds the event, or for a stock event the patch
 * that adds a field to it (0005's fence).
 */
static void test_table_matches_formats(void **state)
{
	/* drm: only the series' two vblank events are in tracepoints/formats/drm */
	static const char *const systems[] = { "drm_fence", "sync_file", "dma_fence", "drm" };
	size_t n;
	const struct series_patch *p = series_patches(&n);
	unsigned int events = 0, files = 0, changed = 0;

	(void)state;
	for (size_t i = 0; i < n; i++)
		for (const char *const *it = p[i].items; *it; it++) {
			char sys[64], ev[64], field[64] = "", path[256], want[80], line[512];
			int found = 0;
			FILE *f;

			if ((*it)[0] == '@')
				continue;
			assert_true(sscanf(*it, "%63[^:]:%63[^.].%63s", sys, ev, field) >= 2);
			snprintf(path, sizeof(path), "tracepoints/formats/%s/%s.format", sys, ev);
			f = fopen(path, "r");
			if (!f)
				fail_msg("%s (patch %s) has no format file %s", *it, p[i].number, path);
			snprintf(want, sizeof(want), " %s;", field);
			while (field[0] && fgets(line, sizeof(line), f))
				found = found || strstr(line, want);
			fclose(f);
			if (field[0] && !found)
				fail_msg("%s: no field %s in %s", *it, field, path);
			events += !field[0];
		}
	for (size_t s = 0; s < sizeof(systems) / sizeof(systems[0]); s++) {
		char dir[128];
		struct dirent *e;
		DIR *d;

		snprintf(dir, sizeof(dir), "tracepoints/formats/%s", systems[s]);
		d = opendir(dir);
		assert_non_null(d);
		while ((e = readdir(d))) {
			char item[160];
			char *dot = strstr(e->d_name, ".format");
			int in_table = 0, field_only = 0;

			if (!dot)
				continue;
			snprintf(item, sizeof(item), "%s:%.*s", systems[s], (int)(dot - e->d_name), e->d_name);
			for (size_t i = 0; i < n; i++)
				in_table = in_table || listed(p[i].items, item);
			for (size_t i = 0; i < n && !in_table; i++)
				field_only = field_only || field_listed(p[i].items, item);
			if (!in_table && !field_only)
				fail_msg("%s/%s is in no patch of the table", dir, e->d_name);
			files++;
			changed += field_only;
		}
		closedir(d);
	}
	assert_int_equal(events + changed, files);
}

static void test_full_series(void **state)
{
	struct fake_kernel k = { 0 };
	struct series_result r;
	int full;

	(void)state;
	assert_string_equal(version_of(&k, &r, &full), "present in full, up to patch 0014 of kernel/series");
	assert_int_equal(full, 1);
	for (unsigned int i = 0; i < r.n_patches; i++)
		assert_int_equal(r.patches[i].state, PATCH_PRESENT);
}

static void test_stock_kernel(void **state)
{
	static const char *const none[] = { "drm_fence:*", "sync_file:*", "dma_fence:*",
		"drm:drm_vblank_enable", "drm:drm_vblank_disable", "@*", NULL };
	struct fake_kernel k = { .absent = none };
	struct series_result r;
	int full;

	(void)state;
	assert_string_equal(version_of(&k, &r, &full), "absent (a kernel without the fence-trace series)");
	assert_int_equal(full, 0);
	assert_null(r.newest);
}

/* An older series, up to 0011: the newest present is 0011, the rest named. */
static void test_older_series(void **state)
{
	static const char *const newer[] = { "drm_fence:drm_fence_out_discard",
		"drm_fence:drm_fence_out_create.crtc_name", "dma_fence:*", "@fence_timeline", NULL };
	struct fake_kernel k = { .absent = newer };
	struct series_result r;
	int full;

	(void)state;
	assert_string_equal(version_of(&k, &r, &full),
			    "partial or older: the newest patch present in full is 0011; incomplete: 0005 0012 0013 0014");
	assert_int_equal(full, 0);
	assert_int_equal(r.patches[8].state, PATCH_ABSENT);
	assert_string_equal(r.patches[8].missing,
			    "drm_fence:drm_fence_out_discard, drm_fence:drm_fence_out_create.crtc_name");
}

/* One event of 0008 and 0012's field missing: partial, and what is missing said. */
static void test_partial_patch(void **state)
{
	static const char *const gone[] = { "drm_fence:drm_fence_wait_begin",
		"drm_fence:drm_fence_out_create.crtc_name", NULL };
	struct fake_kernel k = { .absent = gone };
	struct series_result r;
	int full;

	(void)state;
	assert_string_equal(version_of(&k, &r, &full),
			    "partial or older: the newest patch present in full is 0014; incomplete: 0008 0012");
	assert_int_equal(r.patches[4].state, PATCH_PARTIAL);
	assert_int_equal(r.patches[4].present, 2);
	assert_int_equal(r.patches[4].total, 3);
	assert_string_equal(r.patches[4].missing, "drm_fence:drm_fence_wait_begin");
	assert_int_equal(r.patches[8].state, PATCH_PARTIAL);
	assert_string_equal(r.patches[8].missing, "drm_fence:drm_fence_out_create.crtc_name");
}

static void test_nothing_visible(void **state)
{
	struct fake_kernel k = { .all_unknown = 1 };
	struct series_result r;
	int full;

	(void)state;
	assert_string_equal(version_of(&k, &r, &full), "cannot tell (nothing of it could be looked at)");
	assert_int_equal(r.patches[0].state, PATCH_UNKNOWN);
}

/*
 * A distribution kernel: no sw_sync, so 0004's sync/info cannot be looked
 * at, and every other patch is absent.  Absent, not "cannot tell".
 */
static void test_absent_but_one_unknown(void **state)
{
	static const char *const none[] = { "drm_fence:*", "sync_file:*", "dma_fence:*",
		"drm:drm_vblank_enable", "drm:drm_vblank_disable", "@fence_timeline", NULL };
	static const char *const no_sw_sync[] = { "@sync_info", NULL };
	struct fake_kernel k = { .absent = none, .unknown = no_sw_sync };
	struct series_result r;
	int full;

	(void)state;
	assert_string_equal(version_of(&k, &r, &full),
			    "absent (a kernel without the fence-trace series; not looked at: 0004)");
	assert_int_equal(full, 0);
}

/*
 * A stock kernel whose drm_fence events are seen absent, the other systems
 * and debugfs not looked at: as many patches unseen as seen absent, and an
 * older series could hide in them.
 */
static void test_not_root_stock(void **state)
{
	static const char *const hidden[] = { "sync_file:*", "dma_fence:*", "@sync_info",
		"@fence_timeline", "drm:drm_vblank_enable", "drm:drm_vblank_disable", NULL };
	static const char *const none[] = { "drm_fence:*", NULL };
	struct fake_kernel k = { .unknown = hidden, .absent = none };
	struct series_result r;
	int full;

	(void)state;
	assert_string_equal(version_of(&k, &r, &full),
			    "cannot tell (most of it could not be looked at; absent: 0006 0007 0008 0009 0012)");
}

/* A series kernel without sw_sync: 0004 not looked at, the rest present. */
static void test_present_but_one_unknown(void **state)
{
	static const char *const no_sw_sync[] = { "@sync_info", NULL };
	struct fake_kernel k = { .unknown = no_sw_sync };
	struct series_result r;
	int full;

	(void)state;
	assert_string_equal(version_of(&k, &r, &full),
			    "cannot tell in full (not every patch could be looked at); present: 0005 0006 0007 0008 0009 0010 0011 0012 0013 0014");
	assert_int_equal(full, 0);
}

int run_series_probe_tests(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_table_matches_formats),
		cmocka_unit_test(test_absent_but_one_unknown),
		cmocka_unit_test(test_not_root_stock),
		cmocka_unit_test(test_full_series),
		cmocka_unit_test(test_stock_kernel),
		cmocka_unit_test(test_older_series),
		cmocka_unit_test(test_partial_patch),
		cmocka_unit_test(test_nothing_visible),
		cmocka_unit_test(test_present_but_one_unknown),
	};

	return cmocka_run_group_tests_name("series_probe", tests, NULL, NULL);
}
