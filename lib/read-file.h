/* SPDX-License-Identifier: GPL-2.0 */
/* read-file.h - a whole file whose size stat() cannot tell (read-file.c). */
#ifndef FENCE_TRACE_READ_FILE_H
#define FENCE_TRACE_READ_FILE_H

#include <stddef.h>

char *read_file(const char *path, size_t *size);

#endif
