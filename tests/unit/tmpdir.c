// SPDX-License-Identifier: GPL-2.0
/*
 * tmpdir.c - temporary folders for the unit tests (see tmpdir.h).
 *
 * Removal refuses any path that does not have the shape tmpdir_make()
 * gives (/tmp/NAME-XXXXXX, one component below /tmp), and then works only
 * through descriptors of directories opened inside that folder with
 * O_NOFOLLOW: a symbolic link inside is unlinked, never followed, and a
 * file system mounted inside is left alone, so nothing outside the folder
 * can be reached whatever the folder holds.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tmpdir.h"

#define SUFFIX_LEN 6		/* mkdtemp's XXXXXX */
#define MAX_DEPTH 16		/* the tests nest two or three levels */

/* A name tmpdir_make() could have made: [A-Za-z0-9_.-]+ then -XXXXXX. */
static int valid_name(const char *name)
{
	size_t n = strlen(name);

	if (n < SUFFIX_LEN + 2 || name[0] == '.' || name[n - SUFFIX_LEN - 1] != '-')
		return 0;
	for (size_t i = 0; i < n; i++)
		if (!isalnum((unsigned char)name[i]) && !strchr("_.-", name[i]))
			return 0;
	for (size_t i = n - SUFFIX_LEN; i < n; i++)
		if (!isalnum((unsigned char)name[i]))
			return 0;
	return 1;
}

/**
 * tmpdir_make() - make a fresh folder /tmp/@name-XXXXXX, its path in @dir
 * @dir: receives the path
 * @len: size of @dir
 * @name: letters, digits, '_', '.' or '-'
 *
 * Return: 0, or -1 (errno set) when @name is not such a name, @dir is too
 * small or mkdtemp() fails.
 */
int tmpdir_make(char *dir, size_t len, const char *name)
{
	int n = snprintf(dir, len, "%s/%s-XXXXXX", TMPDIR_ROOT, name);

	if (n < 0 || (size_t)n >= len || !valid_name(dir + strlen(TMPDIR_ROOT "/"))) {
		errno = EINVAL;
		return -1;
	}
	return mkdtemp(dir) ? 0 : -1;
}

static int empty_dir(int fd, dev_t dev, int depth);

/* Remove @name from the directory @fd: a directory after emptying it. */
static int remove_entry(int fd, const char *name, dev_t dev, int depth)
{
	struct stat st;
	int sub, err;

	if (fstatat(fd, name, &st, AT_SYMLINK_NOFOLLOW))
		return -1;
	if (!S_ISDIR(st.st_mode))
		return unlinkat(fd, name, 0);	/* a link: the link, not its target */
	if (st.st_dev != dev) {
		errno = EXDEV;			/* a mount point: not ours to empty */
		return -1;
	}
	sub = openat(fd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (sub < 0)
		return -1;
	err = empty_dir(sub, dev, depth + 1);
	close(sub);
	return err ? -1 : unlinkat(fd, name, AT_REMOVEDIR);
}

/* Remove everything in the directory @fd (which stays open). */
static int empty_dir(int fd, dev_t dev, int depth)
{
	struct dirent *e;
	int err = 0, copy;
	DIR *d;

	if (depth > MAX_DEPTH) {
		errno = ELOOP;
		return -1;
	}
	copy = dup(fd);			/* closedir() closes what it was given */
	d = copy < 0 ? NULL : fdopendir(copy);
	if (!d) {
		if (copy >= 0)
			close(copy);
		return -1;
	}
	while ((e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
			err |= remove_entry(fd, e->d_name, dev, depth);
	closedir(d);
	return err ? -1 : 0;
}

/* Open /tmp/@name, a real directory of ours; -1 if it is anything else. */
static int open_ours(int root, const char *name, struct stat *st)
{
	struct stat opened;
	int fd;

	if (fstatat(root, name, st, AT_SYMLINK_NOFOLLOW))
		return -1;
	if (!S_ISDIR(st->st_mode) || st->st_uid != geteuid()) {
		errno = EPERM;
		return -1;
	}
	fd = openat(root, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd >= 0 && (fstat(fd, &opened) || opened.st_ino != st->st_ino ||
			opened.st_dev != st->st_dev)) {
		close(fd);	/* swapped between the two looks */
		errno = EPERM;
		return -1;
	}
	return fd;
}

/**
 * tmpdir_remove() - remove a folder made by tmpdir_make() and all it holds
 * @dir: /tmp/NAME-XXXXXX
 *
 * Refuses (one line on stderr) a path of any other shape, a symbolic link,
 * and a folder that is not the caller's.
 *
 * Return: 0, or -1 with errno set.
 */
int tmpdir_remove(const char *dir)
{
	const char *name = dir + strlen(TMPDIR_ROOT "/");
	struct stat st;
	int root, fd, err;

	if (strncmp(dir, TMPDIR_ROOT "/", strlen(TMPDIR_ROOT "/")) || !valid_name(name)) {
		fprintf(stderr, "tmpdir_remove: refusing '%s': not a %s/NAME-XXXXXX folder\n",
			dir, TMPDIR_ROOT);
		errno = EINVAL;
		return -1;
	}
	root = open(TMPDIR_ROOT, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (root < 0)
		return -1;
	fd = open_ours(root, name, &st);
	if (fd < 0) {
		err = errno;
		fprintf(stderr, "tmpdir_remove: refusing '%s': %s\n", dir, strerror(err));
		close(root);
		errno = err;
		return -1;
	}
	err = empty_dir(fd, st.st_dev, 0);
	close(fd);
	if (!err)
		err = unlinkat(root, name, AT_REMOVEDIR);
	close(root);
	return err;
}

const char *tmpdir_join(const char *dir, const char *name)
{
	static char path[2][128];
	static int i;

	i = !i;
	snprintf(path[i], sizeof(path[i]), "%s/%s", dir, name);
	return path[i];
}

/* Return: 0 when @text is all of the new file @dir/@name, else -1. */
int tmpdir_write(const char *dir, const char *name, const char *text)
{
	FILE *f = fopen(tmpdir_join(dir, name), "w");
	int ok = f && fputs(text, f) >= 0;

	if (f && fclose(f))
		ok = 0;
	return ok ? 0 : -1;
}
