// SPDX-License-Identifier: GPL-2.0
/* unit-tests.c - run every host unit-test group (cmocka). */
#include "unit.h"

int main(void)
{
	int failed = 0;

	failed += run_logscan_tests();
	failed += run_workload_plan_tests();
	failed += run_series_probe_tests();
	failed += run_sync_name_tests();
	failed += run_hist_tests();
	failed += run_tracedat_tests();
	failed += run_tracedat_bad_tests();
	failed += run_tracedat_compat_tests();
	failed += run_tracedat_v7_stats_tests();
	failed += run_tracedat_zip_tests();
	failed += run_model_contexts_tests();
	failed += run_report_tests();
	failed += run_frames_tests();
	failed += run_failed_frames_tests();
	failed += run_driver_part_tests();
	failed += run_sched_wakeup_tests();
	failed += run_timeline_tests();
	failed += run_report_series_tests();
	failed += run_report_sections_tests();
	failed += run_report_waits_tests();
	failed += run_report_odd_tests();
	failed += run_fence_identity_tests();
	failed += run_spill_tests();
	failed += run_tmpdir_tests();
	failed += run_kallsyms_tests();
	failed += run_stall_class_tests();
	failed += run_lockdown_tests();
	failed += run_proc_comm_tests();
	failed += run_tables_names_tests();
	failed += run_names_ask_tests();
	failed += run_decode_slots_tests();
	failed += run_event_formats_tests();
	failed += run_tie_order_tests();
	failed += run_mutant_kills_tests();
	return failed ? 1 : 0;
}
