/* SPDX-License-Identifier: GPL-2.0 */
/* fence-trace.h - the subcommands and what the front end shares with them. */
#ifndef FENCE_TRACE_H
#define FENCE_TRACE_H

#include <getopt.h>

#include "usage.h"

#define EXIT_USAGE 2

int cmd_record(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_diff(int argc, char **argv);
int cmd_latency(int argc, char **argv);
int cmd_top(int argc, char **argv);
int cmd_check(int argc, char **argv);
int cmd_stall(int argc, char **argv);
int cmd_timeline(int argc, char **argv);
int cmd_export(int argc, char **argv);

void usage_error(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void print_usage(const char *cmd);
int usage_bad_option(const char *cmd, int opt, char **argv);
int usage_trace_file(const char *cmd, int argc, char **argv, const char **path);

#endif
