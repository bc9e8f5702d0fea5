// SPDX-License-Identifier: GPL-2.0
/*
 * fence-cost - what one operation on the explicit-fencing paths costs, in
 * the guest, so that kernels can be compared (tests/bench/series-cost boots
 * the stock and the patched kernel interleaved and runs this in each).
 *
 *   fence-cost [-t MILLISECONDS] [-b BATCH] [-s KIND -g FILE]
 *
 * Operation kinds, each run for MILLISECONDS (default 1500) after one
 * untimed warm-up round (first-use costs: page faults, cold caches):
 *   test_only  a TEST_ONLY atomic commit of a vkms primary-plane flip
 *              carrying IN_FENCE_FD (a pending sw_sync fence)
 *   flip       a non-blocking page flip with IN_FENCE_FD (signalled) and
 *              OUT_FENCE_PTR: the ioctl alone; the next flip waits for the
 *              out-fence, so there is one per vblank
 *   create     SW_SYNC_IOC_CREATE_FENCE
 *   merge      SYNC_IOC_MERGE of two pending fences
 *   poll       poll() with a zero timeout on a pending sync_file, its first:
 *              arms the fence callback, as a compositor's event loop does
 *   signal     SW_SYNC_IOC_INC by one, signalling one fence (and, on the
 *              second timeline, the merged fence it belongs to)
 *
 * With -s KIND -g FILE it is the guest half of tests/bench/op-trace: after
 * the measurements it prints "fence-cost: gate KIND", waits until FILE
 * exists (the host creates it once its debugger sits on the operation's
 * kernel entry) and does one more KIND operation, in a round of one.
 *
 * Prints one line per kind, "op=KIND ns_per_op=N p10=N ci_lo=N ci_hi=N
 * rounds=N ops=N": the median and the 10th percentile over rounds of a
 * round's mean time per operation (a round is BATCH operations, default
 * 128, or one flip), and the 95 % confidence interval of that median (the
 * order statistics n/2 -+ 0.98 sqrt(n), which assume nothing about the
 * distribution).  In an --icount guest a nanosecond is one instruction, and
 * a round that takes a timer tick is that much dearer: with a smaller
 * BATCH most rounds take none, and the median is the cost of the
 * operation itself.  The low
 * percentile is the figure least disturbed by whatever else the host runs:
 * under TCG a descheduled QEMU thread only ever makes a round slower.  ioctl-to-out-fence time is not
 * measured: it is the distance to the next vblank, not a cost.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <poll.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kms.h"
#include "lab.h"
#include "parse-num.h"
#include "sync.h"

#define BATCH_MAX 128
#define MAX_ROUNDS 100000

/* Per-round costs of one kind, in ns per operation. */
struct rounds {
	double v[MAX_ROUNDS];
	unsigned int n;
	uint64_t ops;
};

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static void rounds_add(struct rounds *r, uint64_t ns, unsigned int ops)
{
	if (r->n < MAX_ROUNDS)
		r->v[r->n++] = (double)ns / ops;
	r->ops += ops;
}

/* Operations per round of the batched kinds (-b). */
static unsigned int batch = BATCH_MAX;

static void rounds_print(const char *kind, struct rounds *r)
{
	double median, half = 0.98 * sqrt(r->n);
	unsigned int lo, hi;

	qsort(r->v, r->n, sizeof(r->v[0]), cmp_double);
	median = r->n % 2 ? r->v[r->n / 2] : (r->v[r->n / 2 - 1] + r->v[r->n / 2]) / 2;
	lo = r->n / 2.0 > half ? (unsigned int)floor(r->n / 2.0 - half) : 0;
	hi = (unsigned int)ceil(r->n / 2.0 + half);
	if (hi >= r->n)
		hi = r->n - 1;
	printf("op=%s ns_per_op=%.0f p10=%.0f ci_lo=%.0f ci_hi=%.0f rounds=%u ops=%" PRIu64 "\n",
	       kind, median, r->v[r->n / 10], r->v[lo], r->v[hi], r->n, r->ops);
	fflush(stdout);
}

static void rounds_reset(struct rounds *r)
{
	r->n = 0;
	r->ops = 0;
}

/* -s KIND -g FILE: the kind whose next operation waits for FILE, once. */
static const char *gate_kind, *gate_file;

static void gate(const char *kind)
{
	struct stat st;

	if (!gate_kind || strcmp(kind, gate_kind))
		return;
	printf("fence-cost: gate %s\n", kind);
	fflush(stdout);
	while (stat(gate_file, &st))
		usleep(10000);
	gate_kind = NULL;
}

/* One round of TEST_ONLY commits, all with the same pending in-fence. */
static int test_only_round(struct lab *lab, int in_fd, struct rounds *r)
{
	struct kms_req req;
	uint64_t start;
	int ret;

	flip_request(lab, 1, in_fd, NULL, &req);
	gate("test_only");
	start = now_ns();
	for (unsigned int i = 0; i < batch; i++) {
		ret = kms_commit(&lab->kms, &req, DRM_MODE_ATOMIC_TEST_ONLY, 0);
		if (ret)
			return ret;
	}
	rounds_add(r, now_ns() - start, batch);
	return 0;
}

/*
 * One non-blocking flip to fb[@i & 1], timed around the ioctl, then the
 * wait for its out-fence.  EBUSY (the previous commit not yet cleaned up)
 * is retried after a millisecond and not counted.
 */
static int flip_round(struct lab *lab, unsigned int i, int in_fd, struct rounds *r)
{
	struct kms_req req;
	int32_t out = -1;
	uint64_t start, end;
	int ret;

	flip_request(lab, i, in_fd, &out, &req);
	gate("flip");
	do {
		start = now_ns();
		ret = kms_commit(&lab->kms, &req, DRM_MODE_ATOMIC_NONBLOCK, 0);
		end = now_ns();
		if (ret == -EBUSY)
			usleep(1000);
	} while (ret == -EBUSY);
	if (ret)
		return ret;
	rounds_add(r, end - start, 1);
	ret = sync_file_wait(out, 1000) == 1 ? 0 : -ETIMEDOUT;
	close(out);
	return ret;
}

/* Two timelines and the fds of one sw_sync round. */
struct sw_round {
	int tl[2];
	uint32_t value;
	int fence[2][BATCH_MAX];
	int merged[BATCH_MAX];
};

static int create_all(struct sw_round *s, struct rounds *r)
{
	uint64_t start;

	gate("create");
	start = now_ns();

	for (unsigned int t = 0; t < 2; t++)
		for (unsigned int i = 0; i < batch; i++) {
			s->fence[t][i] = sw_sync_fence_create(s->tl[t], s->value + 1 + i, "cost");
			if (s->fence[t][i] < 0)
				return s->fence[t][i];
		}
	rounds_add(r, now_ns() - start, 2 * batch);
	return 0;
}

static int merge_all(struct sw_round *s, struct rounds *r)
{
	uint64_t start;

	gate("merge");
	start = now_ns();

	for (unsigned int i = 0; i < batch; i++) {
		s->merged[i] = sync_file_merge(s->fence[0][i], s->fence[1][i], "cost");
		if (s->merged[i] < 0)
			return s->merged[i];
	}
	rounds_add(r, now_ns() - start, batch);
	return 0;
}

static int poll_all(struct sw_round *s, struct rounds *r)
{
	uint64_t start;

	gate("poll");
	start = now_ns();

	for (unsigned int i = 0; i < batch; i++) {
		struct pollfd pfd = { .fd = s->fence[0][i], .events = POLLIN };

		if (poll(&pfd, 1, 0) != 0)	/* pending: nothing ready */
			return -EPROTO;
	}
	rounds_add(r, now_ns() - start, batch);
	return 0;
}

static int signal_all(struct sw_round *s, struct rounds *r)
{
	uint64_t start;
	int ret;

	gate("signal");
	start = now_ns();

	for (unsigned int t = 0; t < 2; t++)
		for (unsigned int i = 0; i < batch; i++) {
			ret = sw_sync_timeline_inc(s->tl[t], 1);
			if (ret)
				return ret;
		}
	rounds_add(r, now_ns() - start, 2 * batch);
	s->value += batch;
	return 0;
}

/* Closing releases the sync_files and fences: untimed, it is not an op. */
static void close_all(struct sw_round *s)
{
	for (unsigned int i = 0; i < batch; i++) {
		close(s->fence[0][i]);
		close(s->fence[1][i]);
		close(s->merged[i]);
	}
}

static int sw_sync_round(struct sw_round *s, struct rounds r[4])
{
	int ret;

	/* close_all() after a failure must not close what this round never opened */
	memset(s->fence, -1, sizeof(s->fence));
	memset(s->merged, -1, sizeof(s->merged));
	ret = create_all(s, &r[0]);

	if (!ret)
		ret = merge_all(s, &r[1]);
	if (!ret)
		ret = poll_all(s, &r[2]);
	if (!ret)
		ret = signal_all(s, &r[3]);
	close_all(s);
	return ret;
}

static int run_test_only(struct lab *lab, int in_fd, uint64_t ns, struct rounds *r)
{
	int ret = test_only_round(lab, in_fd, r);
	uint64_t end = now_ns() + ns;

	rounds_reset(r);
	while (!ret && now_ns() < end)
		ret = test_only_round(lab, in_fd, r);
	if (!ret)
		rounds_print("test_only", r);
	return ret;
}

static int run_flips(struct lab *lab, int in_fd, uint64_t ns, struct rounds *r)
{
	unsigned int i = 1;
	int ret = flip_round(lab, i++, in_fd, r);
	uint64_t end = now_ns() + ns;

	rounds_reset(r);
	while (!ret && now_ns() < end)
		ret = flip_round(lab, i++, in_fd, r);
	if (!ret)
		rounds_print("flip", r);
	return ret;
}

/* The four sw_sync kinds, @ns long after a warm-up round; @ns 0: that round only, unprinted. */
static int run_sw_sync(uint64_t ns, struct rounds r[4])
{
	struct sw_round s = { .tl = { sw_sync_timeline_open(), sw_sync_timeline_open() } };
	int ret = s.tl[0] < 0 || s.tl[1] < 0 ? -ENODEV : sw_sync_round(&s, r);
	uint64_t end = now_ns() + ns;

	for (unsigned int i = 0; i < 4; i++)
		rounds_reset(&r[i]);
	while (!ret && now_ns() < end)
		ret = sw_sync_round(&s, r);
	if (!ret && ns) {
		rounds_print("create", &r[0]);
		rounds_print("merge", &r[1]);
		rounds_print("poll", &r[2]);
		rounds_print("signal", &r[3]);
	}
	close(s.tl[0]);
	close(s.tl[1]);
	return ret;
}

/* The two KMS kinds: TEST_ONLY with a pending in-fence, flips with a signalled one. */
static int run_kms(struct lab *lab, uint64_t ns, struct rounds *r)
{
	int pending = sw_sync_fence_create(lab->timeline, 1, "cost-pending");
	int ready = sw_sync_fence_create(lab->timeline, 0, "cost-ready");
	int ret = pending < 0 || ready < 0 ? -ENODEV : run_test_only(lab, pending, ns, r);

	if (!ret)
		ret = run_flips(lab, ready, ns, r);
	close(pending);
	close(ready);
	return ret;
}

static bool is_kind(const char *kind)
{
	static const char *const kinds[] = { "test_only", "flip", "create", "merge", "poll", "signal" };

	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
		if (!strcmp(kind, kinds[i]))
			return true;
	return false;
}

/* -s KIND -g FILE: one more round of one operation, its KIND gated. */
static int run_gated(struct lab *lab, const char *kind, struct rounds r[4])
{
	bool kms = !strcmp(kind, "test_only") || !strcmp(kind, "flip");
	int in_fd = kms ? sw_sync_fence_create(lab->timeline, !strcmp(kind, "test_only"), "cost-gated") : -1;
	int ret;

	batch = 1;
	gate_kind = kind;
	if (kms && in_fd < 0)
		ret = in_fd;
	else if (!strcmp(kind, "test_only"))
		ret = test_only_round(lab, in_fd, &r[0]);
	else if (kms)
		ret = flip_round(lab, 0, in_fd, &r[0]);
	else
		ret = run_sw_sync(0, r);
	if (in_fd >= 0)
		close(in_fd);
	return ret;
}

int main(int argc, char **argv)
{
	static struct rounds r[4];
	unsigned int ms = 1500;
	const char *kind = NULL;
	struct lab lab;
	int opt, ret = 0;

	opterr = 0;	/* the usage line says it all, in one line */
	while (!ret && (opt = getopt(argc, argv, "t:b:s:g:")) != -1) {
		if (opt == 't')
			ret = parse_uint(optarg, 60000, &ms);
		else if (opt == 'b')
			ret = parse_uint(optarg, BATCH_MAX, &batch);
		else if (opt == 's' && is_kind(optarg))
			kind = optarg;
		else if (opt == 'g')
			gate_file = optarg;
		else
			ret = -1;
	}
	if (ret || optind != argc || !ms || !batch || !kind != !gate_file) {
		fprintf(stderr, "usage: fence-cost [-t MILLISECONDS 1-60000] [-b BATCH 1-%d] "
			"[-s test_only|flip|create|merge|poll|signal -g FILE]\n", BATCH_MAX);
		return 2;
	}
	if (lab_setup(&lab)) {
		fprintf(stderr, "fence-cost: cannot set up vkms and a sw_sync timeline\n");
		return 1;
	}
	ret = run_kms(&lab, ms * 1000000ull, &r[0]);
	if (!ret)
		ret = run_sw_sync(ms * 1000000ull, r);
	if (!ret && kind)
		ret = run_gated(&lab, kind, r);
	kms_disable(&lab.kms);
	if (ret)
		fprintf(stderr, "fence-cost: %s\n", strerror(-ret));
	return ret ? 1 : 0;
}
