/* SPDX-License-Identifier: GPL-2.0 */
/* unit.h - the host unit-test groups, one per file, run by unit-tests.c. */
#ifndef FENCE_TRACE_UNIT_H
#define FENCE_TRACE_UNIT_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <setjmp.h>
#include <cmocka.h>

/* cmocka's TAP line for a skip has no reason: give it on a comment line. */
#define skip_because(...) do { print_message("# skipped: " __VA_ARGS__); skip(); } while (0)

/* trace-cmd, which some tests use to convert files, is on PATH. */
static inline int have_trace_cmd(void)
{
	return system("command -v trace-cmd >/dev/null 2>&1") == 0;
}

int run_logscan_tests(void);
int run_workload_plan_tests(void);
int run_series_probe_tests(void);
int run_names_ask_tests(void);
int run_decode_slots_tests(void);
int run_sync_name_tests(void);
int run_hist_tests(void);
int run_tracedat_tests(void);
int run_tracedat_bad_tests(void);
int run_tracedat_compat_tests(void);
int run_tracedat_v7_stats_tests(void);
int run_tracedat_zip_tests(void);
int run_report_tests(void);
int run_timeline_tests(void);
int run_report_series_tests(void);
int run_report_sections_tests(void);
int run_report_waits_tests(void);
int run_report_odd_tests(void);
int run_fence_identity_tests(void);
int run_spill_tests(void);
int run_tmpdir_tests(void);
int run_kallsyms_tests(void);
int run_stall_class_tests(void);
int run_lockdown_tests(void);
int run_proc_comm_tests(void);
int run_tables_names_tests(void);
int run_event_formats_tests(void);
int run_tie_order_tests(void);
int run_mutant_kills_tests(void);
int run_model_contexts_tests(void);
int run_frames_tests(void);
int run_failed_frames_tests(void);
int run_driver_part_tests(void);
int run_sched_wakeup_tests(void);

#endif
