// SPDX-License-Identifier: GPL-2.0
/*
 * test-kallsyms.c - stall's /proc/kallsyms reader (live/kallsyms.c) on a
 * file shaped like the kernel's: module symbols named "name [module]",
 * lines with a zero address (kptr_restrict) skipped, found by address
 * and by name; a file of zero addresses is -EPERM, a missing one -ENOENT.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "kallsyms.h"
#include "tmpdir.h"
#include "unit.h"

static const char kallsyms_text[] =
	"ffffffff81000000 T _text\n"
	"ffffffff81234560 T dma_fence_default_wait\n"
	"ffffffff81234000 t dma_fence_default_wait_cb\n"
	"ffffffffc0201000 d vgem_fence_ops\t[vgem]\n"
	"ffffffffc0200000 t vgem_fence_release\t[vgem]\n"
	"0000000000000000 A fixed_percpu_data\n"
	"ffffffff82000000 D sync_file_fops\n";

static const char hidden_text[] =
	"0000000000000000 T _text\n"
	"0000000000000000 T dma_fence_default_wait\n";

static void test_symbols_by_address_and_name(void **state)
{
	char dir[256];
	struct ksyms k;
	const struct ksym *s;

	(void)state;
	assert_int_equal(tmpdir_make(dir, sizeof(dir), "test-kallsyms"), 0);
	assert_int_equal(tmpdir_write(dir, "kallsyms", kallsyms_text), 0);
	assert_int_equal(ksyms_load(&k, tmpdir_join(dir, "kallsyms")), 0);
	assert_int_equal(k.n, 6);
	for (size_t i = 1; i < k.n; i++)
		assert_true(k.syms[i - 1].addr <= k.syms[i].addr);
	s = ksyms_find(&k, 0xffffffff81234570ull);
	assert_non_null(s);
	assert_string_equal(s->name, "dma_fence_default_wait");
	s = ksyms_find(&k, 0xffffffffc0201010ull);
	assert_non_null(s);
	assert_string_equal(s->name, "vgem_fence_ops [vgem]");
	assert_null(ksyms_find(&k, 0xffffffff80000000ull));
	assert_int_equal(ksyms_addr(&k, "sync_file_fops"), 0xffffffff82000000ull);
	assert_int_equal(ksyms_addr(&k, "dma_fence_default_wait_cb"), 0xffffffff81234000ull);
	assert_int_equal(ksyms_addr(&k, "fixed_percpu_data"), 0);
	assert_int_equal(ksyms_addr(&k, "vgem_fence_ops"), 0);	/* a module's: not by name */
	ksyms_free(&k);
	assert_int_equal(tmpdir_remove(dir), 0);
}

static void test_hidden_and_missing(void **state)
{
	char dir[256];
	struct ksyms k;

	(void)state;
	assert_int_equal(tmpdir_make(dir, sizeof(dir), "test-kallsyms"), 0);
	assert_int_equal(tmpdir_write(dir, "kallsyms", hidden_text), 0);
	assert_int_equal(ksyms_load(&k, tmpdir_join(dir, "kallsyms")), -EPERM);
	ksyms_free(&k);
	assert_int_equal(tmpdir_write(dir, "kallsyms", ""), 0);
	assert_int_equal(ksyms_load(&k, tmpdir_join(dir, "kallsyms")), -EPERM);
	ksyms_free(&k);
	assert_int_equal(ksyms_load(&k, tmpdir_join(dir, "none")), -ENOENT);
	ksyms_free(&k);
	assert_int_equal(tmpdir_remove(dir), 0);
}

int run_kallsyms_tests(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_symbols_by_address_and_name),
		cmocka_unit_test(test_hidden_and_missing),
	};

	return cmocka_run_group_tests_name("kernel symbols for stall (kallsyms)", tests, NULL, NULL);
}
