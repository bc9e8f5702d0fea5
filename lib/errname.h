/* SPDX-License-Identifier: GPL-2.0 */
/* errname.h - a kernel error code as its name, for every output. */
#ifndef FENCE_TRACE_ERRNAME_H
#define FENCE_TRACE_ERRNAME_H

#include <stddef.h>

const char *errname(int err, char *buf, size_t len);

#endif
