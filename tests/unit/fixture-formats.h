/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fixture-formats.h - the lab guest's event formats (Linux 6.1 with the
 * series), committed for the tests' constructed traces: tb_new()'s
 * folder.  Relative to the repository root, where the tests run.
 */
#ifndef FENCE_TRACE_FIXTURE_FORMATS_H
#define FENCE_TRACE_FIXTURE_FORMATS_H

#define TB_FIXTURES "tests/fixtures/formats-6.1"

#endif
