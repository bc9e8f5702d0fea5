// SPDX-License-Identifier: GPL-2.0
/*
 * usage.c - every usage text of fence-trace, in one table, so --help, the
 * man pages and the bash completion (generated from it by cli/docgen)
 * are written once.
 */
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "fence-trace.h"
#include "usage.h"

static const struct usage usages[] = {
	{ "record", "capture fence and display events into a trace.dat",
	  "usage: fence-trace record [-o FILE] [-e SYSTEM:EVENT]... [-b KB] [-d SECONDS]\n"
	  "                          [--bpf [--raw-tp]] [-- COMMAND [ARG]...]\n"
	  "Enables the fence and display events in a private tracefs instance (the\n"
	  "top-level trace is left alone; the instance is removed on exit), with the\n"
	  "mono trace clock, and writes a trace-cmd trace.dat.  Stops when COMMAND\n"
	  "exits, after -d SECONDS, or on SIGINT/SIGTERM/SIGHUP; lost events are\n"
	  "counted and printed.\n"
	  "Exit status with COMMAND: COMMAND's own (128+N when a signal N from\n"
	  "elsewhere killed it; 0 when -d or a stop signal to record ended it), 127\n"
	  "COMMAND not found, 126 COMMAND not executable, 125 record itself failed.\n"
	  "Without COMMAND: 0, or 1 when recording failed.  2 a usage error.\n"
	  "  -o, --output FILE        output file (default trace.dat)\n"
	  "  -e, --event SYS:EVENT    record this event too (repeatable; SYS:* for a\n"
	  "                           system)\n"
	  "  -b, --buffer-kb KB       per-CPU ring buffer size (default 4096); with\n"
	  "                           --bpf the size of the one BPF ring, rounded up\n"
	  "                           to a power of two (default 16384)\n"
	  "  -d, --duration SECONDS   stop after this many seconds\n"
	  "  --bpf                    record the stock fence and vblank events\n"
	  "                           through BPF (a ring buffer; no strings\n"
	  "                           formatted in the kernel) and the series'\n"
	  "                           low-rate events through tracefs, into the same\n"
	  "                           kind of trace.dat; drops are counted\n"
	  "  --raw-tp                 with --bpf: raw_tp programs even where tp_btf\n"
	  "                           works (for testing)\n" },
	{ "report", "explain fence latency, waits and late frames in a trace.dat",
	  "usage: fence-trace report [FILE] [--json | --csv] [--section S]...\n"
	  "                          [--timeline T] [--context N] [--crtc C] [--pid P]\n"
	  "                          [--from T --to T] [--hist]\n"
	  "Reads FILE (default trace.dat) from fence-trace record or from\n"
	  "trace-cmd record -e dma_fence -e drm, and reports per fence timeline, per\n"
	  "waiting task and per CRTC (late frames and what blocked them).\n"
	  "  --json          the JSON contract (docs/report-json.md) instead of tables\n"
	  "  --csv           one CSV table per section (timelines, waits by task,\n"
	  "                  late frames, stalls, anomalies)\n"
	  "  --section S     timelines, waits, display, stalls, anomalies or all\n"
	  "                  (repeatable, or comma-separated; default all)\n"
	  "  --timeline T    only timelines whose name contains T, the waits and\n"
	  "                  polls on them, and the late frames they blocked (all\n"
	  "                  of a CRTC's when T names its out-fence timeline)\n"
	  "  --context N     the same for fence context N\n"
	  "  --crtc C        only the CRTC with object id C\n"
	  "  --pid P         only waits by task P and late frames it committed\n"
	  "                  (the late-frame count says how many of all)\n"
	  "  --from T, --to T  only events in this window (trace time in seconds,\n"
	  "                  as trace-cmd report prints it); the heading states it\n"
	  "  --hist          text: a log2 histogram of each timeline's signal\n"
	  "                  latency under the timelines table\n" },
	{ "diff", "compare two captures: latency percentiles and late-frame rates",
	  "usage: fence-trace diff BASE.dat NEW.dat [-t PCT] [-p P]\n"
	  "Per fence timeline (matched by driver and name) and per CRTC (by object\n"
	  "id and name): fences or frames, latency p50, p99 and max in BASE and NEW,\n"
	  "and the change of the chosen percentile; per CRTC the late frames, as a\n"
	  "count and as a rate (late frames per frame), so that a longer run with\n"
	  "the same share of late frames does not regress.  Rows only in NEW are\n"
	  "marked new, rows only in BASE gone.\n"
	  "Exit status: 0 nothing regressed (always without --threshold), 3 a\n"
	  "regression past the threshold, 1 a trace could not be read, 2 a usage\n"
	  "error.\n"
	  "  -t, --threshold PCT   exit with status 3 when the chosen percentile grew\n"
	  "                        by more than PCT percent on any timeline or CRTC,\n"
	  "                        or a CRTC's late-frame rate did (any late frames\n"
	  "                        where BASE had none), for regression gating in CI\n"
	  "  -p, --percentile P    the gated percentile: p50, p90, p99 (default) or\n"
	  "                        max\n" },
	{ "latency", "live fence signal latency and waits, per timeline (BPF)",
	  "usage: fence-trace latency [-C CONTEXT] [-T TIMELINE] [-P] [-W] [-m] [--json]\n"
	  "                           [INTERVAL [COUNT]]\n"
	  "Log2 histograms of dma_fence signal latency (creation -> signal) per fence\n"
	  "context, aggregated in the kernel by BPF; printed every INTERVAL seconds,\n"
	  "COUNT times, or once at Ctrl-C.  Drop counters come with every output.\n"
	  "With the fence-trace kernel series also: how long after its vblank each\n"
	  "out-fence signal ran, per vblank pipe, and (-W) each commit's in-fence\n"
	  "wait per DRM plane; on other kernels those programs are skipped, and said.\n"
	  "  -C, --context CONTEXT     only this fence context\n"
	  "  -T, --timeline TIMELINE   only timelines whose name contains TIMELINE\n"
	  "  -W, --waits               also wait durations (dma_fence_wait_start ->\n"
	  "                            _end) per waited timeline\n"
	  "  -P, --per-task            waits per waiting task too (implies -W)\n"
	  "  -m, --milliseconds        milliseconds instead of microseconds\n"
	  "  --json                    one JSON object per interval, one per line\n"
	  "  -v, --verbose             libbpf's messages (the verifier log on failure)\n"
	  "  --raw-tp                  raw_tp programs even where tp_btf works (for\n"
	  "                            testing)\n" },
	{ "top", "live table of fence timelines, worst p99 first; --pending: stuck fences",
	  "usage: fence-trace top [-p] [-d SECONDS] [-n COUNT]\n"
	  "A table of fence timelines refreshed every -d SECONDS (default 1), sorted\n"
	  "by p99 signal latency: fences signalled per second, errors, outstanding\n"
	  "(unsignalled) fences and the oldest one's age.  On a terminal it redraws\n"
	  "in place and q quits; through a pipe it prints one table per interval.\n"
	  "  -p, --pending         the unsignalled fences, oldest first: those created\n"
	  "                        since top started (age and creating task known)\n"
	  "                        and those user space holds as sync_file fds (task\n"
	  "                        and fd; for fences older than top, age and\n"
	  "                        creator are unknown)\n"
	  "  -d, --delay SECONDS   refresh interval (default 1)\n"
	  "  -n, --count COUNT     stop after COUNT tables\n" },
	{ "check", "what this kernel offers fence-trace, with a hint for each missing piece",
	  "usage: fence-trace check\n"
	  "Says, in plain words, what this machine's kernel offers: whether tracefs\n"
	  "is mounted and writable (an instance is made and removed); which event\n"
	  "sets exist (dma_fence:*, drm:drm_vblank_event*, naming any event\n"
	  "missing); which patches of the fence-trace kernel series are there, by\n"
	  "what each adds (its drm_fence:* and sync_file:* events, dma_fence_error\n"
	  "and dma_fence_member, a field, a debugfs file), with the series'\n"
	  "version: the newest patch present in full, or what is incomplete;\n"
	  "whether BTF is there and tp_btf and raw_tp programs attach (a program\n"
	  "that does nothing is attached to dma_fence_init for a moment), and BPF\n"
	  "ring buffer maps; the debugfs files (sync/info, which lists sync_files\n"
	  "with the series: a sw_sync fence is made to see, dri/N/crtc-M/\n"
	  "fence_timeline).  Each missing piece has a one-line hint.  Without root\n"
	  "most of it cannot be looked at, and says so.\n"
	  "Exit status: 0 record and latency can both work, 3 record can but the\n"
	  "BPF tools (latency, top, stall, record --bpf) cannot, 4 latency can but\n"
	  "record cannot, 1 neither can, 2 a usage error.\n" },
	{ "stall", "say what a stuck fence wait is blocked on, live",
	  "usage: fence-trace stall [--threshold MS | --vblanks N] [--once] [--json]\n"
	  "                         [-d SECONDS] [-v] [--raw-tp]\n"
	  "Watches every dma_fence wait.  When one outlasts the threshold (default:\n"
	  "2 vblank periods of the slowest CRTC, else 33 ms) it says at once which\n"
	  "task waits on which fence (driver, timeline, context, seqno), how far\n"
	  "behind that timeline is, which task created the fence, the members of a\n"
	  "merged fence still pending, and the kernel's debugfs view; then when and\n"
	  "how the stall cleared (signalled, with an error, or interrupted).\n"
	  "  --threshold MS           a fixed threshold\n"
	  "  --vblanks N              N vblank periods of the slowest CRTC\n"
	  "  --once                   exit with status 3 at the first stall\n"
	  "  --json                   one JSON object per line: stall, cleared\n"
	  "  -d, --duration SECONDS   stop after this long\n"
	  "  -v, --verbose            libbpf's messages (the verifier log on failure)\n"
	  "  --raw-tp                 raw_tp programs even where tp_btf works (for\n"
	  "                           testing)\n" },
	{ "timeline", "one self-contained HTML page: fences, waits, vblanks, late frames",
	  "usage: fence-trace timeline [-o OUT.html] [FILE]\n"
	  "Reads FILE (default trace.dat) and writes one HTML file (default\n"
	  "timeline.html) that any browser opens offline: a lane per CRTC with its\n"
	  "vblanks and out-fences, a lane per fence timeline, a lane per waiting\n"
	  "task, late frames with an arrow from the fence that blocked them.\n"
	  "Wheel or w/s zoom, drag or a/d pan, click for details, / to search.\n"
	  "  -o, --output OUT.html   output file (default timeline.html)\n" },
	{ "export", "the trace as Chrome trace-event JSON, for ui.perfetto.dev",
	  "usage: fence-trace export --perfetto OUT.json [FILE]\n"
	  "Reads FILE (default trace.dat) and writes Chrome trace-event JSON: tracks\n"
	  "per CRTC, fence timeline and waiting task, vblanks as instants, and a\n"
	  "flow arrow from each late frame's blocking fence to its out-fence.  Open\n"
	  "it at https://ui.perfetto.dev (Open trace file) or chrome://tracing.\n"
	  "  --perfetto OUT.json   output file\n" },
};

const struct usage *usage_table(size_t *count)
{
	*count = sizeof(usages) / sizeof(usages[0]);
	return usages;
}

static const struct usage *find(const char *cmd)
{
	for (size_t i = 0; cmd && i < sizeof(usages) / sizeof(usages[0]); i++)
		if (strcmp(usages[i].cmd, cmd) == 0)
			return &usages[i];
	return NULL;
}

void print_usage(const char *cmd)
{
	const struct usage *u = find(cmd);

	if (u) {
		fputs(u->text, stdout);
		return;
	}
	printf("usage: fence-trace COMMAND [ARG]...\n\nCommands:\n");
	for (size_t i = 0; i < sizeof(usages) / sizeof(usages[0]); i++)
		printf("  %-8s %s\n", usages[i].cmd, usages[i].summary);
	printf("\n'fence-trace COMMAND --help' describes one.\n");
}

/* One line saying what is wrong, one pointing to the help; exit status 2. */
void usage_error(const char *cmd, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "fence-trace%s%s: ", cmd ? " " : "", cmd ? cmd : "");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\nTry 'fence-trace %s%s--help'.\n", cmd ? cmd : "", cmd ? " " : "");
}

/*
 * usage_bad_option() - say what getopt_long() found wrong with an option
 * @opt: what it returned: ':' for a missing argument (the optstring starts
 *       with ':'), anything else for an unknown option
 *
 * The commands set opterr = 0 so that this is the one message.
 * Return: -1, for the command's parser to return.
 */
int usage_bad_option(const char *cmd, int opt, char **argv)
{
	if (opt == ':')
		usage_error(cmd, "option '%s' needs an argument", argv[optind - 1]);
	else
		usage_error(cmd, "unknown option '%s'", argv[optind - 1]);
	return -1;
}

/*
 * usage_trace_file() - the trace file operand after the options, if any
 * @path: keeps its default when there is none
 *
 * Return: 0, or -1 when there is more than one (a usage error, said).
 */
int usage_trace_file(const char *cmd, int argc, char **argv, const char **path)
{
	if (optind < argc)
		*path = argv[optind++];
	if (optind < argc) {
		usage_error(cmd, "one trace file at a time ('%s' is one too many)", argv[optind]);
		return -1;
	}
	return 0;
}
