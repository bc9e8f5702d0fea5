/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tmpdir.h - the unit tests' temporary folders: made by mkdtemp() under
 * /tmp, and removed from the inside, so that a wrong path can never take
 * anything outside the folder with it (no shell, no rm -rf).
 */
#ifndef FENCE_TRACE_TMPDIR_H
#define FENCE_TRACE_TMPDIR_H

#include <stddef.h>

#define TMPDIR_ROOT "/tmp"

int tmpdir_make(char *dir, size_t len, const char *name);
int tmpdir_remove(const char *dir);
/* "@dir/@name" in one of two static buffers: two may be in use at a time. */
const char *tmpdir_join(const char *dir, const char *name);
int tmpdir_write(const char *dir, const char *name, const char *text);

#endif
