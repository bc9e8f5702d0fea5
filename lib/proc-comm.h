/* SPDX-License-Identifier: GPL-2.0 */
/* proc-comm.h - a task's name from /proc (proc-comm.c). */
#ifndef FENCE_TRACE_PROC_COMM_H
#define FENCE_TRACE_PROC_COMM_H

#include <stddef.h>

int proc_comm(int pid, char *buf, size_t len);

#endif
