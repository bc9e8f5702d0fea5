// SPDX-License-Identifier: GPL-2.0
/*
 * cmd-record.c - `fence-trace record`: fence and display events from a
 * private tracefs instance into a trace.dat (parse into a context, run).
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <tracefs.h>

#include "fence-trace.h"
#include "label-arg.h"
#include "live-reader.h"
#include "parse-num.h"
#include "record-bpf.h"
#include "record-capture.h"

/* With a COMMAND, record's own statuses: those of time(1) and timeout(1). */
#define EXIT_RECORD_FAILED 125
#define EXIT_CANNOT_EXEC 126
#define EXIT_NOT_FOUND 127

static volatile sig_atomic_t stop_signal;

static void on_stop(int sig)
{
	stop_signal = sig;
}

/*
 * --sched: the scheduler's two events the frames analysis reads, as two -e
 * (they are in the stock kernel's sched system, cheap next to sched:*).
 */
static int add_sched(struct capture *c)
{
	if (c->sched)
		return 0;
	if (c->n_extra + 2 > CAPTURE_MAX_EXTRA) {
		usage_error("record", "--sched: too many events (at most %d with -e)", CAPTURE_MAX_EXTRA);
		return -1;
	}
	c->sched = 1;
	c->extra[c->n_extra++] = "sched:sched_wakeup";
	c->extra[c->n_extra++] = "sched:sched_switch";
	return 0;
}

/* Is @word one of @words (separated by single spaces)?  Never two of them. */
static int word_in(const char *words, const char *word)
{
	size_t n = strlen(word);

	if (strchr(word, ' '))
		return 0;
	for (const char *p = words; n && (p = strstr(p, word)); p += n)
		if ((p == words || p[-1] == ' ') && (!p[n] || p[n] == ' '))
			return 1;
	return 0;
}

/* -C CLOCK: one of RECORD_CLOCKS; -1 (said), else 0 */
static int set_clock(struct capture *c, const char *clock)
{
	if (!word_in(RECORD_CLOCKS, clock)) {
		usage_error("record", "-C: '%s' is not a trace clock in nanoseconds (%s)", clock, RECORD_CLOCKS);
		return -1;
	}
	c->clock = clock;
	return 0;
}

/* Options that do not go together: -1 (said), else 0. */
static int options_clash(const struct capture *c)
{
	if (c->use_bpf && c->sched) {
		usage_error("record", "--sched records the scheduler's events through tracefs: not with --bpf");
		return -1;
	}
	if (c->use_bpf && c->n_extra) {
		usage_error("record", "--bpf records the fence and vblank events only: no -e");
		return -1;
	}
	if (c->use_bpf && strcmp(c->clock, LIVE_READER_CLOCK)) {
		usage_error("record", "-C %s: --bpf stamps its events with BPF's clock, which is " LIVE_READER_CLOCK,
			    c->clock);
		return -1;
	}
	if (c->raw_tp && !c->use_bpf) {
		usage_error("record", "--raw-tp picks the flavour of the BPF programs: only with --bpf");
		return -1;
	}
	return 0;
}

/* One option of parse_args(): 0, 1 after --help, -1 on a usage error (said). */
static int take_option(struct capture *c, int opt, char **argv)
{
	switch (opt) {
	case 'o': c->path = optarg; break;
	case 'e':
		if (c->n_extra >= CAPTURE_MAX_EXTRA || !strchr(optarg, ':')) {
			usage_error("record", "-e wants SYSTEM:EVENT or SYSTEM:* (at most %d), got '%s'",
				    CAPTURE_MAX_EXTRA, optarg);
			return -1;
		}
		c->extra[c->n_extra++] = optarg;
		break;
	case 'b':
		if (parse_uint(optarg, 1u << 20, &c->buffer_kb) || c->buffer_kb < 4) {
			usage_error("record", "-b: '%s' is not a buffer size from 4 to 1048576 KB", optarg);
			return -1;
		}
		c->buffer_given = 1;
		break;
	case 'd':
		if (parse_uint(optarg, 86400, &c->duration_s) || !c->duration_s) {
			usage_error("record", "-d: '%s' is not a number of seconds from 1 to 86400", optarg);
			return -1;
		}
		break;
	case 'C':
		if (set_clock(c, optarg))
			return -1;
		break;
	case 'S':
		if (add_sched(c))
			return -1;
		break;
	case 'B': c->use_bpf = 1; break;
	case 'l':
		if (label_arg("record", optarg, c->labels, &c->n_labels))
			return -1;
		break;
	case 'r': c->raw_tp = 1; break;
	case 'h': print_usage("record"); return 1;
	default: return usage_bad_option("record", opt, argv);
	}
	return 0;
}

/* Return: 0 to run, 1 after --help, -1 on a usage error (already said). */
static int parse_args(struct capture *c, int argc, char **argv)
{
	struct cmd_getopt g;
	int opt, taken;

	c->path = "trace.dat";
	c->buffer_kb = 4096;
	c->clock = LIVE_READER_CLOCK;
	/* the keys of record_options in cli/usage.c */
	cmd_getopt_start(&g, "record");
	while ((opt = getopt_long(argc, argv, g.optstring, g.longs, NULL)) != -1)
		if ((taken = take_option(c, opt, argv)))
			return taken;
	if (options_clash(c))
		return -1;
	if (optind < argc && strcmp(argv[optind - 1], "--") != 0 && argv[optind][0] == '-') {
		usage_error("record", "unknown option '%s'", argv[optind]);
		return -1;
	}
	c->command = optind < argc ? argv + optind : NULL;
	return 0;
}

static pid_t start_command(char **argv, int *exec_pipe)
{
	sigset_t old, stop_set;
	int fds[2];
	pid_t pid;

	if (pipe2(fds, O_CLOEXEC))
		return -1;
	/*
	 * Until exec the child has our on_stop(): a stop signal we forward in
	 * that window would be swallowed and COMMAND run on.  So the signals
	 * wait, blocked, until the child has its defaults back.
	 */
	sigemptyset(&stop_set);
	sigaddset(&stop_set, SIGINT);
	sigaddset(&stop_set, SIGTERM);
	sigaddset(&stop_set, SIGHUP);
	sigprocmask(SIG_BLOCK, &stop_set, &old);
	pid = fork();
	if (pid == 0) {
		int e;

		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		signal(SIGHUP, SIG_DFL);
		sigprocmask(SIG_SETMASK, &old, NULL);
		close(fds[0]);
		execvp(argv[0], argv);
		e = errno;
		if (write(fds[1], &e, sizeof(e)) < 0)
			_exit(127);
		_exit(127);
	}
	sigprocmask(SIG_SETMASK, &old, NULL);
	close(fds[1]);
	if (pid < 0)
		close(fds[0]);
	*exec_pipe = fds[0];
	return pid;
}

/* 0 when the command started, else its exec errno (the child has exited). */
static int exec_result(int fd)
{
	ssize_t n;
	int e = 0;

	do	/* a stop signal now must not pass for a successful exec */
		n = read(fd, &e, sizeof(e));
	while (n < 0 && errno == EINTR);
	if (n != sizeof(e))
		e = 0;
	close(fd);
	return e;
}

static int should_stop(struct capture *c, pid_t child, int *status, time_t end)
{
	if (stop_signal)
		return 1;
	if (child > 0 && waitpid(child, status, WNOHANG) == child)
		return 1;
	return end && time(NULL) >= end;
}

/*
 * Recording stopped before COMMAND exited (a signal, -d, a full disk):
 * COMMAND goes too, as with perf record, by the signal that stopped us or
 * SIGTERM.  Return: 1 when we ended it, 0 when it had exited by itself.
 * A COMMAND killed by the very stop signal we got was ended with us too:
 * Ctrl-C on a terminal signals both at once, and which of us sees it
 * first must not change record's exit status.
 */
static int end_command(pid_t child, int *status)
{
	if (waitpid(child, status, WNOHANG) != 0)
		return stop_signal && WIFSIGNALED(*status) && WTERMSIG(*status) == stop_signal;
	kill(child, stop_signal ? (int)stop_signal : SIGTERM);
	waitpid(child, status, 0);
	return 1;
}

/* Say how COMMAND ended, in one line when that is news. */
static void say_status(struct capture *c, int status, int ended)
{
	if (ended)
		fprintf(stderr, "fence-trace record: '%s' stopped by signal %d with the recording\n",
			c->command[0], stop_signal ? (int)stop_signal : SIGTERM);
	else if (WIFSIGNALED(status))
		fprintf(stderr, "fence-trace record: '%s' was killed by signal %d (%s)\n",
			c->command[0], WTERMSIG(status), strsignal(WTERMSIG(status)));
	else if (WIFEXITED(status) && WEXITSTATUS(status))
		fprintf(stderr, "fence-trace record: '%s' exited with status %d\n", c->command[0],
			WEXITSTATUS(status));
}

/*
 * record's own runtime failure: 1, as every fence-trace command; with a
 * COMMAND, 125, so that it cannot be taken for one of COMMAND's statuses
 * (which record passes through) nor for 126/127 (COMMAND could not run).
 */
static int own_failure(const struct capture *c)
{
	return c->command ? EXIT_RECORD_FAILED : 1;
}

/*
 * The exit status of a recording around COMMAND, as time(1) and timeout(1)
 * have it: COMMAND's own, 128+N when a signal N from elsewhere killed it,
 * 0 when we ended it (-d, a stop signal we passed on); 125 when the
 * capture failed, whatever COMMAND did (the failure is what to fix first).
 */
static int command_status(int status, int ended, int capture_failed)
{
	if (capture_failed)
		return EXIT_RECORD_FAILED;
	if (ended)
		return 0;
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return WIFEXITED(status) ? WEXITSTATUS(status) : EXIT_RECORD_FAILED;
}

static void teardown(struct capture *c)
{
	if (c->use_bpf)
		bpfrec_teardown(c);
	else
		capture_teardown(c);
}

/* Return: 0 and @child when it runs; else the exit status (said, torn down). */
static int launch(struct capture *c, pid_t *child)
{
	int exec_fd = -1, err;

	*child = start_command(c->command, &exec_fd);
	if (*child < 0) {
		fprintf(stderr, "fence-trace record: cannot run '%s': %s\n", c->command[0],
			strerror(errno));
		teardown(c);
		return EXIT_RECORD_FAILED;
	}
	err = exec_result(exec_fd);
	if (!err)
		return 0;
	/* The shell's statuses: 127 not found, 126 found but not runnable. */
	fprintf(stderr, "fence-trace record: cannot run '%s': %s\n", c->command[0], strerror(err));
	waitpid(*child, NULL, 0);
	teardown(c);
	return err == ENOENT ? EXIT_NOT_FOUND : EXIT_CANNOT_EXEC;
}

/* Move events into the files until COMMAND exits, -d passes or a signal comes. */
static void record_loop(struct capture *c, pid_t child, int *status)
{
	time_t end = 0, start = time(NULL), last_progress = 0;

	if (c->duration_s)
		end = start + c->duration_s;
	while (!should_stop(c, child, status, end)) {
		int more = c->use_bpf ? bpfrec_drain(c) : capture_drain(c);

		if (more < 0)
			break;
		if (time(NULL) != last_progress) {
			last_progress = time(NULL);
			if (c->use_bpf)
				bpfrec_progress(c, difftime(last_progress, start));
			else
				capture_progress(c, difftime(last_progress, start));
		}
		if (!more)	/* behind the kernel: no sleep */
			usleep(50000);
	}
}

static int run(struct capture *c)
{
	struct sigaction sa = { .sa_handler = on_stop };
	int status = 0, ended, failed, marked;
	pid_t child = -1;

	/*
	 * Before the set-up, which takes a while: a signal meanwhile stops us
	 * once it is done (below), instead of killing us with the tracefs
	 * instance made and its events on.
	 */
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	c->cpus = (int)sysconf(_SC_NPROCESSORS_CONF);
	failed = c->use_bpf ? bpfrec_setup(c) : capture_setup(c);
	marked = !failed && (c->use_bpf ? bpfrec_mark(c) : capture_mark(c)) == 0;
	if (failed || !marked || stop_signal) {
		if (marked)
			fprintf(stderr, "fence-trace record: stopped by signal %d before recording\n",
				(int)stop_signal);
		if (c->use_bpf)
			bpfrec_teardown(c);
		else if (!failed)	/* a failed capture_setup() cleaned up */
			capture_teardown(c);
		return own_failure(c);
	}
	if (c->command && (failed = launch(c, &child)))
		return failed;
	record_loop(c, child, &status);
	ended = child > 0 && end_command(child, &status);
	failed = c->use_bpf ? bpfrec_finish(c) : capture_finish(c);
	if (stop_signal)
		fprintf(stderr, "fence-trace record: stopped by signal %d\n", (int)stop_signal);
	if (child <= 0)
		return failed ? 1 : 0;
	say_status(c, status, ended);
	return command_status(status, ended, failed);
}

int cmd_record(int argc, char **argv)
{
	struct capture c = { 0 };
	int ret = parse_args(&c, argc, argv);

	if (ret)
		return ret > 0 ? 0 : EXIT_USAGE;
	return run(&c);
}
