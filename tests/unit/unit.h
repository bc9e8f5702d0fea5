/* SPDX-License-Identifier: GPL-2.0 */
/* unit.h - the host unit-test groups, one per file, run by unit-tests.c. */
#ifndef FENCE_TRACE_UNIT_H
#define FENCE_TRACE_UNIT_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

int run_logscan_tests(void);
int run_workload_plan_tests(void);
int run_series_probe_tests(void);
int run_sync_name_tests(void);
int run_hist_tests(void);
int run_tracedat_tests(void);
int run_tracedat_bad_tests(void);
int run_tracedat_compat_tests(void);
int run_tracedat_v7_stats_tests(void);
int run_report_tests(void);
int run_timeline_tests(void);
int run_report_series_tests(void);
int run_report_sections_tests(void);
int run_report_odd_tests(void);
int run_spill_tests(void);
int run_tmpdir_tests(void);
int run_mutant_kills_tests(void);

#endif
