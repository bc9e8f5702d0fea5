// SPDX-License-Identifier: GPL-2.0
/*
 * read-file.c - the whole of a file whose size stat() cannot tell: /proc
 * and tracefs files say 0, and hand out their text a page or so per read.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

#include "read-file.h"

/**
 * read_file() - @path's content, NUL-terminated; its length in @size
 * (may be NULL)
 *
 * Return: a buffer to free(), or NULL with errno set.
 */
char *read_file(const char *path, size_t *size)
{
	size_t len = 0, cap = 1 << 16;
	char *buf = malloc(cap), *grown;
	ssize_t n;
	int fd = open(path, O_RDONLY | O_CLOEXEC), err;

	if (fd < 0 || !buf)
		goto fail;
	while ((n = read(fd, buf + len, cap - len - 1)) > 0) {
		len += (size_t)n;
		if (cap - len - 1 >= cap / 4)
			continue;
		grown = realloc(buf, cap * 2);	/* large reads: /proc/kallsyms is MBs */
		if (!grown)
			goto fail;
		buf = grown;
		cap *= 2;
	}
	if (n < 0)
		goto fail;
	close(fd);
	buf[len] = '\0';
	grown = realloc(buf, len + 1);	/* callers keep what they read: format files by the hundred */
	if (grown)
		buf = grown;
	if (size)
		*size = len;
	return buf;
fail:
	err = errno;
	if (fd >= 0)
		close(fd);
	free(buf);
	errno = err;
	return NULL;
}
