// SPDX-License-Identifier: GPL-2.0
/*
 * tap.c - fork-per-case TAP runner for the guest tests (see tap.h).
 */
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "fd-leak.h"
#include "tap.h"

/* Shared with the forked child so it can hand its skip reason back. */
static char *skip_reason;

void tap_diag(const char *fmt, ...)
{
	va_list ap;

	printf("# ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
}

int tap_skip(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(skip_reason, 256, fmt, ap);
	va_end(ap);
	return TAP_SKIP;
}

int tap_check(int ok, const char *file, int line, const char *fmt, ...)
{
	va_list ap;

	if (ok)
		return 1;
	printf("# FAIL %s:%d: ", file, line);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
	return 0;
}

/*
 * In the child: run the case, and fail it when it did not fail by itself
 * but left more fds open than it found (they would be closed by the
 * child's exit, hiding the leak from everything but this count).
 */
static int run_counting_fds(const struct tap_case *c)
{
	static struct fd_snapshot before;
	int r;

	if (fd_snapshot_take(&before))
		return c->run();
	r = c->run();
	if (r != TAP_FAIL && fd_snapshot_report_growth(&before, c->name))
		return TAP_FAIL;
	return r;
}

/* Run one case in a child; TAP_FAIL on crash or when its deadline passes. */
static int run_case(const struct tap_case *c)
{
	unsigned int waited_ms = 0, limit_ms = (c->timeout_s ? c->timeout_s : 60) * 1000;
	int status;
	pid_t pid;

	fflush(stdout);
	pid = fork();
	if (pid < 0)
		return TAP_FAIL;
	if (pid == 0)
		_exit(run_counting_fds(c));
	while (waitpid(pid, &status, WNOHANG) == 0) {
		if (waited_ms >= limit_ms) {
			kill(pid, SIGKILL);
			waitpid(pid, &status, 0);
			tap_diag("%s: timed out after %u s", c->name, limit_ms / 1000);
			return TAP_FAIL;
		}
		usleep(10000);
		waited_ms += 10;
	}
	if (WIFSIGNALED(status)) {
		tap_diag("%s: killed by signal %d", c->name, WTERMSIG(status));
		return TAP_FAIL;
	}
	return WEXITSTATUS(status);
}

static int selected(const struct tap_case *c, const char *only)
{
	return only ? strcmp(only, c->name) == 0 : !c->separate;
}

/*
 * TAP_SKIP="NAME=REASON": the one case a caller knows cannot pass here
 * (a kernel bug outside the series, say), skipped and saying why.
 */
static int skipped_by_env(const char *name)
{
	const char *e = getenv("TAP_SKIP");
	size_t n = strlen(name);

	if (!e || strncmp(e, name, n) != 0 || e[n] != '=')
		return 0;
	snprintf(skip_reason, 256, "%s", e + n + 1);
	return 1;
}

/**
 * tap_main() - run the cases: all but the separate ones, or --only NAME
 *
 * Return: 0 when no case failed, 1 otherwise, 2 on a usage error.
 */
int tap_main(const struct tap_case *cases, unsigned int n, int argc, char **argv)
{
	const char *only = NULL;
	unsigned int planned = 0, num = 0, failed = 0;

	if (argc == 2 && strcmp(argv[1], "--list") == 0) {
		for (unsigned int i = 0; i < n; i++)
			printf("%s%s\n", cases[i].name, cases[i].separate ? " (separate)" : "");
		return 0;
	}
	if (argc == 3 && strcmp(argv[1], "--only") == 0)
		only = argv[2];
	else if (argc != 1) {
		fprintf(stderr, "usage: %s [--list | --only NAME]\n", argv[0]);
		return 2;
	}
	skip_reason = mmap(NULL, 256, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (skip_reason == MAP_FAILED)
		return 1;
	for (unsigned int i = 0; i < n; i++)
		planned += selected(&cases[i], only);
	if (!planned) {
		fprintf(stderr, "%s: no test named '%s'\n", argv[0], only);
		return 2;
	}
	printf("1..%u\n", planned);
	for (unsigned int i = 0; i < n; i++) {
		int r;

		if (!selected(&cases[i], only))
			continue;
		skip_reason[0] = '\0';
		r = skipped_by_env(cases[i].name) ? TAP_SKIP : run_case(&cases[i]);
		num++;
		if (r == TAP_SKIP)
			printf("ok %u - %s # SKIP %s\n", num, cases[i].name, skip_reason);
		else if (r == TAP_PASS)
			printf("ok %u - %s\n", num, cases[i].name);
		else {
			printf("not ok %u - %s\n", num, cases[i].name);
			failed++;
		}
		fflush(stdout);
	}
	return failed ? 1 : 0;
}
