// SPDX-License-Identifier: GPL-2.0
/*
 * version.c - fence-trace's version, from the repository's VERSION file
 * (the Makefile passes it in and rebuilds this file when it changes): what
 * `fence-trace --version` prints, what `record` writes into each trace.dat
 * (trace-cmd's VERSION option) and what `export --tables` stamps on rows.
 */
#include "version.h"

#ifndef FENCE_TRACE_VERSION
#error "FENCE_TRACE_VERSION comes from the VERSION file (see the Makefile)"
#endif

const char *fence_trace_version(void)
{
	return "fence-trace " FENCE_TRACE_VERSION;
}
