// SPDX-License-Identifier: GPL-2.0
/*
 * workload-plan.c - command line of fence-workload (see workload-plan.h).
 */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "parse-num.h"
#include "workload-plan.h"

#define MAX_FRAMES 1000000
#define MAX_MS 3600000

const char workload_usage[] =
	"usage: fence-workload [OPTION]...\n"
	"A compositor on an atomic KMS device (vkms in the lab): every frame it\n"
	"commits the primary plane with an in-fence from producer A and the\n"
	"overlay plane with one from producer B (two sw_sync timelines), asks\n"
	"for the CRTC's out-fence, and prints per-frame ground truth in\n"
	"CLOCK_MONOTONIC nanoseconds as key=value lines.\n"
	"\n"
	"  -n, --frames N        frames to commit (default 10)\n"
	"  -A, --delay-a MS      producer A's render time per frame (default 3)\n"
	"  -B, --delay-b MS      producer B's render time per frame (default 5)\n"
	"      --slow F:P:MS     frame F of producer P (A or B) takes MS ms; timed\n"
	"                        from the compositor's block on it (a blocking\n"
	"                        commit, --poll, --epoll, the second commit of\n"
	"                        --ebusy or --behind), so that it is late for it\n"
	"      --never F:P       producer P never signals frame F (the commit\n"
	"                        stalls until the workload is killed)\n"
	"      --share-never     the --never fence is held by three sync_file fds:\n"
	"                        its own, a dup() of it, and the one a child\n"
	"                        process inherits (it dies with the workload)\n"
	"      --error F:P       producer P signals frame F with -ENOENT (it closes\n"
	"                        its timeline and opens a new one), after its\n"
	"                        delay or the --slow one; the frame still scans out\n"
	"      --hold F:MS       the compositor is late: it starts frame F (its\n"
	"                        fences and its commit) only MS ms after frame F-1\n"
	"                        was shown (no commit pending meanwhile)\n"
	"      --queue F         frame F is queued behind frame F-1: F-1 commits\n"
	"                        non-blocking and F at once after it, with no\n"
	"                        in-fences (nothing to render, as a plane move);\n"
	"                        blocking, F waits in the kernel for F-1 to be\n"
	"                        shown; with --nonblock it retries EBUSY until then.\n"
	"                        Give F-1 a --slow fence to make F late\n"
	"      --reject F        frame F's commit is refused: it asks the primary plane\n"
	"                        for a source one pixel wider than its framebuffer,\n"
	"                        which the kernel rejects (ENOSPC) after making the\n"
	"                        out-fence; the frame is never shown, rejected= says\n"
	"                        the error, and the next frame goes on (not with a\n"
	"                        --queue of F or F+1, nor --ebusy, --behind,\n"
	"                        --starve, --hold, --slow, --never or --error on F)\n"
	"      --starve F:MS     the compositor is woken late: once frame F's blocking\n"
	"                        commit sleeps on its in-fences, a SCHED_FIFO thread\n"
	"                        takes the compositor's CPU for MS ms (at least 5);\n"
	"                        the fences signal 1 ms after it took it, in time\n"
	"                        (the producers run on another CPU), but the\n"
	"                        compositor runs only after MS ms (needs 2 CPUs and\n"
	"                        root; not with --nonblock or --poll)\n"
	"      --nonblock        DRM_MODE_ATOMIC_NONBLOCK commits\n"
	"      --flip-event      also request DRM_MODE_PAGE_FLIP_EVENT\n"
	"      --no-overlay      primary plane only (producer B idle)\n"
	"      --poll            wait for A's and B's fences with poll() on the\n"
	"                        sync_files, as compositors do, then commit without\n"
	"                        IN_FENCE_FD\n"
	"      --epoll           the same with epoll_wait() on an epoll watching them\n"
	"      --ebusy F         (with --nonblock) right after frame F's commit, commit\n"
	"                        again at once: it gets EBUSY until frame F is shown\n"
	"                        (retried every ms; counted in ebusy=)\n"
	"      --behind F        like --ebusy F, but the second commit is blocking: the\n"
	"                        kernel makes it wait for frame F's commit instead\n"
	"      --merge           the primary plane's in-fence is SYNC_IOC_MERGE of A's\n"
	"                        and B's (both pending when merged); the overlay\n"
	"                        plane gets none\n"
	"      --vgem            the producers' fences come from vgem, as Mesa bridges\n"
	"                        implicit fencing to explicit: a write fence on a\n"
	"                        vgem buffer, taken out as a sync_file\n"
	"                        (DMA_BUF_IOCTL_EXPORT_SYNC_FILE); for kernels\n"
	"                        without sw_sync.  Not with --error (vgem cannot\n"
	"                        fail a fence); a --never fence is signalled by\n"
	"                        vgem itself after 10 s\n"
	"      --device D        /dev/dri/cardN or a driver name (default: the\n"
	"                        first atomic device with a connected output)\n"
	"      --timeout MS      give up on an out-fence after MS (default 5000)\n"
	"      --close-in-fences\n"
	"                        close the in-fence fds as soon as the commit has\n"
	"                        them: after a non-blocking commit's ioctl, once a\n"
	"                        blocking commit's task sleeps in it (not with --poll)\n"
	"      --say-waits       tell on stderr, with CLOCK_MONOTONIC times, each\n"
	"                        commit or poll on a --slow or --never in-fence as\n"
	"                        it begins, and when its in-fence fds are closed\n"
	"      --release-on-usr1\n"
	"                        SIGUSR1 ends the --slow delay under way (or the\n"
	"                        next one): the producer signals that fence at once\n"
	"                        (a test that has seen the stuck frame need not wait\n"
	"                        the delay out)\n"
	"  -h, --help            this text\n";

void plan_defaults(struct workload_plan *plan)
{
	memset(plan, 0, sizeof(*plan));
	plan->frames = 10;
	plan->delay_ms[0] = 3;
	plan->delay_ms[1] = 5;
	plan->overlay = 1;
	plan->timeout_ms = 5000;
	plan->ebusy_frame = -1;
}

static int producer_index(const char *s, unsigned int *out)
{
	if (strcmp(s, "A") == 0 || strcmp(s, "a") == 0)
		*out = 0;
	else if (strcmp(s, "B") == 0 || strcmp(s, "b") == 0)
		*out = 1;
	else
		return -1;
	return 0;
}

/**
 * plan_add_override() - parse "F:P" (or "F:P:MS" for FATE_SLOW)
 *
 * Return: 0, or -1 with a message in @err.
 */
int plan_add_override(struct workload_plan *plan, enum frame_fate fate,
		      const char *spec, char *err, size_t errlen)
{
	char buf[64], *frame, *prod, *ms;
	struct frame_override *o;
	char *save = NULL;

	if (plan->n_overrides >= PLAN_MAX_OVERRIDES) {
		snprintf(err, errlen, "too many per-frame overrides (max %d)", PLAN_MAX_OVERRIDES);
		return -1;
	}
	o = &plan->overrides[plan->n_overrides];
	snprintf(buf, sizeof(buf), "%s", spec);
	frame = strtok_r(buf, ":", &save);
	prod = strtok_r(NULL, ":", &save);
	ms = strtok_r(NULL, ":", &save);
	if (!frame || !prod || (fate == FATE_SLOW) != (ms != NULL) ||
	    strtok_r(NULL, ":", &save) || strlen(spec) >= sizeof(buf) ||
	    parse_uint(frame, MAX_FRAMES, &o->frame) ||
	    producer_index(prod, &o->producer) ||
	    (ms && parse_uint(ms, MAX_MS, &o->ms))) {
		snprintf(err, errlen, "bad frame override '%s' (want %s)", spec,
			 fate == FATE_SLOW ? "FRAME:A|B:MS" : "FRAME:A|B");
		return -1;
	}
	o->fate = fate;
	plan->n_overrides++;
	return 0;
}

/*
 * The last override for (@frame, @producer) decides its fate; *@ms gets its
 * delay, from a --slow override even when --error or --never also applies
 * (an error after 300 ms is "--slow F:B:300 --error F:B").
 */
enum frame_fate plan_fate(const struct workload_plan *plan, unsigned int frame,
			  unsigned int producer, unsigned int *ms)
{
	enum frame_fate fate = FATE_NORMAL;

	*ms = plan->delay_ms[producer];
	for (unsigned int i = 0; i < plan->n_overrides; i++) {
		const struct frame_override *o = &plan->overrides[i];

		if (o->frame != frame || o->producer != producer)
			continue;
		if (o->fate == FATE_SLOW)
			*ms = o->ms;
		if (o->fate != FATE_SLOW || fate == FATE_NORMAL)
			fate = o->fate;
	}
	return fate;
}

static unsigned int frame_ms(const struct frame_hold *h, unsigned int n, unsigned int frame)
{
	for (unsigned int i = 0; i < n; i++)
		if (h[i].frame == frame)
			return h[i].ms;
	return 0;
}

/* --hold's delay before frame @frame, 0 none. */
unsigned int plan_hold_ms(const struct workload_plan *plan, unsigned int frame)
{
	return frame_ms(plan->holds, plan->n_holds, frame);
}

/* How long --starve takes the compositor's CPU in frame @frame, 0 not. */
unsigned int plan_starve_ms(const struct workload_plan *plan, unsigned int frame)
{
	return frame_ms(plan->starves, plan->n_starves, frame);
}

static int listed(const unsigned int *list, unsigned int n, unsigned int frame)
{
	for (unsigned int i = 0; i < n; i++)
		if (list[i] == frame)
			return 1;
	return 0;
}

/* Whether frame @frame is committed behind the one before (--queue). */
int plan_queued(const struct workload_plan *plan, unsigned int frame)
{
	return listed(plan->queued, plan->n_queued, frame);
}

/* Whether frame @frame's commit is made to be refused (--reject). */
int plan_rejected(const struct workload_plan *plan, unsigned int frame)
{
	return listed(plan->rejects, plan->n_rejects, frame);
}

/* "F:MS" into @h[*n] for option --@name. */
static int add_frame_ms(struct frame_hold *h, unsigned int *n, const char *name, const char *spec,
			char *err, size_t errlen)
{
	char buf[64], *ms;

	snprintf(buf, sizeof(buf), "%s", spec);
	ms = strchr(buf, ':');
	if (ms)
		*ms++ = '\0';
	if (*n >= PLAN_MAX_OVERRIDES || !ms || strlen(spec) >= sizeof(buf) ||
	    parse_uint(buf, MAX_FRAMES, &h[*n].frame) || parse_uint(ms, MAX_MS, &h[*n].ms)) {
		snprintf(err, errlen, "--%s: bad '%s' (want FRAME:MS, at most %d of them)", name, spec,
			 PLAN_MAX_OVERRIDES);
		return -1;
	}
	(*n)++;
	return 0;
}

/* Frame @arg (from @min) into @list[*n] for option --@name. */
static int add_frame(unsigned int *list, unsigned int *n, const char *name, unsigned int min,
		     const char *arg, char *err, size_t errlen)
{
	unsigned int f;

	if (*n >= PLAN_MAX_OVERRIDES || parse_uint(arg, MAX_FRAMES, &f) || f < min) {
		snprintf(err, errlen, "--%s: bad '%s' (want a frame from %u, at most %d of them)", name, arg,
			 min, PLAN_MAX_OVERRIDES);
		return -1;
	}
	list[(*n)++] = f;
	return 0;
}

static int plan_has_fate(const struct workload_plan *plan, enum frame_fate fate)
{
	for (unsigned int i = 0; i < plan->n_overrides; i++)
		if (plan->overrides[i].fate == fate)
			return 1;
	return 0;
}

enum { OPT_SLOW = 256, OPT_NEVER, OPT_ERROR, OPT_NONBLOCK, OPT_FLIP,
       OPT_NO_OVERLAY, OPT_DEVICE, OPT_TIMEOUT, OPT_MERGE, OPT_POLL, OPT_EPOLL, OPT_EBUSY, OPT_BEHIND, OPT_SHARE_NEVER,
       OPT_VGEM, OPT_CLOSE_IN, OPT_SAY_WAITS, OPT_RELEASE_USR1, OPT_HOLD, OPT_QUEUE, OPT_STARVE, OPT_REJECT };

static const struct option long_opts[] = {
	{ "frames", required_argument, NULL, 'n' },
	{ "delay-a", required_argument, NULL, 'A' },
	{ "delay-b", required_argument, NULL, 'B' },
	{ "slow", required_argument, NULL, OPT_SLOW },
	{ "never", required_argument, NULL, OPT_NEVER },
	{ "share-never", no_argument, NULL, OPT_SHARE_NEVER },
	{ "error", required_argument, NULL, OPT_ERROR },
	{ "hold", required_argument, NULL, OPT_HOLD },
	{ "queue", required_argument, NULL, OPT_QUEUE },
	{ "starve", required_argument, NULL, OPT_STARVE },
	{ "reject", required_argument, NULL, OPT_REJECT },
	{ "nonblock", no_argument, NULL, OPT_NONBLOCK },
	{ "flip-event", no_argument, NULL, OPT_FLIP },
	{ "no-overlay", no_argument, NULL, OPT_NO_OVERLAY },
	{ "merge", no_argument, NULL, OPT_MERGE },
	{ "poll", no_argument, NULL, OPT_POLL },
	{ "epoll", no_argument, NULL, OPT_EPOLL },
	{ "ebusy", required_argument, NULL, OPT_EBUSY },
	{ "behind", required_argument, NULL, OPT_BEHIND },
	{ "vgem", no_argument, NULL, OPT_VGEM },
	{ "device", required_argument, NULL, OPT_DEVICE },
	{ "timeout", required_argument, NULL, OPT_TIMEOUT },
	{ "close-in-fences", no_argument, NULL, OPT_CLOSE_IN },
	{ "say-waits", no_argument, NULL, OPT_SAY_WAITS },
	{ "release-on-usr1", no_argument, NULL, OPT_RELEASE_USR1 },
	{ "help", no_argument, NULL, 'h' },
	{ 0 }
};

static int number_opt(const char *name, const char *arg, unsigned int max,
		      unsigned int *out, char *err, size_t errlen)
{
	if (parse_uint(arg, max, out) == 0)
		return 0;
	snprintf(err, errlen, "--%s: '%s' is not a whole number from 0 to %u", name, arg, max);
	return -1;
}

/* Whether @frame's fences are all plain: no --slow, --never or --error on them. */
static int plain_fences(const struct workload_plan *plan, unsigned int frame)
{
	unsigned int ms;

	return plan_fate(plan, frame, 0, &ms) == FATE_NORMAL && plan_fate(plan, frame, 1, &ms) == FATE_NORMAL;
}

/*
 * A refused frame waits on nothing and shows nothing: no injection that
 * needs its commit to block, to be in flight, or its fences waited on.
 */
static int check_rejects(const struct workload_plan *plan, char *err, size_t errlen)
{
	for (unsigned int i = 0; i < plan->n_rejects; i++) {
		unsigned int f = plan->rejects[i];

		if (f >= plan->frames || plan_queued(plan, f) || plan_queued(plan, f + 1) ||
		    plan_starve_ms(plan, f) || plan_hold_ms(plan, f) || !plain_fences(plan, f) ||
		    (plan->ebusy_frame >= 0 && (unsigned int)plan->ebusy_frame == f)) {
			snprintf(err, errlen, "--reject %u: needs a frame below --frames with no --queue (of it or "
				 "the next), --ebusy, --behind, --starve, --hold, --slow, --never or --error of its own", f);
			return -1;
		}
	}
	return 0;
}

/* --queue and --hold name frames that are committed; a queued frame has no fences to fail. */
static int check_frames(const struct workload_plan *plan, char *err, size_t errlen)
{
	for (unsigned int i = 0; i < plan->n_queued; i++) {
		unsigned int f = plan->queued[i];

		if (f >= plan->frames || plan->poll || plan_hold_ms(plan, f) || plan_queued(plan, f - 1) ||
		    !plain_fences(plan, f)) {
			snprintf(err, errlen, "--queue %u: needs a frame below --frames, not --poll, not queued "
				 "behind a queued frame, and no --hold, --slow, --never or --error of its own (it has "
				 "no in-fences)", f);
			return -1;
		}
		if (plan->ebusy_frame >= 0 && ((unsigned int)plan->ebusy_frame == f || (unsigned int)plan->ebusy_frame + 1 == f)) {
			snprintf(err, errlen, "--queue %u and --ebusy/--behind %d exclude each other", f, plan->ebusy_frame);
			return -1;
		}
	}
	for (unsigned int i = 0; i < plan->n_starves; i++) {
		unsigned int f = plan->starves[i].frame;

		if (f >= plan->frames || plan->nonblock || plan->poll || plan_queued(plan, f) ||
		    plan_queued(plan, f + 1)) {
			snprintf(err, errlen, "--starve %u: needs a frame below --frames whose commit blocks "
				 "on its in-fences: not --nonblock, --poll or --queue", f);
			return -1;
		}
		if (plan->starves[i].ms < PLAN_STARVE_MIN_MS) {
			snprintf(err, errlen, "--starve %u:%u: hold the CPU at least %d ms (the fences signal "
				 "%d ms after it is taken)", f, plan->starves[i].ms, PLAN_STARVE_MIN_MS,
				 PLAN_STARVE_SIGNAL_MS);
			return -1;
		}
	}
	if (check_rejects(plan, err, errlen))
		return -1;
	for (unsigned int i = 0; i < plan->n_holds; i++)
		if (plan->holds[i].frame >= plan->frames) {
			snprintf(err, errlen, "--hold names frame %u, but only %u frames are committed",
				 plan->holds[i].frame, plan->frames);
			return -1;
		}
	return 0;
}

static int check_overrides(const struct workload_plan *plan, char *err, size_t errlen)
{
	if (check_frames(plan, err, errlen))
		return -1;
	for (unsigned int i = 0; i < plan->n_overrides; i++) {
		const struct frame_override *o = &plan->overrides[i];

		if (o->frame >= plan->frames) {
			snprintf(err, errlen, "override names frame %u, but only %u frames are committed",
				 o->frame, plan->frames);
			return -1;
		}
		if (o->producer == 1 && !plan->overlay) {
			snprintf(err, errlen, "override names producer B, but --no-overlay leaves it idle");
			return -1;
		}
	}
	return 0;
}

/* Options that exclude or need each other.  0, or -1 with a message. */
static int plan_check(const struct workload_plan *plan, char *err, size_t errlen)
{
	if (plan->ebusy_frame >= 0 && (!plan->nonblock || (unsigned int)plan->ebusy_frame >= plan->frames)) {
		snprintf(err, errlen, "--ebusy and --behind need --nonblock and a frame below --frames");
		return -1;
	}
	if (plan->merge && plan->poll) {
		snprintf(err, errlen, "--merge and --poll (or --epoll) exclude each other");
		return -1;
	}
	if (plan->close_in && plan->poll) {
		snprintf(err, errlen, "--close-in-fences and --poll (or --epoll) exclude each other (a poll needs its fd)");
		return -1;
	}
	if (plan->merge && !plan->overlay) {
		snprintf(err, errlen, "--merge needs producer B: not with --no-overlay");
		return -1;
	}
	if (plan->share_never && !plan_has_fate(plan, FATE_NEVER)) {
		snprintf(err, errlen, "--share-never needs a --never fence to share");
		return -1;
	}
	if (plan->vgem && plan_has_fate(plan, FATE_ERROR)) {
		snprintf(err, errlen, "--error needs sw_sync fences: vgem cannot fail a fence");
		return -1;
	}
	if (plan->frames == 0) {
		snprintf(err, errlen, "--frames must be at least 1");
		return -1;
	}
	return check_overrides(plan, err, errlen);
}

/**
 * plan_parse_args() - fill @plan from the command line
 *
 * Return: 0 to run, 1 when --help was asked for, -1 with a message in @err.
 */
int plan_parse_args(struct workload_plan *plan, int argc, char **argv,
		    char *err, size_t errlen)
{
	int c, r = 0;

	plan_defaults(plan);
	optind = 0;	/* GNU: full re-initialisation, so tests can call us twice */
	opterr = 0;
	while (r == 0 && (c = getopt_long(argc, argv, ":n:A:B:h", long_opts, NULL)) != -1) {
		switch (c) {
		case 'n': r = number_opt("frames", optarg, MAX_FRAMES, &plan->frames, err, errlen); break;
		case 'A': r = number_opt("delay-a", optarg, MAX_MS, &plan->delay_ms[0], err, errlen); break;
		case 'B': r = number_opt("delay-b", optarg, MAX_MS, &plan->delay_ms[1], err, errlen); break;
		case OPT_SLOW: r = plan_add_override(plan, FATE_SLOW, optarg, err, errlen); break;
		case OPT_NEVER: r = plan_add_override(plan, FATE_NEVER, optarg, err, errlen); break;
		case OPT_ERROR: r = plan_add_override(plan, FATE_ERROR, optarg, err, errlen); break;
		case OPT_SHARE_NEVER: plan->share_never = 1; break;
		case OPT_HOLD: r = add_frame_ms(plan->holds, &plan->n_holds, "hold", optarg, err, errlen); break;
		case OPT_STARVE: r = add_frame_ms(plan->starves, &plan->n_starves, "starve", optarg, err, errlen); break;
		case OPT_QUEUE: r = add_frame(plan->queued, &plan->n_queued, "queue", 1, optarg, err, errlen); break;
		case OPT_REJECT: r = add_frame(plan->rejects, &plan->n_rejects, "reject", 0, optarg, err, errlen); break;
		case OPT_NONBLOCK: plan->nonblock = 1; break;
		case OPT_FLIP: plan->flip_event = 1; break;
		case OPT_NO_OVERLAY: plan->overlay = 0; break;
		case OPT_MERGE: plan->merge = 1; break;
		case OPT_POLL: plan->poll = POLL_WITH_POLL; break;
		case OPT_EPOLL: plan->poll = POLL_WITH_EPOLL; break;
		case OPT_EBUSY:
		case OPT_BEHIND: {
			unsigned int f;

			r = number_opt(c == OPT_EBUSY ? "ebusy" : "behind", optarg, MAX_FRAMES, &f, err, errlen);
			plan->ebusy_frame = (int)f;
			plan->behind_blocking = c == OPT_BEHIND;
			break;
		}
		case OPT_VGEM: plan->vgem = 1; break;
		case OPT_CLOSE_IN: plan->close_in = 1; break;
		case OPT_SAY_WAITS: plan->say_waits = 1; break;
		case OPT_RELEASE_USR1: plan->release_on_usr1 = 1; break;
		case OPT_DEVICE: plan->device = optarg; break;
		case OPT_TIMEOUT: r = number_opt("timeout", optarg, MAX_MS, &plan->timeout_ms, err, errlen); break;
		case 'h': return 1;
		case ':': snprintf(err, errlen, "option '%s' needs an argument", argv[optind - 1]); return -1;
		default: snprintf(err, errlen, "unknown option '%s'", argv[optind - 1]); return -1;
		}
	}
	if (r)
		return -1;
	if (optind < argc) {
		snprintf(err, errlen, "unexpected argument '%s'", argv[optind]);
		return -1;
	}
	return plan_check(plan, err, errlen);
}
