/* SPDX-License-Identifier: GPL-2.0 */
/* uname-fields.h - host and kernel release from a UNAME option (uname-fields.c). */
#ifndef FENCE_TRACE_UNAME_FIELDS_H
#define FENCE_TRACE_UNAME_FIELDS_H

#include <stddef.h>

void uname_fields(const char *uname, char *host, size_t host_len, char *release, size_t rel_len);

#endif
