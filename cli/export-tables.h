/* SPDX-License-Identifier: GPL-2.0 */
/*
 * export-tables.h - `fence-trace export --tables DIR FILE...`: many
 * captures at once, one process per capture, as many at a time as the
 * machine has cores (export-tables.c; the rows: output/tables.h).
 */
#ifndef FENCE_TRACE_EXPORT_TABLES_H
#define FENCE_TRACE_EXPORT_TABLES_H

#include "tables.h"

struct export_tables {
	const char *dir;
	char *const *files;
	int n_files;
	struct capture_label labels[CAPTURE_MAX_LABELS];
	unsigned int n_labels;
	int jobs;			/* processes at a time */
	int fences;			/* --fences: the fences table too */
};

/* Return: 0 when every capture was exported, 1 when one or more failed (listed). */
int export_tables_run(const struct export_tables *x);

#define EXPORT_FAILED_ROW 3	/* export_capture(): failed, and said why in the failed table */

/* In the child: one capture's rows under run @run; its exit status (0, 1 or EXPORT_FAILED_ROW). */
int export_capture(const struct export_tables *x, const char *path, const char *run);
const char *export_label(const struct capture_label *labels, unsigned int n, const char *key);
const char *export_failed_host(const struct export_tables *x, char *buf, size_t len);

#endif
