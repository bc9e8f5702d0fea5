// SPDX-License-Identifier: GPL-2.0
/*
 * series-events - the kernel series' drm_fence tracepoints, checked in the
 * lab guest on vkms against what user space knows: SYNC_IOC_FILE_INFO of
 * the in- and out-fences, the commit's return, the delay of the signal.
 * One case per scenario, TAP output; skips on a kernel without the series.
 */
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <unistd.h>

#include "guest-trace.h"
#include "kms.h"
#include "lab.h"
#include "sync.h"
#include "tap.h"
#include "trace-lines.h"

#define EVENTS_DIR "/sys/kernel/tracing/events/drm_fence"
#define ERESTARTSYS 512

static int have_series(void)
{
	return access(EVENTS_DIR, F_OK) == 0;
}

/*
 * Where the commit tests start: the series' events present, the lab set
 * up, an unsignalled sw_sync fence @in (seqno 1 on the lab's timeline),
 * and drm_fence traced into @tr (instance @name).
 * Return: TAP_PASS to go on; TAP_SKIP or TAP_FAIL for the test to return.
 */
static int start_commit_test(struct lab *lab, int *in, struct guest_trace *tr, const char *name)
{
	if (!have_series())
		return tap_skip("no %s: kernel without the series", EVENTS_DIR);
	CHECK(lab_setup(lab) == 0, "lab setup");
	*in = sw_sync_fence_create(lab->timeline, 1, NULL);
	CHECK(*in >= 0, "sw_sync fence");
	CHECK(guest_trace_start(tr, name, "drm_fence", NULL) == 0, "tracefs instance");
	return TAP_PASS;
}

/*
 * A flip waiting on a sw_sync in-fence signalled @delay_ms later, with an
 * out-fence; every event of the commit checked against user space's view.
 */
static int check_fenced_flip(unsigned int flags, unsigned int delay_ms)
{
	struct sync_summary in_s, out_s;
	struct delayed_signal d;
	struct ev ev, wb, we;
	struct guest_trace tr;
	char k[8][64];
	int64_t lat;
	int32_t out = -1;
	struct kms_req req;
	struct lab lab;
	pthread_t thr;
	int in, ret;

	ret = start_commit_test(&lab, &in, &tr, "series-flip");
	if (ret != TAP_PASS)
		return ret;
	CHECK(sync_file_summary(in, &in_s) == 0 && in_s.have_seqno,
	      "in-fence name '%s' has no context/seqno", in_s.name);
	d = (struct delayed_signal){ .timeline = lab.timeline, .ms = delay_ms };
	pthread_create(&thr, NULL, signal_later, &d);
	flip_request(&lab, 1, in, &out, &req);
	ret = kms_commit(&lab.kms, &req, flags, 0);
	CHECK(ret == 0, "commit: %d", ret);
	CHECK(sync_file_wait(out, 2000) == 1, "out-fence did not signal");
	pthread_join(thr, NULL);
	usleep(100000);		/* cleanup_done runs after the flip */
	CHECK(guest_trace_stop(&tr) == 0, "reading the trace");
	CHECK(tr.overrun == 0, "trace overran");
	CHECK(sync_file_summary(out, &out_s) == 0 && out_s.have_seqno, "out-fence info");
	CHECK(sync_file_summary(in, &in_s) == 0 && in_s.status == 1, "in-fence info");

	/* The out-fence: created, installed as our fd, signalled at a vblank. */
	snprintf(k[0], sizeof(k[0]), "seqno=%" PRId64, out_s.seqno);
	snprintf(k[1], sizeof(k[1]), "context=%" PRIu64, out_s.context);
	snprintf(k[2], sizeof(k[2]), "crtc=%u", lab.kms.crtc_id);
	CHECK(find_out_create(tr.text, W(k[0], k[1], k[2]), &ev, k[3], sizeof(k[3])) == 1,
	      "no drm_fence_out_create with %s %s %s", k[0], k[1], k[2]);
	tap_diag("%s: out-fence %s %s", k[3], k[1], k[0]);
	snprintf(k[4], sizeof(k[4]), "fd=%d", out);
	snprintf(k[5], sizeof(k[5]), "fence=%016" PRIx64, idfield(ev.line, "fence"));
	CHECK(find_ev(tr.text, "drm_fence_out_install", W(k[3], k[4], k[5], k[0]), NULL) == 1,
	      "no drm_fence_out_install with %s %s %s", k[3], k[4], k[5]);
	CHECK(find_ev(tr.text, "drm_fence_out_signal", W(k[3], k[5], k[0], "error=0"), &ev) == 1,
	      "no drm_fence_out_signal for %s", k[5]);
	CHECK(ufield(ev.line, "vblank") > 0, "out_signal without vblank: %s", ev.line);
	CHECK(ufield(ev.line, "time_ns") == out_s.timestamp_ns,
	      "out_signal time_ns %" PRIu64 ", fence timestamp %" PRIu64,
	      ufield(ev.line, "time_ns"), out_s.timestamp_ns);
	field_word(k[6], sizeof(k[6]), ev.line, "vblank");
	CHECK(find_ev(tr.text, "drm_fence_flip_done", W(k[3], k[6]), NULL) == 1,
	      "no drm_fence_flip_done for %s at %s", k[3], k[6]);

	/* The commit's life, all under one id. */
	CHECK(find_ev(tr.text, "drm_fence_commit", W(k[3], "out_fence=1"), &ev) == 1,
	      "no drm_fence_commit for %s", k[3]);
	CHECK(!!strstr(ev.line, "NONBLOCK") == !!(flags & DRM_MODE_ATOMIC_NONBLOCK),
	      "flags wrong: %s", ev.line);
	/* the task by its name; its pid is the event's own common_pid */
	CHECK(strstr(ev.line, " comm=") && !strstr(ev.line, " pid="), "comm, no pid field: %s",
	      ev.line);
	CHECK(find_ev(tr.text, "drm_fence_commit_tail", W(k[3]), NULL) == 1, "no commit_tail");
	CHECK(find_ev(tr.text, "drm_fence_hw_done", W(k[3]), NULL) == 1, "no hw_done");
	CHECK(find_ev(tr.text, "drm_fence_cleanup_done", W(k[3]), NULL) == 1, "no cleanup_done");
	CHECK(find_ev(tr.text, "drm_fence_commit_failed", W(k[3]), NULL) == 0, "commit_failed");

	/* The plane's in-fence: named, waited on for about the signal delay. */
	snprintf(k[0], sizeof(k[0]), "seqno=%" PRId64, in_s.seqno);
	snprintf(k[1], sizeof(k[1]), "context=%" PRIu64, in_s.context);
	snprintf(k[2], sizeof(k[2]), "plane=%u", lab.kms.primary->id);
	CHECK(find_ev(tr.text, "drm_fence_plane", W(k[3], k[2], k[0], k[1], "kind=explicit"),
		      NULL) == 1, "no drm_fence_plane for %s %s %s", k[2], k[1], k[0]);
	CHECK(find_ev(tr.text, "drm_fence_wait_begin", W(k[3], k[2], k[0], k[1]), &wb) == 1,
	      "no drm_fence_wait_begin for %s", k[2]);
	CHECK(find_ev(tr.text, "drm_fence_wait_end", W(k[3], k[2], k[0], k[1], "ret=0"), &we) == 1,
	      "no drm_fence_wait_end for %s", k[2]);
	/* Blocking commits wait before the swap, interruptibly. */
	CHECK(field(wb.line, "interruptible") == !(flags & DRM_MODE_ATOMIC_NONBLOCK),
	      "interruptible wrong: %s", wb.line);
	/*
	 * The wait ends when the waiter runs again after the signal. The trace
	 * clock is "mono", the fence's timestamp's clock, so wait_end can be
	 * no earlier than the signal (10 us for the fast clock's lag at a
	 * timekeeping update). How much later is the waiter's scheduling: 2-4
	 * ms in an idle TCG guest, 23 ms on a loaded host, so no fixed bound
	 * holds; the wait must end before the frame it held was shown. The
	 * out-fence's timestamp is its vblank's scheduled time (vkms' hrtimer
	 * expiry), which the handler that latched the commit may run after:
	 * under TCG a non-blocking commit's worker ended its wait 0.16 ms after
	 * it, so one 60 Hz period (16.7 ms; the timer skips periods it overran)
	 * plus slack is allowed.
	 */
	CHECK(in_s.timestamp_ns > wb.ts_ns, "in-fence signalled %" PRIu64 " ns before wait_begin",
	      wb.ts_ns - in_s.timestamp_ns);
	lat = (int64_t)(we.ts_ns - in_s.timestamp_ns);
	tap_diag("wait %" PRIu64 " us; in-fence signalled %" PRIu64
		 " us after wait_begin; wake-up %" PRId64 " us",
		 (we.ts_ns - wb.ts_ns) / 1000, (in_s.timestamp_ns - wb.ts_ns) / 1000,
		 lat / 1000);
	CHECK(lat > -10000 && we.ts_ns < out_s.timestamp_ns + 20000000,
	      "wait_end %" PRId64 " ns after the in-fence signalled, %" PRId64 " ns before its frame's"
	      " vblank (after the signal, and before that vblank's handler expected)", lat,
	      (int64_t)(out_s.timestamp_ns - we.ts_ns));
	/* The wait's duration is the reader's, from the two events: no field for it. */
	CHECK(!strstr(we.line, "duration_ns") && !strstr(wb.line, " ret="),
	      "a duration or a dummy ret in the wait events: %s / %s", wb.line, we.line);
	guest_trace_free(&tr);
	close(in);
	close(out);
	lab_teardown(&lab);
	return TAP_PASS;
}

static int test_blocking_flip(void)
{
	return check_fenced_flip(0, 100);
}

static int test_nonblocking_flip(void)
{
	return check_fenced_flip(DRM_MODE_ATOMIC_NONBLOCK, 100);
}

static void on_alarm(int sig)
{
	(void)sig;
}

/*
 * A blocking commit interrupted in its in-fence wait fails after it created
 * its out-fence: commit_failed, the wait's -ERESTARTSYS, no out_install.
 */
static int test_interrupted_commit(void)
{
	struct sigaction sa = { .sa_handler = on_alarm };	/* no SA_RESTART */
	struct itimerval it = { .it_value = { .tv_usec = 200000 } };
	struct guest_trace tr;
	char kc[48], kerr[48];
	int32_t out = 1234;
	struct kms_req req;
	struct lab lab;
	struct ev ev;
	int in, ret;

	ret = start_commit_test(&lab, &in, &tr, "series-eintr");
	if (ret != TAP_PASS)
		return ret;
	sigaction(SIGALRM, &sa, NULL);
	setitimer(ITIMER_REAL, &it, NULL);
	flip_request(&lab, 0, in, &out, &req);
	ret = kms_commit(&lab.kms, &req, 0, 0);
	CHECK(ret == -EINTR, "blocked commit + SIGALRM: want -EINTR, got %d", ret);
	sw_sync_timeline_inc(lab.timeline, 1);
	usleep(100000);
	CHECK(guest_trace_stop(&tr) == 0, "reading the trace");
	CHECK(find_out_create(tr.text, NULL, &ev, kc, sizeof(kc)) == 1,
	      "want one drm_fence_out_create");
	snprintf(kerr, sizeof(kerr), "err=%d", -ERESTARTSYS);
	CHECK(find_ev(tr.text, "drm_fence_commit_failed", W(kc, kerr), NULL) == 1,
	      "no drm_fence_commit_failed %s %s", kc, kerr);
	snprintf(kerr, sizeof(kerr), "ret=%d", -ERESTARTSYS);
	CHECK(find_ev(tr.text, "drm_fence_wait_begin", W(kc, "interruptible=1"), NULL) == 1,
	      "no interruptible drm_fence_wait_begin for %s", kc);
	CHECK(find_ev(tr.text, "drm_fence_wait_end", W(kc, kerr), NULL) == 1,
	      "no interrupted drm_fence_wait_end for %s", kc);
	CHECK(find_ev(tr.text, "drm_fence_out_install", NULL, NULL) == 0,
	      "an out-fence fd was installed for a failed commit");
	CHECK(find_ev(tr.text, "drm_fence_out_signal", W(kc), NULL) == 0,
	      "the failed commit's out-fence was signalled");
	guest_trace_free(&tr);
	close(in);
	lab_teardown(&lab);
	return TAP_PASS;
}

/*
 * A nonblocking commit behind one still waiting on its in-fence is refused
 * with -EBUSY; the stall event names the commit it ran into.
 */
static int test_ebusy_stall(void)
{
	char kc[48], kw[48];
	struct guest_trace tr;
	int32_t out = -1;
	struct kms_req req;
	struct lab lab;
	struct ev ev;
	int in, ret;

	ret = start_commit_test(&lab, &in, &tr, "series-ebusy");
	if (ret != TAP_PASS)
		return ret;
	flip_request(&lab, 1, in, &out, &req);
	CHECK(kms_commit(&lab.kms, &req, DRM_MODE_ATOMIC_NONBLOCK, 0) == 0, "first commit");
	flip_request(&lab, 0, -2, NULL, &req);
	ret = kms_commit(&lab.kms, &req, DRM_MODE_ATOMIC_NONBLOCK, 0);
	sw_sync_timeline_inc(lab.timeline, 1);
	CHECK(ret == -EBUSY, "second nonblocking commit: want -EBUSY, got %d", ret);
	CHECK(sync_file_wait(out, 2000) == 1, "first commit's out-fence");
	usleep(100000);
	CHECK(guest_trace_stop(&tr) == 0, "reading the trace");
	CHECK(find_ev(tr.text, "drm_fence_out_create", NULL, &ev) == 1, "one out_create");
	snprintf(kw, sizeof(kw), "waits_on=%" PRIu64, ufield(ev.line, "commit"));
	CHECK(find_ev(tr.text, "drm_fence_commit_stall", W(kw, "stage=ebusy", "ret=-16"), &ev) == 1,
	      "no drm_fence_commit_stall %s stage=ebusy", kw);
	field_word(kc, sizeof(kc), ev.line, "commit");
	CHECK(find_ev(tr.text, "drm_fence_commit_failed", W(kc, "err=-16"), NULL) == 1,
	      "no drm_fence_commit_failed %s err=-16", kc);
	guest_trace_free(&tr);
	close(in);
	close(out);
	lab_teardown(&lab);
	return TAP_PASS;
}

/* A blocking flip of fb[@i & 1], no fences; the commit's return. */
static int flip(struct lab *lab, unsigned int i)
{
	struct kms_req req;

	flip_request(lab, i, -2, NULL, &req);
	return kms_commit(&lab->kms, &req, 0, 0);
}

/*
 * Turning the CRTC off disables its vblank interrupt; the next flip after
 * the modeset enables it again.  (vkms flushes planes before it enables
 * the CRTC, so the modeset commit itself cannot get a vblank reference:
 * its event is sent at once, and vblank stays off until the next flip.)
 */
static int test_vblank_off_on(void)
{
	struct guest_trace tr;
	struct lab lab;
	struct ev off, on;
	char kp[32];

	if (!have_series())
		return tap_skip("no %s: kernel without the series", EVENTS_DIR);
	CHECK(lab_setup(&lab) == 0, "lab setup");
	CHECK(flip(&lab, 1) == 0, "flip");
	CHECK(guest_trace_start(&tr, "series-vblank", "drm",
				W("drm_vblank_enable", "drm_vblank_disable")) == 0,
	      "tracefs instance (drm_vblank_enable and _disable in the drm system)");
	CHECK(kms_disable(&lab.kms) == 0, "disable");
	CHECK(kms_modeset(&lab.kms, &lab.fb[0]) == 0, "modeset");
	CHECK(flip(&lab, 1) == 0, "flip after the modeset");
	CHECK(guest_trace_stop(&tr) == 0, "reading the trace");
	snprintf(kp, sizeof(kp), "crtc=%u,", lab.kms.crtc_index);
	CHECK(find_ev(tr.text, "drm_vblank_disable", W(kp), &off) == 1, "no drm_vblank_disable");
	CHECK(find_ev(tr.text, "drm_vblank_enable", W(kp), &on) == 1, "no drm_vblank_enable");
	CHECK(off.ts_ns <= on.ts_ns, "enable before disable");
	CHECK(ufield(on.line, "seq") >= ufield(off.line, "seq"),
	      "vblank count went back: %s / %s", off.line, on.line);
	guest_trace_free(&tr);
	lab_teardown(&lab);
	return TAP_PASS;
}

/* The "fences:" part of /sys/kernel/debug/sync/info (the sync_files). */
static char *sync_info_files(void)
{
	static char buf[65536];
	FILE *f = fopen("/sys/kernel/debug/sync/info", "r");
	size_t n = f ? fread(buf, 1, sizeof(buf) - 1, f) : 0;
	char *p;

	if (f)
		fclose(f);
	buf[n] = '\0';
	p = strstr(buf, "fences:\n");
	return p ? p : buf + n;
}

/*
 * sync_files are listed in debugfs while they are open: a sw_sync fence's,
 * a merged one's (by its name), and a CRTC out-fence's, whose timeline
 * name is printed through the fence's ops.
 */
static int test_sync_info_lists_sync_files(void)
{
	struct sync_summary a_s, out_s;
	int32_t out = -1;
	struct kms_req req;
	struct lab lab;
	char want[64];
	int a, b, m;

	if (!have_series())
		return tap_skip("no %s: kernel without the series", EVENTS_DIR);
	CHECK(lab_setup(&lab) == 0, "lab setup");
	CHECK(!strstr(sync_info_files(), "series-merged"), "stale merged sync_file listed");
	a = sw_sync_fence_create(lab.timeline, 4242, NULL);
	b = sw_sync_fence_create(lab.timeline, 4243, NULL);
	CHECK(a >= 0 && b >= 0, "sw_sync fences");
	CHECK(sync_file_summary(a, &a_s) == 0, "SYNC_IOC_FILE_INFO");
	m = sync_file_merge(a, b, "series-merged");
	CHECK(m >= 0, "merge: %d", m);
	flip_request(&lab, 1, -2, &out, &req);
	CHECK(kms_commit(&lab.kms, &req, 0, 0) == 0 && out >= 0, "flip with out-fence");
	CHECK(sync_file_wait(out, 2000) == 1 && sync_file_summary(out, &out_s) == 0,
	      "out-fence");
	snprintf(want, sizeof(want), "] %s", a_s.name);
	CHECK(strstr(sync_info_files(), want), "'%s' not listed:\n%s", want, sync_info_files());
	CHECK(strstr(sync_info_files(), "] series-merged: active"), "merged sync_file not listed");
	snprintf(want, sizeof(want), "] %s", out_s.name);
	CHECK(strstr(sync_info_files(), want), "'%s' not listed", want);
	snprintf(want, sizeof(want), "  %s_fence signaled", out_s.timeline);
	CHECK(strstr(sync_info_files(), want), "'%s' not listed:\n%s", want, sync_info_files());
	close(a);
	close(m);
	close(out);
	snprintf(want, sizeof(want), "] %s", a_s.name);
	CHECK(!strstr(sync_info_files(), want), "'%s' still listed after close", want);
	CHECK(!strstr(sync_info_files(), "series-merged"), "merged sync_file listed after close");
	snprintf(want, sizeof(want), "] %s", out_s.name);
	CHECK(!strstr(sync_info_files(), want), "'%s' still listed after close", want);
	sw_sync_timeline_inc(lab.timeline, 4243);
	close(b);
	lab_teardown(&lab);
	return TAP_PASS;
}

/*
 * Reads /sys/kernel/debug/sync/info, however long: *shown gets its
 * sync_file lines ("[...] name: status"), *more the count its "N more
 * sync_files not shown" line gives, or 0.  -1 when it cannot be read.
 */
static int sync_info_count(unsigned int *shown, unsigned int *more)
{
	FILE *f = fopen("/sys/kernel/debug/sync/info", "r");
	char *line = NULL;
	size_t cap = 0;

	*shown = *more = 0;
	if (!f)
		return -1;
	while (getline(&line, &cap, f) >= 0) {
		if (line[0] == '[')
			(*shown)++;
		sscanf(line, "%u more sync_files not shown", more);
	}
	free(line);
	fclose(f);
	return 0;
}

/*
 * sync/info prints at most 512 sync_files, whichever CPU's list they are
 * on, and counts the others in its last line, so that reading it never
 * holds a list lock for a walk of unbounded length.
 */
static int test_sync_info_caps_listing(void)
{
	enum { CAP = 512, OPEN = CAP + 88 };
	unsigned int before, shown, more;
	int fds[OPEN], timeline, i;

	if (!have_series())
		return tap_skip("no %s: kernel without the series", EVENTS_DIR);
	CHECK(sync_info_count(&before, &more) == 0, "cannot read sync/info");
	CHECK(before < CAP && more == 0, "%u sync_files open before the test", before);
	timeline = sw_sync_timeline_open();
	CHECK(timeline >= 0, "sw_sync timeline");
	for (i = 0; i < OPEN; i++) {
		fds[i] = sw_sync_fence_create(timeline, (uint32_t)i + 1, "series-cap");
		CHECK(fds[i] >= 0, "sw_sync fence %d of %d: %d", i + 1, OPEN, fds[i]);
	}
	CHECK(sync_info_count(&shown, &more) == 0, "cannot read sync/info");
	CHECK(shown == CAP, "%u sync_files printed with %u open, want %u",
	      shown, before + OPEN, CAP);
	CHECK(more == before + OPEN - CAP, "'%u more sync_files not shown', want %u",
	      more, before + OPEN - CAP);
	for (i = 0; i < OPEN; i++)
		close(fds[i]);
	sw_sync_timeline_inc(timeline, OPEN);
	close(timeline);
	CHECK(sync_info_count(&shown, &more) == 0, "cannot read sync/info");
	CHECK(shown == before && more == 0, "after closing: %u printed, %u more", shown, more);
	return TAP_PASS;
}

/* The sync_file address of the sync_file_install of (our tgid, @fd). */
static uint64_t installed_sync_file(const char *text, int fd)
{
	char kt[32], kf[32];
	struct ev ev;

	snprintf(kt, sizeof(kt), "tgid=%d", (int)getpid());
	snprintf(kf, sizeof(kf), "fd=%d", fd);
	if (find_ev(text, "sync_file_install", W(kt, kf), &ev) != 1)
		return 0;
	return idfield(ev.line, "sync_file");
}

/*
 * A sw_sync fence's sync_file from creation to release: installed as our
 * fd, merged, polled until it signals, resolved as IN_FENCE_FD, closed;
 * and the atomic out-fence's sync_file installed and released.
 */
static int test_sync_file_events(void)
{
	struct sync_summary a_s, out_s;
	uint64_t sa, sm, so, fa;
	struct delayed_signal d;
	struct guest_trace tr;
	struct ev begin, ready, ev;
	char k[4][64];
	int32_t out = -1;
	struct kms_req req;
	struct lab lab;
	pthread_t thr;
	int a, b, m;

	if (access("/sys/kernel/tracing/events/sync_file", F_OK))
		return tap_skip("no sync_file events: kernel without the series");
	CHECK(lab_setup(&lab) == 0, "lab setup");
	CHECK(guest_trace_start(&tr, "series-sync-file", "sync_file", NULL) == 0,
	      "tracefs instance");
	a = sw_sync_fence_create(lab.timeline, 1, NULL);
	b = sw_sync_fence_create(lab.timeline, 2, NULL);
	CHECK(a >= 0 && b >= 0 && sync_file_summary(a, &a_s) == 0 && a_s.have_seqno,
	      "sw_sync fences");
	m = sync_file_merge(a, b, "series-m");
	CHECK(m >= 0, "merge: %d", m);
	d = (struct delayed_signal){ .timeline = lab.timeline, .ms = 50 };
	pthread_create(&thr, NULL, signal_later, &d);
	CHECK(sync_file_wait(a, 2000) == 1, "poll on the sw_sync fence");
	pthread_join(thr, NULL);
	flip_request(&lab, 1, a, &out, &req);
	CHECK(kms_commit(&lab.kms, &req, 0, 0) == 0, "commit with IN_FENCE_FD");
	CHECK(sync_file_wait(out, 2000) == 1 && sync_file_summary(out, &out_s) == 0, "out-fence");
	usleep(50000);
	close(a);
	close(m);
	close(out);
	CHECK(guest_trace_stop(&tr) == 0, "reading the trace");
	CHECK(tr.overrun == 0, "trace overran");

	sa = installed_sync_file(tr.text, a);
	sm = installed_sync_file(tr.text, m);
	so = installed_sync_file(tr.text, out);
	CHECK(sa && sm && so, "sync_file_install for fds %d %d %d: %#" PRIx64 " %#" PRIx64
	      " %#" PRIx64, a, m, out, sa, sm, so);
	snprintf(k[0], sizeof(k[0]), "sync_file=%016" PRIx64, sa);
	snprintf(k[1], sizeof(k[1]), "context=%" PRIu64, a_s.context);
	CHECK(find_ev(tr.text, "sync_file_create", W(k[0], k[1], "seqno=1"), &ev) == 1,
	      "no sync_file_create %s %s seqno=1", k[0], k[1]);
	fa = idfield(ev.line, "fence");
	/* identities, not addresses: a kernel address has its top 16 bits set */
	CHECK((sa >> 48 != 0xffff) + (sm >> 48 != 0xffff) + (so >> 48 != 0xffff) +
	      (fa >> 48 != 0xffff) > 0, "sync_file and fence fields are kernel addresses: %#" PRIx64
	      " %#" PRIx64 " %#" PRIx64 " %#" PRIx64, sa, sm, so, fa);
	snprintf(k[2], sizeof(k[2]), "a=%016" PRIx64, fa);
	snprintf(k[3], sizeof(k[3]), "sync_file=%016" PRIx64, sm);
	CHECK(find_ev(tr.text, "sync_file_merge", W(k[3], k[2]), NULL) == 1,
	      "no sync_file_merge %s %s", k[3], k[2]);
	CHECK(find_ev(tr.text, "sync_file_poll_begin", W(k[0]), &begin) == 1, "no poll_begin");
	CHECK(find_ev(tr.text, "sync_file_poll_ready", W(k[0]), &ready) == 1, "no poll_ready");
	CHECK(ready.ts_ns >= begin.ts_ns + 40000000ull,
	      "poll ready %" PRIu64 " us after begin, the fence signalled after 50 ms",
	      (ready.ts_ns - begin.ts_ns) / 1000);
	snprintf(k[2], sizeof(k[2]), "fd=%d", a);
	CHECK(find_ev(tr.text, "sync_file_get_fence", W(k[0], k[2]), NULL) == 1,
	      "no sync_file_get_fence for IN_FENCE_FD %s", k[2]);
	snprintf(k[1], sizeof(k[1]), "context=%" PRIu64, out_s.context);
	snprintf(k[2], sizeof(k[2]), "seqno=%" PRId64, out_s.seqno);
	snprintf(k[3], sizeof(k[3]), "sync_file=%016" PRIx64, so);
	CHECK(find_ev(tr.text, "sync_file_create", W(k[3], k[1], k[2]), NULL) == 1,
	      "no sync_file_create for the out-fence %s %s", k[1], k[2]);
	CHECK(find_ev(tr.text, "sync_file_release", W(k[0]), NULL) == 1, "a not released");
	snprintf(k[0], sizeof(k[0]), "sync_file=%016" PRIx64, sm);
	CHECK(find_ev(tr.text, "sync_file_release", W(k[0]), NULL) == 1, "merge not released");
	CHECK(find_ev(tr.text, "sync_file_release", W(k[3]), NULL) == 1, "out not released");
	close(b);
	guest_trace_free(&tr);
	lab_teardown(&lab);
	return TAP_PASS;
}

static const struct tap_case cases[] = {
	{ "sync-info-lists-sync-files", test_sync_info_lists_sync_files, 30, 0 },
	{ "sync-info-caps-listing", test_sync_info_caps_listing, 60, 0 },
	{ "blocking-flip", test_blocking_flip, 30, 0 },
	{ "nonblocking-flip", test_nonblocking_flip, 30, 0 },
	{ "interrupted-commit", test_interrupted_commit, 30, 0 },
	{ "ebusy-stall", test_ebusy_stall, 30, 0 },
	{ "vblank-off-on", test_vblank_off_on, 30, 0 },
	{ "sync-file-events", test_sync_file_events, 30, 0 },
};

int main(int argc, char **argv)
{
	return tap_main(cases, sizeof(cases) / sizeof(cases[0]), argc, argv);
}
