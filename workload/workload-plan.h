/* SPDX-License-Identifier: GPL-2.0 */
/*
 * workload-plan.h - what fence-workload is asked to do: frames, producers'
 * render delays and per-frame overrides, commit mode.  Parsing is kept
 * apart from the KMS code so it can be unit-tested on the host.
 */
#ifndef FENCE_TRACE_WORKLOAD_PLAN_H
#define FENCE_TRACE_WORKLOAD_PLAN_H

#include <stddef.h>

#define PLAN_PRODUCERS 2	/* A (primary plane) and B (overlay plane) */
#define PLAN_MAX_OVERRIDES 64
/* --starve: the in-fences signal this long after the starver takes the CPU; */
#define PLAN_STARVE_SIGNAL_MS 1
/* it holds it at least this long, so that it still holds it when they do */
#define PLAN_STARVE_MIN_MS 5

enum frame_fate {
	FATE_NORMAL,
	FATE_SLOW,		/* takes ms instead of the producer's delay */
	FATE_NEVER,		/* never signals: the compositor stalls */
	FATE_ERROR,		/* signals with -ENOENT (timeline closed) */
};

struct frame_override {
	unsigned int frame;
	unsigned int producer;	/* 0 = A, 1 = B */
	enum frame_fate fate;
	unsigned int ms;
};

/* --hold F:MS: the compositor commits frame F only MS ms late; --starve F:MS. */
struct frame_hold {
	unsigned int frame, ms;
};

struct workload_plan {
	unsigned int frames;
	unsigned int delay_ms[PLAN_PRODUCERS];
	struct frame_override overrides[PLAN_MAX_OVERRIDES];
	unsigned int n_overrides;
	int nonblock;
	int flip_event;
	int overlay;
	int merge;		/* primary plane waits on merge(A, B); overlay on nothing */
	int share_never;	/* the FATE_NEVER fence also held by a dup() and a child */
	int poll;		/* wait for the in-fences (POLL_*), commit without them */
	int ebusy_frame;	/* -1, or the frame followed at once by a second commit */
	int behind_blocking;
	int vgem;		/* producers' fences from vgem, not sw_sync */	/* that second commit is a blocking one: it waits, no EBUSY */
	struct frame_hold holds[PLAN_MAX_OVERRIDES];
	unsigned int n_holds;
	struct frame_hold starves[PLAN_MAX_OVERRIDES];	/* --starve F:MS */
	unsigned int n_starves;
	unsigned int queued[PLAN_MAX_OVERRIDES];	/* --queue F: committed behind F - 1 */
	unsigned int n_queued;
	unsigned int rejects[PLAN_MAX_OVERRIDES];	/* --reject F: the kernel refuses its commit */
	unsigned int n_rejects;
	unsigned int timeout_ms;
	int close_in;		/* close the in-fence fds once the commit has them */
	int say_waits;		/* tell each commit or poll on a late in-fence */
	int release_on_usr1;	/* SIGUSR1 ends a --slow delay early */
	const char *device;
};

/* How --poll and --epoll wait for the in-fences. */
#define POLL_WITH_POLL 1
#define POLL_WITH_EPOLL 2

void plan_defaults(struct workload_plan *plan);
int plan_parse_args(struct workload_plan *plan, int argc, char **argv,
		    char *err, size_t errlen);
int plan_add_override(struct workload_plan *plan, enum frame_fate fate,
		      const char *spec, char *err, size_t errlen);
enum frame_fate plan_fate(const struct workload_plan *plan, unsigned int frame,
			  unsigned int producer, unsigned int *ms);
unsigned int plan_hold_ms(const struct workload_plan *plan, unsigned int frame);
unsigned int plan_starve_ms(const struct workload_plan *plan, unsigned int frame);
int plan_queued(const struct workload_plan *plan, unsigned int frame);
int plan_rejected(const struct workload_plan *plan, unsigned int frame);
extern const char workload_usage[];

#endif
