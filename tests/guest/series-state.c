// SPDX-License-Identifier: GPL-2.0
/*
 * series-state - the series' per-CRTC fence_timeline debugfs file and the
 * events added for what the first tracepoints missed: out-fences discarded
 * by failed commits, commits blocked in swap_state behind an earlier one,
 * fences signalled with an error, the members of merged fences, and the
 * implicit fence of an imported vgem buffer.  Checked in the lab guest on
 * vkms against what user space knows; TAP output; skips on a kernel
 * without the series.
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
#include "vgem-fence.h"

#define ERESTARTSYS 512

static int have(const char *event)
{
	char path[128];

	snprintf(path, sizeof(path), "/sys/kernel/tracing/events/%s", event);
	return access(path, F_OK) == 0;
}

/* The text of the fence_timeline file of @lab's CRTC; "" if missing. */
static const char *fence_timeline(const struct lab *lab)
{
	static char buf[8192];
	unsigned int minor;
	char path[96];
	size_t n = 0;
	FILE *f;

	if (sscanf(lab->kms.path, "/dev/dri/card%u", &minor) != 1)
		return "";
	snprintf(path, sizeof(path), "/sys/kernel/debug/dri/%u/crtc-%u/fence_timeline",
		 minor, lab->kms.crtc_index);
	f = fopen(path, "r");
	if (f) {
		n = fread(buf, 1, sizeof(buf) - 1, f);
		fclose(f);
	}
	buf[n] = '\0';
	return buf;
}

/* The line of @text starting with @kind and holding every word of @words. */
static const char *state_line(const char *text, const char *kind, const char *const *words)
{
	static char line[512];

	for (const char *p = text; p && *p;) {
		const char *end = strchr(p, '\n');
		size_t len = end ? (size_t)(end - p) : strlen(p);
		int ok = len < sizeof(line) - 2 && strncmp(p, kind, strlen(kind)) == 0;

		if (ok) {
			/* Leading space: field() and has_word() look for " key=". */
			line[0] = ' ';
			memcpy(line + 1, p, len);
			line[len + 1] = '\0';
			for (const char *const *w = words; w && *w && ok; w++)
				ok = strstr(line, *w) != NULL;
			if (ok)
				return line;
		}
		p = end ? end + 1 : NULL;
	}
	return NULL;
}

/*
 * While a nonblocking commit waits on an unsignalled in-fence, the CRTC's
 * file names that fence and the commit's pending out-fence; once it has
 * signalled and the flip is done, nothing is pending.
 */
static int test_debugfs_names_stuck_fence(void)
{
	struct sync_summary in_s, out_s;
	char k[6][64];
	const char *text, *l;
	int32_t out = -1;
	struct kms_req req;
	struct lab lab;
	int in;

	if (!have("drm_fence"))
		return tap_skip("no drm_fence events: kernel without the series");
	CHECK(lab_setup(&lab) == 0, "lab setup");
	in = sw_sync_fence_create(lab.timeline, 1, NULL);
	CHECK(in >= 0 && sync_file_summary(in, &in_s) == 0 && in_s.have_seqno,
	      "sw_sync fence");
	flip_request(&lab, 1, in, &out, &req);
	CHECK(kms_commit(&lab.kms, &req, DRM_MODE_ATOMIC_NONBLOCK, 0) == 0, "commit");
	CHECK(sync_file_summary(out, &out_s) == 0 && out_s.have_seqno, "out-fence info");
	usleep(200000);
	text = fence_timeline(&lab);
	CHECK(*text, "no fence_timeline file for %s crtc-%u", lab.kms.path, lab.kms.crtc_index);
	tap_diag("while stuck:\n%s", text);
	snprintf(k[0], sizeof(k[0]), " crtc=%u ", lab.kms.crtc_id);
	snprintf(k[1], sizeof(k[1]), " context=%" PRIu64 " ", out_s.context);
	CHECK(state_line(text, "crtc=", W(k[0], k[1])), "header lacks %s%s", k[0], k[1]);
	snprintf(k[2], sizeof(k[2]), " issued=%" PRId64 " ", out_s.seqno);
	CHECK(state_line(text, "crtc=", W(k[2])), "header lacks %s", k[2]);
	snprintf(k[2], sizeof(k[2]), " seqno=%" PRId64 " ", out_s.seqno);
	CHECK(state_line(text, "out_fence ", W(k[2])), "out-fence %s not pending", k[2]);
	snprintf(k[3], sizeof(k[3]), " plane=%u ", lab.kms.primary->id);
	snprintf(k[4], sizeof(k[4]), " context=%" PRIu64 " ", in_s.context);
	snprintf(k[5], sizeof(k[5]), " seqno=%" PRId64 " ", in_s.seqno);
	l = state_line(text, "wait ", W(k[3], k[4], k[5], " signalled=0 ", " driver=sw_sync "));
	CHECK(l, "no wait line for the in-fence (%s%s%s)", k[3], k[4], k[5]);
	CHECK(strstr(l, in_s.timeline), "wait line does not name timeline '%s': %s",
	      in_s.timeline, l);
	CHECK(field(l, "age_ns") >= 150000000, "wait age %" PRId64 " ns < 150 ms",
	      field(l, "age_ns"));

	sw_sync_timeline_inc(lab.timeline, 1);
	CHECK(sync_file_wait(out, 2000) == 1, "out-fence did not signal");
	usleep(100000);
	text = fence_timeline(&lab);
	tap_diag("after the flip:\n%s", text);
	CHECK(!state_line(text, "wait ", NULL), "a wait is still listed");
	CHECK(!state_line(text, "out_fence ", NULL), "an out-fence is still pending");
	snprintf(k[2], sizeof(k[2]), " signalled=%" PRId64 " ", out_s.seqno);
	CHECK(state_line(text, "signalled=", W(k[2])), "last signalled is not %s", k[2]);
	close(in);
	close(out);
	lab_teardown(&lab);
	return TAP_PASS;
}

static void on_alarm(int sig)
{
	(void)sig;
}

/*
 * A blocking commit interrupted in its in-fence wait fails after creating
 * its out-fence: drm_fence_out_discard with the error, no fd for user space,
 * and the CRTC's file counts it discarded rather than pending.
 */
static int test_failed_commit_discards_out_fence(void)
{
	struct sigaction sa = { .sa_handler = on_alarm };	/* no SA_RESTART */
	struct itimerval it = { .it_value = { .tv_usec = 200000 } };
	unsigned int discarded_before;
	struct guest_trace tr;
	char k[4][64];
	const char *l;
	int32_t out = 1234;
	struct kms_req req;
	struct lab lab;
	struct ev ev;
	int in, ret;

	if (!have("drm_fence/drm_fence_out_discard"))
		return tap_skip("no drm_fence_out_discard: kernel without the series");
	CHECK(lab_setup(&lab) == 0, "lab setup");
	l = state_line(fence_timeline(&lab), "signalled=", NULL);
	CHECK(l, "no fence_timeline file");
	discarded_before = (unsigned int)field(l, "discarded");
	in = sw_sync_fence_create(lab.timeline, 1, NULL);
	CHECK(in >= 0, "sw_sync fence");
	CHECK(guest_trace_start(&tr, "state-discard", "drm_fence", NULL) == 0, "tracefs instance");
	sigaction(SIGALRM, &sa, NULL);
	setitimer(ITIMER_REAL, &it, NULL);
	flip_request(&lab, 0, in, &out, &req);
	ret = kms_commit(&lab.kms, &req, 0, 0);
	CHECK(ret == -EINTR, "blocked commit + SIGALRM: want -EINTR, got %d", ret);
	CHECK(out == -1, "OUT_FENCE_PTR holds %d, want -1", out);
	CHECK(guest_trace_stop(&tr) == 0, "reading the trace");
	CHECK(find_out_create(tr.text, NULL, &ev, k[0], sizeof(k[0])) == 1, "one out_create");
	snprintf(k[1], sizeof(k[1]), "fence=%016" PRIx64, idfield(ev.line, "fence"));
	field_word(k[2], sizeof(k[2]), ev.line, "seqno");
	snprintf(k[3], sizeof(k[3]), "error=%d", -ERESTARTSYS);
	CHECK(find_ev(tr.text, "drm_fence_out_discard", W(k[0], k[1], k[2], k[3]), NULL) == 1,
	      "no drm_fence_out_discard %s %s %s %s", k[0], k[1], k[2], k[3]);
	CHECK(find_ev(tr.text, "drm_fence_out_create", W("crtc_name=crtc-0"), NULL) == 1,
	      "out_create does not name the CRTC: %s", ev.line);
	l = state_line(fence_timeline(&lab), "signalled=", NULL);
	CHECK(l && field(l, "discarded") == discarded_before + 1,
	      "discarded %" PRId64 ", want %u", l ? field(l, "discarded") : -1,
	      discarded_before + 1);
	snprintf(k[2], sizeof(k[2]), " seqno=%" PRIu64 " ", ufield(ev.line, "seqno"));
	CHECK(!state_line(fence_timeline(&lab), "out_fence ", W(k[2])),
	      "discarded out-fence still pending");
	sw_sync_timeline_inc(lab.timeline, 1);
	guest_trace_free(&tr);
	close(in);
	lab_teardown(&lab);
	return TAP_PASS;
}

struct commit_args {
	struct lab *lab;
	int ret;
	uint64_t ns;
};

/* pthread body: a blocking fenceless flip to fb[0], timed. */
static void *blocking_flip(void *arg)
{
	struct commit_args *c = arg;
	struct kms_req req;
	uint64_t t0 = now_ns();

	flip_request(c->lab, 0, -2, NULL, &req);
	c->ret = kms_commit(&c->lab->kms, &req, 0, 0);
	c->ns = now_ns() - t0;
	return NULL;
}

/*
 * A blocking commit right behind a nonblocking one that waits on its
 * in-fence blocks in drm_atomic_helper_swap_state() on the earlier commit's
 * hw_done: a commit_stall of stage hw_done naming that commit, lasting
 * until the in-fence signals.
 */
static int test_swap_state_hw_done_stall(void)
{
	struct commit_args c;
	struct guest_trace tr;
	char kc[48], kw[48];
	int32_t out = -1;
	struct kms_req req;
	struct lab lab;
	pthread_t thr;
	struct ev ev;
	uint64_t dur;
	int in;

	if (!have("drm_fence"))
		return tap_skip("no drm_fence events: kernel without the series");
	CHECK(lab_setup(&lab) == 0, "lab setup");
	in = sw_sync_fence_create(lab.timeline, 1, NULL);
	CHECK(in >= 0, "sw_sync fence");
	CHECK(guest_trace_start(&tr, "state-swap", "drm_fence", NULL) == 0, "tracefs instance");
	flip_request(&lab, 1, in, &out, &req);
	CHECK(kms_commit(&lab.kms, &req, DRM_MODE_ATOMIC_NONBLOCK, 0) == 0, "first commit");
	c = (struct commit_args){ .lab = &lab };
	pthread_create(&thr, NULL, blocking_flip, &c);
	usleep(300000);
	sw_sync_timeline_inc(lab.timeline, 1);
	pthread_join(thr, NULL);
	CHECK(c.ret == 0, "blocking commit: %d", c.ret);
	CHECK(sync_file_wait(out, 2000) == 1, "first commit's out-fence");
	usleep(100000);
	CHECK(guest_trace_stop(&tr) == 0, "reading the trace");
	CHECK(find_ev(tr.text, "drm_fence_out_create", NULL, &ev) == 1, "one out_create");
	snprintf(kw, sizeof(kw), "waits_on=%" PRIu64, ufield(ev.line, "commit"));
	CHECK(find_ev(tr.text, "drm_fence_commit_stall", W(kw, "stage=hw_done", "ret=0"),
		      &ev) == 1, "no drm_fence_commit_stall %s stage=hw_done", kw);
	field_word(kc, sizeof(kc), ev.line, "commit");
	CHECK(find_ev(tr.text, "drm_fence_commit", W(kc), NULL) == 1,
	      "the stalled commit %s has no drm_fence_commit", kc);
	dur = ufield(ev.line, "duration_ns");
	tap_diag("blocked %" PRIu64 " ms on hw_done; the ioctl took %" PRIu64 " ms",
		 dur / 1000000, c.ns / 1000000);
	CHECK(dur > 150000000 && dur <= c.ns, "stall of %" PRIu64 " ns, ioctl %" PRIu64 " ns",
	      dur, c.ns);
	guest_trace_free(&tr);
	close(in);
	close(out);
	lab_teardown(&lab);
	return TAP_PASS;
}

/*
 * Closing a sw_sync timeline signals its pending fences with -ENOENT:
 * dma_fence_error reports the fence (full context and seqno) and the error
 * before dma_fence_signaled.
 */
static int test_fence_error_event(void)
{
	struct sync_summary s;
	struct guest_trace tr;
	struct ev err, sig;
	char k[3][64];
	int tl, f;

	if (!have("dma_fence/dma_fence_error"))
		return tap_skip("no dma_fence_error: kernel without the series");
	CHECK(guest_trace_start(&tr, "state-error", "dma_fence",
				W("dma_fence_error", "dma_fence_signaled")) == 0,
	      "tracefs instance");
	tl = sw_sync_timeline_open();
	CHECK(tl >= 0, "sw_sync timeline");
	f = sw_sync_fence_create(tl, 1, NULL);
	CHECK(f >= 0 && sync_file_summary(f, &s) == 0 && s.have_seqno, "sw_sync fence");
	close(tl);
	CHECK(sync_file_summary(f, &s) == 0 && s.status == -ENOENT,
	      "fence status %d after closing its timeline", s.status);
	CHECK(guest_trace_stop(&tr) == 0, "reading the trace");
	snprintf(k[0], sizeof(k[0]), "context=%" PRIu64, s.context);
	snprintf(k[1], sizeof(k[1]), "seqno=%" PRId64, s.seqno);
	snprintf(k[2], sizeof(k[2]), "error=%d", -ENOENT);
	CHECK(find_ev(tr.text, "dma_fence_error", W(k[0], k[1], k[2], "driver=sw_sync"),
		      &err) == 1, "no dma_fence_error %s %s %s", k[0], k[1], k[2]);
	CHECK(find_ev(tr.text, "dma_fence_signaled", W(k[0], k[1]), &sig) == 1,
	      "no dma_fence_signaled %s %s", k[0], k[1]);
	CHECK(err.ts_ns <= sig.ts_ns, "error after signaled");
	CHECK(find_ev(tr.text, "dma_fence_error", NULL, NULL) == 1, "more than one error");
	close(f);
	guest_trace_free(&tr);
	return TAP_PASS;
}

/*
 * SYNC_IOC_MERGE of two pending fences makes an array: one dma_fence_member
 * per input, each naming the input's context and seqno, under the one
 * container whose address sync_file_merge reports.
 */
static int test_merge_members(void)
{
	struct sync_summary a_s, b_s;
	struct guest_trace tr, tm;
	char k[4][64];
	struct ev ev;
	int ta, tb, a, b, m;

	if (!have("dma_fence/dma_fence_member") || !have("sync_file/sync_file_merge"))
		return tap_skip("no dma_fence_member: kernel without the series");
	ta = sw_sync_timeline_open();
	tb = sw_sync_timeline_open();
	a = sw_sync_fence_create(ta, 1, NULL);
	b = sw_sync_fence_create(tb, 1, NULL);
	CHECK(a >= 0 && b >= 0 && sync_file_summary(a, &a_s) == 0 &&
	      sync_file_summary(b, &b_s) == 0 && a_s.have_seqno && b_s.have_seqno,
	      "two sw_sync fences");
	CHECK(guest_trace_start(&tr, "state-member", "dma_fence", W("dma_fence_member")) == 0 &&
	      guest_trace_start(&tm, "state-merge", "sync_file", W("sync_file_merge")) == 0,
	      "tracefs instances");
	m = sync_file_merge(a, b, "state-merged");
	CHECK(m >= 0, "merge: %d", m);
	CHECK(guest_trace_stop(&tr) == 0 && guest_trace_stop(&tm) == 0, "reading the traces");
	CHECK(find_ev(tm.text, "sync_file_merge", NULL, &ev) == 1, "one sync_file_merge");
	tap_diag("%s", ev.line);
	snprintf(k[0], sizeof(k[0]), "container=%016" PRIx64, idfield(ev.line, "fence"));
	snprintf(k[1], sizeof(k[1]), "context=%" PRIu64, a_s.context);
	snprintf(k[2], sizeof(k[2]), "context=%" PRIu64, b_s.context);
	CHECK(find_ev(tr.text, "dma_fence_member", NULL, NULL) == 2, "want two members");
	CHECK(find_ev(tr.text, "dma_fence_member", W(k[0], k[1], "seqno=1", "driver=sw_sync"),
		      NULL) == 1, "no member %s under %s", k[1], k[0]);
	CHECK(find_ev(tr.text, "dma_fence_member", W(k[0], k[2], "seqno=1"), NULL) == 1,
	      "no member %s under %s", k[2], k[0]);
	snprintf(k[3], sizeof(k[3]), "timeline=%s", b_s.timeline);
	CHECK(find_ev(tr.text, "dma_fence_member", W(k[2], k[3]), NULL) == 1,
	      "member %s does not name %s", k[2], k[3]);
	sw_sync_timeline_inc(ta, 1);
	sw_sync_timeline_inc(tb, 1);
	close(m);
	close(a);
	close(b);
	close(ta);
	close(tb);
	guest_trace_free(&tr);
	guest_trace_free(&tm);
	return TAP_PASS;
}

/*
 * A vgem buffer with an unsignalled vgem write fence, flipped to on vkms
 * without IN_FENCE_FD: the plane waits on the buffer's implicit fence.  The
 * plane event says so and names that fence (joined to vgem's dma_fence_init
 * by context), the CRTC's file lists it under driver vgem, and the flip
 * completes once vgem signals it.
 */
static int test_implicit_vgem_fence(void)
{
	struct guest_trace tr, td;
	struct vgem_buffer buf;
	struct kms_req req;
	char k[3][64];
	const char *l;
	struct lab lab;
	uint32_t fence;
	struct ev ev;
	int ret;

	if (!have("drm_fence"))
		return tap_skip("no drm_fence events: kernel without the series");
	CHECK(lab_setup(&lab) == 0, "lab setup");
	ret = vgem_buffer_create(&lab.kms, &buf);
	CHECK(ret == 0, "vgem buffer imported into %s: %s", lab.kms.path, strerror(-ret));
	CHECK(guest_trace_start(&tr, "state-implicit", "drm_fence", NULL) == 0 &&
	      guest_trace_start(&td, "state-implicit-init", "dma_fence",
				W("dma_fence_init")) == 0, "tracefs instances");
	CHECK(vgem_fence_attach_write(&buf, &fence) == 0, "vgem fence attach");
	kms_req_init(&req);
	kms_req_plane(&req, lab.kms.primary, lab.kms.crtc_id, &buf.fb, 0, 0);
	CHECK(kms_commit(&lab.kms, &req, DRM_MODE_ATOMIC_NONBLOCK, 0) == 0, "commit");
	usleep(200000);
	snprintf(k[0], sizeof(k[0]), " plane=%u ", lab.kms.primary->id);
	l = state_line(fence_timeline(&lab), "wait ", W(k[0], " driver=vgem "));
	CHECK(l, "fence_timeline lists no vgem wait:\n%s", fence_timeline(&lab));
	CHECK(vgem_fence_signal(&buf, fence) == 0, "vgem fence signal");
	usleep(200000);
	CHECK(guest_trace_stop(&tr) == 0 && guest_trace_stop(&td) == 0, "reading the traces");
	snprintf(k[0], sizeof(k[0]), "plane=%u", lab.kms.primary->id);
	CHECK(find_ev(tr.text, "drm_fence_plane", W(k[0], "kind=implicit"), &ev) == 1,
	      "no drm_fence_plane %s kind=implicit", k[0]);
	tap_diag("%s", ev.line);
	/* dma_fence_init truncates the context to 32 bits; vgem's are small. */
	field_word(k[1], sizeof(k[1]), ev.line, "context");
	field_word(k[2], sizeof(k[2]), ev.line, "seqno");
	CHECK(find_ev(td.text, "dma_fence_init", W("driver=vgem", k[1], k[2]), NULL) == 1,
	      "the plane's fence %s %s is not vgem's", k[1], k[2]);
	field_word(k[0], sizeof(k[0]), ev.line, "commit");
	CHECK(find_ev(tr.text, "drm_fence_wait_end", W(k[0], k[1], "ret=0"), NULL) == 1,
	      "no drm_fence_wait_end on the implicit fence");
	CHECK(find_ev(tr.text, "drm_fence_flip_done", W(k[0]), NULL) == 1, "no flip_done");
	CHECK(!state_line(fence_timeline(&lab), "wait ", NULL), "a wait is still listed");
	flip_request(&lab, 0, -2, NULL, &req);
	CHECK(kms_commit(&lab.kms, &req, 0, 0) == 0, "flip back");
	vgem_buffer_destroy(&lab.kms, &buf);
	guest_trace_free(&tr);
	guest_trace_free(&td);
	lab_teardown(&lab);
	return TAP_PASS;
}

static const struct tap_case cases[] = {
	{ "debugfs-names-stuck-fence", test_debugfs_names_stuck_fence, 30, 0 },
	{ "failed-commit-discards-out-fence", test_failed_commit_discards_out_fence, 30, 0 },
	{ "swap-state-hw-done-stall", test_swap_state_hw_done_stall, 30, 0 },
	{ "fence-error-event", test_fence_error_event, 30, 0 },
	{ "merge-members", test_merge_members, 30, 0 },
	{ "implicit-vgem-fence", test_implicit_vgem_fence, 30, 0 },
};

int main(int argc, char **argv)
{
	return tap_main(cases, sizeof(cases) / sizeof(cases[0]), argc, argv);
}
