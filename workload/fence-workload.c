// SPDX-License-Identifier: GPL-2.0
/*
 * fence-workload - the article's A+B->C compositor on an atomic KMS device.
 *
 * Each frame: producers A and B each get a fresh sw_sync fence; the
 * compositor commits the primary plane (IN_FENCE_FD = A's fence) and the
 * overlay plane (IN_FENCE_FD = B's fence) with OUT_FENCE_PTR on the CRTC;
 * the producers signal after their render delay.  One key=value line per
 * frame gives the ground truth (CLOCK_MONOTONIC ns) the tracers are checked
 * against.
 */
#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pthread.h>
#include <sys/epoll.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "frame-result.h"
#include "kms.h"
#include "producer.h"
#include "release-usr1.h"
#include "starve.h"
#include "sync.h"
#include "workload-plan.h"



struct compositor {
	struct workload_plan plan;
	struct kms_device kms;
	struct kms_fb primary_fb[2], overlay_fb;
	struct producer producers[PLAN_PRODUCERS];
	unsigned int n_producers;
	struct block_gate gate;	/* the late producers' wait for our block */
};

static void die(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
static void die(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "fence-workload: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

/*
 * --starve: the producers on CPU 1 (they inherit the mask), the compositor
 * on CPU 0, where the starver takes over while the fences signal.
 */
static void pin_for_starving(const struct compositor *c, int producers)
{
	int err;

	if (!c->plan.n_starves)
		return;
	if (sysconf(_SC_NPROCESSORS_ONLN) < 2)
		die("--starve needs 2 CPUs: the producers must run while the compositor's is taken");
	err = starve_pin(producers ? 1 : 0);
	if (err)
		die("--starve: cannot pin to CPU %d: %s", producers ? 1 : 0, strerror(err));
}

/* Producers A (and B): sw_sync timelines, or vgem fences with --vgem. */
static void start_producers(struct compositor *c)
{
	int vgem = -1, ret;

	pin_for_starving(c, 1);
	if (c->plan.release_on_usr1 && release_block_usr1())
		die("--release-on-usr1: cannot block SIGUSR1");
	if (c->plan.vgem) {
		vgem = vgem_source_open();
		if (vgem < 0)
			die("--vgem: no vgem device (modprobe vgem): %s", strerror(-vgem));
	}
	for (unsigned int i = 0; i < c->n_producers; i++) {
		ret = producer_start(&c->producers[i], 'A' + i, vgem);
		if (ret)
			die("producer %c: cannot open %s: %s", 'A' + i, SW_SYNC_PATH, strerror(-ret));
	}
	if (c->plan.release_on_usr1) {
		ret = release_on_usr1(c->producers, c->n_producers);
		if (ret)
			die("--release-on-usr1: cannot set up its eventfds and thread: %s", strerror(ret));
	}
	pin_for_starving(c, 0);
}

static void setup(struct compositor *c)
{
	char err[256];
	int ret;

	if (kms_open(&c->kms, c->plan.device, err, sizeof(err)))
		die("%s", err);
	if (c->plan.overlay && !c->kms.overlay)
		die("%s (%s) has no overlay plane (vkms needs enable_overlay=1); use --no-overlay",
		    c->kms.path, c->kms.driver);
	ret = kms_fb_create(&c->kms, c->kms.mode.hdisplay, c->kms.mode.vdisplay,
			    0x202040, &c->primary_fb[0]);
	if (!ret)
		ret = kms_fb_create(&c->kms, c->kms.mode.hdisplay, c->kms.mode.vdisplay,
				    0x204020, &c->primary_fb[1]);
	if (!ret && c->plan.overlay)
		ret = kms_fb_create(&c->kms, 256, 256, 0xc0c0c0, &c->overlay_fb);
	if (ret)
		die("cannot create framebuffers: %s", strerror(-ret));
	ret = kms_modeset(&c->kms, &c->primary_fb[0]);
	if (ret)
		die("modeset on %s failed: %s", c->kms.path, strerror(-ret));
	c->n_producers = c->plan.overlay ? 2 : 1;
	c->gate.tid = (pid_t)syscall(SYS_gettid);
	start_producers(c);
	printf("# device=%s driver=%s crtc=%u mode=%ux%u@%u nonblock=%d flip_event=%d "
	       "plane_a=%u plane_b=%u\n", c->kms.path, c->kms.driver, c->kms.crtc_id,
	       c->kms.mode.hdisplay, c->kms.mode.vdisplay, c->kms.mode.vrefresh, c->plan.nonblock,
	       c->plan.flip_event, c->kms.primary->id, c->plan.overlay ? c->kms.overlay->id : 0);
}

static void build_request(struct compositor *c, unsigned int frame, const int *in_fd,
			  int32_t *out_fence, struct kms_req *req)
{
	kms_req_init(req);
	kms_req_plane(req, c->kms.primary, c->kms.crtc_id, &c->primary_fb[frame & 1], 0, 0);
	kms_req_add(req, c->kms.primary->id, c->kms.primary->prop_in_fence_fd, in_fd[0]);
	if (plan_rejected(&c->plan, frame))	/* a source wider than the framebuffer: ENOSPC */
		kms_req_add(req, c->kms.primary->id, c->kms.primary->prop_src_w,
			    (uint64_t)(c->primary_fb[frame & 1].width + 1) << 16);
	if (c->plan.overlay) {
		kms_req_plane(req, c->kms.overlay, c->kms.crtc_id, &c->overlay_fb, 64, 64);
		if (in_fd[1] >= 0)
			kms_req_add(req, c->kms.overlay->id, c->kms.overlay->prop_in_fence_fd, in_fd[1]);
	}
	kms_req_add(req, c->kms.crtc_id, c->kms.prop_crtc_out_fence_ptr, (uintptr_t)out_fence);
}

/* Non-blocking: --nonblock, or the frame a --queue frame is committed behind. */
static bool frame_nonblock(const struct compositor *c, unsigned int frame)
{
	return c->plan.nonblock || plan_queued(&c->plan, frame + 1);
}

/* Commit, retrying while an earlier non-blocking commit still holds the CRTC. */
static int commit_frame(struct compositor *c, struct kms_req *req, unsigned int frame,
			struct frame_result *r)
{
	bool nonblock = frame_nonblock(c, frame);
	uint32_t flags = 0;
	int ret;

	if (nonblock)
		flags |= DRM_MODE_ATOMIC_NONBLOCK;
	if (c->plan.flip_event)
		flags |= DRM_MODE_PAGE_FLIP_EVENT;
	if (!nonblock)	/* a blocking commit waits on the in-fences */
		atomic_store(&c->gate.state, GATE_INSIDE);
	while ((ret = kms_commit(&c->kms, req, flags, frame)) == -EBUSY && r->ebusy < 1000) {
		r->ebusy++;
		usleep(1000);
	}
	if (!nonblock)
		atomic_store(&c->gate.state, GATE_RETURNED);
	return ret;
}

/*
 * A second commit at once, while frame @frame's commit still waits for its
 * in-fences: the kernel answers EBUSY (non-blocking commits do not queue)
 * until that frame is shown.  Counted in r->ebusy.
 */
static void commit_behind(struct compositor *c, unsigned int frame, struct frame_result *r)
{
	struct kms_req req;
	int ret;

	kms_req_init(&req);
	kms_req_plane(&req, c->kms.primary, c->kms.crtc_id, &c->primary_fb[(frame + 1) & 1], 0, 0);
	/* blocked in the kernel (--behind) or sleeping between EBUSYs (--ebusy) */
	atomic_store(&c->gate.state, GATE_INSIDE);
	while ((ret = kms_commit(&c->kms, &req, c->plan.behind_blocking ? 0 : DRM_MODE_ATOMIC_NONBLOCK,
				 0)) == -EBUSY && r->ebusy < 10000) {
		r->ebusy++;
		usleep(1000);
	}
	atomic_store(&c->gate.state, GATE_RETURNED);
	if (ret)
		die("frame %u: the commit behind it failed: %s", frame, strerror(-ret));
}

static void announce_stall(const struct compositor *c, unsigned int frame)
{
	unsigned int ms;

	for (unsigned int i = 0; i < c->n_producers; i++)
		if (plan_fate(&c->plan, frame, i, &ms) == FATE_NEVER)
			fprintf(stderr, "fence-workload: frame %u: producer %c never signals; "
				"the commit stalls until this process is killed\n", frame, 'A' + i);
	fflush(stderr);
}

/*
 * --share-never: two more holders of the fence that never signals, for
 * top --pending to list: a child that inherits its fd (and dies with us),
 * then a dup() here.  Neither is closed: the process is killed.
 */
static void share_never(const struct compositor *c, unsigned int frame, const int *in_fd)
{
	pid_t parent = getpid();
	unsigned int ms;

	for (unsigned int i = 0; c->plan.share_never && i < c->n_producers; i++) {
		struct sync_summary s = { 0 };
		pid_t child;
		int copy;

		if (plan_fate(&c->plan, frame, i, &ms) != FATE_NEVER)
			continue;
		fflush(NULL);
		child = fork();
		if (child == 0) {
			prctl(PR_SET_PDEATHSIG, SIGKILL);
			if (getppid() != parent)	/* the parent died before prctl */
				_exit(0);
			for (;;)
				pause();
		}
		copy = dup(in_fd[i]);
		if (child < 0 || copy < 0)
			die("frame %u: cannot share producer %c's fence: %s", frame, 'A' + i, strerror(errno));
		sync_file_summary(in_fd[i], &s);
		fprintf(stderr, "fence-workload: frame %u: producer %c's never-signalled fence "
			"(context %" PRIu64 " seqno %" PRId64 ") is held by pid %d fd %d, fd %d (a dup) "
			"and child pid %d fd %d\n", frame, 'A' + i, s.context, s.seqno, (int)parent,
			in_fd[i], copy, (int)child, in_fd[i]);
	}
	fflush(stderr);
}

/*
 * --epoll: wait in epoll_wait() until every one of @fds has signalled, as
 * compositors with an event loop do (the sync_files are one-shot: each
 * stays readable once signalled, so each is taken out when seen).
 */
static void epoll_all(const int *fds, unsigned int n, unsigned int frame)
{
	struct epoll_event ev[PLAN_PRODUCERS];
	int ep = epoll_create1(EPOLL_CLOEXEC), got;

	if (ep < 0)
		die("frame %u: epoll_create1: %s", frame, strerror(errno));
	for (unsigned int i = 0; i < n; i++) {
		struct epoll_event e = { .events = EPOLLIN, .data.u32 = i };

		if (epoll_ctl(ep, EPOLL_CTL_ADD, fds[i], &e))
			die("frame %u: epoll_ctl on producer %c's fence: %s", frame, 'A' + i,
			    strerror(errno));
	}
	while (n) {
		got = epoll_wait(ep, ev, PLAN_PRODUCERS, -1);
		if (got < 0 && errno != EINTR)
			die("frame %u: epoll_wait: %s", frame, strerror(errno));
		for (int i = 0; i < got; i++, n--)
			epoll_ctl(ep, EPOLL_CTL_DEL, fds[ev[i].data.u32], NULL);
	}
	close(ep);
}

/*
 * The fds the planes get as IN_FENCE_FD: the producers' own, their merge
 * (--merge), or none after polling them (--poll, --epoll).
 */
static const int *plane_fences(struct compositor *c, unsigned int frame, const int *in_fd,
			       int *merged)
{
	if (c->plan.merge) {
		/*
		 * Both pending now (the producers start after it): the merge
		 * is a real dma_fence_array of two.
		 */
		merged[0] = sync_file_merge(in_fd[0], in_fd[1], "A+B");
		if (merged[0] < 0)
			die("frame %u: SYNC_IOC_MERGE failed: %s", frame, strerror(-merged[0]));
		return merged;
	}
	if (c->plan.poll) {
		/* The compositor's way: poll the sync_files, then commit unfenced. */
		atomic_store(&c->gate.state, GATE_INSIDE);
		if (c->plan.poll == POLL_WITH_EPOLL)
			epoll_all(in_fd, c->n_producers, frame);
		for (unsigned int i = 0; c->plan.poll == POLL_WITH_POLL && i < c->n_producers; i++)
			if (sync_file_wait(in_fd[i], -1) != 1)
				die("frame %u: poll on producer %c's fence failed", frame, 'A' + i);
		atomic_store(&c->gate.state, GATE_RETURNED);
		merged[0] = merged[1] = -1;	/* IN_FENCE_FD = -1: no in-fence */
		return merged;
	}
	return in_fd;
}

/* --say-waits: what this frame does that waits on a late in-fence, and when. */
static void say_waits(const struct compositor *c, unsigned int frame, const int *in_fd)
{
	const char *what = c->plan.poll == POLL_WITH_EPOLL ? "epoll_wait() on the sync_file fd" :
			   c->plan.poll ? "poll() on the sync_file fd" :
			   c->plan.nonblock ? "non-blocking commit on the in-fence fd" :
			   "blocking commit on the in-fence fd";
	unsigned int ms;

	for (unsigned int i = 0; c->plan.say_waits && i < c->n_producers; i++) {
		enum frame_fate fate = plan_fate(&c->plan, frame, i, &ms);
		struct sync_summary s = { 0 };

		if (fate != FATE_SLOW && fate != FATE_NEVER)
			continue;
		sync_file_summary(in_fd[i], &s);
		fprintf(stderr, "fence-workload: frame %u: at %" PRIu64 " ns: %s %d of producer %c "
			"(context %" PRIu64 " seqno %" PRId64 "), which signals %s%u ms after the submit "
			"(a blocking call's: after it blocks on it); "
			"in-fence fds %s\n", frame, now_ns(), what, in_fd[i], 'A' + i, s.context, s.seqno,
			fate == FATE_NEVER ? "never, not " : "", ms,
			c->plan.close_in ? "closed once the commit has them" : "kept open");
	}
	fflush(stderr);
}

/*
 * --close-in-fences on a blocking commit: the ioctl holds its own
 * references once it sleeps on them, so a helper closes the fds then (the
 * main thread's /proc state turns S).
 */
struct closer {
	pthread_t thread;
	pid_t tid;
	int *fds;
	unsigned int n;
};

static void close_in_fences(int *fds, unsigned int n)
{
	for (unsigned int i = 0; i < n; i++) {
		if (fds[i] >= 0)
			close(fds[i]);
		fds[i] = -1;
	}
	fprintf(stderr, "fence-workload: at %" PRIu64 " ns: in-fence fds closed\n", now_ns());
	fflush(stderr);
}

static void *closer_run(void *arg)
{
	struct closer *cl = arg;

	for (int i = 0; i < 10000 && !thread_sleeps(cl->tid); i++)
		usleep(1000);
	close_in_fences(cl->fds, cl->n);
	return NULL;
}

/* The frame on screen: its out-fence signalled, and its flip event read. */
static void await_frame(struct compositor *c, unsigned int frame, int out_fence,
			struct frame_result *r)
{
	if (sync_file_wait(out_fence, c->plan.timeout_ms) <= 0)
		die("frame %u: out-fence not signalled after %u ms", frame, c->plan.timeout_ms);
	r->out_seen_ns = now_ns();
	sync_file_summary(out_fence, &r->out);
	if (c->plan.flip_event) {
		uint64_t user_data = 0;

		if (kms_read_flip_event(&c->kms, c->plan.timeout_ms, &user_data,
					&r->flip_seq, &r->flip_ns) != 1 || user_data != frame)
			die("frame %u: no page-flip event", frame);
	}
}

/*
 * The frame starts: the producers render.  A late or failing fence (--slow,
 * --error) is timed from the compositor's block on it when it blocks (a
 * blocking commit, --poll, the second commit of --ebusy or --behind), so
 * that it is late for the commit whatever held the commit up; the others
 * from the frame's start.
 */
static void start_render(struct compositor *c, unsigned int frame, struct frame_result *r)
{
	bool blocks = !frame_nonblock(c, frame) || c->plan.poll || (int)frame == c->plan.ebusy_frame;
	unsigned int ms;

	atomic_store(&c->gate.state, GATE_BEFORE);
	atomic_store(&c->gate.starve, plan_starve_ms(&c->plan, frame) ? STARVE_WAITING : STARVE_NONE);
	r->submit_ns = now_ns();
	for (unsigned int i = 0; !plan_queued(&c->plan, frame) && i < c->n_producers; i++) {
		enum frame_fate fate = plan_fate(&c->plan, frame, i, &ms);
		bool starved = plan_starve_ms(&c->plan, frame) != 0;
		bool gated = blocks && (fate == FATE_SLOW || fate == FATE_ERROR || starved);

		/*
		 * --starve: the fences signal PLAN_STARVE_SIGNAL_MS after the
		 * starver, which polls for the commit's sleep on them every
		 * 0.1 ms, holds the compositor's CPU (the gate waits for it).
		 */
		if (starved && fate == FATE_NORMAL)
			ms = PLAN_STARVE_SIGNAL_MS;
		producer_render(&c->producers[i], frame, fate, r->submit_ns, ms * 1000000ull,
				gated ? &c->gate : NULL);
	}
}

/* The commit; with --close-in-fences, its in-fence fds closed as it has them. */
static int commit_blocking_close(struct compositor *c, struct kms_req *req, unsigned int frame,
				 struct frame_result *r, int *in_fd)
{
	struct closer cl = { .tid = (pid_t)syscall(SYS_gettid), .fds = in_fd, .n = c->n_producers };
	int ret, closer = c->plan.close_in && !frame_nonblock(c, frame);

	unsigned int starve = plan_starve_ms(&c->plan, frame);

	if (closer && pthread_create(&cl.thread, NULL, closer_run, &cl))
		die("frame %u: cannot start the thread that closes the in-fences", frame);
	if (starve && starve_start(&r->starve, cl.tid, 0, starve, &c->gate.starve))
		die("frame %u: cannot start the thread that takes the CPU", frame);
	ret = commit_frame(c, req, frame, r);
	if (starve) {
		starve_join(&r->starve);
		if (r->starve.error)
			die("--starve: cannot take CPU 0 as SCHED_FIFO: %s", strerror(r->starve.error));
	}
	if (closer)
		pthread_join(cl.thread, NULL);
	else if (c->plan.close_in)
		close_in_fences(in_fd, c->n_producers);
	return ret;
}

/* Its producers' fences: one each, or none for a --queue frame (nothing to render). */
static void make_fences(struct compositor *c, unsigned int frame, int *in_fd)
{
	for (unsigned int i = 0; !plan_queued(&c->plan, frame) && i < c->n_producers; i++) {
		in_fd[i] = producer_fence(&c->producers[i]);
		if (in_fd[i] < 0)
			die("frame %u: cannot create producer %c's fence: %s", frame, 'A' + i,
			    strerror(-in_fd[i]));
	}
}

/*
 * --reject: the kernel must have refused the commit, after making the
 * out-fence it then dropped (the ioctl writes -1 back to OUT_FENCE_PTR).
 */
static void expect_rejected(unsigned int frame, int ret, struct frame_result *r)
{
	if (!ret)
		die("frame %u: --reject: the kernel took the commit", frame);
	if (r->out_fence != -1)
		die("frame %u: --reject: the refused commit left out-fence fd %d", frame, r->out_fence);
	r->rejected = ret;
}

/* The frame up to its commit's return; begin_frame() leaves it in flight. */
static void begin_frame(struct compositor *c, unsigned int frame, struct frame_result *r)
{
	int merged[PLAN_PRODUCERS] = { -1, -1 }, *in_fd = r->in_fd;
	const int *planes = NULL;
	struct kms_req req;
	int ret;

	memset(r, 0, sizeof(*r));
	in_fd[0] = in_fd[1] = r->out_fence = -1;
	make_fences(c, frame, in_fd);
	announce_stall(c, frame);
	share_never(c, frame, in_fd);
	if (!c->plan.poll && in_fd[0] >= 0)	/* a merge of two pending fences: before they render */
		planes = plane_fences(c, frame, in_fd, merged);
	start_render(c, frame, r);
	say_waits(c, frame, in_fd);
	if (c->plan.poll)	/* the poll waits for their render */
		planes = plane_fences(c, frame, in_fd, merged);
	build_request(c, frame, planes ? planes : in_fd, (int32_t *)&r->out_fence, &req);
	for (unsigned int i = 0; c->plan.close_in && i < c->n_producers; i++)
		sync_file_summary(in_fd[i], &r->in[i]);	/* what is known of them once closed */
	r->vblank_known = kms_vblank_now(&c->kms, &r->vblank_before, &r->vblank_before_ns) == 0;
	ret = commit_blocking_close(c, &req, frame, r, in_fd);
	if (c->plan.merge && merged[0] >= 0)
		close(merged[0]);	/* the kernel holds its own reference now */
	r->return_ns = now_ns();
	if (plan_rejected(&c->plan, frame)) {
		expect_rejected(frame, ret, r);
		return;
	}
	if (ret)
		die("frame %u: atomic commit failed: %s", frame, strerror(-ret));
	if ((int)frame == c->plan.ebusy_frame)
		commit_behind(c, frame, r);
}

/* The frame shown (or refused): its out-fence signalled, its producers idle, its fds closed. */
static void finish_frame(struct compositor *c, unsigned int frame, struct frame_result *r)
{
	if (!r->rejected)
		await_frame(c, frame, r->out_fence, r);
	for (unsigned int i = 0; !plan_queued(&c->plan, frame) && i < c->n_producers; i++) {
		producer_wait_idle(&c->producers[i], &r->times[i]);
		if (r->in_fd[i] < 0)
			continue;	/* closed: r->in[i] is what it was at the commit */
		sync_file_summary(r->in_fd[i], &r->in[i]);
		close(r->in_fd[i]);
	}
	if (!r->rejected)
		close(r->out_fence);
}

int main(int argc, char **argv)
{
	struct compositor c = { 0 };
	uint64_t total = 0, worst = 0;
	unsigned int shown = 0;
	struct frame_result res[2];	/* a --queue frame and the one it is behind */
	char err[256];
	int ret;

	ret = plan_parse_args(&c.plan, argc, argv, err, sizeof(err));
	if (ret == 1) {
		fputs(workload_usage, stdout);
		return 0;
	}
	if (ret) {
		fprintf(stderr, "fence-workload: %s\nTry 'fence-workload --help'.\n", err);
		return 2;
	}
	setup(&c);
	for (unsigned int f = 0; f < c.plan.frames; f++) {
		struct frame_result *r = &res[f & 1];

		if (plan_hold_ms(&c.plan, f))
			usleep(plan_hold_ms(&c.plan, f) * 1000u);
		begin_frame(&c, f, r);
		if (f + 1 < c.plan.frames && plan_queued(&c.plan, f + 1))
			continue;	/* in flight while the next is committed behind it */
		for (unsigned int k = plan_queued(&c.plan, f) ? f - 1 : f; k <= f; k++) {
			uint64_t latency;

			finish_frame(&c, k, &res[k & 1]);
			frame_print(&c.plan, c.n_producers, k, &res[k & 1]);
			if (res[k & 1].rejected)
				continue;
			shown++;
			latency = res[k & 1].out.timestamp_ns - res[k & 1].submit_ns;
			total += latency;
			worst = latency > worst ? latency : worst;
		}
	}
	printf("# frames=%u shown=%u out_fence_latency_mean_us=%" PRIu64 " out_fence_latency_max_us=%" PRIu64 "\n",
	       c.plan.frames, shown, shown ? total / shown / 1000 : 0, worst / 1000);
	for (unsigned int i = 0; i < c.n_producers; i++)
		producer_stop(&c.producers[i]);
	kms_disable(&c.kms);
	kms_close(&c.kms);
	return 0;
}
