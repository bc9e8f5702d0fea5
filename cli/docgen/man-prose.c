// SPDX-License-Identifier: GPL-2.0
/*
 * man-prose.c - the man pages' own prose: definitions, consequences and
 * examples too long for --help.  Options are never described here: they
 * come from cli/usage.c, so --help and the man pages cannot drift.
 */
#include <string.h>

#include "man-prose.h"

const char man_overview_summary[] = "trace and explain DRM explicit fencing";

const struct man_prose man_overview = {
	.description =
		".B fence-trace\n"
		"records and explains the fences of DRM explicit fencing: which fence an\n"
		"atomic commit waited on (its\n"
		".B IN_FENCE_FD\n"
		"in-fences), whose timeline was late, and how far each out-fence\n"
		".RB ( OUT_FENCE_PTR )\n"
		"landed from its vblank.\n"
		"It uses the stock\n"
		".B dma_fence\n"
		"and\n"
		".B drm\n"
		"vblank events of Linux, and the\n"
		".B drm_fence\n"
		"and\n"
		".B sync_file\n"
		"events of the fence-trace kernel series when the kernel has them.\n"
		".PP\n"
		"Each command has its own page:\n"
		".B man fence\\-trace\\-report\n"
		"(or\n"
		".BR \"man fence\\-trace report\" ).\n"
		".B fence\\-trace help\n"
		".I command\n"
		"and\n"
		".B fence\\-trace\n"
		".I command\n"
		".B \\-\\-help\n"
		"print the same synopsis, description and options.\n",
	.status_3 =
		".B diff \\-\\-threshold\n"
		"found a regression;\n"
		".B stall \\-\\-once\n"
		"saw a stall.\n",
	.examples =
		"fence-trace record -o trace.dat -- my-compositor\n"
		"fence-trace report trace.dat\n"
		"fence-trace diff base.dat new.dat --threshold 20\n"
		"fence-trace stall --once --json\n",
	.see_also =
		".BR trace\\-cmd (1),\n"
		".BR trace\\-cmd.dat.v6 (5)\n",
};

static const struct man_prose prose[] = {
	{ "record",
	  .description =
		"The trace is a trace-cmd\n"
		".I trace.dat\n"
		"(version 6) that\n"
		".BR trace\\-cmd (1)\n"
		"and KernelShark read.\n"
		"Next to it,\n"
		".IR FILE .drm\n"
		"names the DRM device of each CRTC.\n"
		"When recording stops before\n"
		".I COMMAND\n"
		"exits,\n"
		".I COMMAND\n"
		"is ended too, by the same signal or by SIGTERM.\n"
		"Lost events are counted from the ring buffer's statistics.\n"
		".PP\n"
		"When the disk fills up,\n"
		".B record\n"
		"says so in one line naming\n"
		".BR ENOSPC ,\n"
		"stops recording, still writes the trace from what it captured (dropping\n"
		"the latest pages if the trace's own metadata needs the room) and exits\n"
		"with status 1, or 125 with a\n"
		".IR COMMAND .\n",
	  .status_1 =
		"; for\n"
		".BR record :\n"
		"only without a\n"
		".I COMMAND\n"
		"(a full disk included: the trace is written all the same).\n",
	  .status_more =
		".PP\n"
		"With a\n"
		".IR COMMAND ,\n"
		".B record\n"
		"exits with\n"
		".IR COMMAND 's\n"
		"status, as\n"
		".BR time (1)\n"
		"and\n"
		".BR timeout (1)\n"
		"do, so that a test wrapped in\n"
		".B record\n"
		"keeps its verdict:\n"
		".IR COMMAND 's\n"
		"own exit status when it exits by itself, 128+\\fIN\\fR when a signal\n"
		".I N\n"
		"from elsewhere killed it (139 for SIGSEGV), and 0 when\n"
		".B record\n"
		"ended it (\\-d, or a SIGINT, SIGTERM or SIGHUP sent to\n"
		".B record\n"
		"and passed on) and the capture is fine.\n"
		"The trace is written in each of these cases.\n"
		"Its own statuses are then:\n"
		".TP\n.B 125\n"
		".B record\n"
		"itself failed: not root, no fence or vblank events, a tracefs problem, a\n"
		"full disk (the trace is still written from what was captured)\n"
		".TP\n.B 126\n"
		".I COMMAND\n"
		"was found but cannot be run (not executable)\n"
		".TP\n.B 127\n"
		".I COMMAND\n"
		"was not found\n",
	  .examples =
		"fence-trace record -o trace.dat -- my-compositor --args\n"
		"fence-trace record -d 10 -o idle.dat\n"
		"fence-trace record --bpf -d 10\n",
	  .see_also =
		".BR fence\\-trace\\-report (1),\n"
		".BR fence\\-trace\\-timeline (1),\n"
		".BR trace\\-cmd (1),\n"
		".BR trace\\-cmd.dat.v6 (5)\n" },
	{ "report",
	  .description =
		"A frame is\n"
		".I late\n"
		"by\n"
		".I landed\n"
		"\\-\n"
		".I target\n"
		"vblanks when that is at least 1.\n"
		"Its out-fence\n"
		".I lands\n"
		"on the vblank it was signalled for: the kernel signals it right after\n"
		"tracing\n"
		".B drm_vblank_event_delivered\n"
		"on the same CPU, so a signal is paired with the delivered event that\n"
		"directly precedes it there, never with the nearest vblank by time.\n"
		"The\n"
		".I target\n"
		"vblank of a commit is the first vblank after its atomic ioctl entered;\n"
		"on a stock kernel the creation of its out-fence marks that moment.\n"
		".PP\n"
		"A late frame's\n"
		".I blocking fence\n"
		"is the in-fence, among those its commit waited on, that signalled last\n"
		"(a wait on a fence that signalled long ago ends at once, so the wait\n"
		"that ended last can be the wrong one).\n"
		"On a stock kernel a wait belongs to a commit when it runs in the task\n"
		"that created the out-fence (blocking commits) or, otherwise, to the\n"
		"oldest unsignalled out-fence created before it (non-blocking commits,\n"
		"whose waits run in a kworker).\n"
		".PP\n"
		"Percentiles are within 1/256 of the exact value; counts and maxima are\n"
		"exact.\n",
	  .examples =
		"fence-trace report trace.dat\n"
		"fence-trace report --json trace.dat\n"
		"fence-trace report --section stalls trace.dat\n",
	  .see_also =
		".BR fence\\-trace\\-record (1),\n"
		".BR fence\\-trace\\-diff (1),\n"
		".BR fence\\-trace\\-timeline (1)\n" },
	{ "diff",
	  .status_3 =
		"with\n"
		".BR \\-\\-threshold :\n"
		"a percentile grew by more than\n"
		".I PCT\n"
		"percent, or a CRTC has more late frames.\n",
	  .examples = "fence-trace diff base.dat new.dat --threshold 20 --percentile p99\n",
	  .see_also = ".BR fence\\-trace\\-report (1)\n" },
	{ "latency",
	  .examples = "fence-trace latency -W 1 10\n",
	  .see_also = ".BR fence\\-trace\\-top (1)\n" },
	{ "top",
	  .examples =
		"fence-trace top\n"
		"fence-trace top --pending\n",
	  .see_also =
		".BR fence\\-trace\\-latency (1),\n"
		".BR fence\\-trace\\-stall (1)\n" },
	{ "check",
	  .description =
		"Each missing piece comes with a hint on how to get it.\n",
	  .status_1 =
		"; also when\n"
		".B record\n"
		"or\n"
		".B latency\n"
		"cannot work on this kernel.\n" },
	{ "stall",
	  .description =
		"The kernel's debugfs view is the stuck CRTC's\n"
		".I fence_timeline\n"
		"file and\n"
		".IR sync/info ,\n"
		"each said to be absent when it is.\n"
		".PP\n"
		"With the fence-trace kernel series it also names the commit and plane,\n"
		"tells a commit held up by an earlier commit (EBUSY, or a blocking commit\n"
		"waiting for its\n"
		".IR hw_done )\n"
		"from one waiting on its in-fence, and follows an in-fence that signalled\n"
		"with an error to what its commit did: the atomic helpers ignore the\n"
		"error, so the commit normally flips and shows the buffer.\n",
	  .status_3 =
		"with\n"
		".BR \\-\\-once :\n"
		"a stall was seen.\n",
	  .examples =
		"fence-trace stall\n"
		"fence-trace stall --once --json\n",
	  .see_also =
		".BR fence\\-trace\\-top (1),\n"
		".BR fence\\-trace\\-report (1)\n" },
	{ "timeline",
	  .examples = "fence-trace timeline -o timeline.html trace.dat\n",
	  .see_also =
		".BR fence\\-trace\\-export (1),\n"
		".BR fence\\-trace\\-report (1)\n" },
	{ "export",
	  .examples = "fence-trace export --perfetto trace.perfetto.json trace.dat\n",
	  .see_also = ".BR fence\\-trace\\-timeline (1)\n" },
};

const struct man_prose *man_prose_table(size_t *count)
{
	*count = sizeof(prose) / sizeof(prose[0]);
	return prose;
}

const struct man_prose *man_prose_find(const char *cmd)
{
	for (size_t i = 0; i < sizeof(prose) / sizeof(prose[0]); i++)
		if (strcmp(prose[i].cmd, cmd) == 0)
			return &prose[i];
	return NULL;
}
