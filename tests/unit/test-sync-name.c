// SPDX-License-Identifier: GPL-2.0
/* test-sync-name.c - context and seqno from sync_file default names. */
#include <stdint.h>

#include "sync.h"
#include "unit.h"

static void test_out_fence_name(void **state)
{
	uint64_t ctx = 0;
	int64_t seq = 0;

	(void)state;
	/* "%s-%s%llu-%lld": the timeline "CRTC:35-crtc-0" is glued to context 5 */
	assert_int_equal(sync_name_parse("vkms-CRTC:35-crtc-05-3", "vkms", "CRTC:35-crtc-0",
					 &ctx, &seq), 0);
	assert_int_equal(ctx, 5);
	assert_int_equal(seq, 3);
	assert_int_equal(sync_name_parse("sw_sync-producer-A12-400000000", "sw_sync",
					 "producer-A", &ctx, &seq), 0);
	assert_int_equal(ctx, 12);
	assert_int_equal(seq, 400000000ll);
}

static void test_rejects_other_names(void **state)
{
	uint64_t ctx = 77;
	int64_t seq = 77;

	(void)state;
	/* a user-chosen name (SYNC_IOC_MERGE, or a driver's) */
	assert_int_equal(sync_name_parse("merged", "vkms", "CRTC:35-crtc-0", &ctx, &seq), -1);
	/* wrong driver, wrong timeline, junk after the seqno, missing seqno */
	assert_int_equal(sync_name_parse("virtio-CRTC:35-crtc-05-3", "vkms", "CRTC:35-crtc-0",
					 &ctx, &seq), -1);
	assert_int_equal(sync_name_parse("vkms-CRTC:36-crtc-05-3", "vkms", "CRTC:35-crtc-0",
					 &ctx, &seq), -1);
	assert_int_equal(sync_name_parse("vkms-CRTC:35-crtc-05-3x", "vkms", "CRTC:35-crtc-0",
					 &ctx, &seq), -1);
	assert_int_equal(sync_name_parse("vkms-CRTC:35-crtc-05", "vkms", "CRTC:35-crtc-0",
					 &ctx, &seq), -1);
	/* 31 characters: sync_file_get_name() may have cut the seqno short */
	assert_int_equal(sync_name_parse("virtio_gpu-CRTC:41-crtc-112-1234", "virtio_gpu",
					 "CRTC:41-crtc-1", &ctx, &seq), -1);
	assert_int_equal(ctx, 77);
	assert_int_equal(seq, 77);
}

int run_sync_name_tests(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_out_fence_name),
		cmocka_unit_test(test_rejects_other_names),
	};

	return cmocka_run_group_tests_name("sync_name", tests, NULL, NULL);
}
