// SPDX-License-Identifier: GPL-2.0
/*
 * export-tables.c - `fence-trace export --tables DIR FILE...`: each
 * capture read in a process of its own (export-capture.c), so that a
 * damaged file, or one that runs the reader out of memory, costs only its
 * own row, in the failed table; --jobs of them at a time; a progress bar
 * on a terminal, and one line per capture that failed.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "export-tables.h"
#include "fence-trace.h"
#include "keymap.h"
#include "version.h"

/* The run a file's rows go under: --label run=, else its path less ".dat". */
static void run_name(const struct export_tables *x, const char *path, char *buf, size_t len)
{
	const char *given = export_label(x->labels, x->n_labels, "run");
	char base[4096];
	size_t n = strlen(path);

	if (given) {
		tables_partition_value(given, buf, len);
		return;
	}
	while (n > 2 && path[0] == '.' && path[1] == '/')
		path += 2, n -= 2;	/* "./x.dat" and "x.dat" are one run */
	if (n > 4 && !strcmp(path + n - 4, ".dat"))
		n -= 4;
	snprintf(base, sizeof(base), "%.*s", (int)n, path);
	tables_partition_value(base, buf, len);
}

struct pool {
	const struct export_tables *x;
	char (*runs)[256];
	pid_t *pids;
	int next, running, done, failed;
	int bar;			/* stderr is a terminal */
};

static void progress(const struct pool *p)
{
	int width = 30, filled = p->done * width / p->x->n_files;

	if (!p->bar)
		return;
	fprintf(stderr, "\rexport: [%.*s%*s] %d/%d captures", filled,
		"##############################", width - filled, "", p->done, p->x->n_files);
	if (p->failed)
		fprintf(stderr, ", %d failed", p->failed);
	fflush(stderr);
}

static uint64_t fnv64(const char *s)
{
	uint64_t h = 1469598103934665603ull;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ull;
	return h;
}

/*
 * Every file's run, made unique within the call: a second file that would
 * land on the same run (two paths made alike by the safe characters) gets
 * "-2", "-3", ... rather than replacing the first one's rows.
 */
static int name_runs(struct pool *p)
{
	struct keymap seen = { 0 };
	int ret = 0;

	for (int i = 0; i < p->x->n_files && !ret; i++) {
		char base[256];
		uint32_t v;

		run_name(p->x, p->x->files[i], base, sizeof(base));
		snprintf(p->runs[i], sizeof(p->runs[i]), "%s", base);
		for (int k = 2; keymap_get(&seen, fnv64(p->runs[i]), &v); k++)
			snprintf(p->runs[i], sizeof(p->runs[i]), "%.240s-%d", base, k);
		ret = keymap_put(&seen, fnv64(p->runs[i]), (uint32_t)i);
	}
	keymap_free(&seen);
	return ret;
}

static int start_one(struct pool *p)
{
	int i = p->next++;
	pid_t pid;

	fflush(stderr);
	pid = fork();
	if (pid == 0)
		_exit(export_capture(p->x, p->x->files[i], p->runs[i]));
	if (pid < 0) {
		fprintf(stderr, "fence-trace export: cannot start a process: %s\n", strerror(errno));
		return -1;
	}
	p->pids[i] = pid;
	p->running++;
	return 0;
}

/* A child that died without its row: the parent writes it. */
static void died(struct pool *p, int i, int status)
{
	char why[128], err[512], host[256];
	struct tables_meta meta = { .run = p->runs[i], .file = p->x->files[i],
				    .failed_host = export_failed_host(p->x, host, sizeof(host)),
				    .exported_by = fence_trace_version() };

	snprintf(why, sizeof(why), "the reader died (%s %d)",
		 WIFSIGNALED(status) ? "signal" : "exit status",
		 WIFSIGNALED(status) ? WTERMSIG(status) : WEXITSTATUS(status));
	fprintf(stderr, "%sfence-trace export: %s: %s\n", p->bar ? "\r\033[K" : "", p->x->files[i], why);
	if (tables_write_failed(p->x->dir, &meta, why, err, sizeof(err)))
		fprintf(stderr, "fence-trace export: %s\n", err);
}

static void reap_one(struct pool *p)
{
	int status, i;
	pid_t pid;

	do
		pid = wait(&status);
	while (pid < 0 && errno == EINTR);
	if (pid < 0) {	/* none left to wait for (ECHILD): count them, not spin */
		fprintf(stderr, "fence-trace export: %d reading processes ended unseen: %s\n", p->running,
			strerror(errno));
		p->done += p->running;
		p->failed += p->running;
		p->running = 0;
		return;
	}
	for (i = 0; i < p->x->n_files && p->pids[i] != pid; i++)
		;
	p->running--;
	p->done++;
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
		p->failed++;
	if (i < p->x->n_files && (!WIFEXITED(status) ||
				  (WEXITSTATUS(status) != 0 && WEXITSTATUS(status) != EXPORT_FAILED_ROW &&
				   WEXITSTATUS(status) != 1)))
		died(p, i, status);
	progress(p);
}

/**
 * export_tables_run() - every file of @x, --jobs at a time
 *
 * Return: 0 when all were exported, 1 when any failed (each said, and a row
 * of DIR/failed when it could be written).
 */
int export_tables_run(const struct export_tables *x)
{
	struct pool p = { .x = x, .bar = isatty(STDERR_FILENO) };
	char why[512];
	int ok = 1;

	signal(SIGCHLD, SIG_DFL);	/* inherited SIG_IGN would reap the children unseen */
	if (tables_make_dir(x->dir, why, sizeof(why))) {
		fprintf(stderr, "fence-trace export: %s\n", why);
		return 1;
	}
	p.runs = calloc((size_t)x->n_files, sizeof(*p.runs));
	p.pids = calloc((size_t)x->n_files, sizeof(*p.pids));
	if (!p.runs || !p.pids || name_runs(&p)) {
		fprintf(stderr, "fence-trace export: out of memory\n");
		ok = 0;
	}
	while (ok && (p.next < x->n_files || p.running)) {
		while (ok && p.running < x->jobs && p.next < x->n_files)
			ok = start_one(&p) == 0;
		if (p.running)
			reap_one(&p);
	}
	while (p.running)
		reap_one(&p);
	if (p.bar)
		fputc('\n', stderr);
	fprintf(stderr, "fence-trace export: %d of %d captures exported to %s%s\n",
		p.done - p.failed, x->n_files, x->dir, p.failed ? " (see its failed table)" : "");
	free(p.runs);
	free(p.pids);
	return ok && !p.failed ? 0 : 1;
}
