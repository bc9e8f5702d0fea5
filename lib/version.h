/* SPDX-License-Identifier: GPL-2.0 */
/* version.h - "fence-trace X.Y.Z", from the VERSION file (version.c). */
#ifndef FENCE_TRACE_VERSION_H
#define FENCE_TRACE_VERSION_H

const char *fence_trace_version(void);

#endif
