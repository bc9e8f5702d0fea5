/* SPDX-License-Identifier: GPL-2.0 */
/* fence-trace.h - the subcommands and what the front end shares with them. */
#ifndef FENCE_TRACE_H
#define FENCE_TRACE_H

#include <getopt.h>

#define EXIT_USAGE 2

/*
 * What a command's getopt_long() parses.  The command passes exactly these
 * two to getopt_long(), and the front end's command table points at them,
 * so that tests/cli/test-man can list every option a command accepts and
 * find each in its --help, man page and completion (fence-trace.c).
 */
struct cmd_options {
	const char *short_opts;
	const struct option *long_opts;
};

int cmd_record(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_diff(int argc, char **argv);
int cmd_latency(int argc, char **argv);
int cmd_top(int argc, char **argv);
int cmd_check(int argc, char **argv);
int cmd_stall(int argc, char **argv);
int cmd_timeline(int argc, char **argv);
int cmd_export(int argc, char **argv);

extern const struct cmd_options record_options, report_options, diff_options, latency_options,
	top_options, check_options, stall_options, timeline_options, export_options;

void usage_error(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void print_usage(const char *cmd);
int usage_bad_option(const char *cmd, int opt, char **argv);
int usage_trace_file(const char *cmd, int argc, char **argv, const char **path);

#endif
