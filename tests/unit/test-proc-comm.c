// SPDX-License-Identifier: GPL-2.0
/*
 * test-proc-comm.c - a task's name from /proc (lib/proc-comm.c): this
 * process's own and a child's it renamed, cut to the caller's buffer;
 * "?" and -1 for a pid with no task (0, negative, a child reaped).
 */
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "proc-comm.h"
#include "unit.h"

static void test_live_task(void **state)
{
	char buf[16], small[4];
	int pipefd[2], st;
	pid_t child;

	(void)state;
	assert_int_equal(pipe(pipefd), 0);
	child = fork();
	assert_true(child >= 0);
	if (child == 0) {
		char c;

		prctl(PR_SET_NAME, "ft-comm-child");
		close(pipefd[1]);
		_exit(read(pipefd[0], &c, 1) < 0);	/* until the parent closes it */
	}
	close(pipefd[0]);
	/* the rename may not have happened yet: ask until it has */
	for (int i = 0; i < 1000 && (proc_comm(child, buf, sizeof(buf)) || strcmp(buf, "ft-comm-child")); i++)
		usleep(1000);
	assert_string_equal(buf, "ft-comm-child");
	assert_int_equal(proc_comm(child, small, sizeof(small)), 0);
	assert_string_equal(small, "ft-");
	close(pipefd[1]);
	assert_int_equal(waitpid(child, &st, 0), child);
	assert_int_equal(proc_comm(child, buf, sizeof(buf)), -1);
	assert_string_equal(buf, "?");
}

static void test_no_task(void **state)
{
	char buf[16] = "stale";

	(void)state;
	assert_int_equal(proc_comm(0, buf, sizeof(buf)), -1);
	assert_string_equal(buf, "?");
	assert_int_equal(proc_comm(-5, buf, sizeof(buf)), -1);
	assert_string_equal(buf, "?");
}

int run_proc_comm_tests(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_live_task),
		cmocka_unit_test(test_no_task),
	};

	return cmocka_run_group_tests_name("a task's name from /proc", tests, NULL, NULL);
}
