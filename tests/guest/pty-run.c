// SPDX-License-Identifier: GPL-2.0
/*
 * pty-run - run a command on a pseudo-terminal, type keys into it, and
 * wait for it to exit: how the guest tests drive `fence-trace top`'s
 * terminal mode, where 'q' must quit, without a human at a terminal.
 *
 *   pty-run [--wait TEXT] [--keys KEYS] [--timeout S] -- COMMAND [ARG]...
 *
 * Copies everything COMMAND writes to stdout; once TEXT has appeared (or at
 * once without --wait), types KEYS.  Exit status: COMMAND's, 124 when it has
 * not exited within S seconds (default 10; it is then killed), 2 on usage.
 */
#include <errno.h>
#include <poll.h>
#include <pty.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

struct opts {
	const char *wait_for, *keys;
	int timeout_s;
	char **argv;
};

static int usage(void)
{
	fprintf(stderr, "usage: pty-run [--wait TEXT] [--keys KEYS] [--timeout S] -- COMMAND [ARG]...\n");
	return 2;
}

static int parse(int argc, char **argv, struct opts *o)
{
	*o = (struct opts){ .timeout_s = 10 };
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--") == 0 && i + 1 < argc) {
			o->argv = argv + i + 1;
			return 0;
		}
		if (i + 1 >= argc)
			return -1;
		if (strcmp(argv[i], "--wait") == 0)
			o->wait_for = argv[++i];
		else if (strcmp(argv[i], "--keys") == 0)
			o->keys = argv[++i];
		else if (strcmp(argv[i], "--timeout") == 0)
			o->timeout_s = atoi(argv[++i]);
		else
			return -1;
	}
	return -1;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Copy the child's output until it exits or time runs out; type the keys. */
static int drive(int master, pid_t pid, const struct opts *o)
{
	double end = now_s() + o->timeout_s;
	char seen[8192] = "", buf[1024];
	int typed = !o->keys, status;
	size_t len = 0;

	while (now_s() < end) {
		struct pollfd p = { .fd = master, .events = POLLIN };
		ssize_t n = 0;

		if (poll(&p, 1, 100) > 0)
			n = read(master, buf, sizeof(buf));
		if (n > 0) {
			fwrite(buf, 1, (size_t)n, stdout);
			if (len + (size_t)n < sizeof(seen) - 1) {
				memcpy(seen + len, buf, (size_t)n);
				len += (size_t)n;
				seen[len] = '\0';
			}
		}
		if (!typed && (!o->wait_for || strstr(seen, o->wait_for))) {
			typed = write(master, o->keys, strlen(o->keys)) == (ssize_t)strlen(o->keys);
			if (!typed)
				return 1;
		}
		if (waitpid(pid, &status, WNOHANG) == pid)
			return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
	}
	kill(pid, SIGKILL);
	waitpid(pid, &status, 0);
	fprintf(stderr, "pty-run: %s did not exit within %d s\n", o->argv[0], o->timeout_s);
	return 124;
}

int main(int argc, char **argv)
{
	struct opts o;
	int master;
	pid_t pid;

	if (parse(argc, argv, &o) || o.timeout_s <= 0)
		return usage();
	pid = forkpty(&master, NULL, NULL, NULL);
	if (pid < 0) {
		fprintf(stderr, "pty-run: forkpty: %s\n", strerror(errno));
		return 1;
	}
	if (pid == 0) {
		execvp(o.argv[0], o.argv);
		fprintf(stderr, "pty-run: %s: %s\n", o.argv[0], strerror(errno));
		_exit(127);
	}
	return drive(master, pid, &o);
}
