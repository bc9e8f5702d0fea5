// SPDX-License-Identifier: GPL-2.0
/*
 * label-arg.c - `--label KEY=VALUE`, as record and export take it: KEY of
 * a-z, 0-9 and _ (a column name anywhere), not starting with a digit,
 * each once; VALUE anything.
 */
#include <string.h>

#include "fence-trace.h"
#include "label-arg.h"

/**
 * label_arg() - @arg (split in place) as the next of @labels
 *
 * Return: 0, or -1 after saying why in one line.
 */
int label_arg(const char *cmd, char *arg, struct capture_label *labels, unsigned int *n)
{
	char *eq = strchr(arg, '=');

	if (!eq || !capture_label_key_ok(arg, (size_t)(eq - arg))) {
		usage_error(cmd, "--label: '%s' is not KEY=VALUE (KEY of a-z, 0-9 and _)", arg);
		return -1;
	}
	if (eq - arg == 11 && !strncmp(arg, "realtime_ns", 11)) {
		usage_error(cmd, "--label: realtime_ns is the marker's own (the wall clock)");
		return -1;
	}
	if (*n == CAPTURE_MAX_LABELS) {
		usage_error(cmd, "--label: more than %d labels", CAPTURE_MAX_LABELS);
		return -1;
	}
	*eq = '\0';
	for (unsigned int i = 0; i < *n; i++)
		if (!strcmp(labels[i].key, arg)) {
			usage_error(cmd, "--label: %s given twice", arg);
			return -1;
		}
	labels[(*n)++] = (struct capture_label){ arg, eq + 1 };
	return 0;
}
