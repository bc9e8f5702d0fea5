// SPDX-License-Identifier: GPL-2.0
/*
 * golden-traces.c - write the golden tests' constructed trace.dat files
 * into a folder (see golden-traces.h); tests/golden/run-golden calls it
 * at test time, so that no binary input sits in git.
 *
 *   golden-traces DIR     (run from the repo root: it reads the formats
 *                          in tests/fixtures and tracepoints/formats)
 */
#include <stdio.h>
#include <string.h>

#include "fixture-formats.h"
#include "golden-traces.h"
#include "trace-builder-formats.h"
#include "series-formats.h"
#include "vblank-land.h"

const struct gt_timeline gt_out = { "vkms", "CRTC:51-crtc-0", 1 };
const struct gt_timeline gt_a = { "sw_sync", "producer-A", 6 };
const struct gt_timeline gt_b = { "sw_sync", "producer-B", 7 };
const struct gt_timeline gt_array = { "dma_fence_array", "unbound", 10 };

/*
 * The task names the reports print for the pids the scenarios use.  Not
 * the starver's (70): frames-sched.dat names it only in its switches, as
 * a busy system's saved names often lack a task (sched_comm()).
 */
static const char cmdlines[] = "40 producer\n47 compositor\n50 compositor\n60 waiter\n61 poller\n";

enum { GT_STOCK, GT_SERIES, GT_SCHED };
#define TB_SCHED_FIXTURES "tests/fixtures/sched-6.1"

static const struct scenario {
	const char *file;
	unsigned int cpus;
	int formats;		/* GT_STOCK, GT_SERIES (the kernel series' events too), GT_SCHED */
	void (*build)(struct gt *g);
} scenarios[] = {
	{ "cpus.dat", 4, GT_STOCK, gt_cpus },
	{ "wrap.dat", 2, GT_STOCK, gt_wrap },
	{ "collide.dat", 2, GT_STOCK, gt_collide },
	{ "nofence.dat", 2, GT_STOCK, gt_nofence },
	{ "lost.dat", 2, GT_STOCK, gt_lost },
	{ "late.dat", 2, GT_STOCK, gt_late },
	{ "late-worse.dat", 2, GT_STOCK, gt_late_worse },
	{ "display.dat", 2, GT_STOCK, gt_display },
	{ "many.dat", 2, GT_STOCK, gt_many },
	{ "contexts.dat", 2, GT_STOCK, gt_contexts },
	{ "frames.dat", 2, GT_STOCK, gt_frames },
	{ "frames-sched.dat", 2, GT_SCHED, gt_frames_sched },
	{ "merge.dat", 2, GT_SERIES, gt_merge },
	{ "errors.dat", 2, GT_SERIES, gt_errors },
	{ "waits.dat", 2, GT_SERIES, gt_waits },
};

/**
 * gt_fence() - a dma_fence event of timeline @t
 */
void gt_fence(struct gt *g, unsigned int cpu, uint64_t ts, const char *event,
	      const struct gt_timeline *t, uint32_t seqno)
{
	g->err = g->err ?: tb_fence(g->tb, cpu, ts, event, t->driver, t->name, t->context, seqno);
}

/**
 * gt_pid() - the task of the events that follow (0: an interrupt)
 */
void gt_pid(struct gt *g, int pid)
{
	tb_set_pid(g->tb, pid);
}

/**
 * gt_land() - vblank @vbl_seq on CRTC 51 (pipe 0), in the kernel's order:
 * the event delivered to user space, out-fence @out_seqno signalled (none
 * if 0), the vblank itself.  Its time is @vbl_seq frame periods.
 */
void gt_land(struct gt *g, uint32_t vbl_seq, uint32_t out_seqno)
{
	struct vblank_land l = {
		.t = vbl_seq * FRAME_NS, .seq = vbl_seq, .out_seqno = out_seqno,
		.out_timeline = gt_out.name,
	};

	gt_pid(g, 0);
	g->err = g->err ?: vblank_land(g->tb, &l);
}

/* A name of 16 bytes as the sched events hold one: what the task called itself. */
static void sched_comm(char *comm, int pid)
{
	memset(comm, 0, 16);
	snprintf(comm, 16, "%s", pid == 0 ? "swapper/1" : pid == 47 ? "compositor" :
		 pid == 70 ? "starver" : "producer");
}

/**
 * gt_sched_wakeup() - sched:sched_wakeup of @pid onto @target_cpu
 */
void gt_sched_wakeup(struct gt *g, unsigned int cpu, uint64_t ts, int pid, int target_cpu)
{
	struct { char comm[16]; int32_t pid, prio, target_cpu; } p;
	int id = tb_event_id(g->tb, "sched_wakeup");

	sched_comm(p.comm, pid);
	p.pid = pid;
	p.prio = 120;
	p.target_cpu = target_cpu;
	g->err = g->err ?: id < 0 ? -1 : tb_add(g->tb, cpu, ts, id, &p, sizeof(p));
}

/**
 * gt_sched_switch() - sched:sched_switch on @cpu from @prev_pid (left
 * runnable: preempted) to @next_pid
 */
void gt_sched_switch(struct gt *g, unsigned int cpu, uint64_t ts, int prev_pid, int next_pid)
{
	struct {
		char prev_comm[16]; int32_t prev_pid, prev_prio; int64_t prev_state;
		char next_comm[16]; int32_t next_pid, next_prio;
	} p;
	int id = tb_event_id(g->tb, "sched_switch");

	memset(&p, 0, sizeof(p));
	sched_comm(p.prev_comm, prev_pid);
	sched_comm(p.next_comm, next_pid);
	p.prev_pid = prev_pid;
	p.prev_prio = prev_pid == 70 ? 98 : 120;
	p.next_pid = next_pid;
	p.next_prio = 120;
	g->err = g->err ?: id < 0 ? -1 : tb_add(g->tb, cpu, ts, id, &p, sizeof(p));
}

/* The stock 6.1 formats with the scheduler's two events beside them. */
static struct trace_builder *new_with_sched(unsigned int cpus)
{
	struct tb_formats f = { 0 };

	if (tb_formats_load(&f, TB_FIXTURES) || tb_formats_add_dir(&f, TB_SCHED_FIXTURES)) {
		tb_formats_free(&f);
		return NULL;
	}
	return tb_new_formats(cpus, &f);
}

static int write_one(const struct scenario *s, const char *formats, const char *dir)
{
	struct gt g = { s->formats == GT_SCHED ? new_with_sched(s->cpus) :
			tb_new(s->cpus, s->formats == GT_SERIES ? formats : TB_FIXTURES), 0 };
	char path[4096];

	if (!g.tb) {
		fprintf(stderr, "golden-traces: cannot read the event formats (run from the repo root)\n");
		return -1;
	}
	tb_set_options(g.tb, "local global [mono] boot", "Linux 6.1.0-golden", cmdlines);
	s->build(&g);
	snprintf(path, sizeof(path), "%s/%s", dir, s->file);
	if (!g.err)
		g.err = tb_write(g.tb, path);
	if (g.err)
		fprintf(stderr, "golden-traces: %s: %s\n", s->file, tb_error(g.tb));
	tb_free(g.tb);
	return g.err ? -1 : 0;
}

int main(int argc, char **argv)
{
	char formats[64];
	int ret = 0;

	if (argc != 2) {
		fprintf(stderr, "usage: golden-traces DIR\n");
		return 2;
	}
	if (series_formats_make(formats, sizeof(formats))) {
		fprintf(stderr, "golden-traces: cannot make the series' formats folder\n");
		return 1;
	}
	for (size_t i = 0; i < sizeof(scenarios) / sizeof(scenarios[0]); i++)
		ret |= write_one(&scenarios[i], formats, argv[1]);
	series_formats_remove(formats);
	return ret ? 1 : 0;
}
