// SPDX-License-Identifier: GPL-2.0
/*
 * tracedat-fuzz.c - damage a valid trace.dat at random, many times, and
 * check that the reader only ever fails cleanly.
 *
 *   tracedat-fuzz [-s SEED] [-n RUNS] [-o DIR]
 *
 * Builds a trace.dat with the test trace builder (every section filled:
 * formats, kallsyms, printk formats, cmdlines, options, several pages with
 * a gap and a time extend), then per run changes 1 to 8 bytes - bit flips
 * or printable characters, three runs in four inside the header, where
 * libtraceevent parses text - and opens and walks the result in a child
 * process.  A child killed by a signal, or still running after 10 s, is a
 * failure: its input is kept in DIR (default /tmp) as
 * tracedat-fuzz-SEED-RUN.dat.  Runs from the repo root (fixture formats).
 * Exit status 1 when any run failed.  Deterministic for a given SEED.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <traceevent/event-parse.h>

#include "fixture-formats.h"
#include "trace-builder.h"
#include "tracedat.h"

struct fuzz {
	unsigned char *good, *copy;
	size_t len, header;		/* header: bytes before the CPU data */
	unsigned int seed;
	const char *dir;
	char path[256];
};

static unsigned int next_rand(unsigned int *seed)
{
	*seed = *seed * 1103515245u + 12345u;
	return *seed >> 8;
}

static int build_seed(const char *path)
{
	struct trace_builder *tb = tb_new(2, TB_FIXTURES);
	unsigned int i;
	int ret = -1;

	if (!tb)
		return -1;
	tb_set_options(tb, "local global [mono] boot\n", "Linux 6.1 fuzz", "1 init\n42 kworker/0:1\n");
	tb_set_symbols(tb, "ffffffff81000000 T _stext\nffffffff81001000 t dma_fence_init\t[dmabuf]\n",
		       "0xffffffff82000000 : \"fence %d\\n\"\n");
	for (i = 0; i < 300; i++)
		if (tb_fence(tb, i % 2, 100 + i * 1000ull, i % 3 ? "dma_fence_init" : "dma_fence_signaled",
			     "sw_sync", "producer-A", 1, i))
			goto out;
	if (tb_missed(tb, 0, 3) || tb_force_extend(tb, 0) ||
	    tb_vblank(tb, 0, 1ull << 32, 0, 1, 60, 1) ||
	    tb_vblank_delivered(tb, 1, 1ull << 33, 0x1234, 0, 1))
		goto out;
	ret = tb_write(tb, path);
out:
	tb_free(tb);
	return ret;
}

static int load(struct fuzz *f)
{
	FILE *in = fopen(f->path, "rb");
	long n;
	const unsigned char *fly;

	if (!in)
		return -1;
	fseek(in, 0, SEEK_END);
	n = ftell(in);
	rewind(in);
	f->good = malloc(n);
	f->copy = malloc(n);
	if (n <= 0 || !f->good || !f->copy || fread(f->good, 1, n, in) != (size_t)n) {
		fclose(in);
		return -1;
	}
	fclose(in);
	f->len = (size_t)n;
	fly = memmem(f->good, f->len, "flyrecord", 10);
	f->header = fly ? (size_t)(fly - f->good) : f->len;
	return 0;
}

static int count(struct tep_record *rec, void *ctx)
{
	(void)rec;
	++*(unsigned long *)ctx;
	return 0;
}

/* The child: open and walk; only a signal or a hang is a failure. */
static void child(const char *path)
{
	struct tracedat *td;
	unsigned long n = 0;
	char err[256];

	alarm(10);
	tep_set_loglevel(TEP_LOG_NONE);
	td = tracedat_open(path, err, sizeof(err));
	if (td) {
		tracedat_iterate(td, count, &n);
		tracedat_close(td);
	}
	_exit(0);
}

static void damage(struct fuzz *f, unsigned int run)
{
	unsigned int k, r, edits = 1 + run % 8;
	size_t span = run % 4 ? f->header : f->len, at;

	memcpy(f->copy, f->good, f->len);
	for (k = 0; k < edits; k++) {
		r = next_rand(&f->seed);
		at = r % span;
		if (run % 3)
			f->copy[at] = (unsigned char)(0x20 + next_rand(&f->seed) % 95);
		else
			f->copy[at] ^= (unsigned char)(1u << (r % 8));
	}
}

static int write_file(const char *path, const void *p, size_t n)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	int ok = fd >= 0 && write(fd, p, n) == (ssize_t)n;

	if (fd >= 0)
		close(fd);
	return ok ? 0 : -1;
}

/* One run: 0 if the reader coped, 1 if it crashed or hung. */
static int run_once(struct fuzz *f, unsigned int run, unsigned int seed0)
{
	char keep[300];
	pid_t pid;
	int status;

	damage(f, run);
	if (write_file(f->path, f->copy, f->len))
		return 1;
	pid = fork();
	if (pid == 0)
		child(f->path);
	if (pid < 0 || waitpid(pid, &status, 0) < 0)
		return 1;
	if (!WIFSIGNALED(status))
		return 0;
	snprintf(keep, sizeof(keep), "%s/tracedat-fuzz-%u-%u.dat", f->dir, seed0, run);
	write_file(keep, f->copy, f->len);
	printf("run %u: %s; input kept as %s\n", run,
	       WTERMSIG(status) == SIGALRM ? "hung" : strsignal(WTERMSIG(status)), keep);
	return 1;
}

int main(int argc, char **argv)
{
	struct fuzz f = { .seed = 1, .dir = "/tmp" };
	unsigned int runs = 1000, run, seed0, failed = 0;
	int opt;

	while ((opt = getopt(argc, argv, "s:n:o:")) != -1) {
		if (opt == 's')
			f.seed = (unsigned int)strtoul(optarg, NULL, 10);
		else if (opt == 'n')
			runs = (unsigned int)strtoul(optarg, NULL, 10);
		else if (opt == 'o')
			f.dir = optarg;
		else
			return 2;
	}
	seed0 = f.seed;
	snprintf(f.path, sizeof(f.path), "%s/tracedat-fuzz-%d.dat", f.dir, (int)getpid());
	if (build_seed(f.path) || load(&f)) {
		fprintf(stderr, "cannot build the seed trace (run from the repo root)\n");
		return 2;
	}
	for (run = 0; run < runs; run++)
		failed += run_once(&f, run, seed0);
	unlink(f.path);
	printf("%u runs, seed %u: %u crashed or hung\n", runs, seed0, failed);
	free(f.good);
	free(f.copy);
	return failed ? 1 : 0;
}
