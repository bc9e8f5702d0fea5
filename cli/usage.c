// SPDX-License-Identifier: GPL-2.0
/*
 * usage.c - every usage text and option table of fence-trace, in one
 * place: --help prints them, the commands' getopt_long() tables are made
 * from the option tables, and cli/docgen writes the man pages' OPTIONS
 * sections and the bash completion from them, so the four cannot drift.
 * The rest of each man page is docs/man/fence-trace-CMD.1.scd.
 */
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fence-trace.h"
#include "usage.h"

/* name, -x, key (long only), argument, completion, help (NULL: the one above's) */
static const struct cmd_option record_options[] = {
	{ "output", 'o', 0, "FILE", COMPLETE_FILE, "output file (default trace.dat)" },
	{ "event", 'e', 0, "SYS:EVENT", NULL,
	  "record this event too (repeatable; SYS:* for a\n"
	  "system)" },
	{ "sched", 0, 'S', NULL, NULL,
	  "record sched:sched_wakeup and sched_switch too:\n"
	  "a late frame of class wakeup then names the task\n"
	  "that held its waiter's CPU (not with --bpf)" },
	{ "buffer-kb", 'b', 0, "KB", NULL,
	  "per-CPU ring buffer size (default 4096); with\n"
	  "--bpf the size of the one BPF ring, rounded up\n"
	  "to a power of two (default 16384)" },
	{ "duration", 'd', 0, "SECONDS", NULL, "stop after this many seconds" },
	{ "clock", 'C', 0, "CLOCK", RECORD_CLOCKS,
	  "the trace clock (default mono: times line up\n"
	  "with CLOCK_MONOTONIC, the programs' own and the\n"
	  "vblank's; local, trace-cmd's default, costs a\n"
	  "little less per event); not with --bpf, whose\n"
	  "clock is mono" },
	{ "bpf", 0, 'B', NULL, NULL,
	  "record the stock fence and vblank events\n"
	  "through BPF (a ring buffer; no strings\n"
	  "formatted in the kernel) and the series'\n"
	  "low-rate events through tracefs, into the same\n"
	  "kind of trace.dat; drops are counted" },
	{ "label", 0, 'l', "KEY=VALUE", NULL,
	  "name the run in the file (run=, host=, branch=,\n"
	  "...; again for more): export --tables reads it" },
	{ "raw-tp", 0, 'r', NULL, NULL,
	  "with --bpf: raw_tp programs even where tp_btf\n"
	  "works (for testing)" },
	{ 0 }
};

static const struct cmd_option report_options[] = {
	{ "json", 0, 'j', NULL, NULL, "the JSON contract (docs/report-json.md) instead of tables" },
	{ "csv", 0, 'c', NULL, NULL,
	  "one CSV table per section (timelines, waits by task\n"
	  "and by timeline, late frames, frames, stalls,\n"
	  "anomalies)" },
	{ "section", 0, 's', "S", "timelines waits display frames stalls anomalies all",
	  "timelines, waits, display, frames, stalls, anomalies\n"
	  "or all (repeatable, or comma-separated; default all)" },
	{ "timeline", 0, 'T', "T", NULL,
	  "only timelines whose name contains T, the waits and\n"
	  "polls on them, and the late frames they blocked (all\n"
	  "of a CRTC's when T names its out-fence timeline)" },
	{ "context", 0, 'C', "N", NULL, "the same for fence context N" },
	{ "crtc", 0, 'R', "C", NULL, "only the CRTC with object id C" },
	{ "pid", 0, 'p', "P", NULL,
	  "only waits by task P and late frames it committed\n"
	  "(the late-frame count says how many of all)" },
	{ "from", 0, 'f', "T", NULL,
	  "only events in this window (trace time in seconds,\n"
	  "as trace-cmd report prints it); the heading states it" },
	{ "to", 0, 't', "T", NULL, NULL },
	{ "latch-margin", 0, 'L', "MS", NULL,
	  "frames: the driver's latch margin in ms (how long\n"
	  "before its target vblank a commit must be ready);\n"
	  "default: estimated per CRTC from the frames on time" },
	{ "hist", 0, 'H', NULL, NULL,
	  "text: a log2 histogram of each timeline's signal\n"
	  "latency under the timelines table" },
	{ "by", 0, 'y', "context", "context",
	  "under each group of contexts (one-fence contexts\n"
	  "by driver and timeline, merged fences by kind) its\n"
	  "contexts, slowest p99 first (10 a group at most);\n"
	  "JSON and CSV: every context's row; waits: a row\n"
	  "per waited (polled) context" },
	{ "reader", 0, 'r', "R", "fast libtracecmd",
	  "fast (default) or libtracecmd: read FILE with\n"
	  "trace-cmd's library instead of fence-trace's own\n"
	  "reader, to cross-check it (same report; slower)" },
	{ 0 }
};

static const struct cmd_option diff_options[] = {
	{ "threshold", 't', 0, "PCT", NULL,
	  "exit with status 3 when the chosen percentile grew\n"
	  "by more than PCT percent on any timeline or CRTC,\n"
	  "or a CRTC's late-frame rate did (any late frames\n"
	  "where BASE had none), or the rate of one class of\n"
	  "its late frames or of its failed frames did (3 of\n"
	  "them in NEW at least), for regression gating in CI" },
	{ "percentile", 'p', 0, "P", "p50 p90 p99 max",
	  "the gated percentile: p50, p90, p99 (default) or\n"
	  "max" },
	{ 0 }
};

static const struct cmd_option latency_options[] = {
	{ "context", 'C', 0, "CONTEXT", NULL, "only this fence context" },
	{ "timeline", 'T', 0, "TIMELINE", NULL, "only timelines whose name contains TIMELINE" },
	{ "waits", 'W', 0, NULL, NULL,
	  "also wait durations (dma_fence_wait_start ->\n"
	  "_end) per waited timeline" },
	{ "per-task", 'P', 0, NULL, NULL, "waits per waiting task too (implies -W)" },
	{ "milliseconds", 'm', 0, NULL, NULL, "milliseconds instead of microseconds" },
	{ "json", 0, 'j', NULL, NULL, "one JSON object per interval, one per line" },
	{ "verbose", 'v', 0, NULL, NULL, "libbpf's messages (the verifier log on failure)" },
	{ "raw-tp", 0, 'r', NULL, NULL,
	  "raw_tp programs even where tp_btf works (for\n"
	  "testing)" },
	{ 0 }
};

static const struct cmd_option top_options[] = {
	{ "pending", 'p', 0, NULL, NULL,
	  "the unsignalled fences, oldest first: those created\n"
	  "since top started (age and creating task known)\n"
	  "and those user space holds as sync_file fds (task\n"
	  "and fd; for fences older than top, age and\n"
	  "creator are unknown)" },
	{ "delay", 'd', 0, "SECONDS", NULL, "refresh interval (default 1)" },
	{ "count", 'n', 0, "COUNT", NULL, "stop after COUNT tables" },
	{ 0 }
};

static const struct cmd_option check_options[] = {
	{ 0 }
};

static const struct cmd_option stall_options[] = {
	{ "threshold", 0, 't', "MS", NULL, "a fixed threshold" },
	{ "vblanks", 0, 'V', "N", NULL, "N vblank periods of the slowest CRTC" },
	{ "latch-margin", 0, 'L', "MS", NULL,
	  "the driver's latch margin in ms, for the frame class\n"
	  "(wakeup or producer); default: unknown, and a\n"
	  "wakeup says up to which margin it holds" },
	{ "once", 0, 'o', NULL, NULL, "exit with status 3 at the first stall" },
	{ "json", 0, 'j', NULL, NULL, "one JSON object per line: stall, cleared" },
	{ "duration", 'd', 0, "SECONDS", NULL, "stop after this long" },
	{ "verbose", 'v', 0, NULL, NULL,
	  "libbpf's messages (the verifier log on failure),\n"
	  "what starting took and every task asleep at start" },
	{ "raw-tp", 0, 'r', NULL, NULL,
	  "raw_tp programs even where tp_btf works (for\n"
	  "testing)" },
	{ 0 }
};

static const struct cmd_option timeline_options[] = {
	{ "output", 'o', 0, "OUT.html", COMPLETE_FILE, "output file (default timeline.html)" },
	{ 0 }
};

static const struct cmd_option export_options[] = {
	{ "perfetto", 0, 'p', "OUT.json", COMPLETE_FILE, "Chrome trace-event JSON of one FILE" },
	{ "tables", 0, 'T', "DIR", COMPLETE_FILE, "the fleet tables of every FILE, under DIR" },
	{ "label", 0, 'l', "KEY=VALUE", NULL,
	  "stamp on each capture's row; host=, run= and\n"
	  "kernel= also name its folders; again for more" },
	{ "jobs", 'j', 0, "N", NULL, "captures read at a time (default: one per CPU)" },
	{ "fences", 0, 'F', NULL, NULL, "the fences table too: one row per fence" },
	{ 0 }
};

static const struct usage usages[] = {
	{ "record", "capture fence and display events into a trace.dat",
	  "usage: fence-trace record [-o FILE] [-e SYSTEM:EVENT]... [--sched] [-b KB]\n"
	  "                          [-d SECONDS] [-C CLOCK] [--bpf [--raw-tp]]\n"
	  "                          [--label KEY=VALUE]... [-- COMMAND [ARG]...]\n"
	  "Enables the events report reads (dma_fence:*, drm:drm_vblank_event*,\n"
	  "with the series its drm_fence and sync_file poll events; -e for more) in\n"
	  "a private tracefs instance (the top-level trace is left alone; the\n"
	  "instance is removed on exit), with the mono trace clock (-C), and writes a\n"
	  "trace-cmd trace.dat.  Stops when COMMAND exits, after -d SECONDS, or on\n"
	  "SIGINT/SIGTERM/SIGHUP; lost events are counted and printed.  The trace\n"
	  "starts with a line (an ftrace print event) that says the wall-clock time\n"
	  "and the --label pairs.\n"
	  "Exit status with COMMAND: COMMAND's own (128+N when a signal N from\n"
	  "elsewhere killed it; 0 when -d or a stop signal to record ended it), 127\n"
	  "COMMAND not found, 126 COMMAND not executable, 125 record itself failed.\n"
	  "Without COMMAND: 0, or 1 when recording failed.  2 a usage error.\n",
	  record_options, 27, USAGE_WRAPS },
	{ "report", "explain fence latency, waits and late frames in a trace.dat",
	  "usage: fence-trace report [FILE] [--json | --csv] [--section S]...\n"
	  "                          [--timeline T] [--context N] [--crtc C] [--pid P]\n"
	  "                          [--from T --to T] [--hist] [--by context]\n"
	  "                          [--latch-margin MS] [--reader R]\n"
	  "Reads FILE (default trace.dat) from fence-trace record or from\n"
	  "trace-cmd record -e dma_fence -e drm, and reports per fence timeline, per\n"
	  "waiting task and per CRTC: every frame judged against its target vblank,\n"
	  "each late one blamed on one cause (producer, queued, wakeup, driver).\n",
	  report_options, 18, USAGE_FILES },
	{ "diff", "compare two captures: latency percentiles and late-frame rates",
	  "usage: fence-trace diff BASE.dat NEW.dat [-t PCT] [-p P]\n"
	  "Per fence timeline (matched by driver and name) and per CRTC (by object\n"
	  "id and name): fences or frames, latency p50, p99 and max in BASE and NEW,\n"
	  "and the change of the chosen percentile; per CRTC the late frames, as a\n"
	  "count and as a rate (late frames per frame), so that a longer run with\n"
	  "the same share of late frames does not regress; and per CRTC and class\n"
	  "(producer, queued, wakeup, driver, unknown) the late frames and their\n"
	  "rate per frame judged.  Rows only in NEW are marked new, rows only in\n"
	  "BASE gone.\n"
	  "Exit status: 0 nothing regressed (always without --threshold), 3 a\n"
	  "regression past the threshold, 1 a trace could not be read, 2 a usage\n"
	  "error.\n",
	  diff_options, 24, USAGE_FILES },
	{ "latency", "live fence signal latency and waits, per timeline (BPF)",
	  "usage: fence-trace latency [-C CONTEXT] [-T TIMELINE] [-P] [-W] [-m] [--json]\n"
	  "                           [INTERVAL [COUNT]]\n"
	  "Log2 histograms of dma_fence signal latency (creation -> signal) per fence\n"
	  "context, aggregated in the kernel by BPF; printed every INTERVAL seconds,\n"
	  "COUNT times, or once at Ctrl-C.  Drop counters come with every output.\n"
	  "With the fence-trace kernel series also: how long after its vblank each\n"
	  "out-fence signal ran, per vblank pipe, and (-W) each commit's in-fence\n"
	  "wait per DRM plane; on other kernels those programs are skipped, and said.\n",
	  latency_options, 28, 0 },
	{ "top", "live table of fence timelines, worst p99 first; --pending: stuck fences",
	  "usage: fence-trace top [-p] [-d SECONDS] [-n COUNT]\n"
	  "A table of fence timelines refreshed every -d SECONDS (default 1), sorted\n"
	  "by p99 signal latency: fences signalled per second, errors, outstanding\n"
	  "(unsignalled) fences and the oldest one's age.  On a terminal it redraws\n"
	  "in place and q quits; through a pipe it prints one table per interval.\n",
	  top_options, 24, 0 },
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
	  "fence_timeline); the kernel's lockdown level and what it refuses\n"
	  "(integrity leaves tracing and BPF alone; confidentiality refuses\n"
	  "tracefs and BPF's reads of kernel memory).  Each missing piece has a\n"
	  "one-line hint.  Without root most of it cannot be looked at, and says\n"
	  "so.\n"
	  "Exit status: 0 record and latency can both work, 3 record can but the\n"
	  "BPF tools (latency, top, stall, record --bpf) cannot, 4 latency can but\n"
	  "record cannot, 1 neither can, 2 a usage error.\n",
	  check_options, 0, 0 },
	{ "stall", "say what a stuck fence wait is blocked on, live",
	  "usage: fence-trace stall [--threshold MS | --vblanks N] [--once] [--json]\n"
	  "                         [--latch-margin MS] [-d SECONDS] [-v] [--raw-tp]\n"
	  "Watches every dma_fence wait.  When one outlasts the threshold (default:\n"
	  "2 vblank periods of the slowest CRTC, else 33 ms) it says at once which\n"
	  "task waits on which fence (driver, timeline, context, seqno), how far\n"
	  "behind that timeline is, which task created the fence, the members of a\n"
	  "merged fence still pending, and the kernel's debugfs view; then when and\n"
	  "how the stall cleared (signalled, with an error, or interrupted).  At\n"
	  "start it reports the waits and sync_file polls already in progress (a\n"
	  "display already frozen), and the commits blocked behind an earlier one\n"
	  "or their own flip (COMMIT STALL, cleared when the task runs again), as\n"
	  "stalls that began before it.  With the kernel series it states the\n"
	  "frame class of the commit a stalled wait holds up (producer, wakeup,\n"
	  "queued, driver: see fence-trace-report(1)) as soon as it is certain.\n",
	  stall_options, 27, 0 },
	{ "timeline", "one self-contained HTML page: fences, waits, vblanks, late frames",
	  "usage: fence-trace timeline [-o OUT.html] [FILE]\n"
	  "Reads FILE (default trace.dat) and writes one HTML file (default\n"
	  "timeline.html) that any browser opens offline: a lane per CRTC with its\n"
	  "vblanks and out-fences, a lane per fence timeline, a lane per waiting\n"
	  "task, late frames with an arrow from the fence that blocked them.\n"
	  "Wheel or w/s zoom, drag or a/d pan, click for details, / to search.\n",
	  timeline_options, 26, USAGE_FILES },
	{ "export", "traces as Perfetto JSON, or many as tables for a query engine",
	  "usage: fence-trace export --perfetto OUT.json [FILE]\n"
	  "       fence-trace export --tables DIR [--label KEY=VALUE]... [-j N] [--fences]\n"
	  "                          FILE...\n"
	  "--perfetto reads FILE (default trace.dat) and writes Chrome trace-event\n"
	  "JSON: tracks per CRTC, fence timeline and waiting task, vblanks as\n"
	  "instants, and a flow arrow from each late frame's blocking fence to its\n"
	  "out-fence.  Open it at https://ui.perfetto.dev or chrome://tracing.\n"
	  "--tables reads every FILE, in parallel, and writes its rows of the fleet\n"
	  "tables (captures, timelines, waits, crtcs, frames, vblanks; docs/tables.md)\n"
	  "as newline-delimited JSON under DIR/TABLE/kernel=K/host=H/run=R/, which\n"
	  "DuckDB or Spark read as one table per name (docs/fleet.md).  A capture\n"
	  "exported again replaces its rows.  A file that cannot be read is a row of\n"
	  "DIR/failed and one line here; the others are exported, and the exit\n"
	  "status is 1.\n",
	  export_options, 24, USAGE_FILES },
};

#define N_USAGES (sizeof(usages) / sizeof(usages[0]))

/**
 * usage_table() - every command's usage, in the order 'fence-trace help' lists them
 * @count: set to how many
 */
const struct usage *usage_table(size_t *count)
{
	*count = N_USAGES;
	return usages;
}

/**
 * usage_find() - the usage of command @cmd
 *
 * Return: it, or NULL when there is no such command (or @cmd is NULL).
 */
const struct usage *usage_find(const char *cmd)
{
	for (size_t i = 0; cmd && i < N_USAGES; i++)
		if (strcmp(usages[i].cmd, cmd) == 0)
			return &usages[i];
	return NULL;
}

/* "-o, --output FILE", "--bpf", "--from T, --to T"; return: its width. */
static int print_spec(const struct cmd_option *o)
{
	int width = 0;

	do {
		if (width)
			width += printf(", ");
		if (o->short_name)
			width += printf("-%c, ", o->short_name);
		width += printf("--%s%s%s", o->name, o->arg ? " " : "", o->arg ? o->arg : "");
		o++;
	} while (o->name && cmd_option_shares_line(o));
	return width;
}

/*
 * "  -o, --output FILE   output file", the text's further lines from @u's
 * column on; a spec too wide for the column keeps two spaces.
 */
static void print_options(const struct usage *u)
{
	for (const struct cmd_option *o = u->options; o->name; o++) {
		const char *line = o->help, *end;
		int width;

		if (cmd_option_shares_line(o))
			continue;
		width = printf("  ") + print_spec(o);
		printf("%*s", width + 2 > u->column ? 2 : u->column - width, "");
		while ((end = strchr(line, '\n'))) {
			printf("%.*s\n%*s", (int)(end - line), line, u->column, "");
			line = end + 1;
		}
		printf("%s\n", line);
	}
}

/**
 * print_usage() - what 'fence-trace @cmd --help' prints, on stdout
 *
 * Without a command (NULL, or one that does not exist), the list of
 * commands that 'fence-trace help' prints.
 */
void print_usage(const char *cmd)
{
	const struct usage *u = usage_find(cmd);

	if (u) {
		fputs(u->text, stdout);
		print_options(u);
		return;
	}
	printf("usage: fence-trace COMMAND [ARG]...\n\nCommands:\n");
	for (size_t i = 0; i < N_USAGES; i++)
		printf("  %-8s %s\n", usages[i].cmd, usages[i].summary);
	printf("\n'fence-trace COMMAND --help' describes one; 'fence-trace --version' says which\n"
	       "fence-trace this is.\n");
}

/**
 * usage_getopt_tables() - getopt_long()'s optstring and long options for @u
 *
 * Every command takes -h and --help.  The optstring starts with ':' so
 * that a missing argument is told from an unknown option, and with '+'
 * for a command that runs another ("-- COMMAND"): options end at its
 * first operand.
 *
 * Return: 0, or -1 when @u has more options than @g holds.
 */
int usage_getopt_tables(const struct usage *u, struct cmd_getopt *g)
{
	char *s = g->optstring;
	int n = 0;

	if (u->flags & USAGE_WRAPS)
		*s++ = '+';
	*s++ = ':';
	for (const struct cmd_option *o = u->options; o->name; o++, n++) {
		if (n == USAGE_MAX_OPTIONS)
			return -1;
		if (o->short_name) {
			*s++ = o->short_name;
			if (o->arg)
				*s++ = ':';
		}
		g->longs[n] = (struct option){ o->name, o->arg ? required_argument : no_argument,
					       NULL, cmd_option_key(o) };
	}
	*s++ = 'h';
	*s = '\0';
	g->longs[n++] = (struct option){ "help", no_argument, NULL, 'h' };
	g->longs[n] = (struct option){ 0 };
	return 0;
}

/**
 * cmd_getopt_start() - make @cmd's getopt_long() tables, ready to parse
 *
 * Also rewinds getopt (optind 0) and silences it (opterr 0): the command
 * says what is wrong itself, with usage_bad_option().
 */
void cmd_getopt_start(struct cmd_getopt *g, const char *cmd)
{
	const struct usage *u = usage_find(cmd);

	/* cli/docgen checks every table at build time: this cannot fail. */
	if (!u || usage_getopt_tables(u, g)) {
		fprintf(stderr, "fence-trace: no usable option table for '%s'\n", cmd);
		abort();
	}
	optind = 0;
	opterr = 0;
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
 * cmd_getopt_start() sets opterr = 0 so that this is the one message.
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
