// SPDX-License-Identifier: GPL-2.0
/*
 * fence-storm - as many sw_sync fences as the machine makes, for load and
 * overhead measurements: one thread per CPU, each with its own timeline,
 * creates a fence, signals it and closes it, for a fixed count or time.
 *
 *   fence-storm [-t THREADS] [-n FENCES_PER_THREAD] [-d SECONDS] [-r RATE] [-f] [-k] [-m]
 *
 * -r RATE: at most RATE fences a second in all (each thread its share,
 * paced against its start, so a thread held up catches up after), for a
 * load that does not adapt to the tracer beside it: a recorder's losses
 * are then its own, not a storm that slows when the recorder takes the
 * CPU.
 * -f: a fresh timeline (a new fence context) for every fence, to fill the
 * tools' per-context tables.  -k: keep every fence unsignalled, its
 * sync_file open, until the storm is killed (SIGTERM or SIGINT), for the
 * tools' lists of pending fences; it raises RLIMIT_NOFILE to fit.  -m:
 * each fence gets a twin on a second timeline and the two are merged
 * (SYNC_IOC_MERGE: a dma_fence_array with a context of its own, as a
 * compositor merging its clients' fences makes) before both signal: a
 * merge context per two fences counted.
 * Prints the fences made, the rate and ns, the storm's span from its
 * start to its last fence on the guest's clock (tests/bench/overhead-bench
 * counts instructions with it).  Every fence gives dma_fence_init,
 * dma_fence_signaled and dma_fence_destroy events.
 */
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "parse-num.h"
#include "sync.h"

struct storm {
	unsigned int threads, per_thread, seconds;
	unsigned int rate;		/* -r: fences a second, all threads; 0 as fast as it goes */
	uint64_t start;			/* now_ns() when the threads were started */
	int fresh;			/* -f: a new timeline per fence */
	int merge;			/* -m: each pair of fences merged */
	int keep;			/* -k: fences stay open and unsignalled */
	uint64_t deadline;
};

struct worker {
	const struct storm *s;
	pthread_t thread;
	uint64_t made;
	int error;
};

/*
 * -m: @fd (value @v on @tl) merged with a fence of the same value on a
 * second timeline @tl2 (6.1's merge keeps one fence per context, so two
 * fences of one timeline would make no array); both signal, and the three
 * sync_files close.  Return: 0, or a negative errno.
 */
static int merge_pair(int tl, int tl2, uint32_t v, int fd)
{
	int other = sw_sync_fence_create(tl2, v, NULL), merged = -1;

	if (other >= 0)
		merged = sync_file_merge(fd, other, "storm");
	sw_sync_timeline_inc(tl, 1);
	sw_sync_timeline_inc(tl2, 1);
	if (merged >= 0)
		close(merged);
	if (other >= 0)
		close(other);
	close(fd);
	return other < 0 ? other : merged < 0 ? merged : 0;
}

/*
 * -r: sleep until the @made'th fence of this thread is due (checked every
 * 16 fences: one clock read in 16 keeps the pacing cheap at any rate).
 */
static void pace(const struct storm *s, uint64_t made)
{
	uint64_t due;
	struct timespec ts;

	if (!s->rate || made & 15)
		return;
	due = s->start + made * 1000000000ull * s->threads / s->rate;
	if (now_ns() >= due)
		return;
	ts.tv_sec = (time_t)(due / 1000000000ull);
	ts.tv_nsec = (long)(due % 1000000000ull);
	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
		;
}

static void *work(void *arg)
{
	struct worker *w = arg;
	int tl = -1, tl2 = -1;

	for (uint32_t v = 1; !w->s->per_thread || w->made < w->s->per_thread; v++) {
		int fd;

		if (tl < 0 || w->s->fresh) {
			if (tl >= 0)
				close(tl);
			tl = sw_sync_timeline_open();
			v = 1;
			if (tl < 0) {
				w->error = tl;
				return NULL;
			}
		}
		fd = sw_sync_fence_create(tl, v, NULL);
		if (fd < 0) {
			w->error = fd;
			break;
		}
		w->made++;
		if (w->s->keep)		/* closed by the kill, signalled by the timeline's close */
			continue;
		if (w->s->merge) {
			if (tl2 < 0)
				tl2 = sw_sync_timeline_open();
			w->error = tl2 < 0 ? tl2 : merge_pair(tl, tl2, v, fd);
			if (w->error)
				break;
			w->made++;	/* the second timeline's */
		} else {
			sw_sync_timeline_inc(tl, 1);
			close(fd);
		}
		if (w->s->deadline && (w->made & 255) == 0 && now_ns() >= w->s->deadline)
			break;
		pace(w->s, w->made);
	}
	if (tl2 >= 0)
		close(tl2);
	if (tl >= 0 && !w->s->keep)
		close(tl);
	return NULL;
}

static int parse(struct storm *s, int argc, char **argv)
{
	int opt;

	s->threads = (unsigned int)sysconf(_SC_NPROCESSORS_ONLN);
	s->per_thread = 100000;
	while ((opt = getopt(argc, argv, "t:n:d:r:fkmh")) != -1) {
		if (opt == 'f' || opt == 'k' || opt == 'm') {
			s->fresh |= opt == 'f';
			s->keep |= opt == 'k';
			s->merge |= opt == 'm';
			continue;
		}
		if ((opt == 't' && (parse_uint(optarg, 64, &s->threads) || !s->threads)) ||
		    (opt == 'n' && parse_uint(optarg, 1u << 30, &s->per_thread)) ||
		    (opt == 'd' && parse_uint(optarg, 3600, &s->seconds)) ||
		    (opt == 'r' && (parse_uint(optarg, 100000000, &s->rate) || !s->rate)) ||
		    opt == '?' || opt == 'h') {
			fprintf(stderr, "usage: fence-storm [-t THREADS 1-64] [-n FENCES_PER_THREAD] [-d SECONDS] [-r RATE] [-f] [-k] [-m]\n");
			return -1;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "fence-storm: unexpected argument '%s'\n", argv[optind]);
		return -1;
	}
	if (s->keep && (s->seconds || s->fresh)) {
		fprintf(stderr, "fence-storm: -k keeps a count of fences (-n) on one timeline a thread: not with -d or -f\n");
		return -1;
	}
	if (s->merge && (s->keep || s->fresh)) {
		fprintf(stderr, "fence-storm: -m merges pairs of fences as they signal: not with -k or -f\n");
		return -1;
	}
	if (s->seconds)
		s->per_thread = 0;	/* -d: run for the time, however many */
	return 0;
}

/* -k: room for every kept sync_file and the timelines (root may raise the hard limit). */
static int raise_fd_limit(const struct storm *s)
{
	rlim_t need = (rlim_t)s->threads * (s->per_thread + 1) + 64;
	struct rlimit rl;

	if (getrlimit(RLIMIT_NOFILE, &rl))
		return -1;
	if (rl.rlim_cur >= need)
		return 0;
	rl.rlim_cur = need;
	if (rl.rlim_max < need)
		rl.rlim_max = need;
	return setrlimit(RLIMIT_NOFILE, &rl);
}

int main(int argc, char **argv)
{
	struct worker w[64] = { 0 };
	struct storm s = { 0 };
	uint64_t start, made = 0, ns;
	int err = 0;

	if (parse(&s, argc, argv))
		return 2;
	if (s.keep && raise_fd_limit(&s)) {
		fprintf(stderr, "fence-storm: -k: cannot raise RLIMIT_NOFILE for %u fences: %s\n",
			s.threads * s.per_thread, strerror(errno));
		return 1;
	}
	start = now_ns();
	s.start = start;
	if (s.seconds)
		s.deadline = start + s.seconds * 1000000000ull;
	for (unsigned int i = 0; i < s.threads; i++) {
		w[i].s = &s;
		pthread_create(&w[i].thread, NULL, work, &w[i]);
	}
	for (unsigned int i = 0; i < s.threads; i++) {
		pthread_join(w[i].thread, NULL);
		made += w[i].made;
		err = err ? err : w[i].error;
	}
	ns = now_ns() - start;
	printf("fences=%" PRIu64 " threads=%u seconds=%.3f fences_per_s=%.0f ns_per_fence=%.0f ns=%" PRIu64 "\n",
	       made, s.threads, ns / 1e9, made / (ns / 1e9), made ? (double)ns * s.threads / made : 0.0, ns);
	if (err)
		fprintf(stderr, "fence-storm: %s\n", strerror(-err));
	if (s.keep && !err) {
		printf("keeping %" PRIu64 " fences unsignalled until killed\n", made);
		fflush(stdout);
		for (;;)
			pause();
	}
	return err ? 1 : 0;
}
