// SPDX-License-Identifier: GPL-2.0
/*
 * test-tmpdir.c - the unit tests' temporary folders: removal takes the
 * whole tree and nothing outside it, links pointing out included, and
 * refuses every path that is not a folder tmpdir_make() made.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tmpdir.h"
#include "unit.h"

struct dirs {
	char in[64];		/* the folder to remove */
	char out[64];		/* a neighbour that must survive it */
};

static void touch(const char *dir, const char *name)
{
	char path[192];
	int fd;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0600);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, "x", 1), 1);
	close(fd);
}

static void sub(const char *dir, const char *name)
{
	char path[192];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	assert_int_equal(mkdir(path, 0700), 0);
}

static void link_to(const char *dir, const char *name, const char *target)
{
	char path[192];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	assert_int_equal(symlink(target, path), 0);
}

static int exists(const char *dir, const char *name)
{
	char path[192];
	struct stat st;

	snprintf(path, sizeof(path), "%s%s%s", dir, name[0] ? "/" : "", name);
	return lstat(path, &st) == 0;
}

static int setup(void **state)
{
	static struct dirs d;

	*state = &d;
	if (tmpdir_make(d.in, sizeof(d.in), "test-tmpdir") ||
	    tmpdir_make(d.out, sizeof(d.out), "test-tmpdir-out"))
		return -1;
	touch(d.out, "keep");
	sub(d.out, "kept");
	touch(d.out, "kept/file");
	return 0;
}

static int teardown(void **state)
{
	struct dirs *d = *state;

	if (exists(d->in, ""))
		tmpdir_remove(d->in);
	return tmpdir_remove(d->out);
}

/* Files, nested folders, and links to the neighbour's file and folder. */
static void test_removes_the_tree_only(void **state)
{
	struct dirs *d = *state;
	char target[128];

	touch(d->in, "a");
	sub(d->in, "b");
	touch(d->in, "b/c");
	sub(d->in, "b/d");
	sub(d->in, "b/d/e");
	touch(d->in, "b/d/e/f");
	snprintf(target, sizeof(target), "%s/keep", d->out);
	link_to(d->in, "to-file", target);
	snprintf(target, sizeof(target), "%s/kept", d->out);
	link_to(d->in, "b/to-dir", target);
	assert_int_equal(tmpdir_remove(d->in), 0);
	assert_false(exists(d->in, ""));
	assert_true(exists(d->out, "keep"));
	assert_true(exists(d->out, "kept/file"));
}

/* Paths of any other shape are refused before anything is touched. */
static void test_refuses_other_paths(void **state)
{
	static const char *const bad[] = {
		"/", "/tmp", "/tmp/", "", "tmp/x-abcdef", "/tmp/../etc/x-abcdef",
		"/tmp/x-abcdef/../y-abcdef", "/tmp/-abcdef", "/tmp/.x-abcdef", "/tmp/x-abc",
		"/etc/x-abcdef", "/tmpx/x-abcdef", "/tmp/x abcdef", "/tmp/x-abc/ef",
	};
	struct dirs *d = *state;
	char inner[96];

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		errno = 0;
		if (tmpdir_remove(bad[i]) != -1 || errno != EINVAL)
			fail_msg("'%s' was not refused", bad[i]);
	}
	/* the right shape, but one level down: a folder of a folder */
	snprintf(inner, sizeof(inner), "%s/y-abcdef", d->out);
	assert_int_equal(mkdir(inner, 0700), 0);
	assert_int_equal(tmpdir_remove(inner), -1);
	assert_true(exists(inner, ""));
	assert_int_equal(tmpdir_make(inner, sizeof(inner), "a/b"), -1);
	assert_int_equal(tmpdir_make(inner, 16, "a-name-that-does-not-fit"), -1);
}

/* /tmp/NAME-XXXXXX as a link to the neighbour: refused, the target kept. */
static void test_refuses_a_link(void **state)
{
	struct dirs *d = *state;
	char link[64];

	assert_int_equal(tmpdir_make(link, sizeof(link), "link"), 0);
	assert_int_equal(rmdir(link), 0);	/* its name, for the link */
	assert_int_equal(symlink(d->out, link), 0);
	errno = 0;
	assert_int_equal(tmpdir_remove(link), -1);
	assert_int_equal(errno, EPERM);
	assert_true(exists(d->out, "kept/file"));
	assert_int_equal(unlink(link), 0);
}

int run_tmpdir_tests(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_removes_the_tree_only, setup, teardown),
		cmocka_unit_test_setup_teardown(test_refuses_other_paths, setup, teardown),
		cmocka_unit_test_setup_teardown(test_refuses_a_link, setup, teardown),
	};

	return cmocka_run_group_tests_name("tmpdir", tests, NULL, NULL);
}
