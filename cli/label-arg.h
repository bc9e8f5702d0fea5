/* SPDX-License-Identifier: GPL-2.0 */
/* label-arg.h - parse `--label KEY=VALUE` (label-arg.c), for record and export. */
#ifndef FENCE_TRACE_LABEL_ARG_H
#define FENCE_TRACE_LABEL_ARG_H

#include "capture-marker.h"

int label_arg(const char *cmd, char *arg, struct capture_label *labels, unsigned int *n);

#endif
