/* SPDX-License-Identifier: GPL-2.0 */
/*
 * export-tables.h - `fence-trace export --tables DIR FILE...`: many
 * captures at once, one process per capture, as many at a time as the
 * machine has cores (export-tables.c; the rows: output/tables.h).
 */
#ifndef FENCE_TRACE_EXPORT_TABLES_H
#define FENCE_TRACE_EXPORT_TABLES_H

#include "tables.h"

#define EXPORT_MAX_LABELS 32

struct export_tables {
	const char *dir;
	char *const *files;
	int n_files;
	struct tables_label labels[EXPORT_MAX_LABELS];
	unsigned int n_labels;
	int jobs;			/* processes at a time */
};

/* Parse "K=V" into the next label; -1 (said) when it is not one. */
int export_tables_label(struct export_tables *x, char *arg);
/* Return: 0 when every capture was exported, 1 when one or more failed (listed). */
int export_tables_run(const struct export_tables *x);

#endif
